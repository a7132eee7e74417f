//go:build unix

package tree

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// tryLock takes an exclusive flock on root's LockFile without waiting;
// held reports that another holder has it. The kernel releases the lock
// when its holder exits, so a killed run leaves no stale lock (only the
// file, which the next run takes over). A holder removes the file before
// it unlocks, so a run that locked a file no longer at the path (removed
// by the holder it waited for) tries again on the new one.
func tryLock(root *os.Root) (unlock func(), held bool, err error) {
	if fi, err := root.Lstat(LockFile); err == nil && !fi.Mode().IsRegular() {
		return nil, false, fmt.Errorf("%w: not a regular file (%s)", ErrInvalidPath, fi.Mode().Type())
	}
	f, err := root.OpenFile(LockFile, os.O_RDWR|os.O_CREATE|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, false, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, true, nil
		}
		return nil, false, err
	}
	opened, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, false, err
	}
	if now, err := root.Lstat(LockFile); err != nil || !os.SameFile(opened, now) || !opened.Mode().IsRegular() {
		f.Close()
		return nil, true, nil // removed or replaced since: try again
	}
	return func() {
		_ = root.Remove(LockFile)
		f.Close()
	}, false, nil
}
