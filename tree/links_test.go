//go:build unix

package tree

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// TestRefusesLinksAndSpecialFiles: a symbolic link, FIFO or device where
// drydock reads or writes a file of the tree (the OwnershipFile, the
// journal, the lock, a rendered file) or a directory on the way is
// refused, before it is opened: nothing outside the directory is read or
// written, nothing blocks, and the directory is left as it was.
func TestRefusesLinksAndSpecialFiles(t *testing.T) {
	type special int
	const (
		linkOut special = iota
		linkIn
		fifo
		device
	)
	tests := []struct {
		name string
		at   string // the path made special
		kind special
	}{
		{"ownership file links out", OwnershipFile, linkOut},
		{"ownership file links in", OwnershipFile, linkIn},
		{"ownership file is a FIFO", OwnershipFile, fifo},
		{"ownership file is a device", OwnershipFile, device},
		{"journal links out", JournalFile, linkOut},
		{"journal is a FIFO", JournalFile, fifo},
		{"journal is a device", JournalFile, device},
		{"lock links out", LockFile, linkOut},
		{"lock is a FIFO", LockFile, fifo},
		{"rendered file links out", cmPath, linkOut},
		{"rendered file links in", cmPath, linkIn},
		{"rendered file is a FIFO", cmPath, fifo},
		{"rendered file is a device", cmPath, device},
		{"directory on the way links out", "c1/ns", linkOut},
		{"directory on the way links in", "c1/ns", linkIn},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			dir, outside := filepath.Join(base, "tree"), filepath.Join(base, "outside")
			writeDir(t, outside, map[string]string{"victim": "outside\n", "ns/configmap_app.yaml": cmBlue})
			writeDir(t, dir, owning(map[string]string{nsPath: ns, "c1/real/configmap_app.yaml": cmBlue, "real.yaml": "x\n"}, nsPath))
			full := filepath.Join(dir, filepath.FromSlash(tt.at))
			_ = os.MkdirAll(filepath.Dir(full), 0o755)
			_ = os.Remove(full)
			var err error
			switch tt.kind {
			case linkOut:
				target := filepath.Join(outside, "victim")
				if strings.HasSuffix(tt.at, "ns") {
					target = filepath.Join(outside, "ns")
				}
				err = os.Symlink(target, full)
			case linkIn:
				target := filepath.Join(dir, "real.yaml")
				if strings.HasSuffix(tt.at, "ns") {
					target = "real"
				}
				err = os.Symlink(target, full)
			case fifo:
				err = syscall.Mkfifo(full, 0o644)
			case device:
				err = unix.Mknod(full, syscall.S_IFCHR|0o644, int(unix.Mkdev(1, 5))) // /dev/zero
			}
			if err != nil {
				t.Skipf("cannot make %s: %v", tt.at, err)
			}
			beforeIn, beforeOut := readAll(t, dir), readAll(t, outside)
			for _, op := range []struct {
				name string
				run  func() error
			}{
				{"Update", func() error {
					_, err := Update(dir, treeOf(map[string]string{cmPath: cmGreen, nsPath: ns}), UpdateOptions{Prune: true, Adopt: true})
					return err
				}},
				{"Compare", func() error {
					return readBack(dir, treeOf(map[string]string{cmPath: cmGreen, nsPath: ns}))
				}},
			} {
				err := withDeadline(t, op.run)
				if op.name == "Compare" && tt.at == cmPath && tt.kind == linkIn {
					// Compare reads no rendered file through a link either.
					if err == nil {
						t.Errorf("Compare followed the link at %s", tt.at)
					}
				}
				if op.name == "Update" && err == nil {
					t.Errorf("Update accepted %s", tt.name)
				}
				if op.name == "Update" && err != nil && !errors.Is(err, ErrInvalidPath) && !strings.Contains(err.Error(), "not a directory") {
					t.Errorf("Update error %v, want ErrInvalidPath", err)
				}
			}
			if diff := cmp.Diff(beforeOut, readAll(t, outside)); diff != "" {
				t.Errorf("outside the directory changed (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(beforeIn, readAll(t, dir)); diff != "" {
				t.Errorf("the directory changed (-before +after):\n%s", diff)
			}
		})
	}
}

// withDeadline runs f, failing the test if it blocks (on a FIFO, say).
func withDeadline(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(20 * time.Second):
		t.Fatal("blocked")
		return nil
	}
}

// TestUpdateBase: with UpdateOptions.Base the directory is reached from
// Base without following a link, so a link swapped in on the way (here:
// already there) is refused and nothing outside Base is written; missing
// directories below Base are made.
func TestUpdateBase(t *testing.T) {
	base, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(base, "__snapshot__")); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "__snapshot__", "app")
	_, err := Update(dir, treeOf(map[string]string{"x.yaml": "x\n"}), UpdateOptions{Base: base})
	if !errors.Is(err, ErrInvalidPath) {
		t.Fatalf("Update through a linked directory below Base: %v, want ErrInvalidPath", err)
	}
	if got := readAll(t, outside); len(got) != 0 {
		t.Errorf("written outside Base: %v", got)
	}
	if err := os.Remove(filepath.Join(base, "__snapshot__")); err != nil {
		t.Fatal(err)
	}
	if _, err := Update(dir, treeOf(map[string]string{"x.yaml": "x\n"}), UpdateOptions{Base: base}); err != nil {
		t.Fatal(err)
	}
	want := owning(map[string]string{"__snapshot__/": "", "__snapshot__/app/": "", "__snapshot__/app/x.yaml": "x\n"})
	delete(want, OwnershipFile)
	want["__snapshot__/app/"+OwnershipFile] = string(encodeOwnership([]string{"x.yaml"}))
	if diff := cmp.Diff(want, readAll(t, base)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if _, err := Update(filepath.Join(outside, "x"), Tree{}, UpdateOptions{Base: base}); !errors.Is(err, ErrInvalidPath) {
		t.Errorf("a directory not below Base: %v, want ErrInvalidPath", err)
	}
}
