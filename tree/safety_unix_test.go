//go:build unix

package tree

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUpdateKeepsDirectories: no directory is replaced or recreated: the
// directory and its subdirectories keep their inode, mode bits (setgid,
// sticky) and owner, so a shell sitting in one stays in the tree.
func TestUpdateKeepsDirectories(t *testing.T) {
	dir := t.TempDir()
	writeDir(t, dir, owning(map[string]string{cmPath: cmBlue, "c1/ns/secret_gone.yaml": "x\n"}, cmPath, "c1/ns/secret_gone.yaml"))
	modes := map[string]os.FileMode{".": 0o750 | os.ModeSetgid, "c1": 0o770 | os.ModeSticky, "c1/ns": 0o755 | os.ModeSetgid}
	for d, m := range modes {
		if err := os.Chmod(filepath.Join(dir, d), m); err != nil {
			t.Fatal(err)
		}
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(filepath.Join(dir, "c1"), 1234, 5678); err != nil {
			t.Fatal(err)
		}
	}
	stat := func() map[string]string {
		out := map[string]string{}
		for d := range modes {
			fi, err := os.Stat(filepath.Join(dir, d))
			if err != nil {
				t.Fatal(err)
			}
			st := fi.Sys().(*syscall.Stat_t)
			out[d] = fmt.Sprintf("ino %d mode %v uid %d gid %d", st.Ino, fi.Mode(), st.Uid, st.Gid)
		}
		return out
	}
	before := stat()
	for _, got := range []map[string]string{{cmPath: cmGreen, nsPath: ns}, {cmPath: cmBlue}} {
		if _, err := Update(dir, treeOf(got), UpdateOptions{Prune: true}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(before, stat()); diff != "" {
			t.Errorf("directories changed (-before +after):\n%s", diff)
		}
	}
}
