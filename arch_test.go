package drydock_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// imports lists, per package, the drydock packages it may import itself:
// the layout that the README's package table describes. What a package
// reaches through them is allowed too, so each row names only its direct
// neighbours. Dependencies point one way, toward the leaves.
var imports = map[string][]string{
	"cmd/drydock":           {"check", "report", "pipeline", "reconcile", "gitrev", "render", "render/addon", "render/cueval", "render/policy", "karmada/propagation", "rules", "gatekeeper", "regosandbox", "golden", "tree", "schemas", "cluster", "manifest", "karmada/controller"},
	"report":                {"check", "manifest", "reconcile"},
	"check":                 {"deftest", "pipeline", "rules", "gatekeeper", "regosandbox", "golden", "tree", "cluster", "manifest"},
	"deftest":               {"pipeline", "golden", "tree", "cluster", "manifest"},
	"reconcile":             {"render", "golden", "tree", "cluster", "manifest", "render/resourcekeeper"},
	"pipeline":              {"render", "render/addon", "render/builtin", "render/cueval", "render/workflow", "tree", "schemas", "cluster", "manifest", "render/resourcekeeper", "karmada/controller"},
	"render/workflow":       {"render", "render/cueval", "render/policy", "overrides/kubevela", "cluster", "manifest", "render/resourcekeeper"},
	"render/policy":         {"render", "overrides/kubevela", "cluster", "manifest"},
	"render/addon":          {"render", "manifest"},
	"render/cueval":         {"render", "render/patch", "manifest"},
	"overrides/kubevela":    {"render", "manifest"},
	"render":                {"render/patch", "schemas", "cluster", "manifest"},
	"render/resourcekeeper": {"render", "cluster", "manifest"},
	"internal/conformance":  {},
	"karmada/controller":    {"overrides/karmada", "karmada/propagation", "schemas", "cluster", "manifest"},
	"render/patch":          {},
	"render/builtin":        {"render"},
	"overrides/karmada":     {"karmada", "schemas", "cluster", "manifest"},
	"karmada/propagation":   {"karmada", "schemas", "cluster", "manifest"},
	"karmada":               {"cluster", "manifest"},
	"rules":                 {"regosandbox", "tree", "manifest"},
	"gatekeeper":            {"regosandbox", "manifest"},
	"regosandbox":           {"manifest"},
	"golden":                {"tree"},
	"tree":                  {"manifest"},
	"gitrev":                {"manifest"},
	"schemas":               {"manifest", "cluster"},
	"cluster":               {"manifest"},
	"manifest":              {},
	"fieldpath":             {},
}

// leaves are the packages every package may import: they import no other
// drydock package.
var leaves = []string{"fieldpath"}

const module = "github.com/drydock-dev/drydock"

// TestLayout enforces the layout: every package imports exactly the
// drydock packages its row of imports names (and any leaves), so the table
// is the import graph, not a looser wish.
func TestLayout(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, ok := strings.CutPrefix(fields[0], module+"/")
		if !ok {
			continue // the module's root: the tests
		}
		permitted, known := imports[pkg]
		if !known {
			t.Errorf("package %s is missing from the layout (imports)", pkg)
			continue
		}
		used := map[string]bool{}
		for _, dep := range fields[1:] {
			rel, found := strings.CutPrefix(dep, module+"/")
			if !found || slices.Contains(leaves, rel) {
				continue
			}
			used[rel] = true
			if !slices.Contains(permitted, rel) {
				t.Errorf("%s imports %s, which the layout does not allow", pkg, rel)
			}
		}
		for _, p := range permitted {
			if !used[p] {
				t.Errorf("the layout lets %s import %s, which it does not: drop it from the row", pkg, p)
			}
		}
	}
}

// TestLayoutRows: every package a row names has a row of its own (the
// table describes no package that is gone), and the leaves import nothing.
func TestLayoutRows(t *testing.T) {
	for pkg, deps := range imports {
		for _, d := range deps {
			if _, ok := imports[d]; !ok {
				t.Errorf("%s may import %s, which has no row", pkg, d)
			}
		}
	}
	for _, l := range leaves {
		if deps := imports[l]; len(deps) != 0 {
			t.Errorf("leaf %s may import %v", l, deps)
		}
	}
}

// TestREADMEListsPackages: the README's package table names every
// package of the module, and the layout above knows each of them.
func TestREADMEListsPackages(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "| `") {
			first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
			table.WriteString(first + " ")
		}
	}
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		rel, ok := strings.CutPrefix(pkg, module+"/")
		if !ok {
			continue // the module's root: the tests
		}
		if !strings.Contains(table.String(), "`"+rel+"`") {
			t.Errorf("package %s is missing from the README's package table", rel)
		}
		if _, ok := imports[rel]; !ok {
			t.Errorf("package %s is missing from the layout (imports)", rel)
		}
	}
}
