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
	if uid, gid, ok := ownerToKeep(old); ok {
		_ = f.Chown(uid, gid)
	}
}

// ownerToKeep is the owner and group of old when they are not the
// process's own (keepOwner).
func ownerToKeep(old fs.FileInfo) (uid, gid int, ok bool) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid()) {
		return 0, 0, false
	}
	return int(st.Uid), int(st.Gid), true
}
