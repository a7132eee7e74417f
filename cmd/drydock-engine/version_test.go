package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/internal/about"
	"github.com/drydock-dev/drydock/schemas"
)

// TestAboutIsTheEngine: the front (cmd/drydock), which links neither CUE
// nor OPA nor the schemas, prints about's constants where the engine
// prints what it links and embeds: they must be the same, go.mod's
// requirements and schemas.KubeVersions' ends.
func TestAboutIsTheEngine(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "cuelang.org/go", "github.com/open-policy-agent/opa").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	vs := schemas.KubeVersions()
	got := []string{about.CUE, about.OPA, about.OldestKube, about.NewestKube}
	want := append(strings.Fields(string(out)), vs[0], vs[len(vs)-1])
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("internal/about's CUE, OPA, OldestKube, NewestKube (-engine +about):\n%s", diff)
	}
}
