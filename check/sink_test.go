package check

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/rules"
)

// TestMerge: one object's report joins the suite's as input i, every
// part of it.
func TestMerge(t *testing.T) {
	rep := &rules.Report{Results: []rules.Result{{Input: 0, Namespace: "main", Rule: "deny", Kind: rules.Failure, Message: "first"}}}
	one := &rules.Report{
		Results:   []rules.Result{{Namespace: "main", Rule: "warn", Kind: rules.Warning, Message: "w"}},
		Summaries: []rules.Summary{{Namespace: "main", Successes: 1, Warnings: 1}},
		Prints:    []rules.Print{{Namespace: "main", Location: "policy/main.rego:4", Message: "hi"}},
		Stopped:   []rules.Stopped{{Namespace: "slow", Skipped: true}},
	}
	merge(rep, one, 3)
	want := &rules.Report{
		Results: []rules.Result{
			{Input: 0, Namespace: "main", Rule: "deny", Kind: rules.Failure, Message: "first"},
			{Input: 3, Namespace: "main", Rule: "warn", Kind: rules.Warning, Message: "w"},
		},
		Summaries: []rules.Summary{{Input: 3, Namespace: "main", Successes: 1, Warnings: 1}},
		Prints:    []rules.Print{{Input: 3, Namespace: "main", Location: "policy/main.rego:4", Message: "hi"}},
		Stopped:   []rules.Stopped{{Input: 3, Namespace: "slow", Skipped: true}},
	}
	if diff := cmp.Diff(want, rep); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
	if one.Results[0].Input != 0 {
		t.Error("merge changed the object's own report")
	}
}

// TestSuiteSinkUpdate: an update writes the golden tree only when the
// render succeeds; a failed render (abort) leaves no file behind.
func TestSuiteSinkUpdate(t *testing.T) {
	const path = "local/default/configmap_c.yaml"
	objs, err := manifest.Decode("c.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\ndata: {a: b}\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		abort   bool
		updated []string
		written bool
	}{
		{name: "the render succeeds", updated: []string{path}, written: true},
		{name: "the render fails", abort: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			r := &runner{dir: dir, opts: Options{Update: true}}
			k := r.newSuiteSink(context.Background(), Suite{Name: "s", Golden: "golden"})
			if err := k.Put("local", cluster.Entry{Object: objs[0], Origin: cluster.Origin{Pos: objs[0].Pos}}); err != nil {
				t.Fatal(err)
			}
			res := &SuiteResult{Name: "s"}
			if tt.abort {
				k.abort()
			} else if err := k.finish(res); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.updated, res.Updated); diff != "" {
				t.Errorf("updated (-want +got):\n%s", diff)
			}
			_, err := os.Stat(filepath.Join(dir, "golden", filepath.FromSlash(path)))
			if written := err == nil; written != tt.written || (err != nil && !errors.Is(err, fs.ErrNotExist)) {
				t.Errorf("golden file written %v (%v), want %v", written, err, tt.written)
			}
		})
	}
}

const (
	// denyNumber fails on an object whose name is not a number, only
	// when built-in errors are errors.
	denyNumber = "package main\n\ndeny contains msg if {\n\tn := to_number(input.metadata.name)\n\tmsg := sprintf(\"%v\", [n])\n}\n"
	// denyCombinedCluster fails once per cluster holding a Deployment.
	denyCombinedCluster = "package main\n\ndeny contains msg if {\n\tsome d in input\n\td.contents.kind == \"Deployment\"\n\tmsg := sprintf(\"%s has %s\", [d.cluster, d.contents.metadata.name])\n}\n"
	// loopRule never ends on its own: only a rule timeout stops it.
	loopRule = "package main\n\ndeny contains msg if {\n\tn := count([x | some x in numbers.range(1, 1000000000)])\n\tmsg := sprintf(\"%d\", [n])\n}\n"
)

// TestSuiteSinkRules runs a rendered suite's rules through the sink: one
// object at a time, combined per cluster, and the errors that stop them.
func TestSuiteSinkRules(t *testing.T) {
	const web1, web2 = "member1/default/deployment.apps_web.yaml", "member2/default/deployment.apps_web.yaml"
	suite := func(extra string) string {
		return "suites: [{name: r, inputs: [app.yaml], clustersFromInputs: true, validate: false" + extra + "}]\n"
	}
	tests := []struct {
		name  string
		files map[string]string
		opts  Options
		want  []suiteSummary
		code  int
	}{
		{
			name:  "each object on its own, at its origin",
			files: map[string]string{"drydock.yaml": suite(""), "app.yaml": karmadaTwo, "policy/main.rego": denyAll},
			want: []suiteSummary{{Name: "r", Status: "FAIL", Objects: 2, Checks: []string{"render", "rules/main", "rules/main.deny"},
				Findings: []string{
					"app.yaml:9:1 error [rules/main.deny] " + web1 + ": web is a Deployment",
					"app.yaml:9:1 error [rules/main.deny] " + web2 + ": web is a Deployment",
				}}},
			code: ExitFail,
		},
		{
			name:  "combined: one input per cluster",
			files: map[string]string{"drydock.yaml": suite(", combine: true"), "app.yaml": karmadaTwo, "policy/main.rego": denyCombinedCluster},
			want: []suiteSummary{{Name: "r", Status: "FAIL", Objects: 2, Checks: []string{"render", "rules/main", "rules/main.deny"},
				Findings: []string{
					" error [rules/main.deny] member1: member1 has web",
					" error [rules/main.deny] member2: member2 has web",
				}}},
			code: ExitFail,
		},
		{
			name:  "a policy that does not compile",
			files: map[string]string{"drydock.yaml": suite(""), "app.yaml": karmadaTwo, "policy/main.rego": "package main\n\ndeny contains msg if {\n}\n}\n"},
			want: []suiteSummary{{Name: "r", Status: "ERROR", Objects: 2, Checks: []string{"render"},
				Findings: []string{"policy/main.rego:5:1 error [rules] : rego_parse_error: unexpected } token"},
				Err:      "policy/main.rego:5:1: rego_parse_error: unexpected } token"}},
			code: ExitInput,
		},
		{
			name:  "a built-in error, as an error",
			files: map[string]string{"drydock.yaml": suite(", strictBuiltinErrors: true"), "app.yaml": karmadaTwo, "policy/main.rego": denyNumber},
			want: []suiteSummary{{Name: "r", Status: "ERROR", Objects: 2, Checks: []string{"render"},
				Findings: []string{"policy/main.rego:4:7 error [rules] : app.yaml:9:1: Deployment.apps default/web in cluster member1: namespace main: policy/main.rego:4:7: rule deny: to_number: \"web\" is not a number"},
				Err:      "app.yaml:9:1: Deployment.apps default/web in cluster member1: namespace main: policy/main.rego:4:7: rule deny: to_number: \"web\" is not a number"}},
			code: ExitInput,
		},
		{
			name:  "a built-in error, as an error, combined",
			files: map[string]string{"drydock.yaml": suite(", strictBuiltinErrors: true, combine: true"), "app.yaml": karmadaTwo, "policy/main.rego": "package main\n\ndeny contains msg if {\n\tn := to_number(input[0].contents.metadata.name)\n\tmsg := sprintf(\"%v\", [n])\n}\n"},
			want: []suiteSummary{{Name: "r", Status: "ERROR", Objects: 2, Checks: []string{"render"},
				Findings: []string{"policy/main.rego:4:7 error [rules] : group member1: namespace main: policy/main.rego:4:7: rule deny: to_number: \"web\" is not a number"},
				Err:      "group member1: namespace main: policy/main.rego:4:7: rule deny: to_number: \"web\" is not a number"}},
			code: ExitInput,
		},
		{
			name: "a rule stopped by the timeout: Gatekeeper still runs",
			files: map[string]string{"drydock.yaml": suite(", gatekeeper: [gk]"), "app.yaml": karmadaTwo, "policy/main.rego": loopRule,
				"gk/template.yaml": gkRequiredLabels, "gk/constraints.yaml": gkConstraints},
			opts: Options{RuleTimeout: 250 * time.Millisecond},
			want: []suiteSummary{{Name: "r", Status: "ERROR", Objects: 2, Checks: []string{"render", "rules/main", "gatekeeper/K8sRequiredLabels/must-have-owner", "gatekeeper/K8sRequiredLabels/should-have-team"},
				Findings: []string{
					`app.yaml:9:1 error [gatekeeper/K8sRequiredLabels/must-have-owner] member2/default/deployment.apps_web.yaml: Deployment.apps default/web: you must provide labels: {"owner"}`,
					"policy/main.rego:3:1 error [rules] : evaluating rule main.deny on app.yaml:9:1: Deployment.apps default/web in cluster member1 took longer than the time limit of 250ms; namespace main was not evaluated on the 1 inputs after it",
				},
				Err: "policy/main.rego:3:1: evaluating rule main.deny on app.yaml:9:1: Deployment.apps default/web in cluster member1 took longer than the time limit of 250ms; namespace main was not evaluated on the 1 inputs after it"}},
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

// TestGoldenSinkError: a golden tree that cannot be read or written is
// the suite's golden error, whether comparing or updating, and what is in
// its place is left as it is.
func TestGoldenSinkError(t *testing.T) {
	tests := []struct {
		update bool
		suffix string // of the error, whose text names the absolute path
	}{{false, "/golden is not a directory"}, {true, "/golden: not a directory"}}
	for _, tt := range tests {
		update := tt.update
		res := runFiles(t, map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [app.yaml], golden: golden, validate: false}]\n",
			"app.yaml": app, "golden": "not a directory\n"}, Options{Update: update})
		s := res.Suites[0]
		got := []string{s.Status(), strings.Join(s.Checks, ",")}
		for _, f := range s.Findings {
			got = append(got, string(f.Level)+" "+f.Check)
		}
		if diff := cmp.Diff([]string{"ERROR", "render,golden", "error golden"}, got); diff != "" {
			t.Errorf("update %v: suite (-want +got):\n%s", update, diff)
		}
		if s.Err == nil || !strings.HasSuffix(s.Err.Error(), tt.suffix) {
			t.Errorf("update %v: error %v, want it ending %q", update, s.Err, tt.suffix)
		}
		if data, err := os.ReadFile("golden"); err != nil || string(data) != "not a directory\n" {
			t.Errorf("update %v: golden file now %q (%v)", update, data, err)
		}
	}
}
