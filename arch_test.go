package drydock_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// allowed lists, per package, the drydock packages it may import (the
// layout in DESIGN.md). Dependencies point one way, toward manifest.
var allowed = map[string][]string{
	"manifest":            {},
	"schemas":             {"manifest"},
	"cluster":             {"manifest"},
	"golden":              {"manifest"},
	"gitrev":              {"manifest"},
	"reconcile":           {"manifest", "cluster", "schemas", "render", "render/patch", "render/policy", "golden"},
	"regosandbox":         {"manifest"},
	"rules":               {"manifest", "regosandbox"},
	"gatekeeper":          {"manifest", "regosandbox"},
	"karmada":             {"manifest", "cluster"},
	"karmada/override":    {"manifest", "cluster", "schemas", "karmada"},
	"karmada/propagation": {"manifest", "cluster", "schemas", "karmada"},
	"karmada/controller":  {"manifest", "cluster", "schemas", "karmada", "karmada/propagation", "karmada/override"},
	"render/builtin":      {},
	"render":              {"manifest", "cluster", "schemas", "render/patch"},
	"render/patch":        {},
	"render/cueval":       {"manifest", "cluster", "schemas", "render", "render/patch"},
	"render/policy":       {"manifest", "cluster", "schemas", "render", "render/patch"},
	"render/workflow":     {"manifest", "cluster", "schemas", "render", "render/patch", "render/cueval", "render/policy"},
	"render/addon":        {"manifest", "cluster", "schemas", "render", "render/patch"},
	"pipeline":            {"manifest", "cluster", "schemas", "render", "render/patch", "render/cueval", "render/policy", "render/workflow", "render/builtin", "render/addon", "golden", "karmada", "karmada/propagation", "karmada/override", "karmada/controller"},
	"check":               {"manifest", "cluster", "schemas", "render", "render/patch", "render/cueval", "render/policy", "render/workflow", "render/builtin", "render/addon", "golden", "pipeline", "karmada", "karmada/propagation", "karmada/override", "karmada/controller", "rules", "gatekeeper", "regosandbox"},
	"report":              {"manifest", "cluster", "schemas", "render", "render/patch", "render/cueval", "render/policy", "render/workflow", "render/builtin", "render/addon", "golden", "pipeline", "karmada", "karmada/propagation", "karmada/override", "karmada/controller", "rules", "gatekeeper", "regosandbox", "check"},
	"cmd/drydock":         {"manifest", "cluster", "schemas", "render", "render/patch", "render/cueval", "render/policy", "render/workflow", "render/builtin", "render/addon", "golden", "pipeline", "karmada", "karmada/propagation", "karmada/override", "karmada/controller", "rules", "gatekeeper", "regosandbox", "check", "report", "gitrev", "reconcile"},
}

// direct narrows, for packages whose allowed list is mostly what they
// reach through another package, the drydock packages they may import
// themselves: report formats check's results and must not render.
var direct = map[string][]string{
	"check":  {"manifest", "cluster", "schemas", "golden", "pipeline", "rules", "gatekeeper", "regosandbox"},
	"report": {"manifest", "check"},
}

const module = "github.com/drydock-dev/drydock"

// TestLayout enforces the package dependency rules with go list -deps.
func TestLayout(t *testing.T) {
	for pkg, ok := range allowed {
		out, err := exec.Command("go", "list", "-deps", "./"+pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		permitted := map[string]bool{pkg: true}
		for _, p := range ok {
			permitted[p] = true
		}
		for _, dep := range strings.Fields(string(out)) {
			rel, found := strings.CutPrefix(dep, module+"/")
			if !found || rel == dep {
				continue
			}
			if !permitted[rel] {
				t.Errorf("%s imports %s, which the layout does not allow", pkg, rel)
			}
		}
	}
}

// TestDirectImports enforces direct with go list's Imports.
func TestDirectImports(t *testing.T) {
	for pkg, ok := range direct {
		out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "./"+pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			rel, found := strings.CutPrefix(dep, module+"/")
			if found && !slices.Contains(ok, rel) {
				t.Errorf("%s imports %s directly, which the layout does not allow", pkg, rel)
			}
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
		if _, ok := allowed[rel]; !ok {
			t.Errorf("package %s is missing from the layout (allowed)", rel)
		}
	}
}
