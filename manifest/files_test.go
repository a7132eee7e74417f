package manifest

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFileErrors: a file that cannot be read is named with the reason,
// not with the system call that failed ("stat x: ..."), and the cause
// stays matchable with errors.Is.
func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	locked := filepath.Join(dir, "locked")
	if err := os.Mkdir(locked, 0o000); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(locked, 0o755)
	missing := filepath.Join(dir, "nope.yaml")
	tests := []struct {
		name string
		call func() error
		want string
		is   error
	}{
		{"ReadFile of a missing file", func() error { _, err := ReadFile(missing); return err },
			missing + ": no such file or directory", fs.ErrNotExist},
		{"WalkFiles of a missing root", func() error { _, err := WalkFiles(missing, WalkOptions{}); return err },
			missing + ": no such file or directory", fs.ErrNotExist},
		{"WalkFiles of an unreadable directory", func() error {
			_, err := WalkFiles(locked, WalkOptions{Keep: func(string) bool { return true }})
			return err
		}, locked + "/: permission denied", fs.ErrPermission},
	}
	if os.Geteuid() == 0 {
		tests = tests[:2] // root reads every directory
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
			}
		})
	}
}

func TestWalkFiles(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	mk := func(p, data string) {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	mk("repo/.git/HEAD", "ref: main\n")
	mk("repo/apps/a.yaml", "a: 1\n")
	mk("repo/apps/.hidden/h.yaml", "h: 1\n")
	mk("repo/apps/readme.md", "x\n")
	mk("repo/shared/s.yaml", "s: 1\n")
	mk("outside/o.yaml", "o: 1\n")
	mk("outside/sub/x.yaml", "x: 1\n")
	keep := func(name string) bool { return strings.HasSuffix(name, ".yaml") }
	skipHidden := func(name string) bool { return strings.HasPrefix(name, ".") }
	rel := func(ps []string) []string {
		for i, p := range ps {
			ps[i], _ = filepath.Rel(root, p)
		}
		return ps
	}

	t.Run("plain", func(t *testing.T) {
		got, err := WalkFiles(filepath.Join(repo, "apps"), WalkOptions{Keep: keep, SkipDir: skipHidden})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"repo/apps/a.yaml"}, rel(got)); diff != "" {
			t.Errorf("files (-want +got):\n%s", diff)
		}
	})
	link("../shared/s.yaml", "repo/apps/s.yaml")
	link("../shared", "repo/apps/shared")
	link("../../outside/README", "repo/apps/README") // not an input: ignored
	t.Run("symlinks inside the repository", func(t *testing.T) {
		got, err := WalkFiles(filepath.Join(repo, "apps"), WalkOptions{Keep: keep, SkipDir: skipHidden})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"repo/apps/a.yaml", "repo/apps/s.yaml"}, rel(got)); diff != "" {
			t.Errorf("files (-want +got):\n%s", diff)
		}
	})
	t.Run("root given through a symlink", func(t *testing.T) {
		link("repo/apps", "apps-link")
		got, err := WalkFiles(filepath.Join(root, "apps-link"), WalkOptions{Keep: keep, SkipDir: skipHidden})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"apps-link/a.yaml", "apps-link/s.yaml"}, rel(got)); diff != "" {
			t.Errorf("files (-want +got):\n%s", diff)
		}
	})
	for _, tt := range []struct{ name, target, link string }{
		{"file symlink leading out", "../../outside/o.yaml", "repo/apps/o.yaml"},
		{"directory symlink leading out", "../../outside/sub", "repo/apps/sub"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			link(tt.target, tt.link)
			defer os.Remove(filepath.Join(root, tt.link))
			_, err := WalkFiles(filepath.Join(repo, "apps"), WalkOptions{Keep: keep})
			want := tt.link + ": symlink leads outside the repository"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("WalkFiles error %v, want %q", err, want)
			}
		})
	}
	t.Run("outside directory given explicitly", func(t *testing.T) {
		got, err := WalkFiles(filepath.Join(root, "outside"), WalkOptions{Keep: keep})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"outside/o.yaml", "outside/sub/x.yaml"}, rel(got)); diff != "" {
			t.Errorf("files (-want +got):\n%s", diff)
		}
	})
}

// TestListFiles: directories are walked for the files keep selects, a file
// given directly is kept whatever its name, and the result is sorted
// without duplicates.
func TestListFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.yaml", "a.yml", "notes.txt", "sub/c.yaml"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	isYAML := func(name string) bool { return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml") }
	got, err := ListFiles([]string{filepath.Join(dir, "sub"), dir, filepath.Join(dir, "notes.txt"), filepath.Join(dir, "b.yaml")}, isYAML)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a.yml"), filepath.Join(dir, "b.yaml"), filepath.Join(dir, "notes.txt"), filepath.Join(dir, "sub/c.yaml")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ListFiles (-want +got):\n%s", diff)
	}
	if _, err := ListFiles([]string{filepath.Join(dir, "missing")}, isYAML); err == nil {
		t.Error("ListFiles of a missing path succeeded")
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[uint64]string{512: "512B", 4 << 30: "4GiB", 1536 << 20: "1.5GiB", 64 << 20: "64MiB"} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
