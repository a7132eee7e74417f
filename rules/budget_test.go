package rules

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/internal/usage"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/regosandbox"
)

// loopInputs are n Deployments, labelled with a team except the first.
func loopInputs(n int) []Input {
	in := make([]Input, n)
	for i := range in {
		var labels map[string]any
		if i > 0 {
			labels = map[string]any{"team": "a"}
		}
		in[i] = Input{Object: deployment(fmt.Sprintf("d%d", i), "nginx", 1, true, labels)}
	}
	return in
}

// TestRuleBudget: a rule that loops on every one of 1,000 objects costs
// one time limit, not 1,000: its namespace is not evaluated after the
// first stop, and one error names the rule, the object and the count.
func TestRuleBudget(t *testing.T) {
	// The limit must hold every cheap evaluation on a loaded machine:
	// only the endless rule may pass it.
	const limit = 250 * time.Millisecond
	eng, err := Load(context.Background(), Options{PolicyDirs: []string{"testdata/loop"}, AllNamespaces: true, QueryTimeout: limit})
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d workers", workers), func(t *testing.T) {
			start := time.Now()
			_, err := eng.Eval(context.Background(), loopInputs(1000), workers)
			took := time.Since(start)
			var se *StopError
			if !errors.As(err, &se) || !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("Eval error %v, want one *StopError wrapping ErrTimeout and ErrInvalid", err)
			}
			want := "testdata/loop/main.rego:10:1: evaluating rule main.deny_loop on apps/d0.yaml:1: Deployment.apps shop/d0 took longer than the time limit of 250ms; namespace main was not evaluated on the 999 inputs after it"
			if manifest.Format(err, nil) != want {
				t.Errorf("error\n%s\nwant\n%s", err, want)
			}
			// A thousand limits would be 250s; one is 250ms (generous
			// slack for a loaded machine).
			if took > 40*limit {
				t.Errorf("Eval took %s for 1,000 objects, want about one limit of %s", took, limit)
			}
			t.Logf("1,000 objects, limit %s, %d workers: %s", limit, workers, took)
		})
	}
}

// TestRuleBudgetShared: under one budget the other namespaces still run
// on every object, the stop is reported in the report, and a later call
// (another suite) skips the namespace from its first input on.
func TestRuleBudgetShared(t *testing.T) {
	eng, err := Load(context.Background(), Options{PolicyDirs: []string{"testdata/loop"}, AllNamespaces: true})
	if err != nil {
		t.Fatal(err)
	}
	b := &regosandbox.Budget{Timeout: 250 * time.Millisecond}
	// One worker: which of parallel stops a later call cites is timing.
	rep, err := eng.WithBudget(b).Eval(context.Background(), loopInputs(100), 1)
	if err != nil {
		t.Fatal(err)
	}
	var others []int
	for _, r := range rep.Results {
		if r.Namespace == "other" {
			others = append(others, r.Input)
		}
	}
	if diff := cmp.Diff([]int{0}, others); diff != "" {
		t.Errorf("namespace other's results by input (-want +got):\n%s", diff)
	}
	if got := len(rep.Stopped); got != 100 {
		t.Errorf("%d stopped entries, want 100 (one per input)", got)
	}
	want := "testdata/loop/main.rego:10:1: evaluating rule main.deny_loop on apps/d0.yaml:1: Deployment.apps shop/d0 took longer than the time limit of 250ms; namespace main was not evaluated on the 99 inputs after it"
	if err := rep.StopErrors(); err == nil || manifest.Format(err, nil) != want {
		t.Errorf("StopErrors %v,\nwant %s", err, want)
	}
	start := time.Now()
	rep, err = eng.WithBudget(b).Eval(context.Background(), loopInputs(10), 1)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 25*time.Millisecond {
		t.Errorf("a later call under the spent budget took %s, want no evaluation of the stopped rule", took)
	}
	want = "namespace main was not evaluated on 10 inputs: earlier in the run, " + want[:len(want)-len("; namespace main was not evaluated on the 99 inputs after it")]
	if err := rep.StopErrors(); err == nil || manifest.Format(err, nil) != want {
		t.Errorf("StopErrors %v,\nwant %s", err, want)
	}
}

// TestRuleBudgetStopsEvaluation: a stopped evaluation does not go on in
// the background: once Eval returns, the process spends no CPU.
func TestRuleBudgetStopsEvaluation(t *testing.T) {
	eng, err := Load(context.Background(), Options{PolicyDirs: []string{"testdata/loop"}, QueryTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Eval(context.Background(), loopInputs(4), 2); !errors.Is(err, ErrTimeout) {
		t.Fatalf("Eval error %v, want ErrTimeout", err)
	}
	before := cpuTime(t)
	time.Sleep(300 * time.Millisecond)
	if spent := cpuTime(t) - before; spent > 60*time.Millisecond {
		t.Errorf("the process spent %s of CPU in the 300ms after Eval returned: the evaluation goes on", spent)
	}
}

// TestRuleBudgetMemory: past the budget's memory limit the evaluation is
// cancelled, naming the rule and the input, and nothing after it starts.
func TestRuleBudgetMemory(t *testing.T) {
	eng, err := Load(context.Background(), Options{PolicyDirs: []string{"testdata/loop"}})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b := &regosandbox.Budget{Timeout: time.Minute, Memory: ms.HeapAlloc + 64<<20}
	start := time.Now()
	rep, err := eng.WithBudget(b).Eval(context.Background(), loopInputs(20), 1)
	if err != nil {
		t.Fatal(err)
	}
	err = rep.StopErrors()
	var se *StopError
	if !errors.As(err, &se) || !se.Stop.Memory || errors.Is(err, ErrTimeout) {
		t.Fatalf("StopErrors %v, want a memory stop", err)
	}
	if se.Stop.What != "rule main.deny_loop" || se.Stop.Input != "apps/d0.yaml:1: Deployment.apps shop/d0" || se.Skipped != 19 {
		t.Errorf("stop %+v skipped %d, want rule main.deny_loop on d0, 19 skipped", *se.Stop, se.Skipped)
	}
	t.Logf("%v (after %s)", err, time.Since(start))
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
