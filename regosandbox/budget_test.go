package regosandbox

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestBudget: an evaluation past the time limit is cancelled and stops its
// key: later evaluations of that key are not started, others still run.
func TestBudget(t *testing.T) {
	b := &Budget{Timeout: 20 * time.Millisecond}
	naming := func() (manifest.Pos, string) { return manifest.Pos{File: "p.rego", Line: 3, Col: 1}, "rule main.deny" }
	loop := func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() }
	calls := 0
	quick := func(context.Context) error { calls++; return nil }

	err := b.Eval(context.Background(), "a", naming, "obj 1", loop)
	var se *StopError
	if !errors.As(err, &se) || se.Skipped || !errors.Is(err, ErrStopped) {
		t.Fatalf("Eval %v, want a *StopError of this evaluation", err)
	}
	want := "p.rego:3:1: evaluating rule main.deny on obj 1 took longer than the time limit of 20ms"
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
	err = b.Eval(context.Background(), "a", naming, "obj 2", quick)
	if !errors.As(err, &se) || !se.Skipped || calls != 0 {
		t.Errorf("Eval of the stopped key: %v, %d calls; want skipped without a call", err, calls)
	}
	if err := b.Eval(context.Background(), "b", naming, "obj 2", quick); err != nil || calls != 1 {
		t.Errorf("Eval of another key: %v, %d calls; want it run", err, calls)
	}
	// The caller's cancellation is not a stop.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.Eval(ctx, "c", naming, "obj", loop); !errors.Is(err, context.Canceled) || errors.Is(err, ErrStopped) {
		t.Errorf("Eval under a cancelled context: %v, want context.Canceled", err)
	}
}
