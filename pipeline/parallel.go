package pipeline

import (
	"context"
	"runtime"
	"sync"
)

// parallel calls work(state, i) for every i in [0, n) on at most workers
// goroutines (GOMAXPROCS when workers <= 0). Each goroutine makes its own
// state with newState (a render engine, say) and keeps it. No new work is
// handed out once ctx is done; callers check ctx afterwards.
func parallel[S any](ctx context.Context, n, workers int, newState func() S, work func(s S, i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := newState()
			for i := range next {
				work(s, i)
			}
		}()
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
}
