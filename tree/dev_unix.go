//go:build unix

package tree

import (
	"io/fs"
	"os"
	"syscall"
)

// deviceOf is the file system (device number) a file lies on.
func deviceOf(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev) //nolint:unconvert // int32 on some systems
	}
	return 0
}

// keepOwner gives f the owner and group of the file it replaces, where the
// process may (root); elsewhere the new file keeps the process's.
func keepOwner(f *os.File, old fs.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid()) {
		return
	}
	_ = f.Chown(int(st.Uid), int(st.Gid))
}
