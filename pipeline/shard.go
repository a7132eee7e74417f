package pipeline

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"

	chartsource "github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// karmadaPolicyKinds are the Karmada policies: written by an application,
// one places or overrides objects other applications write.
var karmadaPolicyKinds = []string{"PropagationPolicy", "ClusterPropagationPolicy", "OverridePolicy", "ClusterOverridePolicy"}

// crossApplication is why the Applications of l cannot render apart
// (Inputs.Select): what the inputs show that lets one application change
// the objects of another; "" when nothing does. It looks, conservatively
// (a mention is enough), for
//
//   - an Application, Workflow or Policy object that names a Karmada
//     policy kind (a k8s-objects component, an apply-object step writing
//     one) or uses a shared-resource policy;
//
//   - a definition among the inputs, -d or addons whose template names a
//     Karmada policy kind (the built-in definitions name none);
//
//   - a PropagationPolicy or ClusterPropagationPolicy among the inputs
//     that propagates dependencies (spec.propagateDeps, or a
//     ServiceImport selector, for which Karmada's webhook sets it): a
//     workload's ConfigMaps and Secrets may be another application's.
//
//   - an addon's Application that does so (addonCross, installed.cross);
//
//   - a file among the charts and sources (chartsource.Config: chart
//     directories and packages, repository caches, OCI layouts, Flux
//     source directories) that names a Karmada policy kind: a Helm
//     chart or a Kustomization may render one.
//
// It does not see two applications writing one object (the whole render
// refuses that as a conflict); see docs/sharding.md.
func crossApplication(l *loaded, defs []*render.Definition, addonCross string, charts chartsource.Config) string {
	if l.cross != "" {
		return l.cross
	}
	if addonCross != "" {
		return addonCross
	}
	for _, wf := range l.workflows {
		if why := crossObject(wf.Object); why != "" {
			return why
		}
	}
	for _, p := range l.policies {
		if why := crossObject(p.Object); why != "" {
			return why
		}
	}
	for _, d := range defs {
		for _, k := range karmadaPolicyKinds {
			if strings.Contains(d.Template, k) {
				return fmt.Sprintf("%s %s (%s) may write a Karmada %s, which places other applications' objects", d.Kind, d.Name, d.Source, k)
			}
		}
	}
	for _, o := range l.resources {
		if manifest.Group(o.APIVersion()) != "policy.karmada.io" || (o.Kind() != "PropagationPolicy" && o.Kind() != "ClusterPropagationPolicy") {
			continue
		}
		spec, _ := o.Data["spec"].(map[string]any)
		deps, _ := spec["propagateDeps"].(bool)
		selectors, _ := spec["resourceSelectors"].([]any)
		for _, s := range selectors {
			if m, _ := s.(map[string]any); m["kind"] == "ServiceImport" {
				deps = true
			}
		}
		if deps {
			return fmt.Sprintf("%s %s (%s) propagates dependencies, which other applications may write", o.Kind(), objectName(o), o.Pos)
		}
	}
	return chartsCross(charts)
}

// chartsCross is why a chart or source of cfg may write a Karmada policy:
// the first of its files (a package's or OCI blob's files read through
// gzip and tar, nested packages too) that names a Karmada policy kind;
// "" when none does or a file cannot be read (the render reports that).
func chartsCross(cfg chartsource.Config) string {
	var roots []string
	roots = append(roots, cfg.Charts...)
	for _, m := range []map[string]string{cfg.Sources, cfg.Repositories} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			roots = append(roots, m[k])
		}
	}
	fsys := cfg.FS
	if fsys == nil {
		fsys = osFS{}
	}
	for _, root := range roots {
		why := ""
		_ = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return nil
			case d.IsDir() && d.Name() == ".git":
				return fs.SkipDir // a source's history, not its contents
			case d.IsDir():
				return nil
			case d.Type()&fs.ModeSymlink != 0:
				if info, err := fs.Stat(fsys, p); err != nil || !info.Mode().IsRegular() {
					return nil
				}
			case !d.Type().IsRegular():
				return nil
			}
			data, err := fs.ReadFile(fsys, p)
			if err != nil {
				return nil
			}
			if k := mentionsPolicy(data, 0); k != "" {
				why = fmt.Sprintf("%s may render a Karmada %s (a chart or source names it), which places other applications' objects", p, k)
				return fs.SkipAll
			}
			return nil
		})
		if why != "" {
			return why
		}
	}
	return ""
}

// mentionsPolicy is the Karmada policy kind data names, read through gzip
// and tar (depth bounds packages in packages); "" for none.
func mentionsPolicy(data []byte, depth int) string {
	if len(data) > 2 && data[0] == 0x1f && data[1] == 0x8b && depth < 4 {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return ""
		}
		unzipped, err := io.ReadAll(zr)
		if err != nil {
			return ""
		}
		tr := tar.NewReader(bytes.NewReader(unzipped))
		for {
			h, err := tr.Next()
			if err != nil {
				break
			}
			if h.Typeflag != tar.TypeReg {
				continue
			}
			if body, err := io.ReadAll(tr); err == nil {
				if k := mentionsPolicy(body, depth+1); k != "" {
					return k
				}
			}
		}
		return mentionsPolicy(unzipped, depth+1) // not a tar: the plain bytes
	}
	for _, k := range []string{"ClusterPropagationPolicy", "ClusterOverridePolicy", "PropagationPolicy", "OverridePolicy"} { // the longest first
		if bytes.Contains(data, []byte(k)) {
			return k
		}
	}
	return ""
}

// osFS is the operating system's files by the paths given, as
// chartsource.Config reads them when its FS is nil.
type osFS struct{}

func (osFS) Open(name string) (fs.File, error) { return os.Open(name) }

// crossObject is why the Application, Workflow or Policy object o may
// change another application's objects (see crossApplication); "" when
// nothing in it says so.
func crossObject(o *manifest.Object) string {
	var why string
	var walk func(v any)
	walk = func(v any) {
		if why != "" {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			if v["type"] == "shared-resource" {
				why = fmt.Sprintf("%s %s (%s) uses a shared-resource policy: applications may share an object", o.Kind(), objectName(o), o.Pos)
				return
			}
			for _, k := range manifest.SortedKeys(v) {
				walk(v[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case string:
			for _, k := range karmadaPolicyKinds {
				if v == k {
					why = fmt.Sprintf("%s %s (%s) may write a Karmada %s, which places other applications' objects", o.Kind(), objectName(o), o.Pos, k)
					return
				}
			}
		}
	}
	walk(o.Data)
	return why
}

// objectName is o's namespace/name, or its name when it has no namespace.
func objectName(o *manifest.Object) string {
	if ns := o.Namespace(); ns != "" {
		return ns + "/" + o.Name()
	}
	return o.Name()
}
