package tree

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestListingStatIsLstat: Listing.Stat gives the FileID os.Lstat's
// FileInfo gives (the Linux fstatat path and the portable one agree),
// for files in the root and in subdirectories, and nothing for a path
// the listing does not hold.
func TestListingStatIsLstat(t *testing.T) {
	dir := t.TempDir()
	writeDir(t, dir, map[string]string{"a.yaml": "a: 1\n", "c1/ns/b.yaml": "b: 22\n", "c1/ns/c.yaml": ""})
	l, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, p := range []string{"a.yaml", "c1/ns/b.yaml", "c1/ns/c.yaml", "a.yaml"} {
		got, ok := l.Stat(p)
		fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		want, wok := StatID(fi)
		if ok != wok || got != want {
			t.Errorf("Stat(%q) = %+v, %v; os.Lstat gives %+v, %v", p, got, ok, want, wok)
		}
	}
	if _, ok := l.Stat("missing.yaml"); ok {
		t.Error("Stat of an unlisted path is ok")
	}
}

// TestListingStatRefusesSymlinkSwap: a listed file or directory replaced
// by a symbolic link after the listing (to a regular file elsewhere, or
// to another directory) has no FileID: Stat neither follows it nor gives
// the target's FileID.
func TestListingStatRefusesSymlinkSwap(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	writeDir(t, dir, map[string]string{"a.yaml": "a: 1\n", "d/b.yaml": "b: 1\n"})
	writeDir(t, outside, map[string]string{"x.yaml": "x: 1\n", "b.yaml": "b: 1\n"})
	l, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	swap := func(p, target string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.RemoveAll(full); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, full); err != nil {
			t.Fatal(err)
		}
	}
	swap("a.yaml", filepath.Join(outside, "x.yaml"))
	if id, ok := l.Stat("a.yaml"); ok {
		t.Errorf("Stat of a file swapped for a symlink = %+v, ok", id)
	}
	swap("d", outside)
	if id, ok := l.Stat("d/b.yaml"); ok {
		t.Errorf("Stat below a directory swapped for a symlink = %+v, ok", id)
	}
}

// TestListingStatKeepsOpenedDirectory: once a directory was reached, a
// symlink swapped in for it later is not followed either: Stat stays in
// the directory it opened (now removed from the tree), as Read does.
func TestListingStatKeepsOpenedDirectory(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	writeDir(t, dir, map[string]string{"d/b.yaml": "b: 1\n", "d/c.yaml": "c: 1\n"})
	writeDir(t, outside, map[string]string{"c.yaml": "c: 2\n"})
	l, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, ok := l.Stat("d/b.yaml"); !ok {
		t.Fatal("Stat of a listed file is not ok")
	}
	if err := os.Rename(filepath.Join(dir, "d"), filepath.Join(outside, "moved")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "d")); err != nil {
		t.Fatal(err)
	}
	id, ok := l.Stat("d/c.yaml")
	fi, err := os.Lstat(filepath.Join(outside, "c.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if other, _ := StatID(fi); ok && id == other {
		t.Error("Stat followed a symlink swapped in for an opened directory")
	}
}

// TestListingKeepsOnePathCopy: a Listing of a directory whose files drydock
// owns keeps their paths once, as the OwnershipFile's lines, and not also
// the walk's path strings in a map of their own: what it holds per file
// stays well under a path and a map entry more.
func TestListingKeepsOnePathCopy(t *testing.T) {
	const n = 2000
	dir := t.TempDir()
	tr := benchTree(n, "1")
	if _, err := Update(dir, tr, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	// The OwnershipFile's bytes (data and its string: ~2 x 45 a path) and
	// its map are held (~195 a file); another map of the walk's paths
	// (root + path, ~100 bytes each with its entry) is not (~290).
	if per > 240 {
		t.Errorf("the listing holds %d bytes a file, want at most 240", per)
	}
	if got := l.Removed(func(string) bool { return false }); len(got) != n {
		t.Errorf("Removed names %d files, want %d", len(got), n)
	}
	runtime.KeepAlive(l)
}
