package drydock_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// imports lists, per package, the drydock packages it imports itself:
// the layout that the README's package table describes. What a package
// reaches through them is allowed too, so each row names only its direct
// neighbours. Dependencies point one way, toward the leaves.
var imports = map[string][]string{
	"fieldpath":             {},
	"manifest":              {},
	"tree":                  {"manifest"},
	"cluster":               {"manifest"},
	"schemas":               {"cluster", "manifest"},
	"gitrev":                {"manifest"},
	"render/patch":          {},
	"render/kvapi":          {},
	"render":                {"render/kvapi", "render/patch", "schemas", "cluster", "manifest"},
	"render/builtin":        {"render", "manifest"},
	"render/rendertest":     {"render", "manifest"},
	"render/revision":       {"render/builtin", "render/kvapi", "render", "manifest"},
	"render/cueval":         {"render/revision", "render", "render/patch", "charts/source", "charts/helm", "cluster", "manifest"},
	"overrides/kubevela":    {"render", "manifest"},
	"render/policy":         {"overrides/kubevela", "render", "cluster", "manifest"},
	"render/resourcekeeper": {"render", "cluster", "manifest"},
	"render/stepexec":       {"render", "render/patch", "cluster", "manifest"},
	"render/workflow":       {"render/stepexec", "render/resourcekeeper", "render/policy", "overrides/kubevela", "render/cueval", "render/revision", "render", "charts/source", "cluster", "manifest"},
	"render/addon":          {"render", "manifest"},
	"charts/source":         {},
	"cache":                 {},
	"charts/helm":           {"manifest"},
	"charts/kustomize":      {"manifest"},
	"charts":                {"charts/kustomize", "charts/helm", "charts/source", "cluster", "manifest"},
	"karmada":               {"cluster", "manifest"},
	"karmada/propagation":   {"karmada", "schemas", "cluster", "manifest"},
	"overrides/karmada":     {"karmada", "schemas", "cluster", "manifest"},
	"karmada/controller":    {"overrides/karmada", "karmada/propagation", "schemas", "cluster", "manifest"},
	"pipeline":              {"cache", "charts", "charts/source", "karmada/controller", "render/addon", "render/workflow", "render/resourcekeeper", "render/cueval", "render/builtin", "render", "schemas", "cluster", "tree", "manifest"},
	"golden":                {"tree"},
	"reconcile":             {"golden", "render/resourcekeeper", "render", "cluster", "tree", "manifest"},
	"regosandbox":           {"manifest"},
	"parsers":               {"manifest"},
	"rules":                 {"parsers", "regosandbox", "tree", "manifest"},
	"gatekeeper":            {"regosandbox", "manifest"},
	"deftest":               {"golden", "pipeline", "cluster", "tree", "manifest"},
	"check":                 {"cache", "charts/source", "deftest", "gatekeeper", "rules", "parsers", "regosandbox", "reconcile", "golden", "pipeline", "schemas", "cluster", "tree", "manifest"},
	"shards":                {},
	"report":                {"shards", "check", "reconcile", "cluster", "manifest"},
	"cmd/drydock-engine":    {"internal/about", "internal/usage", "internal/heapsample", "cache", "charts/source", "shards", "report", "check", "gatekeeper", "rules", "parsers", "regosandbox", "reconcile", "golden", "pipeline", "karmada/controller", "karmada/propagation", "render/policy", "render/cueval", "render", "gitrev", "schemas", "cluster", "tree", "manifest"},
	"cmd/drydock":           {"internal/about", "internal/usage"},
	"internal/about":        {},
	"internal/usage":        {},
	"internal/heapsample":   {},
	"internal/conformance":  {},
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

// readmePackages are the packages of the README's package table, in its
// order (the rows after "| package | owns |").
func readmePackages(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "| package | owns |\n|---|---|\n")
	if !ok {
		t.Fatal("README.md has no package table")
	}
	var pkgs []string
	for _, line := range strings.Split(table, "\n") {
		first, _, ok := strings.Cut(strings.TrimPrefix(line, "| `"), "` |")
		if !strings.HasPrefix(line, "| `") || !ok {
			break
		}
		pkgs = append(pkgs, first)
	}
	return pkgs
}

// TestREADMEListsPackages: the README's package table is the layout: one
// row per package of the module, each after every package it may import,
// and no row for a package that does not exist.
func TestREADMEListsPackages(t *testing.T) {
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatal(err)
	}
	exists := map[string]bool{}
	for _, pkg := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(pkg, module+"/"); ok {
			exists[rel] = true
		}
	}
	listed := map[string]bool{}
	for _, pkg := range readmePackages(t) {
		if !exists[pkg] {
			t.Errorf("the README's package table lists %s, which is not a package", pkg)
		}
		if listed[pkg] {
			t.Errorf("the README's package table lists %s twice", pkg)
		}
		for _, dep := range imports[pkg] {
			if !listed[dep] {
				t.Errorf("the README's package table lists %s before %s, which it imports", pkg, dep)
			}
		}
		listed[pkg] = true
	}
	for pkg := range exists {
		if !listed[pkg] {
			t.Errorf("package %s is missing from the README's package table", pkg)
		}
		if _, ok := imports[pkg]; !ok {
			t.Errorf("package %s is missing from the layout (imports)", pkg)
		}
	}
}

// frontLinks are the drydock packages the front (cmd/drydock) may link:
// everything else it links is the standard library's.
var frontLinks = []string{"cmd/drydock", "internal/about", "internal/usage"}

// TestFrontLinksOnlyStdlib: the front links the standard library and
// frontLinks, nothing more, on every platform it is released for: a
// package outside them would bring its initialisers (and those of what it
// imports) into every `drydock version` and in front of every command.
func TestFrontLinksOnlyStdlib(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command("go", "list", "-deps", "-f", `{{if not .Standard}}{{.ImportPath}}{{end}}`, "./cmd/drydock")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOOS=%s go list -deps ./cmd/drydock: %v", goos, err)
		}
		var got []string
		for _, pkg := range strings.Fields(string(out)) {
			rel, ok := strings.CutPrefix(pkg, module+"/")
			if !ok || !slices.Contains(frontLinks, rel) {
				t.Errorf("GOOS=%s: the front links %s: only the standard library and %v may be", goos, pkg, frontLinks)
			}
			got = append(got, rel)
		}
		if !slices.Contains(got, "cmd/drydock") {
			t.Errorf("GOOS=%s: go list -deps ./cmd/drydock lists %q, not the front itself", goos, got)
		}
	}
}

// engineSkips are packages the engine does without although a command
// needs what they do, because their initialisers would run at every
// start: github.com/distribution/reference compiled six regular
// expressions (overrides/karmada parses image references with its grammar,
// compiled on first use).
var engineSkips = []string{"github.com/distribution/reference"}

// TestEngineSkipsHeavyInit: the engine links none of engineSkips.
func TestEngineSkipsHeavyInit(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "./cmd/drydock-engine").Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/drydock-engine: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if slices.Contains(engineSkips, pkg) {
			t.Errorf("the engine links %s, whose initialisers run at every start", pkg)
		}
	}
}
