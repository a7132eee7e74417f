package manifest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// linkTree makes, under a new directory, the files (content) and
// symbolic links (a value starting with "->") given, and returns it.
func linkTree(t *testing.T, entries map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, v := range entries {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(v, "->"); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(v), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

var yamlOnly = WalkOptions{Keep: func(name string) bool { return strings.HasSuffix(name, ".yaml") }}

// TestWalkFilesRelativeLinks: a relative link staying in the repository
// is read whether the walk's root is given relative or absolute (it was
// refused as outside when compared as a relative path), and from a
// working directory reached through a link.
func TestWalkFilesRelativeLinks(t *testing.T) {
	root := linkTree(t, map[string]string{
		"repo/.git/HEAD":      "ref: main\n",
		"repo/shared/s.yaml":  "s: 1\n",
		"repo/apps/s.yaml":    "->../shared/s.yaml",
		"repo/apps/up":        "->..", // a directory link to an ancestor: not followed
		"repo/apps/sub/here":  "->../../shared",
		"repo/apps/sub/t.yml": "->../s.yaml",
		"cwd":                 "->repo",
	})
	for _, wd := range []string{filepath.Join(root, "repo"), filepath.Join(root, "cwd")} {
		t.Run(filepath.Base(wd), func(t *testing.T) {
			t.Chdir(wd)
			for _, dir := range []string{"apps", "./apps/", filepath.Join(wd, "apps")} {
				got, err := WalkFiles(dir, yamlOnly)
				if err != nil {
					t.Fatalf("WalkFiles(%s): %v", dir, err)
				}
				want := []string{filepath.Join(dir, "s.yaml")}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("WalkFiles(%s) (-want +got):\n%s", dir, diff)
				}
			}
		})
	}
}

// TestLinkLoops: a loop is named as one wherever it is met.
func TestLinkLoops(t *testing.T) {
	root := linkTree(t, map[string]string{
		"repo/.git/HEAD":     "ref: main\n",
		"repo/apps/a.yaml":   "->b.yaml",
		"repo/apps/b.yaml":   "->a.yaml",
		"repo/dirs/d":        "->d",
		"repo/ok/x.yaml":     "x: 1\n",
		"repo/ok/self/again": "->../..",
	})
	t.Chdir(filepath.Join(root, "repo"))
	for _, p := range []string{"apps", "dirs", "dirs/d", "dirs/d/x.yaml"} {
		_, err := WalkFiles(p, yamlOnly)
		if !errors.Is(err, ErrLinkLoop) || !errors.Is(err, syscall.ELOOP) || !strings.Contains(err.Error(), "symbolic link loop") {
			t.Errorf("WalkFiles(%s): %v, want a loop", p, err)
		}
	}
	if _, err := ReadFile("apps/a.yaml"); !errors.Is(err, ErrLinkLoop) || !strings.HasPrefix(err.Error(), "apps/a.yaml: too many levels of symbolic links (a symbolic link loop") {
		t.Errorf("ReadFile of a loop: %v", err)
	}
	// A link to an ancestor is a loop only when followed forever.
	if got, err := WalkFiles("ok/self/again/ok", yamlOnly); err != nil || len(got) != 1 {
		t.Errorf("through a link to an ancestor: %v, %v", got, err)
	}
}

// TestDirFS: a base directory's links are confined to it as the work
// tree's are to the repository.
func TestDirFS(t *testing.T) {
	root := linkTree(t, map[string]string{
		"base/shared/s.yaml":  "s: 1\n",
		"base/apps/s.yaml":    "->../shared/s.yaml",
		"base/apps/up":        "->..",
		"base/apps/loop.yaml": "->loop.yaml",
		"base/out/o.yaml":     "->../../outside/o.yaml",
		"base/out/readme":     "->../../outside/readme",
		"base/outdir/sub":     "->../../outside",
		"outside/o.yaml":      "o: 1\n",
		"outside/readme":      "r\n",
	})
	t.Chdir(root)
	fsys, err := DirFS("base")
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(filepath.Join(root, "base"))
	if data, err := ReadFS(fsys, "apps/s.yaml"); err != nil || string(data) != "s: 1\n" {
		t.Errorf("a relative link inside: %q, %v", data, err)
	}
	if data, err := ReadFS(fsys, "apps/up/apps/up/shared/s.yaml"); err != nil || string(data) != "s: 1\n" {
		t.Errorf("through a link to an ancestor: %q, %v", data, err)
	}
	outside, _ := filepath.EvalSymlinks(filepath.Join(root, "outside"))
	wantOut := "out/o.yaml: symlink leads outside the base directory " + real + " (to " + filepath.Join(outside, "o.yaml") + ")"
	if _, err := ReadFS(fsys, "out/o.yaml"); err == nil || err.Error() != wantOut {
		t.Errorf("a link out:\n got %v\nwant %s", err, wantOut)
	}
	var lo *LinkOutsideError
	if _, err := fs.ReadDir(fsys, "outdir/sub"); !errors.As(err, &lo) || !lo.Dir {
		t.Errorf("ReadDir through a link out: %v", err)
	}
	if _, err := ReadFS(fsys, "apps/loop.yaml"); !errors.Is(err, ErrLinkLoop) {
		t.Errorf("a loop: %v", err)
	}
	// Walking: as WalkFiles, a link out to a selected file or to a
	// directory is refused, one to another file ignored.
	for dir, want := range map[string]string{
		"out":    wantOut,
		"outdir": "outdir/sub: symlink leads outside the base directory " + real + " (to " + outside + ")",
		"apps":   "apps/loop.yaml: too many levels of symbolic links (a symbolic link loop, or more than 40 links to follow)",
	} {
		if _, err := WalkFS(fsys, dir, yamlOnly); err == nil || err.Error() != want {
			t.Errorf("WalkFS(%s):\n got %v\nwant %s", dir, err, want)
		}
	}
	if err := os.Remove(filepath.Join(root, "base/out/o.yaml")); err != nil {
		t.Fatal(err)
	}
	if got, err := WalkFS(fsys, "out", yamlOnly); err != nil || len(got) != 0 {
		t.Errorf("WalkFS(out) with only a non-input link out: %v, %v", got, err)
	}
	if _, err := fsys.Open("../base/shared/s.yaml"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("open ../: %v", err)
	}
}
