package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/tree"
)

// locateCauses points the golden drift and validation findings of res at
// the line that set the field they are about (the property, trait,
// override policy or Karmada override rule), not only at the component.
// Recording provenance costs time, so the suite is rendered again with it
// only when there is such a finding, and then only the applications that
// wrote the objects found (k's), when that is enough (provenanceRender).
func (r *runner) locateCauses(ctx context.Context, s Suite, in pipeline.Inputs, res *SuiteResult, k *suiteSink) {
	targets := map[string]*sunk{}
	for _, f := range res.Findings {
		if f.Object != "" && ((f.Check == "golden" && f.Diff != "") || (f.Check == "validate" && f.Field != "")) {
			targets[f.Object] = nil
		}
	}
	if len(targets) == 0 {
		return
	}
	for i := range k.recs.n {
		o := k.recs.at(i)
		if _, ok := targets[o.path]; ok {
			targets[o.path] = o
		}
	}
	in.Record.Provenance, in.Record.Validate = true, nil
	objs := r.provenanceRender(ctx, in, targets)
	for i := range res.Findings {
		f := &res.Findings[i]
		o := objs[f.Object]
		if o == nil || o.Provenance == nil {
			continue
		}
		if f.Check == "golden" && f.Diff != "" {
			f.Field = r.driftField(s, f.Object, o)
		}
		if f.Field == "" {
			continue
		}
		field, err := fieldpath.Parse(f.Field)
		if err != nil {
			continue
		}
		if origin, ok := o.Provenance.Find(field); ok && origin.Pos.IsValid() {
			f.Pos = origin.Pos
			f.Message += fmt.Sprintf("; %s was set by %s", f.Field, origin.Describe())
		}
	}
}

// provenanceRender renders in (which records provenance) again and
// returns the objects by tree path. It renders only the applications
// that wrote the targets (tree path: the object as the first render gave
// it) when each was written by one application itself (not propagated by
// Karmada, not rendered from a chart, not observed) and that render gives
// every target as the first did; else, or when it fails, everything.
func (r *runner) provenanceRender(ctx context.Context, in pipeline.Inputs, targets map[string]*sunk) map[string]*manifest.Object {
	if only := writers(targets); only != nil && !r.opts.locateWhole {
		in.Only = only
		if objs := renderPaths(ctx, in); objs != nil && sameObjects(objs, targets) {
			if r.opts.locateRender != nil {
				r.opts.locateRender(only)
			}
			return objs
		}
	}
	in.Only = nil
	if r.opts.locateRender != nil {
		r.opts.locateRender(nil)
	}
	return renderPaths(ctx, in)
}

// writers are the applications (namespace/name) that wrote the targets,
// nil when one was not written by an application itself.
func writers(targets map[string]*sunk) map[string]bool {
	only := map[string]bool{}
	for _, o := range targets {
		if o == nil || o.propagated || !o.digested {
			return nil
		}
		app, ok := cluster.OwnerApplication(o.owner)
		if !ok {
			return nil
		}
		only[app] = true
	}
	return only
}

// sameObjects reports whether objs holds every target as it was.
func sameObjects(objs map[string]*manifest.Object, targets map[string]*sunk) bool {
	for p, t := range targets {
		o := objs[p]
		if o == nil {
			return false
		}
		if d, ok := tree.DigestOf(o); !ok || d != t.digest {
			return false
		}
	}
	return true
}

// renderPaths renders in and returns its objects by tree path (nil when
// the render fails: the first succeeded, there is nothing more to say).
func renderPaths(ctx context.Context, in pipeline.Inputs) map[string]*manifest.Object {
	out, err := pipeline.Run(ctx, in)
	if err != nil {
		return nil
	}
	objs := map[string]*manifest.Object{}
	for _, c := range out.Clusters.Clusters() {
		for _, e := range out.Clusters.List(c) {
			objs[tree.Path(c, e.Object)] = e.Object
		}
	}
	return objs
}

// driftField is the first field of o (at path p of the output tree) that
// differs from its golden file, both as suite s compares them.
func (r *runner) driftField(s Suite, p string, o *manifest.Object) string {
	// Read inside the golden tree: a link out of it is not followed.
	root, err := os.OpenRoot(r.paths([]string{s.Golden})[0])
	if err != nil {
		return ""
	}
	defer root.Close()
	want, err := root.ReadFile(filepath.FromSlash(p))
	if err != nil {
		return ""
	}
	got, err := tree.Encode(o)
	if err != nil {
		return ""
	}
	if mask := goldenMask(s); mask != nil {
		want, got = mask(p, want), mask(p, got)
	}
	wo, err1 := manifest.Decode(p, want, manifest.DecodeOptions{})
	go1, err2 := manifest.Decode(p, got, manifest.DecodeOptions{})
	if err1 != nil || err2 != nil || len(wo) != 1 || len(go1) != 1 {
		return ""
	}
	leaf, _ := manifest.ChangedLeaf(wo[0].Data, go1[0].Data)
	return leaf.String()
}
