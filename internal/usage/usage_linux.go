// Package usage writes what a drydock process cost (DRYDOCK_USAGE, for
// the CLI benchmarks), for the front (cmd/drydock) and the engine
// (cmd/drydock-engine). It imports only the standard library.
package usage

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Write writes what this process cost to path ("" writes nothing):
// "CPU-NANOSECONDS PEAK-RSS-KIB\n", the user+sys time of getrusage and
// VmHWM, the peak resident set since the exec. The process measures
// itself because the kernel's figure for a child (wait4's ru_maxrss)
// includes the memory of the parent it was forked from, before the exec.
// After the front's exec into the engine, getrusage counts both (one
// process) and VmHWM the engine's memory.
func Write(path string) error {
	if path == "" {
		return nil
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return err
	}
	peak, err := peakKiB()
	if err != nil {
		return err
	}
	cpu := syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime)
	return os.WriteFile(path, fmt.Appendf(nil, "%d %d\n", cpu, peak), 0o644)
}

// peakKiB is VmHWM of /proc/self/status.
func peakKiB() (int64, error) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}
