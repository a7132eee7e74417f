// Package kustomize builds a kustomization as kustomize-controller does:
// the Flux Kustomization's own fields (namespace/targetNamespace,
// namePrefix/nameSuffix, patches, images, components, buildMetadata)
// generated into the build as its generator does, then
// sigs.k8s.io/kustomize/api's krusty, then postBuild substitute and
// substituteFrom, then the owner labels and commonMetadata the
// controller sets before applying. It also runs helm-controller's
// kustomize post-renderer (PostRender).
//
// It never writes into the user's directory (the generated
// kustomization.yaml lives in an in-memory layer over the read-only
// disk) and never reaches the network: remote bases and resources and
// helmCharts are refused before the build. It is not the controller
// loop (which Kustomizations, their sources, dependsOn): package charts
// is.
package kustomize

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// Lookup returns the object of a kind ("ConfigMap", "Secret") and
// namespace/name on the cluster, nil when there is none.
type Lookup func(kind, namespace, name string) *manifest.Object

// Errors callers branch on.
var (
	// ErrPathNotFound: spec.path is not a directory of the source.
	ErrPathNotFound = errors.New("kustomization path not found")
	// ErrRemote: the kustomization names a remote base or resource, or
	// inflates a Helm chart; drydock never fetches.
	ErrRemote = errors.New("remote reference")
	// ErrSubstituteFrom: a non-optional postBuild.substituteFrom
	// ConfigMap or Secret is not on the cluster.
	ErrSubstituteFrom = errors.New("substituteFrom not found")
	// ErrNotKustomization: the object is not a Flux Kustomization.
	ErrNotKustomization = errors.New("not a kustomize.toolkit.fluxcd.io Kustomization")
)

// Options are the inputs of BuildWith.
type Options struct {
	// Root is the source's directory (the artifact root): the build
	// may read any file below it and none outside, as the controller's
	// secure filesystem allows. "" means Dir.
	Root string
	// Dir is the directory to build (Root joined with spec.path).
	Dir string
	// Kustomization is the Flux Kustomization
	// (kustomize.toolkit.fluxcd.io/v1 or v1beta2).
	Kustomization *manifest.Object
	// Lookup reads postBuild.substituteFrom; nil finds nothing.
	Lookup Lookup
	// StrictSubstitution fails on a ${VAR} without a value or default,
	// as kustomize-controller's StrictPostBuildSubstitutions feature
	// gate does (off by default there and here).
	StrictSubstitution bool
	// Warn, when set, is given each warning kustomize logs (deprecated
	// fields), which the build otherwise drops.
	Warn func(string)
}

// Build builds dir (spec.path inside the source's directory) for the
// Flux Kustomization ks, reading postBuild.substituteFrom through lookup.
// The source's root, which the build may read (an overlay's ../base), is
// dir with spec.path taken off its end when dir ends with it, else dir;
// BuildWith takes it explicitly.
func Build(dir string, ks *manifest.Object, lookup Lookup) ([]*manifest.Object, error) {
	root := dir
	if ks != nil {
		if p := path.Clean("/" + filepath.ToSlash(manifest.String(ks.Data, "spec", "path"))); p != "/" {
			d := filepath.ToSlash(filepath.Clean(dir))
			if strings.HasSuffix(d, p) && len(d) > len(p) {
				root = filepath.FromSlash(strings.TrimSuffix(d, p))
			}
		}
	}
	return BuildWith(Options{Root: root, Dir: dir, Kustomization: ks, Lookup: lookup})
}

// BuildWith builds o.Dir for o.Kustomization as kustomize-controller
// does and returns the objects in kustomize's output order, each
// carrying the owner labels kustomize.toolkit.fluxcd.io/name and
// /namespace and spec.commonMetadata. The objects are decoded from the
// build's YAML under a file name naming the Kustomization and its path.
// o.Dir is only read.
func BuildWith(o Options) ([]*manifest.Object, error) {
	ks := o.Kustomization
	if err := checkKind(ks); err != nil {
		return nil, err
	}
	id := ks.Namespace() + "/" + ks.Name()
	spec, err := decodeSpec(ks)
	if err != nil {
		return nil, fmt.Errorf("kustomization %s: %w", id, err)
	}
	dir, root, err := resolveDirs(o.Root, o.Dir)
	if err != nil {
		return nil, fmt.Errorf("kustomization %s: %w", id, err)
	}
	objs, err := build(buildInput{
		root: root, dir: dir, spec: spec, ks: ks, lookup: o.Lookup, strict: o.StrictSubstitution, warn: o.Warn,
		file: fmt.Sprintf("Kustomization %s %s", id, displayPath(spec.Path)),
	})
	if err != nil {
		return nil, fmt.Errorf("kustomization %s: %w", id, err)
	}
	return objs, nil
}

// checkKind accepts kustomize.toolkit.fluxcd.io/v1 and v1beta2
// Kustomizations.
func checkKind(ks *manifest.Object) error {
	if ks == nil {
		return ErrNotKustomization
	}
	switch ks.APIVersion() {
	case "kustomize.toolkit.fluxcd.io/v1", "kustomize.toolkit.fluxcd.io/v1beta2":
		if ks.Kind() == "Kustomization" {
			return nil
		}
	}
	return fmt.Errorf("%s %s/%s: %w (want apiVersion kustomize.toolkit.fluxcd.io/v1)",
		ks.Kind(), ks.Namespace(), ks.Name(), ErrNotKustomization)
}

// resolveDirs makes dir and root absolute and checks that dir is a
// directory inside root; the controller's message for a missing path
// is "kustomization path not found".
func resolveDirs(root, dir string) (string, string, error) {
	if root == "" {
		root = dir
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", "", err
	}
	if rel, err := filepath.Rel(absRoot, absDir); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", "", fmt.Errorf("%w: %s is outside the source directory %s", ErrPathNotFound, dir, root)
	}
	fi, err := os.Stat(absDir)
	if err != nil {
		return "", "", fmt.Errorf("%w: %w", ErrPathNotFound, err)
	}
	if !fi.IsDir() {
		return "", "", fmt.Errorf("%w: %s is not a directory", ErrPathNotFound, dir)
	}
	return absDir, absRoot, nil
}

// displayPath is spec.path as the file name of the built objects says it.
func displayPath(p string) string {
	if p == "" {
		return "./"
	}
	return p
}
