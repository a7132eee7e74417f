package tree

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHostileJournal: a journal is read from the directory, which may come
// from a repository checkout, so recovery trusts none of it. It renames
// only drydock's own temporary files (.drydock-<16 hex>-<n>.tmp) over
// the paths the staged OwnershipFile lists, and only over a file drydock
// owns or over nothing; it deletes only files the current OwnershipFile
// lists and the new one drops; it never touches drydock's control files,
// a path through a symbolic link, or a file it did not write. A journal
// asking for anything else is refused before anything of it is done:
// the directory is left exactly as it was.
func TestHostileJournal(t *testing.T) {
	const (
		tmp  = "c1/ns/.drydock-0123456789abcdef-1.tmp"
		tmpR = ".drydock-0123456789abcdef-1.tmp"
		own  = ".drydock-0123456789abcdef-2.tmp"
	)
	q := func(s string) string { return `"` + s + `"` }
	ownList := func(paths ...string) string { return string(encodeOwnership(paths)) }
	start := owning(map[string]string{
		cmPath:                cmBlue,
		"README.md":           "the user's\n",
		"mine.yaml":           "the user's\n",
		".git/config":         "[core]\n",
		"c1/ns/user.yaml":     "the user's\n",
		"c1/ns/secret_x.yaml": "owned\n",
		"c1/other/keep.yaml":  "the user's\n",
		"c1/other/note.txt":   "the user's\n",
	}, cmPath, "c1/ns/secret_x.yaml")
	tests := []struct {
		name    string
		journal string
		files   map[string]string
		link    bool // c1/link is a symbolic link to c1/other
	}{
		{"rollback removes a user file", "stage " + q("README.md") + " " + q("mine.yaml") + "\n", nil, false},
		{"rollback removes a user file under a temporary-looking dir", "stage " + q("c1/other/note.txt") + " " + q("c1/other/x.yaml") + "\n", nil, false},
		{"commit renames a user file", "stage " + q("README.md") + " " + q(cmPath) + "\nown " + q(own) + "\ncommit\n",
			map[string]string{own: ownList(cmPath)}, false},
		{"commit renames onto .git", "stage " + q(".git/"+tmpR) + " " + q(".git/config") + "\nown " + q(own) + "\ncommit\n",
			map[string]string{".git/" + tmpR: "evil\n", own: ownList(".git/config")}, false},
		{"commit renames onto the ownership file", "stage " + q(tmpR) + " " + q(OwnershipFile) + "\nown " + q(own) + "\ncommit\n",
			map[string]string{tmpR: "evil\n", own: ownList(cmPath)}, false},
		{"commit renames onto the journal", "stage " + q(tmpR) + " " + q(JournalFile) + "\nown " + q(own) + "\ncommit\n",
			map[string]string{tmpR: "evil\n", own: ownList(cmPath)}, false},
		{"commit renames onto an unowned file", "stage " + q(tmpR) + " " + q("mine.yaml") + "\nown " + q(own) + "\ncommit\n",
			map[string]string{tmpR: "evil\n", own: ownList(cmPath, "mine.yaml")}, false},
		{"commit renames onto a path the new ownership does not list", "stage " + q(tmp) + " " + q(cmPath) + "\nown " + q(own) + "\ncommit\n",
			map[string]string{tmp: "evil\n", own: ownList("c1/ns/secret_x.yaml")}, false},
		{"commit renames across directories", "stage " + q(tmpR) + " " + q(cmPath) + "\nown " + q(own) + "\ncommit\n",
			map[string]string{tmpR: "evil\n", own: ownList(cmPath)}, false},
		{"commit deletes an unowned file", "delete " + q("c1/ns/user.yaml") + "\nown " + q(own) + "\ncommit\n",
			map[string]string{own: ownList(cmPath)}, false},
		{"commit deletes a file the new ownership keeps", "delete " + q(cmPath) + "\nown " + q(own) + "\ncommit\n",
			map[string]string{own: ownList(cmPath)}, false},
		{"commit owns a user file", "own " + q("README.md") + "\ncommit\n", nil, false},
		{"commit without own", "stage " + q(tmp) + " " + q(cmPath) + "\ncommit\n", map[string]string{tmp: "evil\n"}, false},
		{"commit through a symbolic link", "stage " + q("c1/link/"+tmpR) + " " + q("c1/link/keep.yaml") + "\nown " + q(own) + "\ncommit\n",
			map[string]string{"c1/other/" + tmpR: "evil\n", own: ownList(cmPath, "c1/link/keep.yaml")}, true},
		{"ownership lists a control file", "stage " + q(tmpR) + " " + q(LockFile) + "\nown " + q(own) + "\ncommit\n",
			map[string]string{tmpR: "evil\n", own: ownList(cmPath, LockFile)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeDir(t, dir, start)
			files := map[string]string{JournalFile: journalHeader + tt.journal}
			for p, data := range tt.files {
				files[p] = data
			}
			writeDir(t, dir, files)
			if tt.link {
				if err := os.Symlink("other", filepath.Join(dir, "c1", "link")); err != nil {
					t.Fatal(err)
				}
			}
			before := readAll(t, dir)
			for _, run := range []string{"list", "update"} {
				var err error
				if run == "list" {
					err = nextRun(dir)
				} else {
					_, err = Update(dir, treeOf(map[string]string{cmPath: cmBlue}), UpdateOptions{Prune: true, Adopt: true})
				}
				if !errors.Is(err, ErrInvalidPath) {
					t.Errorf("%s: error %v, want one wrapping ErrInvalidPath", run, err)
				}
				if diff := cmp.Diff(before, readAll(t, dir)); diff != "" {
					t.Errorf("%s: files (-before +after):\n%s", run, diff)
				}
			}
		})
	}
}

// TestJournalAdopt: an update killed while it took over a file drydock did
// not write is completed only by a run that adopts too; a run that does
// not (a check in CI) refuses it and leaves the file as it was.
func TestJournalAdopt(t *testing.T) {
	const tmp, own = ".drydock-0123456789abcdef-1.tmp", ".drydock-0123456789abcdef-2.tmp"
	start := map[string]string{"mine.yaml": "the user's\n"}
	files := map[string]string{
		JournalFile: journalHeader + `stage "` + tmp + `" "mine.yaml"` + "\nadopt \"mine.yaml\"\nown \"" + own + "\"\ncommit\n",
		tmp:         "rendered\n",
		own:         string(encodeOwnership([]string{"mine.yaml"})),
	}
	dir := t.TempDir()
	writeDir(t, dir, start)
	writeDir(t, dir, files)
	before := readAll(t, dir)
	if err := nextRun(dir); !errors.Is(err, ErrNotOwned) {
		t.Errorf("List: error %v, want one wrapping ErrNotOwned", err)
	}
	if diff := cmp.Diff(before, readAll(t, dir)); diff != "" {
		t.Errorf("List: files (-before +after):\n%s", diff)
	}
	if _, err := Update(dir, treeOf(map[string]string{"mine.yaml": "rendered\n"}), UpdateOptions{Adopt: true}); err != nil {
		t.Fatal(err)
	}
	want := owning(map[string]string{"mine.yaml": "rendered\n"}, "mine.yaml")
	if diff := cmp.Diff(want, readAll(t, dir)); diff != "" {
		t.Errorf("Update --adopt: files (-want +got):\n%s", diff)
	}
}

// TestCommitFailsMidway: a change that fails after the journal's commit
// line (here a rename onto a path someone made a directory meanwhile)
// leaves the journal committed, never rolls back the rest: the next run
// completes the update once the obstacle is gone, so the owned files end
// up wholly new, never half new and half old.
func TestCommitFailsMidway(t *testing.T) {
	const a, b = "c1/a.yaml", "c1/b.yaml"
	dir := t.TempDir()
	writeDir(t, dir, owning(map[string]string{a: "old\n", b: "old\n"}, a, b))
	u, err := NewUpdater(dir, UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{a, b} {
		if err := u.Put(p, []byte("new\n")); err != nil {
			t.Fatal(err)
		}
	}
	full := filepath.Join(dir, filepath.FromSlash(b))
	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	writeDir(t, dir, map[string]string{b + "/x": "in the way\n"})
	if _, err := u.Commit(); err == nil {
		t.Fatal("Commit: no error with a directory in the way")
	}
	if _, err := os.Lstat(filepath.Join(dir, JournalFile)); err != nil {
		t.Errorf("journal after a failed committed update: %v, want it kept for the next run", err)
	}
	if err := os.RemoveAll(full); err != nil {
		t.Fatal(err)
	}
	if err := nextRun(dir); err != nil {
		t.Fatal(err)
	}
	want := owning(map[string]string{"c1/": "", a: "new\n", b: "new\n"}, a, b)
	if diff := cmp.Diff(want, readAll(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// listPut reads each file Put from the listing, as a comparison does.
type listPut struct{ *Listing }

func (l listPut) Put(p string, _ []byte) error {
	_, _, err := l.Read(p)
	return err
}

// TestListReadsInside: a directory of the golden tree swapped for a
// symbolic link after the listing (a race with another process) does not
// lead the comparison's reads out of the directory: the file outside is
// neither read nor shown in a diff.
func TestListReadsInside(t *testing.T) {
	base := t.TempDir()
	dir, outside := filepath.Join(base, "golden"), filepath.Join(base, "outside")
	writeDir(t, dir, owning(map[string]string{cmPath: cmBlue}, cmPath))
	writeDir(t, outside, map[string]string{"configmap_app.yaml": "secret: outside\n"})
	for _, mk := range []func() (interface{ Put(string, []byte) error }, error){
		func() (interface{ Put(string, []byte) error }, error) { l, err := List(dir); return listPut{l}, err },
		func() (interface{ Put(string, []byte) error }, error) { return NewUpdater(dir, UpdateOptions{}) },
	} {
		c, err := mk()
		if err != nil {
			t.Fatal(err)
		}
		ns := filepath.Join(dir, "c1", "ns")
		if err := os.Rename(ns, ns+".away"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, ns); err != nil {
			t.Fatal(err)
		}
		err = c.Put(cmPath, []byte(cmGreen))
		if err == nil {
			t.Errorf("%T: Put through a link out: no error", c)
		}
		if u, ok := c.(*Updater); ok {
			u.Abort()
		}
		if err := os.Remove(ns); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(ns+".away", ns); err != nil {
			t.Fatal(err)
		}
	}
}
