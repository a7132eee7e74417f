package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// slowDef is a component whose template takes about a second for size
// 160 (a comprehension over size² pairs): finite, far past a 10ms limit.
const slowDef = `import "strings"

slow: {
	type: "component"
	attributes: workload: definition: {apiVersion: "v1", kind: "ConfigMap"}
}
template: {
	output: {
		apiVersion: "v1"
		kind:       "ConfigMap"
		metadata: name: context.name
		_xs: strings.Split(strings.Repeat("a,", parameter.size), ",")
		data: pairs: "\(len([for i in _xs for j in _xs {i + j}]))"
	}
	parameter: size: int
}
`

func TestEvalTimeout(t *testing.T) {
	dir := t.TempDir()
	def := filepath.Join(dir, "slow.cue")
	app := filepath.Join(dir, "app.yaml")
	must(t, os.WriteFile(def, []byte(slowDef), 0o644))
	must(t, os.WriteFile(app, []byte("apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n    - {name: s, type: slow, properties: {size: 160}}\n"), 0o644))
	start := time.Now()
	_, err := Run(context.Background(), Inputs{Paths: []string{app}, DefinitionPaths: []string{def}, Limits: Limits{EvalTimeout: 10 * time.Millisecond}})
	if !errors.Is(err, ErrLimit) || !errors.Is(err, ErrInput) {
		t.Fatalf("Run error %v, want ErrLimit and ErrInput", err)
	}
	want := def + `:3:1: application "a": ComponentDefinition "slow": evaluation took longer than the time limit of 10ms`
	if err.Error() != want {
		t.Errorf("error %q,\nwant %q", err, want)
	}
	t.Logf("stopped after %s", time.Since(start))

	// Within a generous limit the same inputs render.
	must(t, os.WriteFile(app, []byte("apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n    - {name: s, type: slow, properties: {size: 10}}\n"), 0o644))
	res, err := Run(context.Background(), Inputs{Paths: []string{app}, DefinitionPaths: []string{def}, Limits: Limits{EvalTimeout: time.Minute, Memory: 8 << 30}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Clusters.List("local"); len(got) != 1 || !strings.Contains(got[0].Source, "component s") {
		t.Errorf("rendered %v", got)
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[uint64]string{512: "512B", 4 << 30: "4GiB", 1536 << 20: "1.5GiB", 64 << 20: "64MiB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
