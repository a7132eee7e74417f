package pipeline

import (
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/drydock-dev/drydock/tree"
)

// statID is the identity of the file at p (tree.StatID of os.Stat(p)),
// false when it has none. It stats with a system call into a Stat_t on
// the stack: os.Stat's FileInfo is an allocation per input file, and a
// warm run of 10,000 files does little else with them.
func statID(p string) (tree.FileID, bool) {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(p, &st)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return tree.FileID{}, false
		}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return tree.FileID{}, false
	}
	return tree.FileID{Size: int64(st.Size), ModNs: st.Mtim.Nano(), ChangeNs: st.Ctim.Nano(), Ino: uint64(st.Ino), Dev: uint64(st.Dev)}, true //nolint:unconvert // narrower on some systems
}

// dirStat stats the files of one directory after another by their
// names relative to the directory (fstatat), the directory opened once
// (O_PATH: search permission is all it needs, as a path's lookup): a
// path's lookup walks every directory of the path again, which a warm run
// of 10,000 input files, each stat'ed and most not read, does 10,000
// times. The walk that listed the files read their directory a moment
// before; one replaced in between is read as it was then (as the walk
// listed it). Its zero value is ready; close releases the directory.
type dirStat struct {
	dir  string
	fd   int
	open bool
}

// stat is statID(abs), abs an absolute clean path.
func (d *dirStat) stat(abs string) (tree.FileID, bool) {
	i := strings.LastIndexByte(abs, '/')
	if i < 0 || i == len(abs)-1 {
		return statID(abs)
	}
	dir, name := abs[:i+1], abs[i+1:]
	if !d.open || dir != d.dir {
		d.close()
		fd, err := openDir(dir)
		if err != nil {
			return statID(abs)
		}
		d.dir, d.fd, d.open = dir, fd, true
	}
	var st unix.Stat_t
	for {
		err := unix.Fstatat(d.fd, name, &st, 0)
		if err == nil {
			break
		}
		if err != unix.EINTR {
			return tree.FileID{}, false
		}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return tree.FileID{}, false
	}
	return tree.FileID{Size: int64(st.Size), ModNs: st.Mtim.Nano(), ChangeNs: st.Ctim.Nano(), Ino: uint64(st.Ino), Dev: uint64(st.Dev)}, true //nolint:unconvert // narrower on some systems
}

// openDir opens the directory dir for fstatat.
func openDir(dir string) (int, error) {
	for {
		fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// close releases the directory open, if any.
func (d *dirStat) close() {
	if d.open {
		unix.Close(d.fd)
	}
	*d = dirStat{}
}
