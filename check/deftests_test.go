package check

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const greeterCUE = `"greeter": {
	type: "component"
	attributes: workload: definition: {apiVersion: "v1", kind: "ConfigMap"}
}
template: {
	output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: context.name, data: greeting: "hello " + parameter.who}
	if parameter.loud {
		output: data: loud: "yes"
	}
	parameter: {
		who: *"world" | string
		loud: *false | bool
	}
}
`

// TestDefTests runs suites' definition tests through Run: the test files
// found beside the definitions and under tests:, a check per test, a
// finding per failed assertion at its line, a bad test file as the
// suite's error at its place.
func TestDefTests(t *testing.T) {
	config := "suites: [{name: s, inputs: [app.yaml], definitions: [defs], tests: [tests], validate: false}]\n"
	greeterTest := "tests:\n  - name: greets\n    definition: greeter\n    asserts:\n      - equal: {path: output.data.greeting, value: hello world}\n      - equal: {path: output.data.greeting, value: hello moon}\n"
	tests := []struct {
		name  string
		files map[string]string
		opts  Options
		want  []suiteSummary
		cov   []string
		snap  string // the snapshot written ("" for none)
	}{
		{
			name: "a failed assertion at its line",
			files: map[string]string{"defs/greeter_test.yaml": greeterTest,
				"tests/more_test.yaml": "tests:\n  - name: loud\n    definition: greeter\n    properties: {loud: true}\n    asserts:\n      - equal: {path: output.data.loud, value: \"yes\"}\n",
				"tests/notes.txt":      "not a test file\n"},
			opts: Options{DefinitionsOnly: true},
			want: []suiteSummary{{Name: "s", Status: "FAIL", Checks: []string{"tests/loud", "tests/greets"},
				Findings: []string{`defs/greeter_test.yaml:6:9 error [tests/greets] : test "greets": output.data.greeting is hello world, want hello moon`}}},
		},
		{
			name:  "with the render and coverage",
			files: map[string]string{"defs/greeter_test.yaml": greeterTest},
			opts:  Options{Coverage: true},
			want: []suiteSummary{{Name: "s", Status: "FAIL", Objects: 1, Checks: []string{"render", "tests/greets"},
				Findings: []string{`defs/greeter_test.yaml:6:9 error [tests/greets] : test "greets": output.data.greeting is hello world, want hello moon`}}},
			cov: []string{"defs/greeter.cue:7:2 greeter parameter.loud true=false false=true"},
		},
		{
			name:  "an unknown key in a test file",
			files: map[string]string{"defs/greeter_test.yaml": "tests:\n  - name: x\n    definiton: greeter\n"},
			opts:  Options{DefinitionsOnly: true},
			want: []suiteSummary{{Name: "s", Status: "ERROR",
				Findings: []string{`defs/greeter_test.yaml:3:5 error [tests] : tests[0]: unknown key "definiton" (valid keys of tests[0]: application, asserts, context, definition, name, observed, properties, workload); did you mean "definition"?`},
				Err:      `defs/greeter_test.yaml:3:5: tests[0]: unknown key "definiton" (valid keys of tests[0]: application, asserts, context, definition, name, observed, properties, workload); did you mean "definition"?`}},
		},
		{
			name:  "two documents in a test file",
			files: map[string]string{"defs/greeter_test.yaml": greeterTest + "---\n" + greeterTest},
			opts:  Options{DefinitionsOnly: true},
			want: []suiteSummary{{Name: "s", Status: "ERROR",
				Findings: []string{`defs/greeter_test.yaml:1:1 error [tests] : a definition test file holds one YAML document (tests: ...)`},
				Err:      `defs/greeter_test.yaml:1:1: a definition test file holds one YAML document (tests: ...)`}},
		},
		{
			name:  "a test that cannot run",
			files: map[string]string{"defs/scale_test.yaml": "tests:\n  - name: scale\n    definition: scaler\n    asserts: [{error: x}]\n"},
			opts:  Options{DefinitionsOnly: true},
			want: []suiteSummary{{Name: "s", Status: "ERROR", Checks: []string{"tests/scale"},
				Findings: []string{`defs/scale_test.yaml:2:5 error [tests] : test "scale": scaler is a trait: give the workload it patches (workload:)`},
				Err:      `defs/scale_test.yaml:2:5: test "scale": scaler is a trait: give the workload it patches (workload:)`}},
		},
		{
			name: "a definition's unknown fields under the suite's field validation",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [app.yaml], definitions: [defs], tests: [tests], validate: false, fieldValidation: warn}]\n",
				"defs/team.yaml":       "apiVersion: core.oam.dev/v1beta1\nkind: TraitDefinition\nmetadata: {name: team}\nspec:\n  stag: PostDispatch\n  schematic: {cue: {template: 'patch: metadata: labels: team: \"x\"'}}\n",
				"tests/snap_test.yaml": "tests:\n  - name: greeter\n    definition: greeter\n    asserts: [{equal: {path: output.data.greeting, value: hello world}}]\n"},
			opts: Options{DefinitionsOnly: true},
			want: []suiteSummary{{Name: "s", Status: "ok", Checks: []string{"tests/greeter"},
				Findings: []string{` warning [tests] : defs/team.yaml:5:3: TraitDefinition "team": unknown field "spec.stag" (did you mean "stage"?)`}}},
		},
		{
			name:  "a snapshot is written, and announced as an update",
			files: map[string]string{"tests/snap_test.yaml": "tests:\n  - name: greeter\n    definition: greeter\n    asserts: [{snapshot: {ignore: [metadata.labels]}}]\n"},
			opts:  Options{DefinitionsOnly: true},
			want:  []suiteSummary{{Name: "s", Status: "ok", Checks: []string{"tests/greeter"}, Updated: []string{"tests/__snapshot__/snap_test/greeter.yaml"}}},
			snap:  "apiVersion: v1\ndata:\n  greeting: hello world\nkind: ConfigMap\nmetadata:\n  name: greeter\n  namespace: default\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			files := map[string]string{"drydock.yaml": config, "app.yaml": "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: [{name: g, type: greeter}]\n",
				"defs/greeter.cue": greeterCUE, "tests/.keep": ""}
			for name, data := range tt.files {
				files[name] = data
			}
			for name, data := range files {
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := LoadConfig("drydock.yaml")
			if err != nil {
				t.Fatal(err)
			}
			res := Run(context.Background(), cfg, tt.opts)
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("suites (-want +got):\n%s", diff)
			}
			var cov []string
			for _, b := range res.Suites[0].Coverage {
				cov = append(cov, b.Pos.String()+" "+b.Definition+" "+b.Condition+" true="+map[bool]string{true: "true", false: "false"}[b.True]+" false="+map[bool]string{true: "true", false: "false"}[b.False])
			}
			if diff := cmp.Diff(tt.cov, cov); diff != "" {
				t.Errorf("coverage (-want +got):\n%s", diff)
			}
			if tt.snap != "" {
				data, err := os.ReadFile("tests/__snapshot__/snap_test/greeter.yaml")
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.snap, string(data)); diff != "" {
					t.Errorf("snapshot (-want +got):\n%s", diff)
				}
			}
		})
	}
}
