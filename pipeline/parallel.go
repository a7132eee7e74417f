package pipeline

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// parallel calls work(state, i) for every i in [0, n) on at most workers
// goroutines (GOMAXPROCS when workers <= 0). Each goroutine makes its own
// state with newState (a render engine, say) and keeps it. No new work is
// handed out once ctx is done; callers check ctx afterwards.
//
// A panic in work or newState stops handing out work and is raised again
// in the caller's goroutine as a *WorkerPanic, so a recover at the
// command boundary sees it instead of the process dying with a goroutine
// dump.
func parallel[S any](ctx context.Context, n, workers int, newState func() S, work func(s S, i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	next := make(chan int)
	var wg sync.WaitGroup
	var first atomic.Pointer[WorkerPanic]
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					first.CompareAndSwap(nil, &WorkerPanic{Value: r, Stack: debug.Stack()})
					for range next { // drain: the feeder must not block
					}
				}
			}()
			s := newState()
			for i := range next {
				work(s, i)
			}
		}()
	}
	for i := range n {
		if ctx.Err() != nil || first.Load() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if p := first.Load(); p != nil {
		panic(p)
	}
}

// WorkerPanic is a panic raised in a worker goroutine, carried to the
// goroutine that started the work.
type WorkerPanic struct {
	Value any
	// Stack is the worker's stack when it panicked.
	Stack []byte
}

func (p *WorkerPanic) Error() string { return fmt.Sprint(p.Value) }

// StackTrace returns the worker's stack.
func (p *WorkerPanic) StackTrace() []byte { return p.Stack }
