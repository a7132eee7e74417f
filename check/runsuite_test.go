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
			want: []suiteSummary{{Name: "s", Status: "ERROR", Checks: []string{"render"}, Findings: []string{` error [render] : addon addon: invalid addon: parameter "novalue": key "novalue" has no value`},
				Err: `addon addon: invalid addon: parameter "novalue": key "novalue" has no value`}},
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
