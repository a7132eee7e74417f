//go:build linux

package cache

import (
	"io/fs"
	"syscall"
	"time"
)

// readFile returns the bytes and modification time of the file p.
func readFile(p string) ([]byte, time.Time, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err == syscall.ENOENT || err == syscall.ENOTDIR {
		return nil, time.Time{}, fs.ErrNotExist
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, time.Time{}, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > 1<<31 {
		return nil, time.Time{}, errCorrupt
	}
	buf := make([]byte, st.Size)
	for n := 0; n < len(buf); {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, time.Time{}, err
		}
		if m == 0 {
			return nil, time.Time{}, errCorrupt
		}
		n += m
	}
	mtime := time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))
	return buf, mtime, nil
}
