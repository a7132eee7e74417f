package gitrev

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"
)

// commit writes files (a value starting with "->" is a symbolic link to
// the rest; "" deletes the file; a .sh file is executable) into the work tree of repo at root and
// commits them.
func commit(t testing.TB, repo *git.Repository, root string, files map[string]string) {
	t.Helper()
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if content == "" {
			if _, err := wt.Remove(name); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		os.Remove(p)
		if target, ok := strings.CutPrefix(content, "->"); ok {
			err = os.Symlink(target, p)
		} else {
			mode := fs.FileMode(0o644)
			if strings.HasSuffix(name, ".sh") {
				mode = 0o755
			}
			err = os.WriteFile(p, []byte(content), mode)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			t.Fatal(err)
		}
	}
	sig := &object.Signature{Name: "t", Email: "t@example.com", When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if _, err := wt.Commit("change", &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
		t.Fatal(err)
	}
}

// history is a repository of two commits: the base (HEAD~1) and a change.
func history(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	repo, err := git.PlainInit(root, false)
	if err != nil {
		t.Fatal(err)
	}
	commit(t, repo, root, map[string]string{
		"apps/shop.yaml":       "replicas: 1\n",
		"apps/gone.yaml":       "kind: Application\n",
		"apps/deep/x.yaml":     "x: 1\n",
		"defs/link.yaml":       "->../apps/shop.yaml",
		"defs/dirlink":         "->../apps/deep",
		"bin/run.sh":           "#!/bin/sh\n",
		"outside.yaml":         "->../../etc/passwd",
		"clusters/member.yaml": "name: member1\n",
	})
	commit(t, repo, root, map[string]string{
		"apps/shop.yaml": "replicas: 3\n",
		"apps/gone.yaml": "",
		"apps/new.yaml":  "kind: Application\n",
	})
	return root
}

func TestFSReadsARevision(t *testing.T) {
	root := history(t)
	// The work tree's own edits are not what a revision holds.
	if err := os.WriteFile(filepath.Join(root, "apps", "shop.yaml"), []byte("replicas: 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Open(filepath.Join(root, "apps"))
	if err != nil {
		t.Fatal(err)
	}
	for rev, want := range map[string]map[string]string{
		"HEAD~1": {"apps/shop.yaml": "replicas: 1\n", "apps/gone.yaml": "kind: Application\n", "defs/link.yaml": "replicas: 1\n", "defs/dirlink/x.yaml": "x: 1\n"},
		"HEAD":   {"apps/shop.yaml": "replicas: 3\n", "apps/new.yaml": "kind: Application\n", "defs/link.yaml": "replicas: 3\n"},
	} {
		fsys, err := r.FS(rev)
		if err != nil {
			t.Fatal(err)
		}
		for name, content := range want {
			got, err := fs.ReadFile(fsys, name)
			if err != nil {
				t.Errorf("%s: %v", rev, err)
			} else if string(got) != content {
				t.Errorf("%s: %s = %q, want %q", rev, name, got, content)
			}
		}
	}
	head, err := r.FS("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(head, "apps/gone.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("HEAD: deleted file: %v, want not exist", err)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "apps", "shop.yaml")); string(data) != "replicas: 9\n" {
		t.Errorf("the work tree changed: %q", data)
	}
}

// base is the first revision of a new history.
func base(t *testing.T) *FS {
	t.Helper()
	r, err := Open(history(t))
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := r.FS("HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// TestFSConforms runs the standard library's checks of an fs.FS
// (including ReadLinkFS) over a revision.
func TestFSConforms(t *testing.T) {
	fsys := base(t)
	// outside.yaml leaves the repository and cannot be opened: test the
	// rest.
	sub, err := fs.Sub(fsys, "apps")
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(sub, "shop.yaml", "gone.yaml", "deep/x.yaml"); err != nil {
		t.Error(err)
	}
	defs, err := fs.Sub(fsys, "defs")
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(defs, "link.yaml", "dirlink"); err != nil {
		t.Error(err)
	}
}

func TestFSLinksAndModes(t *testing.T) {
	fsys := base(t)
	if _, err := fsys.Open("outside.yaml"); err == nil || !strings.Contains(err.Error(), "outside.yaml: symlink leads outside the repository (to ../../etc/passwd)") {
		t.Errorf("open of a link leaving the repository: %v", err)
	}
	if target, err := fsys.ReadLink("outside.yaml"); err != nil || target != "../../etc/passwd" {
		t.Errorf("ReadLink = %q, %v", target, err)
	}
	got := map[string]fs.FileMode{}
	for _, name := range []string{"defs/link.yaml", "defs/dirlink", "bin/run.sh", "apps", "apps/shop.yaml"} {
		fi, err := fsys.Lstat(name)
		if err != nil {
			t.Fatal(err)
		}
		got[name] = fi.Mode()
	}
	want := map[string]fs.FileMode{
		"defs/link.yaml": fs.ModeSymlink | 0o777, "defs/dirlink": fs.ModeSymlink | 0o777,
		"bin/run.sh": 0o555, "apps": fs.ModeDir | 0o555, "apps/shop.yaml": 0o444,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lstat modes (-want +got):\n%s", diff)
	}
	if fi, err := fsys.Stat("defs/dirlink"); err != nil || !fi.IsDir() {
		t.Errorf("Stat of a link to a directory: %v, %v", fi, err)
	}
	if _, err := fsys.Open("../x"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("open ../x: %v, want invalid", err)
	}
}

func TestOpenAndRel(t *testing.T) {
	root := history(t)
	r, err := Open(filepath.Join(root, "apps", "deep"))
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(root)
	if r.Root() != real {
		t.Errorf("Root = %s, want %s", r.Root(), real)
	}
	for in, want := range map[string]string{
		root: ".", filepath.Join(root, "apps", "shop.yaml"): "apps/shop.yaml",
		filepath.Join(root, "apps", "not-yet", "a.yaml"): "apps/not-yet/a.yaml",
	} {
		if got, err := r.Rel(in); err != nil || got != want {
			t.Errorf("Rel(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := r.Rel(filepath.Dir(root)); err == nil {
		t.Errorf("Rel of a path outside the repository: no error")
	}
	if _, err := r.FS("no-such-branch"); err == nil || !strings.Contains(err.Error(), `"no-such-branch"`) {
		t.Errorf("unknown revision: %v", err)
	}
	if _, err := Open(t.TempDir()); !errors.Is(err, ErrNotRepository) {
		t.Errorf("Open outside a repository: %v, want ErrNotRepository", err)
	}
}
