package pipeline

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// ordered calls work(state, i) for every i in [0, n) on at most workers
// goroutines (GOMAXPROCS when workers <= 0), each with its own state made
// by newState (a render engine, say), and hands each result to consume, in the
// caller's goroutine, in index order: result i as soon as it and every
// result before it are done. At most window results are pending at once
// (being computed, or done and waiting for an earlier one), so memory
// stays bounded however large n is. No new work is handed out once ctx is
// done; callers check ctx afterwards. A worker's panic is raised again in
// the caller's goroutine as a *WorkerPanic.
func ordered[S, R any](ctx context.Context, n, workers, window int, newState func() S, work func(S, int) R, consume func(int, R)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers = min(workers, n); workers == 0 {
		return
	}
	// A token is held from handing an index out until the consumer has
	// its result, so the indices pending are within one ring of done.
	tokens := make(chan struct{}, max(window, workers))
	o := &orderedRun[R]{done: make([]pending[R], cap(tokens)), feeding: true}
	o.cond = sync.NewCond(&o.mu)
	next, stop := make(chan int), make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer o.recover(next)
			s := newState()
			for i := range next {
				o.finish(i, work(s, i))
			}
		}()
	}
	go o.feed(ctx, n, tokens, next, stop)
	defer func() {
		close(stop)
		wg.Wait()
		if p := o.panicked.Load(); p != nil {
			panic(p)
		}
	}()
	for i := 0; ; i++ {
		r, ok := o.wait(i)
		if !ok {
			return
		}
		<-tokens
		consume(i, r)
	}
}

// orderedRun is the state ordered's goroutines share.
type orderedRun[R any] struct {
	mu   sync.Mutex
	cond *sync.Cond
	// done holds finished results not yet consumed; handed counts the
	// indexes given to workers, feeding is set until the last one is.
	// done[i%len(done)] is index i's: no allocation per result (a map
	// of a result wider than 128 bytes, as renderAll's, allocates each
	// one it holds).
	done     []pending[R]
	handed   int
	feeding  bool
	panicked atomic.Pointer[WorkerPanic]
}

// feed hands out indexes, one token of the window each, until n are
// handed out, ctx is done, a worker panicked or the consumer stopped.
func (o *orderedRun[R]) feed(ctx context.Context, n int, tokens chan struct{}, next chan int, stop chan struct{}) {
	defer func() {
		close(next)
		o.mu.Lock()
		o.feeding = false
		o.cond.Broadcast()
		o.mu.Unlock()
	}()
	for i := range n {
		select {
		case tokens <- struct{}{}:
		case <-ctx.Done():
			return
		case <-stop:
			return
		}
		if ctx.Err() != nil || o.panicked.Load() != nil {
			return
		}
		o.mu.Lock()
		o.handed++
		o.mu.Unlock()
		next <- i
	}
}

func (o *orderedRun[R]) finish(i int, r R) {
	o.mu.Lock()
	o.done[i%len(o.done)] = pending[R]{r: r, ok: true}
	o.cond.Broadcast()
	o.mu.Unlock()
}

// pending is a slot of orderedRun.done.
type pending[R any] struct {
	r  R
	ok bool
}

// wait returns result i once it is done; false when it never will be
// (the feeder stopped before handing it out, or a worker panicked).
func (o *orderedRun[R]) wait(i int) (R, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for {
		if p := &o.done[i%len(o.done)]; p.ok {
			r := p.r
			*p = pending[R]{} // drop the result's references
			return r, true
		}
		if o.panicked.Load() != nil || (!o.feeding && i >= o.handed) {
			var zero R
			return zero, false
		}
		o.cond.Wait()
	}
}

// recover records a worker's panic, wakes the consumer and drains the
// feeder so that it does not block.
func (o *orderedRun[R]) recover(next chan int) {
	r := recover()
	if r == nil {
		return
	}
	o.panicked.CompareAndSwap(nil, &WorkerPanic{Value: r, Stack: debug.Stack()})
	o.mu.Lock()
	o.cond.Broadcast()
	o.mu.Unlock()
	for range next {
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
