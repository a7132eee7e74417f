package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/tree"
)

// locateCauses points the golden drift and validation findings of res at
// the line that set the field they are about (the property, trait,
// override policy or Karmada override rule), not only at the component.
// Recording provenance costs time, so the suite is rendered again with it
// only when there is such a finding.
func (r *runner) locateCauses(ctx context.Context, s Suite, in pipeline.Inputs, res *SuiteResult) {
	need := false
	for _, f := range res.Findings {
		need = need || (f.Check == "golden" && f.Diff != "") || (f.Check == "validate" && f.Field != "")
	}
	if !need {
		return
	}
	in.Record.Provenance, in.Record.Validate = true, nil
	out, err := pipeline.Run(ctx, in)
	if err != nil {
		return // the first render succeeded; nothing more to say
	}
	objs := map[string]*manifest.Object{}
	for _, c := range out.Clusters.Clusters() {
		for _, e := range out.Clusters.List(c) {
			objs[tree.Path(c, e.Object)] = e.Object
		}
	}
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
