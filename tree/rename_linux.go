package tree

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames old to new, both names in the directory dir,
// failing with fs.ErrExist if new exists (renameat2 RENAME_NOREPLACE):
// a file another process created there meanwhile is never replaced.
// errors.ErrUnsupported where the file system cannot.
func renameNoReplace(dir *os.File, old, new string) error {
	fd := int(dir.Fd())
	err := unix.Renameat2(fd, old, fd, new, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) {
		return errors.ErrUnsupported
	}
	if err != nil {
		return &os.LinkError{Op: "renameat2", Old: old, New: new, Err: err}
	}
	return nil
}
