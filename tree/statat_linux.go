package tree

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// statAt says fstatAt is there.
const statAt = true

// fstatAt is the FileID of base in the open directory dir, not following
// a symbolic link: one fstatat on the directory's descriptor. os.Root's
// Lstat walks its path in user space first (a few µs per file, most of a
// warm comparison's cost per golden file) and makes an fs.FileInfo. base
// is one name (no slash), so nothing outside dir is reached; regular is
// false for anything but a regular file (a symlink made since the
// listing included), as StatID's ok is.
func fstatAt(dir *os.File, fd int, base string) (id FileID, regular bool, err error) {
	var st unix.Stat_t // on the stack: no closure (retryEINTR) takes it
	for {
		if err = unix.Fstatat(fd, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return FileID{}, false, &fs.PathError{Op: "fstatat", Path: joinPath(dir.Name(), base), Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return FileID{}, false, nil
	}
	return FileID{Size: st.Size, ModNs: st.Mtim.Nano(), ChangeNs: st.Ctim.Nano(), Ino: st.Ino, Dev: uint64(st.Dev)}, true, nil // Dev is uint32 on some ports
}
