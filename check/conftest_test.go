package check

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// conftestPolicy fails Deployments (one with a _loc), warns on Services
// and prints in its warn rule and in a helper both checks call.
const conftestPolicy = `package main

kind(x) := k if {
	print("kind of", x.metadata.name)
	k := x.kind
}

deny contains {"msg": "dep", "_loc": {"file": "in/m.yaml", "line": 3}, "sev": 2} if kind(input) == "Deployment"

warn contains "svc" if {
	kind(input) == "Service"
	print("service")
}

exception contains ["nothing"] if input.kind == "Service"
`

// TestConftestResults: a plain suite's results grouped as conftest groups
// them, per namespace and file, with print() output as conftest's queries
// print it (the helper once per check).
func TestConftestResults(t *testing.T) {
	files := map[string]string{
		"drydock.yaml":     "suites: [{name: p, plain: true, inputs: [in/m.yaml, in/s.yaml], namespaces: [main, none]}]\n",
		"in/m.yaml":        plainDeploy + "---\n" + plainSvc,
		"in/s.yaml":        plainSvc,
		"policy/main.rego": conftestPolicy,
	}
	svc := []string{"policy/main.rego:4: kind of svc\n", "policy/main.rego:4: kind of svc\n", "policy/main.rego:12: service\n"}
	want := []ConftestResult{
		{File: "in/m.yaml", Namespace: "main", Successes: 2,
			Failures: []ConftestMessage{{Message: "dep", Metadata: map[string]any{"query": "data.main.deny", "sev": int64(2)}, LocFile: "in/m.yaml", LocLine: "3"}},
			Warnings: []ConftestMessage{{Message: "svc", Metadata: map[string]any{"query": "data.main.warn"}}},
			Prints:   append([]string{"policy/main.rego:4: kind of web\n", "policy/main.rego:4: kind of web\n"}, svc...)},
		{File: "in/s.yaml", Namespace: "main", Successes: 1, Warnings: []ConftestMessage{{Message: "svc", Metadata: map[string]any{"query": "data.main.warn"}}}, Prints: svc},
		{File: "in/m.yaml", Namespace: "none"},
		{File: "in/s.yaml", Namespace: "none"},
	}
	res := runFiles(t, files, Options{Conftest: true})
	if diff := cmp.Diff(want, res.Suites[0].Conftest); diff != "" {
		t.Errorf("conftest results (-want +got):\n%s", diff)
	}
	res = runFiles(t, files, Options{Conftest: true, Trace: true})
	var queries []string
	for _, c := range res.Suites[0].Conftest {
		for _, q := range c.Traces {
			queries = append(queries, c.File+" "+q.Query)
			if len(q.Lines) == 0 {
				t.Errorf("%s %s: no trace", c.File, q.Query)
			}
		}
	}
	wantQueries := []string{
		`in/m.yaml data.main.exception[_][_] == ""`, "in/m.yaml data.main.deny", `in/m.yaml data.main.exception[_][_] == ""`, "in/m.yaml data.main.warn",
		`in/m.yaml data.main.exception[_][_] == ""`, "in/m.yaml data.main.deny", `in/m.yaml data.main.exception[_][_] == ""`, "in/m.yaml data.main.warn",
		`in/s.yaml data.main.exception[_][_] == ""`, "in/s.yaml data.main.deny", `in/s.yaml data.main.exception[_][_] == ""`, "in/s.yaml data.main.warn",
	}
	if diff := cmp.Diff(wantQueries, queries); diff != "" {
		t.Errorf("traced queries (-want +got):\n%s", diff)
	}
}

// TestConftestCombined: --combine is one result, file "Combined".
func TestConftestCombined(t *testing.T) {
	files := map[string]string{
		"drydock.yaml":     "suites: [{name: p, plain: true, inputs: [in], combine: true}]\n",
		"in/m.yaml":        plainDeploy,
		"policy/main.rego": denyCombined,
	}
	res := runFiles(t, files, Options{Conftest: true, Trace: true})
	got := res.Suites[0].Conftest
	if len(got) != 1 || got[0].File != "Combined" || got[0].Namespace != "main" || len(got[0].Failures) != 1 || len(got[0].Traces) != 2 {
		t.Errorf("combined results: %+v", got)
	}
}

func TestConftestNamespaces(t *testing.T) {
	found := []string{"k8s.a", "k8s.b", "main"}
	for _, tc := range []struct {
		s    Suite
		want []string
	}{
		{Suite{}, []string{"main"}},
		{Suite{Namespaces: []string{"x", "main"}}, []string{"x", "main"}},
		{Suite{Namespaces: []string{"k8s.*"}}, []string{"k8s.a", "k8s.b"}},
		{Suite{AllNamespaces: true}, found},
	} {
		if diff := cmp.Diff(tc.want, conftestNamespaces(tc.s, found)); diff != "" {
			t.Errorf("%+v: %s", tc.s, diff)
		}
	}
}
