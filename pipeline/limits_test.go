package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drydock-dev/drydock/internal/usage"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/cueval"
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
	if manifest.Format(err, nil) != want {
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

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestAbandonedEvaluations: several runs in a row, each meeting a
// template that outlives its time limit. CUE cannot be interrupted, so
// the first stopped evaluation goes on in the background; the runs after
// it must not start evaluations of their own beside it (each would burn a
// core and grow the heap the memory limit is about): they are refused,
// naming the evaluation still running.
func TestAbandonedEvaluations(t *testing.T) {
	dir := t.TempDir()
	def := filepath.Join(dir, "slow.cue")
	app := filepath.Join(dir, "app.yaml")
	must(t, os.WriteFile(def, []byte(slowDef), 0o644))
	must(t, os.WriteFile(app, []byte("apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n    - {name: s, type: slow, properties: {size: 200}}\n"), 0o644))
	guard := &Guard{}
	in := Inputs{Paths: []string{app}, DefinitionPaths: []string{def}, Limits: Limits{EvalTimeout: 50 * time.Millisecond, Memory: 8 << 30, Guard: guard}}
	before := cpuTime(t)
	var errs []error
	for range 4 {
		_, err := Run(context.Background(), in)
		errs = append(errs, err)
	}
	window := time.Now()
	cpuBefore := cpuTime(t)
	time.Sleep(time.Second)
	spent := cpuTime(t) - cpuBefore
	t.Logf("4 runs: %s CPU until they returned; %s CPU in the next %s", cpuBefore-before, spent, time.Since(window).Round(time.Millisecond))
	for i, err := range errs {
		t.Logf("run %d: %v", i, err)
	}
	if !errors.Is(errs[0], ErrLimit) || errors.Is(errs[0], ErrNotRun) {
		t.Fatalf("first run: %v, want the time limit", errs[0])
	}
	for _, err := range errs[1:] {
		if !errors.Is(err, ErrNotRun) || !errors.Is(err, ErrInput) || !strings.Contains(manifest.Format(err, nil), `ComponentDefinition "slow"`) {
			t.Errorf("later run: %v, want ErrNotRun naming the evaluation still running", err)
		}
	}
	// One abandoned evaluation (not four). Counted, not timed: on two
	// cores one evaluation and the garbage collector beside it can use
	// more than a core's second, so CPU time only tells four from one
	// on a quiet machine.
	guard.mu.Lock()
	running := len(guard.runs)
	guard.mu.Unlock()
	if running != 1 {
		t.Errorf("%d abandoned evaluations run after the runs (%s of CPU in one second), want 1", running, spent)
	}
	waitAbandoned(t, guard, 2*time.Minute)
	// Once it has ended, runs start again.
	_, err := Run(context.Background(), in)
	if !errors.Is(err, ErrLimit) || errors.Is(err, ErrNotRun) {
		t.Errorf("run after the abandoned evaluation ended: %v, want the time limit", err)
	}
}

// waitAbandoned waits for the abandoned evaluations to end, so that the
// other tests start clean.
func waitAbandoned(t *testing.T, g *Guard, limit time.Duration) {
	t.Helper()
	start := time.Now()
	for g.Abandoned() != nil {
		if time.Since(start) > limit {
			t.Fatalf("an abandoned evaluation still runs after %s", limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("the abandoned evaluation ended %s later", time.Since(start).Round(time.Millisecond))
}

// cpuTime is the CPU time the process has used.
func cpuTime(t *testing.T) time.Duration {
	t.Helper()
	cpu, err := usage.CPU()
	if err != nil {
		t.Fatal(err)
	}
	return cpu
}

// TestLimitErrorText checks how a limit error names its evaluation: with
// its position, or without one for an input built in memory (no empty
// position before the colon).
func TestLimitErrorText(t *testing.T) {
	for _, tt := range []struct {
		err  *LimitError
		want string
	}{
		{&LimitError{Reason: "stopped"}, "stopped"},
		{&LimitError{Activity: cueval.Activity{Pos: manifest.Pos{File: "a.yaml", Line: 3, Col: 5}, What: `step "s" if`}, Reason: "stopped"}, `a.yaml:3:5: step "s" if: stopped`},
		{&LimitError{Activity: cueval.Activity{What: `step "s" if`}, Reason: "stopped"}, `step "s" if: stopped`},
	} {
		if got := manifest.Format(tt.err, nil); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}
