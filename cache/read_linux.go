//go:build linux

package cache

import (
	"io/fs"
	"syscall"
	"time"
)

// openStat opens the file p for reading and stats it: its descriptor
// (the caller closes it) and status; fs.ErrNotExist when there is none.
func openStat(p string) (int, syscall.Stat_t, error) {
	var st syscall.Stat_t
	var fd int
	var err error
	for {
		fd, err = syscall.Open(p, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err == syscall.ENOENT || err == syscall.ENOTDIR {
		return -1, st, fs.ErrNotExist
	}
	if err != nil {
		return -1, st, err
	}
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return -1, st, err
	}
	return fd, st, nil
}

// readFile returns the bytes and modification time of the file p.
func readFile(p string) ([]byte, time.Time, error) {
	fd, st, err := openStat(p)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer syscall.Close(fd)
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

// mapFile maps the file p read-only (the page cache's pages, shared):
// its bytes and modification time. A pack is read so (GetPack): its
// entries are not copied into memory the process must first touch, and
// the mapping is never unmapped (the strings of the entries stay parts
// of it). The store never writes a file in place (Put renames a new one
// over it), so the mapped bytes do not change under the reader.
// mapped is false when the file was read instead (mmap refused it).
func mapFile(p string) (buf []byte, mtime time.Time, mapped bool, err error) {
	fd, st, err := openStat(p)
	if err != nil {
		return nil, time.Time{}, false, err
	}
	defer syscall.Close(fd)
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > 1<<32 || st.Size < int64(headerLen) {
		return nil, time.Time{}, false, errCorrupt
	}
	buf, err = syscall.Mmap(fd, 0, int(st.Size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		buf, mtime, err = readFile(p)
		return buf, mtime, false, err
	}
	return buf, time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec)), true, nil
}

// unmap releases a mapping of mapFile's that is not used.
func unmap(b []byte) { syscall.Munmap(b) }

// mapsFiles says mapFile maps files here.
const mapsFiles = true
