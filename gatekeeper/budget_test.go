package gatekeeper

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

// loopObjects are n ConfigMaps, labelled with a team except the first.
func loopObjects(n int) []*manifest.Object {
	out := make([]*manifest.Object, n)
	for i := range out {
		meta := map[string]any{"name": fmt.Sprintf("cm%d", i), "namespace": "default"}
		if i > 0 {
			meta["labels"] = map[string]any{"team": "a"}
		}
		out[i] = manifest.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta})
		out[i].Pos = manifest.Pos{File: "objs.yaml", Line: 1 + 4*i, Col: 1}
	}
	return out
}

// TestBudget: a template that loops on every one of 1,000 objects costs
// one time limit, not 1,000; the other template is evaluated on every
// object; one error names the template, the constraint, the object and
// how many evaluations were skipped.
func TestBudget(t *testing.T) {
	const limit = 50 * time.Millisecond
	set, err := Load([]string{"testdata/loop"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, err := set.WithBudget(&regosandbox.Budget{Timeout: limit}).Check(context.Background(), loopObjects(1000))
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]got{{0, "K8sNeedsTeam/team", "deny", "no team label", nil}}, summarize(out.Violations)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
	err = out.StopErrors()
	want := `testdata/loop/policy.yaml:1:1: evaluating ConstraintTemplate "k8sloop" (constraint K8sLoop/loop) on objs.yaml:1:1: ConfigMap default/cm0 took longer than the time limit of 50ms; 999 later evaluations were skipped`
	var se *StopError
	if !errors.As(err, &se) || !errors.Is(err, ErrInvalid) || manifest.Format(err, nil) != want {
		t.Errorf("StopErrors %v,\nwant %s", err, want)
	}
	if took > 40*limit {
		t.Errorf("Check took %s for 1,000 objects, want about one limit of %s", took, limit)
	}
	t.Logf("1,000 objects, limit %s: %s", limit, took)

	// Review, the same under its own budget, returns the stop as its error.
	if _, err := set.WithBudget(&regosandbox.Budget{Timeout: limit}).Review(context.Background(), loopObjects(3)); !errors.Is(err, regosandbox.ErrStopped) {
		t.Errorf("Review error %v, want regosandbox.ErrStopped", err)
	}
	// The stopped evaluation does not go on once Check returned.
	before := cpuTime(t)
	time.Sleep(300 * time.Millisecond)
	if spent := cpuTime(t) - before; spent > 60*time.Millisecond {
		t.Errorf("the process spent %s of CPU in the 300ms after Check returned", spent)
	}
}

// TestBudgetMemory: past the memory limit the template's evaluation is
// cancelled, naming the template and the object, and no later one starts.
func TestBudgetMemory(t *testing.T) {
	set, err := Load([]string{"testdata/loop"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b := &regosandbox.Budget{Timeout: time.Minute, Memory: ms.HeapAlloc + 64<<20}
	start := time.Now()
	out, err := set.WithBudget(b).Check(context.Background(), loopObjects(20))
	if err != nil {
		t.Fatal(err)
	}
	err = out.StopErrors()
	var se *StopError
	// Both constraints' evaluations on the 19 other objects, and the
	// other constraint's on the first.
	if !errors.As(err, &se) || !se.Stop.Memory || se.Skipped != 39 {
		t.Fatalf("StopErrors %v, want a memory stop and 39 evaluations skipped", err)
	}
	if se.Stop.Input != "objs.yaml:1:1: ConfigMap default/cm0" || se.Stop.What != `ConstraintTemplate "k8sloop" (constraint K8sLoop/loop)` {
		t.Errorf("stop %+v, want the loop template on cm0", *se.Stop)
	}
	t.Logf("%v (after %s)", err, time.Since(start))
}

// TestVerifyBudget: in gator's suites, a case whose template loops fails
// with the stop, and the later cases of that template are not run.
func TestVerifyBudget(t *testing.T) {
	start := time.Now()
	res, err := Verify(context.Background(), []string{"testdata/verifyloop"}, &regosandbox.Budget{Timeout: 50 * time.Millisecond}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	for _, c := range res {
		errs = append(errs, c.Case+": "+c.Err)
	}
	want := []string{
		`first: testdata/verifyloop/template.yaml:1:1: evaluating ConstraintTemplate "k8sloop" (constraint K8sLoop/loop) on testdata/verifyloop/object.yaml:1:1: ConfigMap default/cm took longer than the time limit of 50ms`,
		`second: 1 evaluation skipped: earlier in the run, testdata/verifyloop/template.yaml:1:1: evaluating ConstraintTemplate "k8sloop" (constraint K8sLoop/loop) on testdata/verifyloop/object.yaml:1:1: ConfigMap default/cm took longer than the time limit of 50ms`,
	}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("cases (-want +got):\n%s", diff)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Verify took %s", took)
	}
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

// TestStopErrorCount: the count of the evaluations a stop skipped is
// singular for one.
func TestStopErrorCount(t *testing.T) {
	stop := &regosandbox.Stop{What: "ConstraintTemplate \"t\"", Input: "cm", Reason: "took too long"}
	for _, tt := range []struct {
		skipped int
		want    string
	}{
		{0, `evaluating ConstraintTemplate "t" on cm took too long`},
		{1, `evaluating ConstraintTemplate "t" on cm took too long; 1 later evaluation was skipped`},
		{2, `evaluating ConstraintTemplate "t" on cm took too long; 2 later evaluations were skipped`},
	} {
		if got := (&StopError{Stop: stop, Here: true, Skipped: tt.skipped}).Error(); got != tt.want {
			t.Errorf("%d skipped: %q, want %q", tt.skipped, got, tt.want)
		}
	}
}
