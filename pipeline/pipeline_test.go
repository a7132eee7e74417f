package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRunDeterministic renders many applications with 1 and 4 workers and
// requires the same final state.
func TestRunDeterministic(t *testing.T) {
	var sb strings.Builder
	for i := range 20 {
		sb.WriteString(strings.ReplaceAll(`---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: app-N}
spec:
  components:
    - name: shared
      type: webservice
      properties: {image: "img:N"}
`, "N", string(rune('a'+i))))
	}
	path := filepath.Join(t.TempDir(), "apps.yaml")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	state := func(workers int) []string {
		res, err := Run(context.Background(), Inputs{Paths: []string{path}, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range res.Clusters.List("local") {
			out = append(out, e.Object.Kind()+"/"+e.Object.Name()+" "+e.Source)
		}
		return out
	}
	one, four := state(1), state(4)
	if diff := cmp.Diff(one, four); diff != "" {
		t.Errorf("workers change the result (-1 +4):\n%s", diff)
	}
	// Every app writes Deployment "shared": the last app in input order wins.
	if want := "Deployment/shared application app-t, component shared, step shared"; one[0] != want {
		t.Errorf("first object = %q, want %q", one[0], want)
	}
}

func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := map[string]string{
		"missing file": filepath.Join(dir, "nope.yaml"),
		"no kind":      write("nokind.yaml", "metadata: {name: x}\n"),
		"bad cluster":  write("cl.yaml", "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {}\n"),
	}
	for name, path := range tests {
		_, err := Run(context.Background(), Inputs{Paths: []string{path}})
		if !errors.Is(err, ErrInput) {
			t.Errorf("%s: error %v is not ErrInput", name, err)
		}
	}
}
