package tree

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// TestMountInside: a file system mounted inside the directory keeps its
// files: an owned file on it is not pruned (Report.Kept, still owned),
// and the mount stays usable. Needs the right to mount (root on Linux).
func TestMountInside(t *testing.T) {
	dir := t.TempDir()
	mnt := filepath.Join(dir, "c1", "mnt")
	if err := os.MkdirAll(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): the mount case runs where the test may mount (root on Linux)", err)
	}
	defer unix.Unmount(mnt, 0)
	const onMount = "c1/mnt/configmap_app.yaml"
	if _, err := Update(dir, treeOf(map[string]string{onMount: cmBlue, nsPath: ns}), UpdateOptions{Prune: true}); err != nil {
		t.Fatal(err)
	}
	rep, err := Update(dir, treeOf(map[string]string{nsPath: ns}), UpdateOptions{Prune: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{onMount}, rep.Kept); diff != "" {
		t.Errorf("Kept (-want +got):\n%s", diff)
	}
	if data, err := os.ReadFile(filepath.Join(dir, onMount)); err != nil || string(data) != cmBlue {
		t.Errorf("the file on the mount: %q, %v", data, err)
	}
	own, _ := os.ReadFile(filepath.Join(dir, OwnershipFile))
	if !strings.Contains(string(own), onMount) {
		t.Errorf("the kept file is no longer owned:\n%s", own)
	}
	var st, parent unix.Stat_t
	if unix.Stat(mnt, &st) != nil || unix.Stat(dir, &parent) != nil || st.Dev == parent.Dev {
		t.Errorf("the mount is gone")
	}
	// Writing onto the mount still works (renames stay within it).
	if _, err := Update(dir, treeOf(map[string]string{onMount: cmGreen, nsPath: ns}), UpdateOptions{Prune: true}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, onMount)); string(data) != cmGreen {
		t.Errorf("rewritten file on the mount: %q", data)
	}
}
