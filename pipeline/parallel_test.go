package pipeline

import (
	"context"
	"runtime"
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
// is wider than a map keeps inline). It counts the allocations made
// under orderedRun's methods, not the process's: other tests leave
// renders running (abandoned at a limit).
func TestOrderedAllocations(t *testing.T) {
	type wide struct {
		i int
		_ [40]int
	}
	n := allocsUnder(t, "orderedRun", func() {
		ordered(context.Background(), 2000, 2, 8, func() int { return 0 }, func(_ int, i int) wide { return wide{i: i} }, func(i int, r wide) {
			if r.i != i {
				t.Fatalf("result %d for index %d", r.i, i)
			}
		})
	})
	if n > 100 {
		t.Errorf("%d allocations under orderedRun for 2000 results: results allocate", n)
	}
}

// allocsUnder counts the allocations f makes in calls of functions
// whose name contains fn (from the heap profile, every allocation
// sampled).
func allocsUnder(t *testing.T, fn string, f func()) int64 {
	t.Helper()
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 1
	count := func() int64 {
		runtime.GC()
		runtime.GC() // the profile is published a cycle late
		var recs []runtime.MemProfileRecord
		n, _ := runtime.MemProfile(nil, true)
		for {
			recs = make([]runtime.MemProfileRecord, n+50)
			var ok bool
			if n, ok = runtime.MemProfile(recs, true); ok {
				recs = recs[:n]
				break
			}
		}
		var total int64
		for _, r := range recs {
			frames := runtime.CallersFrames(r.Stack())
			for {
				fr, more := frames.Next()
				if strings.Contains(fr.Function, fn) {
					total += r.AllocObjects
					break
				}
				if !more {
					break
				}
			}
		}
		return total
	}
	before := count()
	f()
	return count() - before
}
