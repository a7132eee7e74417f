package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestLoadDefinitions: -d definitions replace the built-ins of the same
// name, and what definition tests ask of the set answers from it.
func TestLoadDefinitions(t *testing.T) {
	dir := t.TempDir()
	def := filepath.Join(dir, "def.yaml")
	if err := os.WriteFile(def, []byte(`apiVersion: core.oam.dev/v1beta1
kind: TraitDefinition
metadata: {name: webservice}
spec:
  schematic:
    cue:
      template: |
        parameter: {on: *false | bool}
        if parameter.on {
          patch: metadata: labels: on: "yes"
        }
`), 0o644); err != nil {
		t.Fatal(err)
	}
	defs, err := LoadDefinitions([]string{def}, false)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, typ := range []string{"webservice", "worker", "scaler", "nothing"} {
		kinds[typ] = DefinitionKind(defs, typ)
	}
	if diff := cmp.Diff(map[string]string{"webservice": "component", "worker": "component", "scaler": "trait", "nothing": ""}, kinds); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	if _, ok := DefinitionStatus(defs, "nothing", nil, nil); ok {
		t.Errorf("status of no definition: ok")
	}
	if _, ok := DefinitionStatus(defs, "worker", map[string]any{}, map[string]any{}); !ok {
		t.Errorf("status of worker: not ok")
	}
	if got := Branches(defs, "nothing"); got != nil {
		t.Errorf("branches of no definition: %v", got)
	}
	if got := BranchOutcomes(defs, "nothing", make([]Branch, 2), nil, nil); len(got) != 2 || got[0] != nil {
		t.Errorf("outcomes of no definition: %v", got)
	}
	only, err := LoadDefinitions([]string{def}, true)
	if err != nil {
		t.Fatal(err)
	}
	if DefinitionKind(only, "webservice") != "trait" || DefinitionKind(only, "worker") != "" {
		t.Errorf("noBuiltins: webservice is %q, worker %q", DefinitionKind(only, "webservice"), DefinitionKind(only, "worker"))
	}
	branches := Branches(only, "webservice")
	if len(branches) != 1 {
		t.Fatalf("branches: %v", branches)
	}
	outcomes := BranchOutcomes(only, "webservice", branches, map[string]any{"on": true}, map[string]any{})
	if len(outcomes) != 1 || outcomes[0] == nil || !*outcomes[0] {
		t.Errorf("outcomes: %v", outcomes)
	}
	app := filepath.Join(dir, "app.yaml")
	if err := os.WriteFile(app, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDefinitions([]string{app}, false); err == nil || !strings.Contains(manifest.Format(err, nil), "-d") {
		t.Errorf("a ConfigMap given as a definition: %v", err)
	}
}
