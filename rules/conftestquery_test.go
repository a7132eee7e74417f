package rules

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestQueries: conftest's queries per input and check, in the order of
// the policy's rules, with their print() output and whether they passed.
func TestQueries(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"p/b.rego": `package main

warn_x contains "w" if {
	print("warn", input.kind)
	input.kind == "Service"
}

deny contains {"msg": "d"} if input.kind == "Deployment"

deny contains "" if false

exception contains ["x"] if {
	print("exc")
	input.kind == "Pod"
}
`})
	e, err := Load(context.Background(), Options{PolicyDirs: []string{filepath.Join(dir, "p")}})
	if err != nil {
		t.Fatal(err)
	}
	if !e.HasPrint() {
		t.Error("HasPrint() = false")
	}
	in := []Input{{Document: map[string]any{"kind": "Service"}}, {Document: map[string]any{"kind": "Deployment"}}}
	qs, err := e.Queries(context.Background(), in, false)
	if err != nil {
		t.Fatal(err)
	}
	loc := filepath.Join(dir, "p/b.rego")
	want := []Query{
		{Input: 0, Namespace: "main", Query: `data.main.exception[_][_] == "x"`, Passed: true, Prints: []string{loc + ":13: exc\n"}},
		{Input: 0, Namespace: "main", Query: "data.main.warn_x", Passed: false, Prints: []string{loc + ":4: warn Service\n"}},
		{Input: 0, Namespace: "main", Query: `data.main.exception[_][_] == ""`, Passed: true, Prints: []string{loc + ":13: exc\n"}},
		{Input: 0, Namespace: "main", Query: "data.main.deny", Passed: true, Prints: []string{}},
		{Input: 1, Namespace: "main", Query: `data.main.exception[_][_] == "x"`, Passed: true, Prints: []string{loc + ":13: exc\n"}},
		{Input: 1, Namespace: "main", Query: "data.main.warn_x", Passed: true, Prints: []string{loc + ":4: warn Deployment\n"}},
		{Input: 1, Namespace: "main", Query: `data.main.exception[_][_] == ""`, Passed: true, Prints: []string{loc + ":13: exc\n"}},
		{Input: 1, Namespace: "main", Query: "data.main.deny", Passed: false, Prints: []string{}},
	}
	if diff := cmp.Diff(want, qs); diff != "" {
		t.Errorf("queries (-want +got):\n%s", diff)
	}
	qs, err = e.QueriesCombined(context.Background(), in, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 4 || len(qs[1].Trace) == 0 || qs[1].Trace[0] != "Enter data.main.warn_x = _" {
		t.Errorf("combined, traced: %+v", qs)
	}
}

func TestHasPrintWithout(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"p/a.rego": "package main\n\ndeny contains \"d\" if input.x\n"})
	e, err := Load(context.Background(), Options{PolicyDirs: []string{filepath.Join(dir, "p")}})
	if err != nil {
		t.Fatal(err)
	}
	if e.HasPrint() {
		t.Error("HasPrint() = true for a policy without print()")
	}
}
