package pipeline

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/cueval"
)

// Limits bound what user-supplied CUE (definition templates, valueFrom
// and if expressions, addon templates) may make a run spend. A zero field
// is no limit.
type Limits struct {
	// EvalTimeout bounds each CUE evaluation: one definition template, one
	// expression, one addon's rendering.
	EvalTimeout time.Duration
	// Memory bounds the process's heap while the run evaluates: past it
	// the run stops, naming what was being evaluated.
	Memory uint64
	// Guard, when set, is shared by the runs of one process: a run does
	// not start while an evaluation a limit stopped in another still runs
	// (ErrNotRun). Nil: each run on its own.
	Guard *Guard
}

// ErrLimit is wrapped (with ErrInput) by the error of a run that a limit
// stopped. The message starts with the position of what was evaluated.
var ErrLimit = errors.New("limit exceeded")

// watchInterval is how often the watchdog looks at the evaluations.
const watchInterval = 50 * time.Millisecond

// ErrNotRun is wrapped (with ErrInput and ErrLimit) by the error of a run
// that did not start because an evaluation a limit abandoned earlier
// under the same Guard is still running.
var ErrNotRun = errors.New("not run")

// Guard is what the bounded runs of one process (one command, its suites
// and definition tests, its --watch re-runs) share: the evaluations a
// limit stopped that still run. CUE evaluation cannot be interrupted, so
// a stopped one goes on, burning a core and allocating, until it ends by
// itself. While one runs, no run under the same Guard starts: the limits
// hold for the whole process, not per run. (Measured, 4 runs each
// abandoning a template in a row: 4 evaluations went on and the heap grew
// 6MiB/s, against 2.3MiB/s for one.) The zero Guard is ready to use; it
// is safe for concurrent use.
type Guard struct {
	mu   sync.Mutex
	runs []*LimitError
}

// Abandoned returns the oldest evaluation a limit stopped that is still
// running, or nil (always nil for a nil Guard).
func (g *Guard) Abandoned() *LimitError {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.runs) == 0 {
		return nil
	}
	return g.runs[0]
}

// abandon records le as running until done delivers the run's outcome.
func abandon[T any](g *Guard, le *LimitError, done <-chan T) {
	if g == nil {
		return
	}
	g.mu.Lock()
	g.runs = append(g.runs, le)
	g.mu.Unlock()
	go func() {
		<-done
		g.mu.Lock()
		defer g.mu.Unlock()
		for i, r := range g.runs {
			if r == le {
				g.runs = append(g.runs[:i:i], g.runs[i+1:]...)
				return
			}
		}
	}()
}

// NotRunError is a run refused because an abandoned evaluation still
// runs: it names that evaluation.
type NotRunError struct {
	Running *LimitError
}

func (e *NotRunError) Error() string {
	return fmt.Sprintf("not run: an evaluation stopped earlier by a limit is still running, and drydock starts no other beside it (CUE cannot be interrupted): %s", manifest.Format(e.Running, nil))
}

// Unwrap returns ErrNotRun and ErrLimit.
func (e *NotRunError) Unwrap() []error { return []error{ErrNotRun, ErrLimit} }

// watchdog stops a run whose evaluation outlives Limits.EvalTimeout or
// whose heap passes Limits.Memory, by cancelling the run's context with a
// cause wrapping ErrLimit. CUE evaluation cannot be interrupted, so the
// run returns at once and the stuck evaluation is abandoned (recorded in
// abandoned until it ends); its engine is never used again.
type watchdog struct {
	limits  Limits
	cancel  context.CancelCauseFunc
	mu      sync.Mutex
	sources []activitySource
	stop    chan struct{}
	// last is the last evaluation seen running, named by a memory stop
	// that finds none running.
	last cueval.Activity
}

// activitySource reports its current evaluation (cueval.Engine does).
type activitySource interface {
	Activity() (cueval.Activity, bool)
}

func startWatchdog(l Limits, cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{limits: l, cancel: cancel, stop: make(chan struct{})}
	go w.loop()
	return w
}

func (w *watchdog) close() { close(w.stop) }

// watch adds a source to the watched ones (a nil watchdog watches nothing).
func (w *watchdog) watch(s activitySource) {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.sources = append(w.sources, s)
	w.mu.Unlock()
}

// track watches one evaluation run outside a cueval.Engine (an addon's
// rendering) until the returned function is called.
func (w *watchdog) track(pos manifest.Pos, what string) func() {
	if w == nil {
		return func() {}
	}
	t := &tracked{a: cueval.Activity{Pos: pos, What: what, Since: time.Now()}}
	w.watch(t)
	return func() {
		w.mu.Lock()
		t.done = true
		w.mu.Unlock()
	}
}

type tracked struct {
	a    cueval.Activity
	done bool // guarded by the watchdog's mu
}

func (t *tracked) Activity() (cueval.Activity, bool) { return t.a, !t.done }

func (w *watchdog) loop() {
	tick := time.NewTicker(watchInterval)
	defer tick.Stop()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for {
		select {
		case <-w.stop:
			return
		case <-tick.C:
		}
		if err := w.check(sample); err != nil {
			w.cancel(err)
			return
		}
	}
}

// check returns the limit error to stop the run with, if any.
func (w *watchdog) check(sample []metrics.Sample) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	var running []cueval.Activity
	for _, s := range w.sources {
		if a, ok := s.Activity(); ok {
			running = append(running, a)
		}
	}
	if len(running) > 0 {
		w.last = running[0]
	}
	for _, a := range running {
		if d := w.limits.EvalTimeout; d > 0 && time.Since(a.Since) > d {
			return &LimitError{Activity: a, Reason: fmt.Sprintf("evaluation took longer than the time limit of %s", d)}
		}
	}
	if w.limits.Memory == 0 {
		return nil
	}
	metrics.Read(sample)
	if heap := sample[0].Value.Uint64(); heap > w.limits.Memory {
		reason := fmt.Sprintf("the heap grew to %s, past the memory limit of %s", manifest.FormatBytes(heap), manifest.FormatBytes(w.limits.Memory))
		if a := w.limits.Guard.Abandoned(); a != nil {
			reason += fmt.Sprintf(" while an evaluation stopped earlier still ran (%s)", manifest.Format(a, nil))
		}
		if len(running) == 0 {
			if w.last.What != "" {
				reason += fmt.Sprintf(" (no evaluation was running; the last one seen was %s)", activity(w.last))
			}
			return &LimitError{Reason: reason}
		}
		return &LimitError{Activity: running[0], Reason: reason + " during this evaluation"}
	}
	return nil
}

// LimitError is a run stopped by a limit, naming the evaluation.
type LimitError struct {
	Activity cueval.Activity
	Reason   string
}

func (e *LimitError) Error() string {
	if located := e.located(); located != nil {
		return located.Error()
	}
	if e.Activity.What == "" {
		return e.Reason
	}
	return fmt.Sprintf("%s: %s", activity(e.Activity), e.Reason)
}

// activity names an evaluation: "pos: what", or what alone for one of
// an input without a position (built in memory).
func activity(a cueval.Activity) string {
	if !a.Pos.IsValid() {
		return a.What
	}
	return fmt.Sprintf("%s: %s", a.Pos, a.What)
}

// Unwrap returns ErrLimit and, for an evaluation with a place, the error
// located where it is defined (its text is the error's).
func (e *LimitError) Unwrap() []error {
	if located := e.located(); located != nil {
		return []error{ErrLimit, located}
	}
	return []error{ErrLimit}
}

// located is the error at the evaluation's place (nil without one).
func (e *LimitError) located() *manifest.Error {
	if e.Activity.What == "" || !e.Activity.Pos.IsValid() {
		return nil
	}
	return manifest.At(e.Activity.Pos, "%s: %s", e.Activity.What, e.Reason)
}

// bounded runs run under a watchdog of limits: it returns run's result,
// or the limit error as soon as a limit is hit, without waiting for the
// abandoned evaluation. A panic in run is raised again here.
func bounded[T any](ctx context.Context, limits Limits, run func(context.Context, *watchdog) (T, error)) (T, error) {
	var zero T
	if limits.EvalTimeout == 0 && limits.Memory == 0 {
		return run(ctx, nil)
	}
	if a := limits.Guard.Abandoned(); a != nil {
		return zero, inputError(&NotRunError{Running: a})
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	wd := startWatchdog(limits, cancel)
	defer wd.close()
	type outcome struct {
		res   T
		err   error
		panic *WorkerPanic
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				p, ok := r.(*WorkerPanic)
				if !ok {
					p = &WorkerPanic{Value: r, Stack: debug.Stack()}
				}
				done <- outcome{panic: p}
			}
		}()
		res, err := run(ctx, wd)
		done <- outcome{res: res, err: err}
	}()
	select {
	case o := <-done:
		if o.panic != nil {
			panic(o.panic)
		}
		return o.res, o.err
	case <-ctx.Done():
		cause := context.Cause(ctx)
		var le *LimitError
		if !errors.As(cause, &le) {
			return zero, ctx.Err()
		}
		abandon(limits.Guard, le, done)
		return zero, inputError(cause)
	}
}
