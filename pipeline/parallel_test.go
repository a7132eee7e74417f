package pipeline

import (
	"context"
	"strings"
	"testing"
)

// TestParallelPanic checks that a worker's panic reaches the caller's
// goroutine (where the CLI recovers it) with the worker's stack.
func TestParallelPanic(t *testing.T) {
	defer func() {
		r := recover()
		p, ok := r.(*WorkerPanic)
		if !ok {
			t.Fatalf("recovered %#v, want a *WorkerPanic", r)
		}
		if p.Value != "boom at 3" || !strings.Contains(string(p.StackTrace()), "TestParallelPanic") {
			t.Errorf("panic %v with stack:\n%s", p.Value, p.Stack)
		}
	}()
	parallel(context.Background(), 100, 2, func() int { return 0 }, func(_ int, i int) {
		if i == 3 {
			panic("boom at 3")
		}
	})
	t.Fatal("parallel returned after a worker panicked")
}
