// Command drydock renders what a multi-cluster Kubernetes platform would
// deploy, without a cluster. See `drydock help`.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"sync/atomic"

	"github.com/drydock-dev/drydock/internal/heapsample"
	"github.com/drydock-dev/drydock/manifest"
)

func main() { os.Exit(process()) }

// heapBudget is the heap a run may grow to before the collector runs
// (see paceGC): 28 MiB (defaultHeapBudget) for most commands. A render
// allocates about half a megabyte of short-lived CUE values per
// application over a live heap near 12 MiB: with 28 MiB the collector
// ran about 80 times for 1,000 applications and was a sixth of the CPU,
// so `render` raises the budget (renderHeapBudget: 1,000 apps 15%
// less CPU for about 20 MiB more RSS). Validation (render --validate)
// leaves about 70 KB of garbage per object, so it raises it again
// (validateHeapBudget): fewer collections for some more memory.
var heapBudget atomic.Uint64

const (
	defaultHeapBudget  = 28 << 20
	renderHeapBudget   = 48 << 20
	validateHeapBudget = 60 << 20
)

func init() { heapBudget.Store(defaultHeapBudget) }

// process is the drydock process around run: the collector's pacing
// (GOGC in the environment wins), the developers' profiles and the
// benchmarks' cost report (DRYDOCK_USAGE, written last).
func process() int {
	defer writeUsage(os.Getenv("DRYDOCK_USAGE"))
	if code, ok := checkFront(os.Stderr); !ok {
		return code
	}
	if os.Getenv("GOGC") == "" {
		paceGC()
	}
	// Helm's packages log through slog's default logger (a missing
	// required value, an unknown hook): those lines are drydock's
	// warnings, in its form, not the log package's timestamped lines.
	slog.SetDefault(slog.New(libraryLog{w: os.Stderr}))
	stop := profile(os.Getenv("DRYDOCK_CPUPROFILE"), os.Getenv("DRYDOCK_MEMPROFILE"))
	defer stop()
	return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// paceGC lets the heap grow to budget bytes before a collection while
// the live heap is small, and to twice the live heap (GOGC=100) once it
// is not. A render allocates about a megabyte of short-lived CUE values
// per application but keeps little: collecting at twice the live heap
// would collect hundreds of times, each at a fixed cost, while a budget
// keeps both the collections and the peak memory low. The percentage is
// set again after every collection.
func paceGC() {
	m := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"}}
	set := func() {
		metrics.Read(m)
		// Before the first collection there is no live heap yet: assume
		// the runtime's minimum.
		budget := heapBudget.Load()
		live, roots := max(m[0].Value.Uint64(), 4<<20), m[1].Value.Uint64()+m[2].Value.Uint64()
		// The collector's goal is live + (live + roots) * GOGC/100.
		pct := uint64(100)
		if budget > 2*live+roots {
			pct = (budget - live) * 100 / (live + roots)
		}
		debug.SetGCPercent(int(min(pct, 10_000)))
	}
	var arm func()
	arm = func() {
		// A finalizer runs after the collection that found its object
		// unreachable: once per cycle.
		runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
			set()
			arm()
		})
	}
	set()
	arm()
}

type gcSentinel struct{ _ [64]byte }

// profile starts a CPU profile into cpuFile and arranges a heap profile
// into memFile (either may be ""): the developer's view of a real run
// (DRYDOCK_CPUPROFILE, DRYDOCK_MEMPROFILE). The returned func ends them.
//
// Without a heap profile the runtime samples no allocations: at its
// default rate (one per 512 KiB) a cold 1,000-app render spent 2-3% of
// its CPU recording stacks nobody reads. Sampling is off from the start
// (package heapsample); with a heap profile the runtime's rate returns
// here, so the profile holds main's allocations, not the initialisers'.
func profile(cpuFile, memFile string) (stop func()) {
	if memFile == "" {
		runtime.MemProfileRate = 0
	} else {
		runtime.MemProfileRate = heapsample.Rate
	}
	var cpu *os.File
	if cpuFile != "" {
		f, err := os.Create(cpuFile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "drydock: DRYDOCK_CPUPROFILE: %s\n", errText(err))
		}
		cpu = f
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if memFile == "" {
			return
		}
		f, err := os.Create(memFile)
		if err == nil {
			runtime.GC()
			err = pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "drydock: DRYDOCK_MEMPROFILE: %s\n", errText(err))
		}
	}
}

// errText is err as drydock prints it: with the positions of the located
// errors in it (manifest.Format), as the user named the files.
func errText(err error) string { return manifest.Format(err, nil) }

// libraryLog prints what libraries log (Info and above) as warnings:
// "warning: MESSAGE key=value ...".
type libraryLog struct {
	w     io.Writer
	attrs []slog.Attr
}

func (l libraryLog) Enabled(_ context.Context, level slog.Level) bool { return level >= slog.LevelInfo }

func (l libraryLog) Handle(_ context.Context, r slog.Record) error {
	line := "warning: " + r.Message
	add := func(a slog.Attr) bool {
		line += " " + a.Key + "=" + a.Value.String()
		return true
	}
	for _, a := range l.attrs {
		add(a)
	}
	r.Attrs(add)
	_, err := fmt.Fprintln(l.w, line)
	return err
}

func (l libraryLog) WithAttrs(attrs []slog.Attr) slog.Handler {
	return libraryLog{w: l.w, attrs: append(slices.Clip(l.attrs), attrs...)}
}

func (l libraryLog) WithGroup(string) slog.Handler { return l }
