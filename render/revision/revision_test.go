package revision_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/builtin"
	"github.com/drydock-dev/drydock/render/revision"
)

const corpusCases = "../../../shared/conformance/kubevela/cases"

// decodeDir reads every YAML document of a directory.
func decodeDir(t *testing.T, dir string) []*manifest.Object {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*manifest.Object
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := manifest.Decode(f, data, manifest.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, objs...)
	}
	return out
}

// corpusInputs reads a conformance case's Application with the chart's
// definitions and the case's own.
func corpusInputs(t *testing.T, name string) revision.Inputs {
	t.Helper()
	defs := builtin.Merge(true)
	in := revision.Inputs{Definitions: defs}
	for _, o := range append(decodeDir(t, chartDefinitions), decodeDir(t, filepath.Join(corpusCases, name, "input"))...) {
		switch {
		case o.Kind() == "Application":
			app, err := render.ParseApplication(o)
			if err != nil {
				t.Fatal(err)
			}
			in.App = app
		case render.IsDefinitionKind(o.Kind()):
			d, err := render.DefinitionFromObject(o)
			if err != nil {
				t.Fatal(err)
			}
			defs.Add(d)
		}
	}
	return in
}

// expectedHash is the app-revision-hash label KubeVela's code wrote on
// the case's expected objects.
func expectedHash(t *testing.T, name string) string {
	t.Helper()
	var found string
	_ = filepath.WalkDir(filepath.Join(corpusCases, name, "expected"), func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || found != "" {
			return err
		}
		for _, o := range decodeDir(t, filepath.Dir(p)) {
			if h, ok := manifest.StringMap(o.Data, "metadata", "labels")[render.LabelAppRevisionHash]; ok {
				found = h
			}
		}
		return nil
	})
	if found == "" {
		t.Fatalf("case %s: no expected object has the label", name)
	}
	return found
}

// TestAppRevisionHashCorpus: the hashes of KubeVela's conformance corpus,
// which KubeVela's controller code computed: an app of one webservice
// (with the generated apply-component steps, built-in types), deploy
// steps with a topology and an override policy, anonymous policies
// (auto-generated names) whose override names a trait, a step-group, and
// a ComponentDefinition of the case's own.
func TestAppRevisionHashCorpus(t *testing.T) {
	tests := []struct {
		name  string
		steps []string // generated steps' types (nil: the app's own)
	}{
		{name: "dryrun-app", steps: []string{"apply-component"}},
		{name: "first-vela-app"},
		{name: "mc-anonymous-policies", steps: []string{"deploy"}},
		{name: "ex-step-group"},
		{name: "ex-kube-module", steps: []string{"apply-component"}},
		{name: "dryrun-diff-nochange", steps: []string{"apply-component"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := corpusInputs(t, tt.name)
			in.Steps = in.App.Workflow
			for _, typ := range tt.steps {
				in.Steps = append(in.Steps, render.WorkflowStep{Type: typ})
			}
			got, err := revision.AppRevisionHash(in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(expectedHash(t, tt.name), got); diff != "" {
				t.Errorf("app revision hash (-KubeVela +drydock):\n%s", diff)
			}
		})
	}
}

// appInputs is an Application from a spec, with drydock's built-ins.
func appInputs(t *testing.T, meta, spec string) revision.Inputs {
	t.Helper()
	objs, err := manifest.Decode("app.yaml", []byte("apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: "+meta+"\nspec:\n"+spec), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	app, err := render.ParseApplication(objs[0])
	if err != nil {
		t.Fatal(err)
	}
	return revision.Inputs{App: app, Definitions: builtin.Definitions(), Steps: app.Workflow}
}

func hashOf(t *testing.T, in revision.Inputs) string {
	t.Helper()
	h, err := revision.AppRevisionHash(in)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9a-f]{1,16}$`).MatchString(h) {
		t.Errorf("hash %q is not 1 to 16 hex digits", h)
	}
	return h
}

// TestAppRevisionHashFacts: what KubeVela's revision_test.go and
// gatherRevisionSpec say of the hash: the same spec hashes the same
// whatever its metadata and however its properties were written
// (normalised JSON); a changed property or one more definition changes
// it; the names the parser and webhook give unnamed policies and steps
// count as written.
func TestAppRevisionHashFacts(t *testing.T) {
	const base = "  components:\n  - {name: express-server, type: webservice, properties: {image: oamdev/testapp:v1, cmd: [node, server.js]}}\n"
	h := func(meta, spec string) string { return hashOf(t, appInputs(t, meta, spec)) }
	same := map[string][2]string{
		"metadata": {h("{name: a}", base), h("{name: b, namespace: prod, labels: {team: web}}", base)},
		"property order": {h("{name: a}", base),
			h("{name: a}", "  components:\n  - name: express-server\n    type: webservice\n    properties:\n      cmd: [node, server.js]\n      image: oamdev/testapp:v1\n")},
		"auto-generated policy name": {h("{name: a}", base+"  policies:\n  - {type: garbage-collect, properties: {keepLegacyResource: true}}\n"),
			h("{name: a}", base+"  policies:\n  - {name: garbage-collect-auto-gen-0, type: garbage-collect, properties: {keepLegacyResource: true}}\n")},
		"webhook step names": {h("{name: a}", base+"  workflow:\n    steps:\n    - {type: step-group, subSteps: [{type: suspend}]}\n"),
			h("{name: a}", base+"  workflow:\n    steps:\n    - {name: step-0, type: step-group, subSteps: [{name: step-0-0, type: suspend}]}\n")},
	}
	for name, pair := range same {
		if pair[0] != pair[1] {
			t.Errorf("%s: %s and %s, want one hash", name, pair[0], pair[1])
		}
	}
	changed := h("{name: a}", "  components:\n  - {name: express-server, type: webservice, properties: {image: oamdev/testapp:v2, cmd: [node, server.js]}}\n")
	if changed == h("{name: a}", base) {
		t.Errorf("a changed property keeps hash %s", changed)
	}
	objs, err := manifest.Decode("def.yaml", []byte("apiVersion: core.oam.dev/v1beta1\nkind: ComponentDefinition\nmetadata: {name: webservice}\n"+
		"spec:\n  workload: {definition: {apiVersion: apps/v1, kind: Deployment}}\n  schematic: {cue: {template: 'output: {}'}}\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	own, err := render.DefinitionFromObject(objs[0])
	if err != nil {
		t.Fatal(err)
	}
	otherDef := appInputs(t, "{name: a}", base)
	otherDef.Definitions = builtin.Merge(false, []*render.Definition{own})
	if hashOf(t, otherDef) == h("{name: a}", base) {
		t.Errorf("another webservice definition keeps the hash")
	}
}

// TestAppRevisionHashRecords: what the revision records besides the
// Application counts: a Workflow object's steps, external policies
// (properties and type) and referred objects, the latter in KubeVela's
// sorted order whatever order they were found in.
func TestAppRevisionHashRecords(t *testing.T) {
	const spec = "  components:\n  - {name: c, type: webservice, properties: {image: x}}\n"
	plain := hashOf(t, appInputs(t, "{name: a}", spec))
	obj := func(doc string) *manifest.Object {
		objs, err := manifest.Decode("o.yaml", []byte(doc), manifest.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return objs[0]
	}
	wfIn := appInputs(t, "{name: a}", spec)
	wfIn.Workflow = &render.Workflow{Name: "wf", Object: obj("apiVersion: core.oam.dev/v1alpha1\nkind: Workflow\nmetadata: {name: wf}\nsteps: [{name: s, type: suspend}]\n")}
	emptyWf := appInputs(t, "{name: a}", spec)
	emptyWf.Workflow = &render.Workflow{Name: "wf", Object: obj("apiVersion: core.oam.dev/v1alpha1\nkind: Workflow\nmetadata: {name: wf}\n")}
	polIn := appInputs(t, "{name: a}", spec)
	polIn.ExternalPolicies = []*render.Policy{{Name: "p", Type: "topology", Object: obj("apiVersion: core.oam.dev/v1alpha1\nkind: Policy\nmetadata: {name: p, namespace: default}\ntype: topology\nproperties: {clusters: [local]}\n")}}
	pol2 := appInputs(t, "{name: a}", spec)
	pol2.ExternalPolicies = []*render.Policy{{Name: "p", Type: "topology", Object: obj("apiVersion: core.oam.dev/v1alpha1\nkind: Policy\nmetadata: {name: p, namespace: default}\ntype: topology\nproperties: {clusters: [c1]}\n")}}
	cm := func(name string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "namespace": "default"}}
	}
	refA := appInputs(t, "{name: a}", spec)
	refA.ReferredObjects = []map[string]any{cm("a"), cm("b"), {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "d"}}}
	refB := appInputs(t, "{name: a}", spec)
	refB.ReferredObjects = []map[string]any{refA.ReferredObjects[2], cm("b"), cm("a")}

	hashes := map[string]string{"plain": plain, "workflow": hashOf(t, wfIn), "empty workflow": hashOf(t, emptyWf),
		"policy": hashOf(t, polIn), "other policy": hashOf(t, pol2), "referred": hashOf(t, refA)}
	seen := map[string]string{}
	for name, h := range hashes {
		if other, ok := seen[h]; ok {
			t.Errorf("%s and %s hash the same (%s)", name, other, h)
		}
		seen[h] = name
	}
	if diff := cmp.Diff(hashes["referred"], hashOf(t, refB)); diff != "" {
		t.Errorf("referred objects in another order (-want +got):\n%s", diff)
	}
}

// TestAppRevisionHashPolicyDefinitions: a custom policy's definition is
// recorded, unless it is Application-scoped (spec.scope), which the
// parser leaves to a pipeline the default feature gates switch off.
func TestAppRevisionHashPolicyDefinitions(t *testing.T) {
	const spec = "  components:\n  - {name: c, type: webservice, properties: {image: x}}\n  policies:\n  - {name: p, type: custom, properties: {a: 1}}\n"
	withDef := func(extra string) string {
		in := appInputs(t, "{name: a}", spec)
		objs, err := manifest.Decode("def.yaml", []byte("apiVersion: core.oam.dev/v1beta1\nkind: PolicyDefinition\nmetadata: {name: custom}\nspec:\n"+
			"  schematic: {cue: {template: 'parameter: {a: int}'}}\n"+extra), manifest.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := render.DefinitionFromObject(objs[0])
		if err != nil {
			t.Fatal(err)
		}
		in.Definitions = builtin.Merge(false, []*render.Definition{d})
		return hashOf(t, in)
	}
	none := hashOf(t, appInputs(t, "{name: a}", spec))
	if withDef("") == none {
		t.Errorf("the custom policy's definition does not count")
	}
	if scoped := withDef("  scope: Application\n"); scoped != none {
		t.Errorf("an Application-scoped policy's definition counts: %s, want %s", scoped, none)
	}
}
