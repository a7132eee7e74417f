package drydock_test

import (
	"os/exec"
	"strings"
	"testing"
)

// allowed lists, per package, the drydock packages it may import (the
// layout in DESIGN.md). Dependencies point one way, toward manifest.
var allowed = map[string][]string{
	"manifest":        {},
	"schemas":         {"manifest"},
	"cluster":         {"manifest"},
	"golden":          {"manifest"},
	"rules":           {"manifest"},
	"overrides":       {"manifest", "cluster", "schemas"},
	"placement":       {"manifest", "cluster", "schemas"},
	"render/builtin":  {},
	"render":          {"manifest", "cluster", "schemas"},
	"render/patch":    {},
	"render/cueval":   {"manifest", "cluster", "schemas", "render", "render/patch"},
	"render/policy":   {"manifest", "cluster", "schemas", "render"},
	"render/workflow": {"manifest", "cluster", "schemas", "render", "render/patch", "render/cueval", "render/policy"},
	"render/addon":    {"manifest", "schemas", "render"},
	"pipeline":        {"manifest", "cluster", "schemas", "render", "render/patch", "render/cueval", "render/policy", "render/workflow", "render/builtin", "render/addon", "golden", "placement", "overrides"},
	"cmd/drydock":     {"manifest", "cluster", "schemas", "render", "render/patch", "render/cueval", "render/policy", "render/workflow", "render/builtin", "render/addon", "golden", "pipeline", "placement", "overrides", "rules"},
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
