package main

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

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
}

func (l *limitFlags) register(fs *pflag.FlagSet) {
	fs.DurationVar(&l.evalTimeout, "eval-timeout", defaultEvalTimeout, "time limit of each CUE evaluation (a definition template, an expression, an addon); 0: none")
	fs.StringVar(&l.memory, "memory-limit", defaultMemory, "memory limit of the process while it evaluates (e.g. 512MiB, 8GiB); 0: none")
}

// limits parses the flags into pipeline limits and sets the Go runtime's
// soft memory limit to the same figure, so the collector works harder
// before the watchdog stops the run.
func (l *limitFlags) limits() (pipeline.Limits, error) {
	mem, err := parseBytes(l.memory)
	if err != nil {
		return pipeline.Limits{}, fmt.Errorf("--memory-limit %q: %w", l.memory, err)
	}
	if mem > 0 {
		debug.SetMemoryLimit(int64(mem))
	}
	return pipeline.Limits{EvalTimeout: l.evalTimeout, Memory: mem}, nil
}

// parseBytes reads a size: a whole number of bytes, optionally followed
// by KiB, MiB, GiB or TiB (or Ki, Mi, Gi, Ti, as Kubernetes writes them).
func parseBytes(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"Ti", 40}, {"Gi", 30}, {"Mi", 20}, {"Ki", 10}, {"B", 0}}
	shift := uint(0)
	for _, u := range units {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			s, shift = n, u.shift
			break
		}
	}
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil || n > (1<<63-1)>>shift {
		return 0, fmt.Errorf("want a size such as 512MiB or 4GiB")
	}
	return n << shift, nil
}

// limitHint says how to raise the limit that stopped a run.
func limitHint(err error) string {
	var le *pipeline.LimitError
	if !errors.As(err, &le) {
		return ""
	}
	if strings.Contains(le.Reason, "memory") {
		return "drydock: raise the limit with --memory-limit (limits.memory in drydock.yaml) if the input is meant to need more\n"
	}
	return "drydock: raise the limit with --eval-timeout (limits.evalTimeout in drydock.yaml) if the template is meant to take longer\n"
}
