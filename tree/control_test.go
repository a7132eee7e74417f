package tree

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestControlNames: a tree drydock writes may hold files other than
// .yaml ones (an addon's NOTES.txt), owned like the others and read back
// from the OwnershipFile by the next run; but no tree path may name
// drydock's control files or its temporary files, which the update would
// overwrite with its own (or its own with them).
func TestControlNames(t *testing.T) {
	dir := t.TempDir()
	files := Tree{"NOTES.txt": []byte("x\n"), "a.yaml": []byte("a: 1\n")}
	for i := range 2 {
		if err := Write(dir, files); err != nil {
			t.Fatalf("write %d: %v", i+1, err)
		}
	}
	want := owning(map[string]string{"NOTES.txt": "x\n", "a.yaml": "a: 1\n"}, "NOTES.txt", "a.yaml")
	for _, p := range []string{OwnershipFile, JournalFile, LockFile, ".drydock-0123456789abcdef-1.tmp", "sub/" + OwnershipFile} {
		if err := Write(dir, Tree{p: []byte("evil\n")}); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("write %s: error %v, want one wrapping ErrInvalidPath", p, err)
		}
	}
	if diff := cmp.Diff(want, readAll(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// TestOwnershipLines: the OwnershipFile lists one path a line, trimmed,
// "#" starting a comment, so a path it could not list as itself (a line
// break, another control character, white space at either end, a leading
// "#") is refused: written as is, "x\nhand.yaml" would make drydock own
// the user's hand.yaml, and rewrite or prune it later.
func TestOwnershipLines(t *testing.T) {
	for _, p := range []string{"x\nhand.yaml", "x\rhand.yaml", " hand.yaml", "hand.yaml ", "#hand.yaml", "a/\x1b[31m.yaml", "a\u0085.yaml"} {
		dir := t.TempDir()
		writeDir(t, dir, map[string]string{"hand.yaml": "the user's\n"})
		if err := Write(dir, Tree{p: []byte("x\n")}); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("write %q: error %v, want one wrapping ErrInvalidPath", p, err)
		}
		if diff := cmp.Diff(map[string]string{"hand.yaml": "the user's\n"}, readAll(t, dir)); diff != "" {
			t.Errorf("write %q: files (-want +got):\n%s", p, diff)
		}
	}
}

// TestOwnershipNoGit: an ownership file may list files other than .yaml
// ones (NOTES.txt), but never one inside a .git directory (an output
// directory is often a checkout): one that lists .git/HEAD is refused, and
// render's pruning deletes nothing.
func TestOwnershipNoGit(t *testing.T) {
	for _, listed := range []string{".git/HEAD", "sub/.GIT/config"} {
		dir := t.TempDir()
		start := owning(map[string]string{listed: "ref: refs/heads/main\n", "a.yaml": "a: 1\n"}, listed, "a.yaml")
		writeDir(t, dir, start)
		before := readAll(t, dir)
		_, err := Update(dir, treeOf(map[string]string{"a.yaml": "a: 1\n"}), UpdateOptions{Prune: true})
		if !errors.Is(err, ErrInvalidPath) {
			t.Errorf("%s: error %v, want one wrapping ErrInvalidPath", listed, err)
		}
		if diff := cmp.Diff(before, readAll(t, dir)); diff != "" {
			t.Errorf("%s: files (-before +after):\n%s", listed, diff)
		}
	}
}
