package regosandbox

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/drydock-dev/drydock/manifest"
)

// TestBudgetMemory: past the memory limit every running evaluation is
// cancelled, each naming its own input, and no later evaluation starts,
// whatever its key.
func TestBudgetMemory(t *testing.T) {
	b := &Budget{Memory: 1} // any heap is past it
	naming := func() (manifest.Pos, string) { return manifest.Pos{}, "template k8srequiredlabels" }
	var started sync.WaitGroup
	started.Add(2)
	errs := make([]error, 2)
	var done sync.WaitGroup
	for i, input := range []string{"obj 1", "obj 2"} {
		done.Add(1)
		go func() {
			defer done.Done()
			errs[i] = b.Eval(context.Background(), i, naming, input, func(ctx context.Context) error {
				started.Done()
				<-ctx.Done()
				return ctx.Err()
			})
		}()
	}
	done.Wait()
	for i, err := range errs {
		var se *StopError
		if !errors.As(err, &se) || se.Skipped || !se.Stop.Memory {
			t.Fatalf("evaluation %d: %v, want a memory stop", i, err)
		}
		want := "evaluating template k8srequiredlabels on obj " + string(rune('1'+i)) + " made the heap grow to "
		if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "past the memory limit of 1B") {
			t.Errorf("evaluation %d: %q, want it to start %q and name the limit", i, err, want)
		}
	}
	calls := 0
	err := b.Eval(context.Background(), "other", naming, "obj 3", func(context.Context) error { calls++; return nil })
	var se *StopError
	if !errors.As(err, &se) || !se.Skipped || calls != 0 {
		t.Fatalf("Eval after the memory stop: %v, %d calls; want skipped", err, calls)
	}
	if !strings.HasPrefix(err.Error(), "not evaluated: evaluating template k8srequiredlabels on obj ") {
		t.Errorf("skipped error %q does not cite the stop", err)
	}
}

// TestBudgetMemoryWatcherStops: with a limit the heap never reaches, the
// watcher lets evaluations finish and exits when none runs.
func TestBudgetMemoryWatcherStops(t *testing.T) {
	b := &Budget{Memory: 1 << 50}
	naming := func() (manifest.Pos, string) { return manifest.Pos{File: "p.rego", Line: 1, Col: 1}, "rule main.deny" }
	for i := range 3 {
		err := b.Eval(context.Background(), "k", naming, "obj", func(context.Context) error {
			runtime.Gosched()
			return nil
		})
		if err != nil {
			t.Fatalf("Eval %d: %v", i, err)
		}
	}
	evalErr := errors.New("rego failed")
	if err := b.Eval(context.Background(), "k", naming, "obj", func(context.Context) error { return evalErr }); !errors.Is(err, evalErr) {
		t.Errorf("Eval returned %v, want the evaluation's own error", err)
	}
}

func TestStopString(t *testing.T) {
	s := &Stop{What: "rule main.deny", Input: "a.yaml", Reason: "took longer than the time limit of 1s"}
	if got, want := s.String(), "evaluating rule main.deny on a.yaml took longer than the time limit of 1s"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

// TestCapabilities: the sandbox's capabilities lack every removed
// built-in, lack the clock ones unless asked, and allow no network.
func TestCapabilities(t *testing.T) {
	has := func(c *ast.Capabilities, name string) bool {
		for _, b := range c.Builtins {
			if b.Name == name {
				return true
			}
		}
		return false
	}
	for _, withClock := range []bool{false, true} {
		caps := Capabilities(nil, withClock)
		for name := range Removed {
			if has(caps, name) {
				t.Errorf("withClock=%v: %s is still available", withClock, name)
			}
		}
		for name := range Clock {
			if has(caps, name) != withClock {
				t.Errorf("withClock=%v: %s available = %v", withClock, name, has(caps, name))
			}
		}
		if !has(caps, "count") {
			t.Errorf("withClock=%v: the ordinary built-in count is gone", withClock)
		}
		if caps.AllowNet == nil || len(caps.AllowNet) != 0 {
			t.Errorf("withClock=%v: AllowNet = %v, want an empty list (no host)", withClock, caps.AllowNet)
		}
	}
	base := ast.CapabilitiesForThisVersion()
	n := len(base.Builtins)
	Capabilities(base, false)
	if len(base.Builtins) != n {
		t.Error("Capabilities changed the caller's built-in list")
	}
}
