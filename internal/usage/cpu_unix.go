//go:build unix

package usage

import (
	"syscall"
	"time"
)

// CPU is the CPU time (user+sys) this process has used.
func CPU() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
