package tree

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRacy: a file is racy while its times lie within the window before
// the moment it was read, or after it; the window is a tenth of a second
// when both times have a sub-second part (the file system keeps them),
// two seconds when either is a whole second (FAT, ext3, HFS+ keep no
// fraction).
func TestRacy(t *testing.T) {
	read := time.Date(2026, 11, 28, 12, 0, 0, 500_000_000, time.UTC)
	at := func(d time.Duration) int64 { return read.Add(d).UnixNano() }
	whole := func(d time.Duration) int64 { return read.Add(d).Truncate(time.Second).UnixNano() }
	for _, c := range []struct {
		name        string
		mod, change int64
		racy        bool
	}{
		{"fine, long before", at(-time.Hour), at(-time.Hour), false},
		{"fine, just outside the window", at(-101 * time.Millisecond), at(-101 * time.Millisecond), false},
		{"fine, modified inside the window", at(-99 * time.Millisecond), at(-time.Hour), true},
		{"fine, changed inside the window", at(-time.Hour), at(-99 * time.Millisecond), true},
		{"fine, after the read", at(time.Millisecond), at(time.Millisecond), true},
		{"whole seconds, a second before", whole(-time.Second), whole(-time.Second), true},
		{"whole seconds, three seconds before", whole(-3 * time.Second), whole(-3 * time.Second), false},
		{"one whole second, 200 ms before", at(-200 * time.Millisecond), whole(-200 * time.Millisecond), true},
		{"whole modification, 1.5 s before", whole(-1500 * time.Millisecond), at(-1500 * time.Millisecond), true},
	} {
		id := FileID{Size: 1, ModNs: c.mod, ChangeNs: c.change}
		if got := id.Racy(read); got != c.racy {
			t.Errorf("%s: Racy = %v, want %v (mod %d, change %d)", c.name, got, c.racy, c.mod, c.change)
		}
	}
}

// TestRacyWrittenFile: a file just written is racy when read at once and
// not once the window has passed (here: read as if 3 s later), whatever
// the file system's granularity.
func TestRacyWrittenFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.yaml")
	if err := os.WriteFile(p, []byte("kind: A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	id, ok := StatID(fi)
	if !ok {
		t.Skip("no change time or inode on this system") // StatID says so: nothing to learn
	}
	if !id.Racy(time.Now()) {
		t.Errorf("a file written now is not racy: %+v", id)
	}
	if id.Racy(time.Now().Add(3 * time.Second)) {
		t.Errorf("a file written 3 s before the read is racy: %+v", id)
	}
}
