package main

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/pipeline"
)

// Default limits: generous for every real definition (the built-in ones
// evaluate in about a millisecond; 10,000 applications render in well
// under 2 GiB), small enough to stop a runaway template or rule.
const (
	defaultEvalTimeout = 30 * time.Second
	defaultRuleTimeout = 10 * time.Second
	defaultMemory      = "4GiB"
)

// limitFlags are the flags bounding evaluation, shared by the commands
// that evaluate user CUE.
type limitFlags struct {
	evalTimeout time.Duration
	memory      string
	// guard is shared by every run of the command (--watch re-runs
	// included, copies of the flags too): no evaluation starts while one
	// a limit stopped still runs.
	guard *pipeline.Guard
}

func (l *limitFlags) register(fs *pflag.FlagSet) {
	l.guard = &pipeline.Guard{}
	fs.DurationVar(&l.evalTimeout, "eval-timeout", defaultEvalTimeout, "time limit of each CUE evaluation (a definition template, an expression, an addon); 0: none")
	fs.StringVar(&l.memory, "memory-limit", defaultMemory, "memory limit of the process while it evaluates (e.g. 512MiB, 8GiB); 0: none")
}

// limits parses the flags into pipeline limits and sets the Go runtime's
// soft memory limit to the same figure, so the collector works harder
// before the watchdog stops the run.
func (l *limitFlags) limits() (pipeline.Limits, error) {
	mem, err := check.ParseSize(l.memory)
	if err != nil {
		return pipeline.Limits{}, fmt.Errorf("--memory-limit %q: %w", l.memory, err)
	}
	if mem > 0 {
		debug.SetMemoryLimit(int64(mem))
	}
	return pipeline.Limits{EvalTimeout: l.evalTimeout, Memory: mem, Guard: l.guard}, nil
}

// limitHint says how to raise the limit that stopped a run.
func limitHint(err error) string {
	var le *pipeline.LimitError
	if errors.Is(err, pipeline.ErrNotRun) || !errors.As(err, &le) {
		return ""
	}
	if strings.Contains(le.Reason, "memory") {
		return "drydock: raise the limit with --memory-limit (limits.memory in drydock.yaml) if the input is meant to need more\n"
	}
	return "drydock: raise the limit with --eval-timeout (limits.evalTimeout in drydock.yaml) if the template is meant to take longer\n"
}
