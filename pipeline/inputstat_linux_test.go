package pipeline

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/drydock-dev/drydock/cache"
)

// TestDirStat: dirStat gives statID's answer for files of one directory
// after another (a symbolic link followed, a directory, a missing file
// or a missing directory none), and after close.
func TestDirStat(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a/x.yaml", "a/y.yaml", "b/x.yaml"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(p), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("x.yaml", filepath.Join(dir, "a/link.yaml")); err != nil {
		t.Fatal(err)
	}
	var d dirStat
	defer d.close()
	for _, p := range []string{"a/x.yaml", "a/y.yaml", "a/link.yaml", "a/none.yaml", "b/x.yaml", "a/x.yaml", "none/x.yaml", "a", "b/x.yaml", "/"} {
		abs := filepath.Join(dir, p)
		if p == "/" {
			abs = p
		}
		wantID, wantOK := statID(abs)
		id, ok := d.stat(abs)
		if id != wantID || ok != wantOK {
			t.Errorf("%s: %v, %v; statID gives %v, %v", p, id, ok, wantID, wantOK)
		}
		if p == "a/link.yaml" && !ok {
			t.Errorf("%s: the link is not followed", p)
		}
	}
	d.close()
	if _, ok := d.stat(filepath.Join(dir, "a/x.yaml")); !ok || d.open && d.dir != filepath.Join(dir, "a")+"/" {
		t.Errorf("after close: %v, open %q", ok, d.dir)
	}
}

// TestKnownInputsCloseDir: reading the inputs with a record of them
// (whose files are stat'ed by dirStat) leaves no directory open.
func TestKnownInputsCloseDir(t *testing.T) {
	dir := t.TempDir()
	baseCacheFiles().write(t, dir)
	store, _ := cache.Open(cache.Options{Dir: t.TempDir()})
	in := Inputs{Paths: []string{filepath.Join(dir, "apps")}, Cache: store}
	fds := func() int {
		list, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd")
		}
		return len(list)
	}
	for range 2 { // learns, then reuses
		k := openKnownInputs(&in, time.Now().Add(time.Hour))
		before := fds()
		l := loaded{known: k}
		if err := in.files().readPaths(in.Paths, nil, &l); err != nil {
			t.Fatal(err)
		}
		if after := fds(); after != before {
			t.Errorf("%d descriptors open after reading the inputs, %d before", after, before)
		}
		if err := k.keep(); err != nil {
			t.Fatal(err)
		}
	}
	if k := openKnownInputs(&in, time.Now()); len(k.old) == 0 {
		t.Error("no record of the inputs")
	}
}
