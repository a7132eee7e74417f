package kustomize

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"sync"

	fluxfs "github.com/fluxcd/pkg/kustomize/filesys"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/openapi"

	"github.com/drydock-dev/drydock/manifest"
)

// buildInput is what build needs.
type buildInput struct {
	root, dir string
	spec      *spec
	ks        *manifest.Object
	lookup    Lookup
	strict    bool
	warn      func(string)
	file      string
}

// Owner labels kustomize-controller's resource manager sets on every
// object it applies (SetOwnerLabels), as `flux build kustomization` does.
const (
	labelName      = "kustomize.toolkit.fluxcd.io/name"
	labelNamespace = "kustomize.toolkit.fluxcd.io/namespace"
)

// build runs the controller's generate, build and postBuild steps
// (kustomization_controller.go: generate, build) on a filesystem that
// reads root from disk and keeps every write in memory.
func build(in buildInput) ([]*manifest.Object, error) {
	disk, err := fluxfs.MakeFsOnDiskSecure(in.root)
	if err != nil {
		return nil, err
	}
	fs := fluxfs.MakeFsInMemory(disk)
	kdata, kfile, err := generate(fs, in.dir, in.spec, in.warn)
	if err != nil {
		return nil, err
	}
	if err := fs.WriteFile(kfile, kdata); err != nil {
		return nil, err
	}
	custom, err := checkLocal(fs, in.root, in.dir)
	if err != nil {
		return nil, err
	}
	m, warnings, err := kustomizeBuild(fs, in.dir, custom)
	for _, w := range warnings {
		if in.warn != nil {
			in.warn(w)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("kustomize build failed: %w", err)
	}
	if err := postBuildAll(m, in); err != nil {
		return nil, err
	}
	out, err := m.AsYaml()
	if err != nil {
		return nil, fmt.Errorf("kustomize build failed: %w", err)
	}
	objs, err := manifest.Decode(in.file, out, manifest.DecodeOptions{})
	if err != nil {
		return nil, err
	}
	for _, o := range objs {
		setOwnerAndCommonMetadata(o, in.ks, in.spec)
	}
	return objs, nil
}

// postBuildAll checks each resource names its apiVersion, kind and name
// and runs postBuild substitution on it, as the controller's build does.
func postBuildAll(m resmap.ResMap, in buildInput) error {
	sub := newSubstituter(in)
	for _, res := range m.Resources() {
		if res.GetName() == "" || res.GetKind() == "" || res.GetApiVersion() == "" {
			return fmt.Errorf("failed to decode Kubernetes apiVersion, kind and name from: %v", res.String())
		}
		if in.spec.PostBuild == nil {
			continue
		}
		if err := sub.substitute(res); err != nil {
			return fmt.Errorf("post build failed for '%s/%s': %w", res.GetGvk(), res.GetName(), err)
		}
	}
	return nil
}

// setOwnerAndCommonMetadata sets the owner labels (SetOwnerLabels) and
// then spec.commonMetadata (ssa/utils SetCommonMetadata) on o, in the
// controller's order.
func setOwnerAndCommonMetadata(o *manifest.Object, ks *manifest.Object, s *spec) {
	setMeta(o, "labels", map[string]string{labelName: ks.Name(), labelNamespace: ks.Namespace()})
	if s.CommonMetadata != nil {
		setMeta(o, "labels", s.CommonMetadata.Labels)
		setMeta(o, "annotations", s.CommonMetadata.Annotations)
	}
}

// setMeta sets each entry of kv in metadata.<field> of o.
func setMeta(o *manifest.Object, field string, kv map[string]string) {
	if len(kv) == 0 {
		return
	}
	meta, _ := o.Data["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		o.Data["metadata"] = meta
	}
	m, _ := meta[field].(map[string]any)
	if m == nil {
		m = map[string]any{}
		meta[field] = m
	}
	for k, v := range kv {
		m[k] = v
	}
}

// buildMu serialises kustomize builds: kustomize's OpenAPI schema is
// global and its concurrent map use panics (kubernetes-sigs/kustomize
// issue 3659), which is why fluxcd/pkg/kustomize and helm-controller
// hold a mutex too.
var buildMu sync.Mutex

// kustomizeBuild is fluxcd/pkg/kustomize's Build (kustomize.go): no load
// restrictions (the filesystem confines reads to the source root),
// plugins disabled except the built-ins, no reordering (krusty.Options'
// zero Reorder: resources stay in accumulation order, where `kustomize
// build` sorts them by kind), a kustomize panic returned as an error.
// Flux resets kustomize's global OpenAPI schema around every build so a
// kustomization's `openapi:` schema cannot leak into the next; that
// reparses the built-in schema (30 ms) each time, so here the reset is
// done only around builds that set `openapi:` (customSchema), which
// leave the schema reset behind them: the others find the built-in
// schema, as after Flux's reset. What kustomize prints (its
// deprecation warnings go straight to os.Stderr, others to the standard
// logger) is returned as warnings instead.
func kustomizeBuild(fs filesys.FileSystem, dirPath string, customSchema bool) (m resmap.ResMap, warnings []string, err error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	warnings, err = capturePrinted(func() error {
		var err error
		m, err = runKrusty(fs, dirPath, customSchema)
		return err
	})
	return m, warnings, err
}

// runKrusty runs krusty with the controller's options.
func runKrusty(fs filesys.FileSystem, dirPath string, customSchema bool) (m resmap.ResMap, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered from kustomize build panic: %v", r)
		}
	}()
	if customSchema {
		openapi.ResetOpenAPI()
		_ = openapi.Schema()
		defer openapi.ResetOpenAPI()
	}
	k := krusty.MakeKustomizer(&krusty.Options{
		LoadRestrictions: kustypes.LoadRestrictionsNone,
		PluginConfig:     kustypes.DisabledPluginConfig(),
	})
	return k.Run(fs, dirPath)
}

// capturePrinted runs f with os.Stderr and the standard logger writing
// into a pipe and returns the lines written. Callers hold buildMu; the
// CLI's own stderr writer is the *os.File it was handed, not the
// variable, so it is unaffected.
func capturePrinted(f func() error) ([]string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, f()
	}
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(&buf, r)
		close(done)
	}()
	stderr := os.Stderr
	out, flags, prefix := log.Writer(), log.Flags(), log.Prefix()
	os.Stderr = w
	log.SetOutput(w)
	log.SetFlags(0)
	log.SetPrefix("")
	ferr := f()
	os.Stderr = stderr
	log.SetOutput(out)
	log.SetFlags(flags)
	log.SetPrefix(prefix)
	_ = w.Close()
	<-done
	_ = r.Close()
	var lines []string
	for _, l := range strings.Split(buf.String(), "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "# ")); l != "" {
			lines = append(lines, l)
		}
	}
	return lines, ferr
}
