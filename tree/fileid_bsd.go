//go:build darwin || freebsd || netbsd

package tree

import (
	"io/fs"
	"syscall"
)

// sysID is the change time, inode and device of the file fi describes.
func sysID(fi fs.FileInfo) (FileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return FileID{}, false
	}
	return FileID{ChangeNs: st.Ctimespec.Nano(), Ino: uint64(st.Ino), Dev: uint64(st.Dev)}, true //nolint:unconvert // narrower on some systems
}
