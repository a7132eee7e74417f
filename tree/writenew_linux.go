package tree

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// createAt says createExcl is there.
const createAt = true

// createExcl creates base in the directory dir (O_EXCL, never following
// a symbolic link) holding data, with perm, and with the owner of old
// when old is a file drydock may give its owner to (keepOwner). It talks
// to the kernel directly: an *os.File costs four fcntl calls and a
// refused epoll registration per file, a third of a fresh tree's system
// calls. Its errors are those of os.Root's OpenFile and the file's
// methods: the opening names base, the rest root/base.
func createExcl(dir *os.File, root, base string, data []byte, perm fs.FileMode, old existing) error {
	var fd int
	err := retryEINTR(func() (err error) {
		fd, err = unix.Openat(int(dir.Fd()), base, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm))
		return err
	})
	if err != nil {
		return &fs.PathError{Op: "openat", Path: base, Err: err}
	}
	step()
	for len(data) > 0 && err == nil {
		var n int
		err = retryEINTR(func() (err error) {
			n, err = unix.Write(fd, data)
			return err
		})
		switch {
		case err != nil:
		case n <= 0:
			err = unix.EIO
		default:
			data = data[n:]
		}
	}
	if err != nil {
		err = &fs.PathError{Op: "write", Path: joinPath(root, base), Err: err}
	}
	if err == nil && old.found {
		// The umask does not narrow a rewritten file.
		if cerr := retryEINTR(func() error { return unix.Fchmod(fd, uint32(perm)) }); cerr != nil {
			err = &fs.PathError{Op: "chmod", Path: joinPath(root, base), Err: cerr}
		}
		if uid, gid, ok := ownerToKeep(old.info); ok {
			_ = unix.Fchown(fd, uid, gid)
		}
	}
	if cerr := unix.Close(fd); cerr != nil && err == nil {
		err = &fs.PathError{Op: "close", Path: joinPath(root, base), Err: cerr}
	}
	return err
}

func retryEINTR(f func() error) error {
	for {
		if err := f(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// joinPath is os's name of the file base opened in the root named root.
func joinPath(root, base string) string {
	if len(root) > 0 && os.IsPathSeparator(root[len(root)-1]) {
		return root + base
	}
	return root + string(os.PathSeparator) + base
}
