package kustomize

// Refusing what would reach the network. kustomize clones a resource,
// base, component, generator or transformer that is a git URL (or a
// host/org/repo path that is not a local directory), fetches any file
// path that is an http(s) URL, and inflates helmCharts by running helm
// (which pulls the chart). kustomize-controller allows remote bases by
// default; drydock has no network, so every kustomization the build
// would read is checked first.

import (
	"fmt"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// vendorHint says how to make a remote reference local.
const vendorHint = "drydock never fetches: vendor it into the source directory (`kustomize localize` copies remote references into a local tree) and refer to it by relative path"

// Kustomization fields holding references the loader may fetch.
var (
	// kustomizationRefs are loaded as kustomizations or files.
	kustomizationRefs = []string{"resources", "bases", "components", "generators", "transformers", "validators"}
	// fileRefs are loaded as files only (an http URL is fetched).
	fileRefs = []string{"crds", "configurations", "patchesStrategicMerge"}
	// pathRefs are lists of objects whose path is a file.
	pathRefs = []string{"patches", "patchesJson6902", "replacements"}
	// helmFields inflate charts.
	helmFields = []string{"helmCharts", "helmChartInflationGenerator", "helmGlobals"}
)

// checkLocal walks the kustomization in dir and every local
// kustomization it references, refusing remote references and
// helmCharts with ErrRemote, and reports whether one sets `openapi:`.
func checkLocal(fs filesys.FileSystem, root, dir string) (customSchema bool, err error) {
	seen := map[string]bool{}
	var walk func(dir string) error
	walk = func(dir string) error {
		if seen[dir] {
			return nil
		}
		seen[dir] = true
		kfile, k, err := readKustomization(fs, dir)
		if err != nil || k == nil {
			return err // kustomize reports a bad file itself
		}
		where := relTo(root, kfile)
		if _, ok := k["openapi"]; ok {
			customSchema = true
		}
		for _, f := range helmFields {
			if _, ok := k[f]; ok {
				return fmt.Errorf("%s: %s: %w: Helm chart inflation is not supported in a Flux Kustomization build; render the chart with a HelmRelease instead", where, f, ErrRemote)
			}
		}
		for _, ref := range references(k) {
			if isRemote(ref.value) || (ref.kustomization && !fs.Exists(filepath.Join(dir, ref.value)) && looksLikeRepo(ref.value)) {
				return fmt.Errorf("%s: %s %q: %w: %s", where, ref.field, ref.value, ErrRemote, vendorHint)
			}
			if p := filepath.Join(dir, ref.value); ref.kustomization && fs.IsDir(p) {
				if err := walk(p); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err = walk(dir)
	return customSchema, err
}

// readKustomization reads dir's kustomization file, nil when there is
// none or it does not parse.
func readKustomization(fs filesys.FileSystem, dir string) (string, map[string]any, error) {
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		p := filepath.Join(dir, name)
		if !fs.Exists(p) || fs.IsDir(p) {
			continue
		}
		data, err := fs.ReadFile(p)
		if err != nil {
			return p, nil, err
		}
		var k map[string]any
		if yaml.Unmarshal(data, &k) != nil {
			return p, nil, nil
		}
		return p, k, nil
	}
	return "", nil, nil
}

// reference is one path-like value of a kustomization.
type reference struct {
	field, value  string
	kustomization bool // may name a kustomization directory
}

// references lists the path-like values of a kustomization.
func references(k map[string]any) []reference {
	var out []reference
	for _, f := range kustomizationRefs {
		for i, v := range strings1(k[f]) {
			out = append(out, reference{fmt.Sprintf("%s[%d]", f, i), v, true})
		}
	}
	for _, f := range fileRefs {
		for i, v := range strings1(k[f]) {
			out = append(out, reference{fmt.Sprintf("%s[%d]", f, i), v, false})
		}
	}
	for _, f := range pathRefs {
		for i, e := range list(k[f]) {
			if m, ok := e.(map[string]any); ok {
				if p, ok := m["path"].(string); ok {
					out = append(out, reference{fmt.Sprintf("%s[%d].path", f, i), p, false})
				}
			}
		}
	}
	for _, f := range []string{"configMapGenerator", "secretGenerator"} {
		for i, e := range list(k[f]) {
			m, _ := e.(map[string]any)
			for _, key := range []string{"files", "envs"} {
				for j, v := range strings1(m[key]) {
					if _, file, ok := strings.Cut(v, "="); ok && key == "files" {
						v = file
					}
					out = append(out, reference{fmt.Sprintf("%s[%d].%s[%d]", f, i, key, j), v, false})
				}
			}
			if v, ok := m["env"].(string); ok {
				out = append(out, reference{fmt.Sprintf("%s[%d].env", f, i), v, false})
			}
		}
	}
	if m, ok := k["openapi"].(map[string]any); ok {
		if p, ok := m["path"].(string); ok {
			out = append(out, reference{"openapi.path", p, false})
		}
	}
	return out
}

// isRemote reports whether a reference is a URL or a git remote.
func isRemote(v string) bool {
	if scheme, _, ok := strings.Cut(v, "://"); ok && scheme != "" && !strings.ContainsAny(scheme, " \n\t:/") {
		return true
	}
	return !isLocalRelativePath(v) && !filepath.IsAbs(v)
}

// looksLikeRepo reports whether a reference kustomize would try to
// clone when it is not a local path: host.tld/org/repo (not an inline
// YAML generator or transformer config, which has spaces or newlines).
func looksLikeRepo(v string) bool {
	host, rest, ok := strings.Cut(v, "/")
	return ok && !strings.ContainsAny(v, " \t\n") && strings.Contains(host, ".") && host != "." && host != ".." &&
		strings.Contains(strings.Trim(rest, "/"), "/")
}

// strings1 is v's string elements when v is a list.
func strings1(v any) []string {
	var out []string
	for _, e := range list(v) {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// list is v as a list.
func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// relTo is p relative to root, for messages.
func relTo(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}
