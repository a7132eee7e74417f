package pipeline

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestOrdered checks that results reach the consumer in index order,
// whatever the workers' pace, with at most window of them pending.
func TestOrdered(t *testing.T) {
	for _, workers := range []int{1, 2, 5} {
		var got []int
		var pending, most atomic.Int32
		ordered(context.Background(), 200, workers, 4, func() int { return 0 }, func(_ int, i int) int {
			if p := pending.Add(1); p > most.Load() {
				most.Store(p)
			}
			if i%7 == 0 {
				time.Sleep(time.Millisecond) // finish out of order
			}
			return i * 10
		}, func(i, r int) {
			pending.Add(-1)
			if r != i*10 {
				t.Errorf("result %d for index %d", r, i)
			}
			got = append(got, i)
		})
		if len(got) != 200 {
			t.Fatalf("workers %d: consumed %d results", workers, len(got))
		}
		for i, v := range got {
			if v != i {
				t.Fatalf("workers %d: consumed %d at position %d", workers, v, i)
			}
		}
		if m := most.Load(); m > int32(max(4, workers)) {
			t.Errorf("workers %d: %d results pending at once, window 4", workers, m)
		}
	}
}

// TestOrderedStops checks that a cancelled context stops handing out
// work and that a worker's panic reaches the caller.
func TestOrderedStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	ordered(ctx, 1000, 2, 4, func() int { return 0 }, func(_ int, i int) int { return i }, func(i, _ int) {
		if n++; i == 10 {
			cancel()
		}
	})
	if n >= 1000 || n < 11 {
		t.Errorf("consumed %d results after cancelling at 10", n)
	}
	defer func() {
		p, ok := recover().(*WorkerPanic)
		if !ok || p.Value != "boom" || p.Error() != "boom" || !strings.Contains(string(p.StackTrace()), "TestOrderedStops") {
			t.Errorf("recovered %v, want the worker's panic with its stack", p)
		}
	}()
	ordered(context.Background(), 100, 2, 4, func() int { return 0 }, func(_ int, i int) int {
		if i == 50 {
			panic("boom")
		}
		return i
	}, func(int, int) {})
	t.Fatal("ordered returned after a worker panicked")
}

// TestOrderedAllocations checks that a result, however wide, costs no
// allocation of its own on its way to the consumer (renderAll's outcome
// is wider than a map keeps inline).
func TestOrderedAllocations(t *testing.T) {
	type wide struct {
		i int
		_ [40]int
	}
	run := func(n int) float64 {
		return testing.AllocsPerRun(5, func() {
			ordered(context.Background(), n, 2, 8, func() int { return 0 }, func(_ int, i int) wide { return wide{i: i} }, func(i int, r wide) {
				if r.i != i {
					t.Fatalf("result %d for index %d", r.i, i)
				}
			})
		})
	}
	if few, many := run(10), run(2000); many-few > 20 {
		t.Errorf("%v allocations for 2000 results, %v for 10: results allocate", many, few)
	}
}
