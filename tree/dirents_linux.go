package tree

import (
	"bytes"
	"encoding/binary"
	"errors"

	"golang.org/x/sys/unix"
)

// direntsRead says readDirents is there.
const direntsRead = true

// Entry types of a directory entry (d_type) readDirents gives.
const (
	direntUnknown = unix.DT_UNKNOWN
	direntDir     = unix.DT_DIR
	direntReg     = unix.DT_REG
	direntLink    = unix.DT_LNK
)

// errDirent is a directory entry that does not read.
var errDirent = errors.New("malformed directory entry")

// readDirents opens the directory at name (not following a symbolic
// link) and calls f with the name and type of each of its entries but .
// and .., read with getdents64 into buf: a listing of thousands of files
// makes no os.DirEntry, name string and path for each. name is valid
// during the call only.
func readDirents(path string, buf []byte, f func(name []byte, typ uint8) error) error {
	var fd int
	var err error
	for {
		if fd, err = unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0); err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			return nil
		}
		// struct linux_dirent64: d_ino (8 bytes), d_off (8), d_reclen
		// (2), d_type (1), d_name (NUL-terminated, padded).
		for b := buf[:n]; len(b) > 0; {
			if len(b) < 19 {
				return errDirent
			}
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return errDirent
			}
			typ, name := b[18], b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[reclen:]
			if string(name) == "." || string(name) == ".." {
				continue
			}
			if err := f(name, typ); err != nil {
				return err
			}
		}
	}
}
