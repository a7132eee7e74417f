package usage

import (
	"syscall"
	"time"
)

// CPU is the CPU time (user+kernel) this process has used.
func CPU() (time.Duration, error) {
	var creation, exit, kernel, user syscall.Filetime
	if err := syscall.GetProcessTimes(syscall.Handle(^uintptr(0)), &creation, &exit, &kernel, &user); err != nil {
		return 0, err
	}
	ticks := func(f syscall.Filetime) time.Duration { // 100 ns units
		return time.Duration(int64(f.HighDateTime)<<32|int64(f.LowDateTime)) * 100
	}
	return ticks(kernel) + ticks(user), nil
}
