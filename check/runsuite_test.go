package check

import (
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRunSuite pins a rendered suite's edge cases: a render of nothing
// (a warning, an error when strict), addons' parameters, validation
// switched off.
func TestRunSuite(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		opts  Options
		want  []suiteSummary
		code  int
	}{
		{
			name:  "a render of no object warns",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [empty.yaml]}]\n", "empty.yaml": "# nothing yet\n"},
			want: []suiteSummary{{Name: "s", Status: "ok", Checks: []string{"render", "validate"},
				Findings: []string{
					" warning [render] : no Application or resource template among the inputs: nothing rendered",
					" warning [render] : the suite renders no object: its checks had nothing to check (inputs: empty.yaml)"}}},
		},
		{
			name:  "a render of no object fails a strict suite",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [empty.yaml], strict: true}]\n", "empty.yaml": "# nothing yet\n"},
			want: []suiteSummary{{Name: "s", Status: "FAIL", Checks: []string{"render", "validate"},
				Findings: []string{
					" warning [render] : no Application or resource template among the inputs: nothing rendered",
					" error [render] : the suite renders no object: its checks had nothing to check (inputs: empty.yaml)"}}},
			code: ExitFail,
		},
		{
			name:  "validation switched off",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [app.yaml], validate: false}]\n", "app.yaml": app},
			want:  []suiteSummary{{Name: "s", Status: "ok", Objects: 1, Checks: []string{"render"}}},
		},
		{
			name: "unknown fields under the suite's field validation",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [app.yaml], validate: false, fieldValidation: warn}]\n",
				"app.yaml": app + "  polices: []\n"},
			want: []suiteSummary{{Name: "s", Status: "ok", Objects: 1, Checks: []string{"render"},
				Findings: []string{` warning [render] : app.yaml:7:3: application "a": unknown field "spec.polices" (did you mean "policies"?)`}}},
		},
		{
			name: "Options' field validation replaces the suite's",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [app.yaml], validate: false, fieldValidation: warn}]\n",
				"app.yaml": app + "  polices: []\n"},
			opts: Options{FieldValidation: "ignore"},
			want: []suiteSummary{{Name: "s", Status: "ok", Objects: 1, Checks: []string{"render"}}},
		},
		{
			name: "an addon parameter that does not parse",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [app.yaml], addons: [{dir: addon, set: [novalue]}]}]\n", "app.yaml": app,
				"addon/metadata.yaml": "name: a\nversion: 1.0.0\n"},
			want: []suiteSummary{{Name: "s", Status: "ERROR", Checks: []string{"render"}, Findings: []string{`drydock.yaml:1:68 error [render] : key "novalue" has no value`},
				Err: `drydock.yaml:1:68: key "novalue" has no value`}},
			code: ExitInput,
		},
		{
			name: "an addon's values and set typed by its parameter",
			files: map[string]string{"drydock.yaml": "suites:\n- name: s\n  inputs: [app.yaml]\n  validate: false\n  addons:\n  - dir: addon\n    values: {team: x, size: 2}\n    set: [team=40]\n",
				"app.yaml": app, "addon/metadata.yaml": "name: a\nversion: 1.0.0\n", "addon/parameter.cue": addonParameter, "addon/template.cue": addonTemplate},
			want: []suiteSummary{{Name: "s", Status: "ok", Objects: 3, Checks: []string{"render"}}},
		},
		{
			name: "an addon's setString gives a string to an int parameter, located",
			files: map[string]string{"drydock.yaml": "suites:\n- name: s\n  inputs: [app.yaml]\n  validate: false\n  addons:\n  - dir: addon\n    setString: [size=2]\n",
				"app.yaml": app, "addon/metadata.yaml": "name: a\nversion: 1.0.0\n", "addon/parameter.cue": addonParameter, "addon/template.cue": addonTemplate},
			want: []suiteSummary{{Name: "s", Status: "ERROR", Checks: []string{"render"},
				Findings: []string{`drydock.yaml:7:17 error [render] : addon a: parameter.size is an int, not the string "2"`},
				Err:      `drydock.yaml:7:17: addon a: parameter.size is an int, not the string "2"`}},
			code: ExitInput,
		},
		{
			name: "an unknown key of an addon's values, located",
			files: map[string]string{"drydock.yaml": "suites:\n- name: s\n  inputs: [app.yaml]\n  addons:\n  - dir: addon\n    values:\n      teem: x\n",
				"app.yaml": app, "addon/metadata.yaml": "name: a\nversion: 1.0.0\n", "addon/parameter.cue": addonParameter, "addon/template.cue": addonTemplate},
			want: []suiteSummary{{Name: "s", Status: "ERROR", Checks: []string{"render", "validate"},
				Findings: []string{`drydock.yaml:7:7 error [render] : addon a: unknown parameter "teem" (did you mean "team"?)`},
				Err:      `drydock.yaml:7:7: addon a: unknown parameter "teem" (did you mean "team"?)`}},
			code: ExitInput,
		},
		{
			name: "an unknown key of an addon's setString, located",
			files: map[string]string{"drydock.yaml": "suites:\n- name: s\n  inputs: [app.yaml]\n  addons:\n  - dir: addon\n    setString: [team=x, sise=3]\n",
				"app.yaml": app, "addon/metadata.yaml": "name: a\nversion: 1.0.0\n", "addon/parameter.cue": addonParameter, "addon/template.cue": addonTemplate},
			want: []suiteSummary{{Name: "s", Status: "ERROR", Checks: []string{"render", "validate"},
				Findings: []string{`drydock.yaml:6:25 error [render] : addon a: unknown parameter "sise" (did you mean "size"?)`},
				Err:      `drydock.yaml:6:25: addon a: unknown parameter "sise" (did you mean "size"?)`}},
			code: ExitInput,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runFiles(t, tt.files, tt.opts)
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("suites (-want +got):\n%s", diff)
			}
			if got := res.ExitCode(); got != tt.code {
				t.Errorf("ExitCode() = %d, want %d", got, tt.code)
			}
		})
	}
}

// addonParameter declares a string and an int parameter, both used, so
// that a value of the wrong type fails the addon's render.
const addonParameter = `parameter: {
	team: *"platform" | string
	size: *1 | int
}
`

// addonTemplate uses the parameters of addonParameter.
const addonTemplate = `package main

output: {apiVersion: "core.oam.dev/v1beta1", kind: "Application", spec: components: []}
outputs: cm: {apiVersion: "v1", kind: "ConfigMap", metadata: {name: "team", namespace: "vela-system"}, data: {team: parameter.team, size: "\\(parameter.size)"}}
`

// TestRunProgress: Progress hears of each suite's end once, counting up
// to the total, however many workers run them.
func TestRunProgress(t *testing.T) {
	for _, workers := range []int{0, 1, 2} {
		var mu sync.Mutex
		var done, totals []int
		res := runFiles(t, map[string]string{
			"drydock.yaml": "suites: [{name: a, inputs: [app.yaml]}, {name: b, inputs: [app.yaml]}, {name: c, inputs: [app.yaml]}]\n",
			"app.yaml":     app,
		}, Options{Workers: workers, Progress: func(d, total int) {
			mu.Lock()
			defer mu.Unlock()
			done, totals = append(done, d), append(totals, total)
		}})
		if got := len(res.Suites); got != 3 {
			t.Fatalf("workers %d: %d suites, want 3", workers, got)
		}
		slices.Sort(done)
		if diff := cmp.Diff([]int{1, 2, 3}, done); diff != "" {
			t.Errorf("workers %d: done (-want +got):\n%s", workers, diff)
		}
		if diff := cmp.Diff([]int{3, 3, 3}, totals); diff != "" {
			t.Errorf("workers %d: totals (-want +got):\n%s", workers, diff)
		}
	}
}
