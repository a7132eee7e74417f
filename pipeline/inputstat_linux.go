package pipeline

import (
	"syscall"

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
