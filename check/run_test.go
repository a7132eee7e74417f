package check

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// suiteSummary is what TestRun compares of a SuiteResult: findings as
// "pos level [check] object: message", and the error's text.
type suiteSummary struct {
	Name, Status string
	Objects      int
	Checks       []string
	Findings     []string
	Updated      []string
	Err          string
}

func summarize(r *Result) []suiteSummary {
	var out []suiteSummary
	for _, s := range r.Suites {
		sum := suiteSummary{Name: s.Name, Status: s.Status(), Objects: s.Objects, Checks: s.Checks, Updated: s.Updated}
		for _, f := range s.Findings {
			sum.Findings = append(sum.Findings, f.Pos.String()+" "+string(f.Level)+" ["+f.Check+"] "+f.Object+": "+f.Message)
		}
		if s.Err != nil {
			sum.Err = manifest.Format(s.Err, nil)
		}
		out = append(out, sum)
	}
	return out
}

const (
	app     = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a, namespace: default}\nspec:\n  components:\n    - {name: web, type: webservice, properties: {image: nginx:1.25}}\n"
	denyAll = "package main\n\ndeny contains msg if {\n\tinput.kind == \"Deployment\"\n\tmsg := sprintf(\"%s is a Deployment\", [input.metadata.name])\n}\n"
	webPath = "local/default/deployment.apps_web.yaml"
)

// TestRun runs small suites end to end: render, golden, rules, in the
// order a user meets them.
func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		before *Options // a run before the one checked (an update)
		opts   Options
		want   []suiteSummary
		code   int
	}{
		{
			name:  "no golden tree yet",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [app.yaml], golden: golden/s}]\n", "app.yaml": app},
			want: []suiteSummary{{Name: "s", Status: "FAIL", Objects: 1, Checks: []string{"render", "validate", "golden"},
				Findings: []string{"golden/s:1:1 error [golden] : the golden tree golden/s does not exist yet: 1 object renders; run drydock test --update to write it, then commit it"}}},
			code: ExitFail,
		},
		{
			name:  "CI words the hint for CI",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [app.yaml], golden: golden/s}]\n", "app.yaml": app},
			opts:  Options{CI: true},
			want: []suiteSummary{{Name: "s", Status: "FAIL", Objects: 1, Checks: []string{"render", "validate", "golden"},
				Findings: []string{"golden/s:1:1 error [golden] : the golden tree golden/s does not exist yet: 1 object renders; run drydock test --update locally and commit it"}}},
			code: ExitFail,
		},
		{
			name:  "update writes the tree",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [app.yaml], golden: golden/s}]\n", "app.yaml": app},
			opts:  Options{Update: true},
			want:  []suiteSummary{{Name: "s", Status: "ok", Objects: 1, Checks: []string{"render", "validate", "golden"}, Updated: []string{webPath}}},
		},
		{
			name:   "after an update the tree matches",
			files:  map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [app.yaml], golden: golden/s}]\n", "app.yaml": app},
			before: &Options{Update: true},
			want:   []suiteSummary{{Name: "s", Status: "ok", Objects: 1, Checks: []string{"render", "validate", "golden"}}},
		},
		{
			name:  "a rule fails, located at the object's origin",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [app.yaml]}]\n", "app.yaml": app, "policy/main.rego": denyAll},
			want: []suiteSummary{{Name: "s", Status: "FAIL", Objects: 1, Checks: []string{"render", "validate", "rules/main", "rules/main.deny"},
				Findings: []string{"app.yaml:6:7 error [rules/main.deny] " + webPath + ": web is a Deployment"}}},
			code: ExitFail,
		},
		{
			name:  "bad input is a render finding at its place, and exit 2",
			files: map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [bad.yaml]}]\n", "bad.yaml": "apiVersion: v1\nkind: [\n"},
			want: []suiteSummary{{Name: "s", Status: "ERROR", Checks: []string{"render", "validate"},
				Findings: []string{"bad.yaml:2 error [render] : invalid YAML near line 2: did not find expected node content"},
				Err:      "bad.yaml:2: invalid YAML near line 2: did not find expected node content"}},
			code: ExitInput,
		},
		{
			// Shards split each suite by application (default/a is shard
			// 1's of 2), no longer whole suites round-robin.
			name:  "a shard runs every suite, sorted by name, with the applications it owns",
			files: map[string]string{"drydock.yaml": "suites: [{name: c, inputs: [app.yaml]}, {name: b, inputs: [app.yaml]}, {name: a, inputs: [app.yaml]}]\n", "app.yaml": app},
			opts:  Options{Shard: Shard{Index: 1, Count: 2}},
			want: []suiteSummary{
				{Name: "a", Status: "ok", Objects: 1, Checks: []string{"render", "validate"}},
				{Name: "b", Status: "ok", Objects: 1, Checks: []string{"render", "validate"}},
				{Name: "c", Status: "ok", Objects: 1, Checks: []string{"render", "validate"}},
			},
		},
		{
			name:  "the other shard renders nothing of them, and says nothing of it",
			files: map[string]string{"drydock.yaml": "suites: [{name: c, inputs: [app.yaml]}, {name: b, inputs: [app.yaml]}, {name: a, inputs: [app.yaml]}]\n", "app.yaml": app},
			opts:  Options{Shard: Shard{Index: 2, Count: 2}},
			want: []suiteSummary{
				{Name: "a", Status: "ok", Checks: []string{"render", "validate"}},
				{Name: "b", Status: "ok", Checks: []string{"render", "validate"}},
				{Name: "c", Status: "ok", Checks: []string{"render", "validate"}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			for name, data := range tt.files {
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
			if tt.before != nil {
				Run(context.Background(), cfg, *tt.before)
			}
			res := Run(context.Background(), cfg, tt.opts)
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("suites (-want +got):\n%s", diff)
			}
			if got := res.ExitCode(); got != tt.code {
				t.Errorf("ExitCode() = %d, want %d", got, tt.code)
			}
			if res.Config != "drydock.yaml" {
				t.Errorf("Config %q, want drydock.yaml", res.Config)
			}
		})
	}
}

// TestSplitWorkers: --workers counts the applications rendered at once
// in the whole run, as render's does, whatever the number of suites.
func TestSplitWorkers(t *testing.T) {
	for _, c := range []struct{ total, n, suites, renders int }{
		{1, 5, 1, 1}, // --workers 1: one at a time, as render --workers 1
		{4, 1, 1, 4},
		{4, 2, 2, 2},
		{4, 8, 4, 1},
		{3, 2, 2, 1},
		{8, 0, 1, 8},
	} {
		s, r := splitWorkers(c.total, c.n)
		if s != c.suites || r != c.renders {
			t.Errorf("splitWorkers(%d, %d) = %d, %d; want %d, %d", c.total, c.n, s, r, c.suites, c.renders)
		}
	}
}
