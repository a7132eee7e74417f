package render

import (
	"io/fs"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/builtin"
)

var (
	builtinOnce sync.Once
	builtinSet  *Definitions
	builtinErr  error
)

// builtinDefinitions parses drydock's embedded definitions once.
func builtinDefinitions(t *testing.T) *Definitions {
	t.Helper()
	builtinOnce.Do(func() {
		builtinSet = NewDefinitions()
		builtinErr = fs.WalkDir(builtin.FS, ".", func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(builtin.FS, path)
			if err != nil {
				return err
			}
			ds, err := ParseCUEDefinitions("builtin/"+path, data)
			for _, d := range ds {
				builtinSet.Add(d)
			}
			return err
		})
	})
	if builtinErr != nil {
		t.Fatal(builtinErr)
	}
	return builtinSet
}

// renderDoc parses the Application in doc (app.yaml) and runs its
// workflow with the built-in definitions and a member cluster m1; it
// returns the error, or "".
func renderDoc(t *testing.T, doc string) string {
	t.Helper()
	objs, err := manifest.Decode("app.yaml", []byte(doc), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inv := cluster.NewInventory()
	m1, err := manifest.Decode("clusters.yaml", []byte("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m1}\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := inv.Add(m1[0]); err != nil {
		t.Fatal(err)
	}
	app, err := ParseApplication(objs[0])
	if err == nil {
		_, err = NewEngine(builtinDefinitions(t)).RenderApplication(app, inv, Options{})
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// appDoc is an Application named a with one webservice component web,
// followed by spec (indented under spec:).
func appDoc(spec string) string {
	return "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n" +
		"  components: [{name: web, type: webservice, properties: {image: nginx}}]\n" + strings.TrimRight(spec, "\n") + "\n"
}

// TestRefusals lists what KubeVela refuses and drydock must refuse in
// KubeVela's words, located in the Application; and what KubeVela
// accepts that looks as if it might not be.
func TestRefusals(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		// The mutating webhook names unnamed steps step-<i> and
		// sub-steps step-<i>-<j> before the validating one checks them.
		{"unnamed steps are named", appDoc("  workflow:\n    steps: [{type: suspend}, {type: suspend}]"), ""},
		{"unnamed sub-steps are named", appDoc("  workflow:\n    steps: [{name: g, type: step-group, subSteps: [{type: suspend}, {type: suspend}]}]"), ""},
		{"a generated name is a duplicate", appDoc("  workflow:\n    steps:\n    - {name: step-1, type: suspend}\n    - {type: suspend}"),
			`app.yaml:9:7: invalid application: application "a": spec.workflow.steps: Invalid value: "step-1": duplicated step name (first at app.yaml:8:14; KubeVela's mutating webhook gave this unnamed step that name)`},
		{"an authored name duplicates a generated one", appDoc("  workflow:\n    steps:\n    - {type: suspend}\n    - {name: step-0, type: suspend}"),
			`app.yaml:9:14: invalid application: application "a": spec.workflow.steps: Invalid value: "step-0": duplicated step name (first at app.yaml:8:7, an unnamed step KubeVela's mutating webhook gave that name)`},
		// The parser names a nameless policy <type>-auto-gen-<index>.
		{"auto-generated policy name", appDoc("  policies: [{type: garbage-collect}]"),
			`app.yaml:6:14: invalid application: application "a": policy garbage-collect named garbage-collect-auto-gen-0 must not have empty properties`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, renderDoc(t, tt.doc)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
