package regosandbox

import (
	"context"
	"errors"
	"fmt"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/drydock-dev/drydock/manifest"
)

// ErrStopped is wrapped by the error of an evaluation a Budget stopped or
// skipped.
var ErrStopped = errors.New("rego evaluation stopped by a limit")

// Budget bounds the untrusted Rego of one run, however many inputs it is
// evaluated on. Each evaluation may take Timeout; one that takes longer is
// cancelled (OPA stops at its next step) and stops its key (a rule, a
// template) for the rest of the run: later evaluations of that key are
// skipped, not started. While evaluations run, the heap may grow to Memory;
// past it every running evaluation is cancelled and no later one starts.
// A zero field is no limit. A Budget is safe for concurrent use; it must
// not be copied after first use.
type Budget struct {
	Timeout time.Duration
	Memory  uint64

	mu sync.Mutex
	// anyStop tells that stops or memory is set (read without mu).
	anyStop atomic.Bool
	stops   map[any]*Stop
	memory  *Stop
	active  map[*running]struct{}
	// watching tells that the memory watcher runs.
	watching bool
}

// Stop is what a Budget stopped: an evaluation of What on Input that
// outlived the time limit (then only that key is stopped), or during
// which the heap passed the memory limit (then everything is).
type Stop struct {
	// Pos is where what is written, if known.
	Pos manifest.Pos
	// What names the key: "rule main.deny (policy/main.rego:3:1)".
	What string
	// Input names the input the evaluation was given.
	Input string
	// Reason says which limit: "took longer than the time limit of 50ms".
	Reason string
	// Memory tells that the memory limit stopped it.
	Memory bool
}

// StopError is an evaluation the budget stopped (Skipped false) or did not
// start because of an earlier stop (Skipped true).
type StopError struct {
	Stop    *Stop
	Skipped bool
}

// Error writes the stop with its position (the error does not wrap the
// located stop: its place is not the error's).
func (e *StopError) Error() string {
	text := manifest.Format(e.Stop.Located(), nil)
	if e.Skipped {
		return "not evaluated: " + text
	}
	return text
}

// Unwrap returns ErrStopped.
func (e *StopError) Unwrap() error { return ErrStopped }

// String is "evaluating <what> on <input> <reason>", the text of Located:
// an error that writes it wraps Located, so that manifest.Format writes
// the position before it.
func (s *Stop) String() string { return s.Located().Error() }

// Located is the stop as a located error: "evaluating <what> on <input>
// <reason>" at Pos. A StopError that names the stop wraps it, so that
// manifest.PosOf finds the place.
func (s *Stop) Located() *manifest.Error {
	return manifest.At(s.Pos, "evaluating %s on %s %s", s.What, s.Input, s.Reason)
}

// Naming gives the place and the name of what an evaluation evaluates
// (policy/main.rego:3:1, "rule main.deny"), when a stop needs them: it
// may be called from another goroutine while the evaluation runs.
type Naming func() (pos manifest.Pos, what string)

// running is one evaluation in progress, for the memory watcher.
type running struct {
	what   Naming
	input  string
	cancel context.CancelCauseFunc
}

// memoryInterval is how often the heap is read while evaluations run.
const memoryInterval = 20 * time.Millisecond

// Eval runs eval for key (named what) on input under the budget. It
// returns a *StopError (Skipped) without calling eval when key, or
// everything, was stopped earlier; a *StopError with its own Stop when the
// budget cancelled this evaluation (parallel evaluations of one key may
// each be cancelled: the first recorded is the one later ones cite); else
// eval's error. eval must return once its context is done (OPA's
// evaluation does).
func (b *Budget) Eval(ctx context.Context, key any, what Naming, input string, eval func(context.Context) error) error {
	if s := b.stopped(key); s != nil {
		return &StopError{Stop: s, Skipped: true}
	}
	if b.Timeout == 0 && b.Memory == 0 {
		return eval(ctx)
	}
	ectx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if b.Timeout > 0 {
		var stop context.CancelFunc
		ectx, stop = context.WithTimeoutCause(ectx, b.Timeout, errTimeout)
		defer stop()
	}
	r := &running{what: what, input: input, cancel: cancel}
	b.begin(r)
	err := eval(ectx)
	b.end(r)
	if err == nil || ctx.Err() != nil {
		return err
	}
	switch cause := context.Cause(ectx); {
	case errors.Is(cause, errTimeout):
		pos, name := what()
		mine := &Stop{Pos: pos, What: name, Input: input, Reason: fmt.Sprintf("took longer than the time limit of %s", b.Timeout)}
		b.stop(key, mine)
		return &StopError{Stop: mine}
	case errors.As(cause, new(*StopError)):
		return cause
	}
	return err
}

// errTimeout is the cause of an evaluation's context past Timeout.
var errTimeout = errors.New("time limit")

// stopped is the stop that bars key, if any.
func (b *Budget) stopped(key any) *Stop {
	if !b.anyStop.Load() {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.memory != nil {
		return b.memory
	}
	return b.stops[key]
}

// stop records s for key unless key was stopped already (by a parallel
// evaluation).
func (b *Budget) stop(key any, s *Stop) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stops[key] != nil {
		return
	}
	if b.stops == nil {
		b.stops = map[any]*Stop{}
	}
	b.stops[key] = s
	b.anyStop.Store(true)
}

// begin registers r, starting the memory watcher if it is needed.
func (b *Budget) begin(r *running) {
	if b.Memory == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.active == nil {
		b.active = map[*running]struct{}{}
	}
	b.active[r] = struct{}{}
	if !b.watching {
		b.watching = true
		go b.watch()
	}
}

func (b *Budget) end(r *running) {
	if b.Memory == 0 {
		return
	}
	b.mu.Lock()
	delete(b.active, r)
	b.mu.Unlock()
}

// watch reads the heap while evaluations run; past Memory it cancels
// them all, each naming its own input, and bars later evaluations.
func (b *Budget) watch() {
	tick := time.NewTicker(memoryInterval)
	defer tick.Stop()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for range tick.C {
		metrics.Read(sample)
		heap := sample[0].Value.Uint64()
		b.mu.Lock()
		if len(b.active) == 0 {
			b.watching = false
			b.mu.Unlock()
			return
		}
		if heap > b.Memory {
			b.cancelAll(heap)
		}
		b.mu.Unlock()
	}
}

// cancelAll stops every running evaluation for the memory limit (b.mu
// held).
func (b *Budget) cancelAll(heap uint64) {
	reason := fmt.Sprintf("made the heap grow to %s, past the memory limit of %s", manifest.FormatBytes(heap), manifest.FormatBytes(b.Memory))
	for r := range b.active {
		pos, what := r.what()
		s := &Stop{Pos: pos, What: what, Input: r.input, Reason: reason, Memory: true}
		if b.memory == nil {
			b.memory = s
			b.anyStop.Store(true)
		}
		r.cancel(&StopError{Stop: s})
		delete(b.active, r)
	}
}
