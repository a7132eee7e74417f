package tree

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// givenOf is known's paths as a comparison that does not change it gives
// them.
func givenOf(known Known) GivenPaths {
	return GivenPaths{
		Has: func(p string) bool { _, ok := known[p]; return ok },
		All: func(yield func(p string) bool) {
			for p := range known {
				if !yield(p) {
					return
				}
			}
		},
	}
}

// relistPaths are the paths the tests' directories hold or could.
var relistPaths = []string{
	"a.yaml", "b.yaml", "u.yaml", "gone.yaml", "new.yaml", "renamed.yaml",
	"c1/ns/x.yaml", "c1/ns/y.yaml", "c1/ns/z.yaml", "c1/sub/n.yaml", "c2/m.yaml",
	"notes.txt", "link",
}

// describe is all a comparison or an update can ask of a listing, or its
// error.
func describe(l *Listing, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	defer l.Close()
	var b strings.Builder
	for _, p := range relistPaths {
		data, listed, err := l.Read(p)
		_, statOK := l.Stat(p)
		fmt.Fprintf(&b, "%s listed=%v owns=%v stat=%v read=%q err=%v\n", p, listed, l.owns(p), statOK, data, err)
	}
	fmt.Fprintf(&b, "removed(none rendered)=%v\n", l.Removed(func(string) bool { return false }))
	fmt.Fprintf(&b, "removed(a rendered)=%v\n", l.Removed(func(p string) bool { return p == "a.yaml" }))
	fmt.Fprintf(&b, "unowned=%v leftovers=%v\n", l.Unowned(), l.Leftovers())
	return b.String()
}

// relistDir writes the tests' golden directory: owned files (one of them
// missing), an unowned .yaml file, a text file and a symlink to a file
// outside it (target).
func relistDir(t *testing.T) (dir, target string) {
	t.Helper()
	dir, target = t.TempDir(), filepath.Join(t.TempDir(), "target")
	writeDir(t, dir, owning(map[string]string{
		"a.yaml": cmBlue, "b.yaml": ns, "u.yaml": "user: own\n",
		"c1/ns/x.yaml": cmGreen, "c1/ns/y.yaml": cmBlue, "c2/m.yaml": ns,
		"notes.txt": "notes\n",
	}, "a.yaml", "b.yaml", "gone.yaml", "c1/ns/x.yaml", "c1/ns/y.yaml", "c2/m.yaml"))
	if err := os.WriteFile(target, []byte("elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	return dir, target
}

// later is a moment an hour from now: a directory changed before it is
// not racy.
func later() time.Time { return time.Now().Add(time.Hour) }

// TestListAgain: a listing recorded with a Known is taken again, not
// walked, while the directory's structure is as it was; after each change
// that could change the listing (a file added, removed or renamed, a new
// directory with a file, the OwnershipFile edited, a symlink swapped in
// for a file or a directory, a symlink's target made a directory, the
// Known not the one recorded) it gives exactly what a fresh listing gives.
func TestListAgain(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, dir, target string, known Known) Known
	}{
		{"nothing changed", nil},
		{"a file edited in place", func(t *testing.T, dir, _ string, known Known) Known {
			writeDir(t, dir, map[string]string{"c1/ns/x.yaml": cmBlue + "# more\n"})
			return known
		}},
		{"a file added", func(t *testing.T, dir, _ string, known Known) Known {
			writeDir(t, dir, map[string]string{"c1/ns/z.yaml": ns})
			return known
		}},
		{"an owned file added", func(t *testing.T, dir, _ string, known Known) Known {
			writeDir(t, dir, map[string]string{"gone.yaml": ns})
			return known
		}},
		{"a file removed", func(t *testing.T, dir, _ string, known Known) Known {
			if err := os.Remove(filepath.Join(dir, "c1", "ns", "y.yaml")); err != nil {
				t.Fatal(err)
			}
			return known
		}},
		{"a file renamed", func(t *testing.T, dir, _ string, known Known) Known {
			if err := os.Rename(filepath.Join(dir, "b.yaml"), filepath.Join(dir, "renamed.yaml")); err != nil {
				t.Fatal(err)
			}
			return known
		}},
		{"a new directory with a file", func(t *testing.T, dir, _ string, known Known) Known {
			writeDir(t, dir, map[string]string{"c1/sub/n.yaml": ns})
			return known
		}},
		{"a directory removed", func(t *testing.T, dir, _ string, known Known) Known {
			if err := os.RemoveAll(filepath.Join(dir, "c2")); err != nil {
				t.Fatal(err)
			}
			return known
		}},
		{"the OwnershipFile edited in place", func(t *testing.T, dir, _ string, known Known) Known {
			writeDir(t, dir, map[string]string{OwnershipFile: string(encodeOwnership([]string{"a.yaml", "u.yaml", "c1/ns/x.yaml"}))})
			return known
		}},
		{"the OwnershipFile removed", func(t *testing.T, dir, _ string, known Known) Known {
			if err := os.Remove(filepath.Join(dir, OwnershipFile)); err != nil {
				t.Fatal(err)
			}
			return known
		}},
		{"a symlink swapped in for a file", func(t *testing.T, dir, _ string, known Known) Known {
			p := filepath.Join(dir, "c1", "ns", "x.yaml")
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(dir, "a.yaml"), p); err != nil {
				t.Fatal(err)
			}
			return known
		}},
		{"a symlink swapped in for a directory", func(t *testing.T, dir, _ string, known Known) Known {
			elsewhere := t.TempDir()
			writeDir(t, elsewhere, map[string]string{"m.yaml": ns})
			if err := os.RemoveAll(filepath.Join(dir, "c2")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(elsewhere, filepath.Join(dir, "c2")); err != nil {
				t.Fatal(err)
			}
			return known
		}},
		{"a symlink's target made a directory", func(t *testing.T, _, target string, known Known) Known {
			// Outside the directory: only the link's target tells.
			if err := os.Remove(target); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(target, 0o755); err != nil {
				t.Fatal(err)
			}
			return known
		}},
		{"Known lost a path", func(t *testing.T, dir, _ string, known Known) Known {
			k := maps.Clone(known)
			delete(k, "c1/ns/x.yaml")
			return k
		}},
		{"Known gained a path", func(t *testing.T, dir, _ string, known Known) Known {
			k := maps.Clone(known)
			k["gone.yaml"] = KnownFile{}
			return k
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, target := relistDir(t)
			known := Known{"a.yaml": {}, "c1/ns/x.yaml": {}, "u.yaml": {}}
			l, err := ListAgain(dir, later(), nil, known, givenOf(known))
			if err != nil {
				t.Fatal(err)
			}
			rec := l.Record(known)
			if rec == nil {
				t.Fatal("no record of a listing that is not racy")
			}
			fresh := describe(l, nil)
			if tt.change == nil {
				again, err := ListAgain(dir, later(), rec, known, givenOf(known))
				if err != nil || again.g.given == nil {
					t.Fatalf("the listing was not taken again (%v)", err)
				}
				if got := describe(again, nil); got != fresh {
					t.Errorf("taken again:\n%s\nlisted:\n%s", got, fresh)
				}
				return
			}
			known = tt.change(t, dir, target, known)
			want := describe(List(dir))
			got := describe(ListAgain(dir, later(), rec, known, givenOf(known)))
			if got != want {
				t.Errorf("taken again:\n%s\nlisted:\n%s", got, want)
			}
		})
	}
}

// TestListAgainRacy: a listing whose directories changed too recently to
// tell a later change in the same clock tick is not recorded; nor is a
// record taken again whose times are within the racy window of when it
// was made, though they are the directory's times (an entry made in the
// tick the listing saw).
func TestListAgainRacy(t *testing.T) {
	dir, _ := relistDir(t)
	known := Known{"a.yaml": {}}
	l, err := ListAgain(dir, time.Now(), nil, known, givenOf(known))
	if err != nil {
		t.Fatal(err)
	}
	if rec := l.Record(known); rec != nil {
		t.Error("a racy listing was recorded")
	}
	l, err = ListAgain(dir, later(), nil, known, givenOf(known))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := parseListRecord(l.Record(known))
	if !ok {
		t.Fatal("no record")
	}
	// A file made in the tick the record's directories were stat'ed in:
	// the directories' identities are as recorded, and the record was
	// made just now.
	writeDir(t, dir, map[string]string{"c1/ns/z.yaml": ns, "new.yaml": ns})
	for i, d := range r.shape.dirs {
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(d.rel)))
		if err != nil {
			t.Fatal(err)
		}
		r.shape.dirs[i].id, _ = dirID(fi)
	}
	r.shape.since = time.Now()
	want := describe(List(dir))
	got := describe(ListAgain(dir, later(), r.marshal(), known, givenOf(known)))
	if got != want {
		t.Errorf("taken again:\n%s\nlisted:\n%s", got, want)
	}
	// Its times made old, the same record is taken again: what the
	// check above refused was the racy record, not another change.
	r.shape.since = later()
	again, err := ListAgain(dir, later(), r.marshal(), known, givenOf(known))
	if err != nil || again.g.given == nil {
		t.Errorf("an old record with the directory's times was not taken again (%v)", err)
	}
}

// TestListAgainGiven: a listing taken again answers as Known was given
// while the comparison changes it (GivenPaths), and records what it holds
// with the Known learned: a file Known drops (changed, not learned) is
// still listed, and the next listing, recorded with the smaller Known,
// still holds it.
func TestListAgainGiven(t *testing.T) {
	dir, _ := relistDir(t)
	known := Known{"a.yaml": {}, "c1/ns/x.yaml": {}, "u.yaml": {}}
	l, err := ListAgain(dir, later(), nil, known, givenOf(known))
	if err != nil {
		t.Fatal(err)
	}
	want := describe(l, nil)
	rec := l.Record(known)
	l, err = ListAgain(dir, later(), rec, known, givenOf(known))
	if err != nil || l.g.given == nil {
		t.Fatalf("not taken again (%v)", err)
	}
	learned := maps.Clone(known)
	delete(learned, "c1/ns/x.yaml")
	delete(learned, "u.yaml")
	learned["b.yaml"] = KnownFile{}
	rec = l.Record(learned)
	if rec == nil {
		t.Fatal("no record")
	}
	l, err = ListAgain(dir, later(), rec, learned, givenOf(learned))
	if err != nil || l.g.given == nil {
		t.Fatalf("not taken again (%v)", err)
	}
	if got := describe(l, nil); got != want {
		t.Errorf("taken again:\n%s\nlisted:\n%s", got, want)
	}
	// A Known naming a file the listing does not hold is not recorded.
	if rec := l.Record(Known{"c1/ns/z.yaml": {}}); rec != nil {
		t.Error("recorded with a Known of a file not listed")
	}
}

// TestListRecordParse: a record reads back as written; anything else
// (another version, cut short, extended) does not read.
func TestListRecordParse(t *testing.T) {
	dir, _ := relistDir(t)
	known := Known{"a.yaml": {}}
	l, err := ListAgain(dir, later(), nil, known, givenOf(known))
	if err != nil {
		t.Fatal(err)
	}
	rec := l.Record(known)
	r, ok := parseListRecord(rec)
	if !ok || !slices.Equal(r.marshal(), rec) {
		t.Fatal("a record does not read back")
	}
	for i := range len(rec) {
		if _, ok := parseListRecord(rec[:i]); ok {
			t.Errorf("a record cut at %d reads", i)
		}
	}
	if _, ok := parseListRecord(append(slices.Clone(rec), 0)); ok {
		t.Error("an extended record reads")
	}
	old := append([]byte("drydock listing 0\n"), rec[len(listRecordMagic):]...)
	if _, ok := parseListRecord(old); ok {
		t.Error("another version reads")
	}
	if _, err := ListAgain(dir, later(), []byte("junk"), known, givenOf(known)); err != nil && !errors.Is(err, ErrInvalidPath) {
		t.Fatal(err)
	}
}
