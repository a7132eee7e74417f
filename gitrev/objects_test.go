package gitrev

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestBlobSizeFromHeader proves that a blob is refused from the size its
// object header declares, before its content is read: the loose object
// of big.yaml is rewritten to declare MaxInputBytes+1 bytes while
// holding six, so reading it would succeed (or fail on a short read).
func TestBlobSizeFromHeader(t *testing.T) {
	root := t.TempDir()
	repo, err := git.PlainInit(root, false)
	if err != nil {
		t.Fatal(err)
	}
	commit(t, repo, root, map[string]string{"big.yaml": "big: 1\n", "small.yaml": "s: 1\n", "link.yaml": "->big.yaml"})
	head, _ := repo.Head()
	c, _ := repo.CommitObject(head.Hash())
	tree, _ := c.Tree()
	e, err := tree.FindEntry("big.yaml")
	if err != nil {
		t.Fatal(err)
	}
	h := e.Hash.String()
	obj := filepath.Join(root, ".git", "objects", h[:2], h[2:])
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	fmt.Fprintf(zw, "blob %d\x00big: 1\n", manifest.MaxInputBytes+1)
	zw.Close()
	if err := os.Remove(obj); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(obj, z.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
	r, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := r.FS("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := fsys.Stat("big.yaml"); err != nil || fi.Size() != manifest.MaxInputBytes+1 {
		t.Fatalf("Stat: %v, %v; want the header's size %d", fi, err, manifest.MaxInputBytes+1)
	}
	want := fmt.Sprintf("big.yaml: larger than %d bytes (MaxInputBytes)", manifest.MaxInputBytes)
	for op, read := range map[string]func(string) error{
		"ReadFile": func(n string) error { _, err := fsys.ReadFile(n); return err },
		"Open":     func(n string) error { _, err := fsys.Open(n); return err },
		"ReadFS":   func(n string) error { _, err := manifest.ReadFS(fsys, n); return err },
	} {
		if err := read("big.yaml"); !errors.Is(err, manifest.ErrTooLarge) || err.Error() != want {
			t.Errorf("%s(big.yaml): %v, want %q", op, err, want)
		}
	}
	// Through a link the refusal names the path asked for.
	if _, err := fsys.ReadFile("link.yaml"); !errors.Is(err, manifest.ErrTooLarge) {
		t.Errorf("ReadFile(link.yaml): %v, want ErrTooLarge", err)
	}
	if data, err := manifest.ReadFS(fsys, "small.yaml"); err != nil || string(data) != "s: 1\n" {
		t.Errorf("small.yaml: %q, %v", data, err)
	}
}

// withGitlink commits to repo a tree of HEAD's with a submodule (a
// gitlink entry) at vendor/charts.
func withGitlink(t *testing.T, repo *git.Repository) {
	t.Helper()
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	parent, err := repo.CommitObject(head.Hash())
	if err != nil {
		t.Fatal(err)
	}
	charts := &object.Tree{Entries: []object.TreeEntry{
		{Name: "charts", Mode: filemode.Submodule, Hash: plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")},
	}}
	vendor := store(t, repo, charts)
	tree, err := parent.Tree()
	if err != nil {
		t.Fatal(err)
	}
	// Entries are sorted by name: vendor comes after apps.
	top := &object.Tree{Entries: append(tree.Entries, object.TreeEntry{Name: "vendor", Mode: filemode.Dir, Hash: vendor})}
	sig := object.Signature{Name: "t", Email: "t@example.com", When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	c := &object.Commit{Author: sig, Committer: sig, Message: "submodule", TreeHash: store(t, repo, top), ParentHashes: []plumbing.Hash{parent.Hash}}
	h := store(t, repo, c)
	if err := repo.Storer.SetReference(plumbing.NewHashReference(head.Name(), h)); err != nil {
		t.Fatal(err)
	}
}

// store writes o to repo's objects.
func store(t *testing.T, repo *git.Repository, o interface {
	Encode(plumbing.EncodedObject) error
}) plumbing.Hash {
	t.Helper()
	obj := repo.Storer.NewEncodedObject()
	if err := o.Encode(obj); err != nil {
		t.Fatal(err)
	}
	h, err := repo.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestSubmoduleBothSides: a submodule is skipped with the same note in
// the work tree (a directory holding a .git) and in a revision (a
// gitlink), and only named in a revision is it refused.
func TestSubmoduleBothSides(t *testing.T) {
	root := t.TempDir()
	repo, err := git.PlainInit(root, false)
	if err != nil {
		t.Fatal(err)
	}
	commit(t, repo, root, map[string]string{"apps/a.yaml": "a: 1\n"})
	withGitlink(t, repo)
	// The work tree as a checkout leaves it: the submodule's files and
	// its .git file.
	for name, content := range map[string]string{
		"vendor/charts/.git":   "gitdir: ../../.git/modules/charts\n",
		"vendor/charts/c.yaml": "c: 1\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keep := func(name string) bool { return filepath.Ext(name) == ".yaml" }
	var workNotes, revNotes []string
	t.Chdir(root)
	work, err := manifest.WalkFiles(".", manifest.WalkOptions{Keep: keep, SkipDir: func(n string) bool { return n == ".git" },
		Skipped: func(n string) { workNotes = append(workNotes, n) }})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := r.FS("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	rev, err := manifest.WalkFS(fsys, ".", manifest.WalkOptions{Keep: keep, Skipped: func(n string) { revNotes = append(revNotes, n) }})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"apps/a.yaml"}, rev); diff != "" {
		t.Errorf("revision files (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"apps/a.yaml"}, work); diff != "" {
		t.Errorf("work tree files (-want +got):\n%s", diff)
	}
	want := []string{"vendor/charts: a git submodule, not read: its files are another repository's"}
	if diff := cmp.Diff(want, workNotes); diff != "" {
		t.Errorf("work tree notes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, revNotes); diff != "" {
		t.Errorf("revision notes (-want +got):\n%s", diff)
	}
	if _, err := fsys.Open("vendor/charts"); !errors.Is(err, manifest.ErrSubmodule) {
		t.Errorf("Open of a submodule: %v, want ErrSubmodule", err)
	}
	if _, err := manifest.WalkFS(fsys, "vendor/charts", manifest.WalkOptions{Keep: keep}); err == nil || err.Error() != want[0] {
		t.Errorf("WalkFS of a submodule: %v, want %q", err, want[0])
	}
	if fi, err := fs.Stat(fsys, "vendor/charts"); err != nil || fi.Sys() != (manifest.Submodule{}) {
		t.Errorf("Stat of a submodule: %v, %v", fi, err)
	}
}
