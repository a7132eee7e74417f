//go:build linux

package tree

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// shapeOf describes a listing's shape, its directories and links sorted
// (walks visit them in different orders).
func shapeOf(l *Listing) string {
	if l == nil || l.g == nil {
		return "none"
	}
	var dirs []string
	for _, d := range l.g.shape.dirs {
		dirs = append(dirs, fmt.Sprintf("%s %+v", d.rel, d.id))
	}
	slices.Sort(dirs)
	links := slices.Sorted(slices.Values(l.g.shape.links))
	return fmt.Sprintf("dirs %q links %q ownership %v %+v bad %v", dirs, links, l.g.shape.hasOwnership, l.g.shape.ownership, l.g.shape.bad)
}

// TestWalkDirents: listing with readDirents gives what listing with
// WalkDir gives, files, shape and errors (those found by walking again
// with WalkDir), for a tree of owned, unowned, missing and non-YAML
// files, symlinks and directories, and for each entry the listing
// refuses.
func TestWalkDirents(t *testing.T) {
	if !direntsRead {
		t.Skip("no readDirents on this system")
	}
	tests := []struct {
		name   string
		change func(t *testing.T, dir string)
		fast   bool // walkDirents lists it alone
	}{
		{"a tree", nil, true},
		{"an empty directory and an owned directory", func(t *testing.T, dir string) {
			for _, d := range []string{"empty", "c1/ns/owned.yaml"} {
				if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
					t.Fatal(err)
				}
			}
		}, true},
		{"an owned file not named .yaml", func(t *testing.T, dir string) {
			writeDir(t, dir, owning(map[string]string{"a.yaml": cmBlue, "c1/notes": "x\n"}, "a.yaml", "c1/notes"))
		}, true},
		{"a symlinked .yaml file", func(t *testing.T, dir string) {
			if err := os.Symlink("a.yaml", filepath.Join(dir, "c1", "l.yaml")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a symlink to a directory", func(t *testing.T, dir string) {
			if err := os.Symlink(filepath.Join(dir, "c2"), filepath.Join(dir, "c1", "d")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a FIFO named .yaml", func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "c2", "f.yaml"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a FIFO not named .yaml", func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "c2", "f"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"two refused entries", func(t *testing.T, dir string) {
			for _, p := range []string{"z.yaml", "c1/ns/b.yaml"} {
				if err := os.Symlink(filepath.Join(dir, "a.yaml"), filepath.Join(dir, filepath.FromSlash(p))); err != nil {
					t.Fatal(err)
				}
			}
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, _ := relistDir(t)
			if tt.change != nil {
				tt.change(t, dir)
			}
			list := func(dirents bool) string {
				t.Cleanup(func() { walkWithDirents = direntsRead })
				walkWithDirents = dirents
				l, err := List(dir)
				return describe(l, err) + shapeOf(l)
			}
			if got, want := list(true), list(false); got != want {
				t.Errorf("with readDirents:\n%s\nwith WalkDir:\n%s", got, want)
			}
			root, err := resolveRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			g := &listedDir{root: root, extra: map[string]bool{}}
			if g.owned, _, _, _, err = readOwnership(root); err != nil {
				t.Fatal(err)
			}
			if fast := g.walkDirents(root); fast != tt.fast {
				t.Errorf("walkDirents listed it alone: %v, want %v", fast, tt.fast)
			}
		})
	}
}
