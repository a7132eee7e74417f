//go:build linux

package tree

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// TestUpdateNoSpace: an update that runs out of space (a 64 KiB tmpfs)
// leaves the directory's files exactly as they were, no staged file
// behind, and its error says so. It needs to mount a file system (root on
// Linux); elsewhere it is skipped with the reason.
func TestUpdateNoSpace(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("mount a 64 KiB tmpfs: %v (needs root on Linux)", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, 0) })
	small, big := Tree{}, Tree{}
	for i := range 8 {
		small[fmt.Sprintf("c1/ns/cm_%d.yaml", i)] = []byte("a: " + strings.Repeat("x", 200) + "\n")
	}
	for i := range 60 {
		big[fmt.Sprintf("c1/ns/cm_%d.yaml", i)] = []byte("a: " + strings.Repeat("y", 2000) + "\n")
	}
	if _, err := Update(dir, small, UpdateOptions{Prune: true}); err != nil {
		t.Fatal(err)
	}
	before := readAll(t, dir)
	_, err := Update(dir, big, UpdateOptions{Prune: true})
	if err == nil || !strings.Contains(err.Error(), "no space left") || !strings.Contains(err.Error(), "left as they were") {
		t.Errorf("error %v, want one saying the space ran out and the files are left as they were", err)
	}
	if diff := cmp.Diff(before, readAll(t, dir)); diff != "" {
		t.Errorf("files (-before +after):\n%s", diff)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
}
