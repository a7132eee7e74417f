package tree

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// readAll returns every file under dir (slash paths to contents), the
// directories as "dir/" entries, and the other entries by type (a
// symbolic link with its target) without opening them.
func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(full string, d fs.DirEntry, err error) error {
		if err != nil || full == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, full)
		rel = filepath.ToSlash(rel)
		switch m := d.Type(); {
		case m&fs.ModeSymlink != 0:
			link, _ := os.Readlink(full)
			out[rel] = "symlink " + link
		case m.IsDir():
			out[rel+"/"] = ""
		case !m.IsRegular():
			out[rel] = m.String()
		default:
			data, err := os.ReadFile(full)
			out[rel] = string(data)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var old = time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)

// age sets the modification time of every file under dir to old.
func age(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(full string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(full, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// touched lists the files under dir whose modification time is no longer old.
func touched(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(full string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if !fi.ModTime().Equal(old) {
			rel, _ := filepath.Rel(dir, full)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func TestUpdate(t *testing.T) {
	golden := map[string]string{
		"c1/ns/configmap_app.yaml":      cmBlue,
		"c1/_cluster/namespace_ns.yaml": ns,
		"c1/gone/secret_s.yaml":         "gone\n",
		"c1/keep/secret_s.yaml":         "gone\n",
		"c1/keep/README.md":             "kept\n",
		"c2/crlf.yaml":                  "a: 1\r\nb: 2\r\n",
		"README.md":                     "golden files\n",
	}
	got := map[string]string{
		"c1/ns/configmap_app.yaml":      cmGreen,
		"c1/_cluster/namespace_ns.yaml": ns,
		"c1/new/deep/x.yaml":            "new\n",
		"c2/crlf.yaml":                  "a: 1\nb: 2\n",
	}
	tests := []struct {
		name        string
		prune       bool
		wantReport  Report
		wantFiles   map[string]string
		wantTouched []string
	}{
		{
			name: "keep removed files",
			wantReport: Report{
				Added: []string{"c1/new/deep/x.yaml"}, Changed: []string{"c1/ns/configmap_app.yaml"},
				Removed: []string{"c1/gone/secret_s.yaml", "c1/keep/secret_s.yaml"}, Unchanged: 2,
			},
			wantFiles: owning(map[string]string{
				"README.md": "golden files\n",
				"c1/":       "", "c1/_cluster/": "", "c1/gone/": "", "c1/keep/": "", "c1/new/": "", "c1/new/deep/": "", "c1/ns/": "", "c2/": "",
				"c1/_cluster/namespace_ns.yaml": ns,
				"c1/gone/secret_s.yaml":         "gone\n",
				"c1/keep/README.md":             "kept\n",
				"c1/keep/secret_s.yaml":         "gone\n",
				"c1/new/deep/x.yaml":            "new\n",
				"c1/ns/configmap_app.yaml":      cmGreen,
				"c2/crlf.yaml":                  "a: 1\r\nb: 2\r\n",
			}, "c1/_cluster/namespace_ns.yaml", "c1/gone/secret_s.yaml", "c1/keep/secret_s.yaml", "c1/new/deep/x.yaml", "c1/ns/configmap_app.yaml", "c2/crlf.yaml"),
			wantTouched: []string{OwnershipFile, "c1/new/deep/x.yaml", "c1/ns/configmap_app.yaml"},
		},
		{
			name:  "prune",
			prune: true,
			wantReport: Report{
				Added: []string{"c1/new/deep/x.yaml"}, Changed: []string{"c1/ns/configmap_app.yaml"},
				Removed: []string{"c1/gone/secret_s.yaml", "c1/keep/secret_s.yaml"}, Unchanged: 2,
				Pruned: true,
			},
			wantFiles: owning(map[string]string{
				"README.md": "golden files\n",
				"c1/":       "", "c1/_cluster/": "", "c1/keep/": "", "c1/new/": "", "c1/new/deep/": "", "c1/ns/": "", "c2/": "",
				"c1/_cluster/namespace_ns.yaml": ns,
				"c1/keep/README.md":             "kept\n",
				"c1/new/deep/x.yaml":            "new\n",
				"c1/ns/configmap_app.yaml":      cmGreen,
				"c2/crlf.yaml":                  "a: 1\r\nb: 2\r\n",
			}, "c1/_cluster/namespace_ns.yaml", "c1/new/deep/x.yaml", "c1/ns/configmap_app.yaml", "c2/crlf.yaml"),
			wantTouched: []string{OwnershipFile, "c1/new/deep/x.yaml", "c1/ns/configmap_app.yaml"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeDir(t, dir, owning(golden, "c1/_cluster/namespace_ns.yaml", "c1/gone/secret_s.yaml", "c1/keep/secret_s.yaml", "c1/ns/configmap_app.yaml", "c2/crlf.yaml"))
			age(t, dir)
			before, err := os.Stat(filepath.Join(dir, "c1/ns/configmap_app.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			changes := map[string][2]string{}
			opts := UpdateOptions{Prune: tt.prune, Changed: func(p string, old, rendered []byte) {
				changes[p] = [2]string{string(old), string(rendered)}
			}}
			rep, err := Update(dir, treeOf(got), opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&tt.wantReport, rep, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(map[string][2]string{"c1/ns/configmap_app.yaml": {cmBlue, cmGreen}}, changes); diff != "" {
				t.Errorf("Changed calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantFiles, readAll(t, dir)); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantTouched, touched(t, dir)); diff != "" {
				t.Errorf("modified files (-want +got):\n%s", diff)
			}
			// Replaced by a rename, not rewritten in place.
			after, err := os.Stat(filepath.Join(dir, "c1/ns/configmap_app.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if os.SameFile(before, after) {
				t.Error("changed file was rewritten in place, not replaced atomically")
			}
			// A second update has nothing to do.
			again, err := Update(dir, treeOf(got), UpdateOptions{Prune: tt.prune})
			if err != nil {
				t.Fatal(err)
			}
			if wantOK := tt.prune; again.OK() != wantOK {
				t.Errorf("second Update OK() = %v, want %v: %+v", again.OK(), wantOK, again)
			}
		})
	}
}

func TestUpdateKeepsPermissions(t *testing.T) {
	dir := t.TempDir()
	writeDir(t, dir, owning(map[string]string{"a.yaml": "1\n"}, "a.yaml"))
	if err := os.Chmod(filepath.Join(dir, "a.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Update(dir, treeOf(map[string]string{"a.yaml": "2\n", "b.yaml": "2\n"}), UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]fs.FileMode{"a.yaml": 0o600, "b.yaml": 0o644 &^ umask(t)} {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s mode = %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
}

// umask finds the process umask by creating a file.
func umask(t *testing.T) fs.FileMode {
	t.Helper()
	p := filepath.Join(t.TempDir(), "probe")
	if err := os.WriteFile(p, nil, 0o777); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ fi.Mode().Perm()
}

func TestUpdateCreatesDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "testdata", "golden")
	rep, err := Update(dir, treeOf(map[string]string{nsPath: ns}), UpdateOptions{Prune: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{nsPath}, rep.Added); diff != "" {
		t.Errorf("Added (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(owning(map[string]string{"c1/": "", "c1/_cluster/": "", nsPath: ns}, nsPath), readAll(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	// Nothing to write: a missing directory stays missing.
	empty := filepath.Join(t.TempDir(), "none")
	if _, err := Update(empty, Tree{}, UpdateOptions{Prune: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(empty); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Update created %s for an empty tree", empty)
	}
}

// TestUpdateEscapes checks that paths leading outside the directory are
// rejected before anything is written, inside or outside it.
func TestUpdateEscapes(t *testing.T) {
	tests := []struct {
		name  string
		paths []string
		link  string // a symlink "link" in the golden directory to the outside directory
	}{
		{name: "dot-dot", paths: []string{"a.yaml", "../x.yaml"}},
		{name: "dot-dot inside", paths: []string{"a.yaml", "sub/../../x.yaml"}},
		{name: "absolute", paths: []string{"a.yaml", "/x.yaml"}},
		{name: "symlinked subdirectory pointing outside", paths: []string{"a.yaml", "link/x.yaml"}, link: "link"},
		{name: "symlinked subdirectory pointing outside, deeper", paths: []string{"a.yaml", "link/deeper/x.yaml"}, link: "link"},
	}
	for _, tt := range tests {
		for _, prune := range []bool{false, true} {
			t.Run(tt.name, func(t *testing.T) {
				dir, outside := t.TempDir(), t.TempDir()
				writeDir(t, dir, owning(map[string]string{"a.yaml": "old\n", "stale.yaml": "old\n"}, "a.yaml", "stale.yaml"))
				if tt.link != "" {
					if err := os.Symlink(outside, filepath.Join(dir, tt.link)); err != nil {
						t.Skipf("symlinks unsupported: %v", err)
					}
				}
				beforeIn, beforeOut := readAll(t, dir), readAll(t, outside)
				got := Tree{}
				for _, p := range tt.paths {
					got[p] = []byte("new\n")
				}
				rep, err := Update(dir, got, UpdateOptions{Prune: prune})
				if !errors.Is(err, ErrInvalidPath) {
					t.Fatalf("Update error = %v (report %v), want ErrInvalidPath", err, rep)
				}
				if diff := cmp.Diff(beforeIn, readAll(t, dir)); diff != "" {
					t.Errorf("golden directory changed (-before +after):\n%s", diff)
				}
				if diff := cmp.Diff(beforeOut, readAll(t, outside)); diff != "" {
					t.Errorf("outside directory changed (-before +after):\n%s", diff)
				}
			})
		}
	}
}

func TestWriteEscapes(t *testing.T) {
	tests := []struct {
		name    string
		paths   []string
		target  string // of a symlink out/link; relative to the temp root if abs
		abs     bool
		wantErr bool
	}{
		{name: "dot-dot", paths: []string{"a.yaml", "../escape.yaml"}, wantErr: true},
		{name: "absolute", paths: []string{"a.yaml", "/etc/x.yaml"}, wantErr: true},
		{name: "symlinked subdirectory pointing outside", paths: []string{"a.yaml", "link/x.yaml"}, target: "outside", abs: true, wantErr: true},
		{name: "relative symlink pointing outside", paths: []string{"a.yaml", "link/x.yaml"}, target: "../outside", wantErr: true},
		{name: "absolute symlink pointing inside", paths: []string{"a.yaml", "link/x.yaml"}, target: "out/real", abs: true, wantErr: true},
		{name: "relative symlink pointing inside", paths: []string{"a.yaml", "link/x.yaml"}, target: "real", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			dir, outside := filepath.Join(base, "out"), filepath.Join(base, "outside")
			for _, d := range []string{dir, outside, filepath.Join(dir, "real")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if tt.target != "" {
				target := tt.target
				if tt.abs {
					target = filepath.Join(base, target)
				}
				if err := os.Symlink(target, filepath.Join(dir, "link")); err != nil {
					t.Skipf("symlinks unsupported: %v", err)
				}
			}
			got := Tree{}
			for _, p := range tt.paths {
				got[p] = []byte("x\n")
			}
			err := Write(dir, got)
			if !tt.wantErr {
				if err != nil {
					t.Fatal(err)
				}
				if data, err := os.ReadFile(filepath.Join(dir, "real", "x.yaml")); err != nil || string(data) != "x\n" {
					t.Errorf("write through inner symlink: %q, %v", data, err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidPath) {
				t.Fatalf("Write error = %v, want ErrInvalidPath", err)
			}
			want := map[string]string{"out/": "", "out/real/": "", "outside/": ""}
			if tt.target != "" {
				link, _ := os.Readlink(filepath.Join(dir, "link"))
				want["out/link"] = "symlink " + link
			}
			if diff := cmp.Diff(want, readAll(t, base)); diff != "" {
				t.Errorf("files after a rejected Write (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStreamingReplace: a second Put of a path replaces the first in an
// Updater; an Updater whose file goes back to
// the golden content leaves the golden file (and its time) alone.
func TestStreamingReplace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "golden")
	if err := Write(dir, Tree{"a/x.yaml": []byte("one\n")}); err != nil {
		t.Fatal(err)
	}
	w, err := NewUpdater(dir, UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct{ path, data string }{{"a/x.yaml", "two\n"}, {"a/y.yaml", "y\n"}, {"a/x.yaml", "three\n"}} {
		if err := w.Put(step.path, []byte(step.data)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, dir); !cmp.Equal(got, map[string]string{"a/x.yaml": "three\n", "a/y.yaml": "y\n"}) {
		t.Errorf("after a first Updater: %v", got)
	}

	before, err := os.Stat(filepath.Join(dir, "a/x.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	u, err := NewUpdater(dir, UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_ = u.Put("a/x.yaml", []byte("changed\n"))
	_ = u.Put("a/x.yaml", []byte("three\n"))
	_ = u.Put("a/y.yaml", []byte("new y\n"))
	rep, err := u.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(rep.Changed, []string{"a/y.yaml"}) {
		t.Errorf("Updater report %+v", rep)
	}
	after, err := os.Stat(filepath.Join(dir, "a/x.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) || readTree(t, dir)["a/x.yaml"] != "three\n" {
		t.Errorf("a/x.yaml was rewritten: %v then %v", before.ModTime(), after.ModTime())
	}
}

// TestStreamingAbort: what an Updater was given is discarded by Abort:
// the directory is as it was, with no staged file, journal, lock or made
// directory left.
func TestStreamingAbort(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "golden")
	if err := Write(dir, Tree{"a/x.yaml": []byte("one\n")}); err != nil {
		t.Fatal(err)
	}
	w, err := NewUpdater(dir, UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_ = w.Put("a/x.yaml", []byte("two\n"))
	_ = w.Put("c/d/e.yaml", []byte("new\n"))
	w.Abort()
	u, err := NewUpdater(dir, UpdateOptions{Prune: true})
	if err != nil {
		t.Fatal(err)
	}
	_ = u.Put("b/y.yaml", []byte("y\n"))
	u.Abort()
	if got := readTree(t, dir); !cmp.Equal(got, map[string]string{"a/x.yaml": "one\n"}) {
		t.Errorf("after Abort: %v", got)
	}
	for _, made := range []string{"b", "c"} {
		if _, err := os.Lstat(filepath.Join(dir, made)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the directory %s an aborted update made is still there (%v)", made, err)
		}
	}
	entries, err := os.ReadDir(parent)
	if err != nil || len(entries) != 1 {
		t.Errorf("beside the directory: %v (%v)", entries, err)
	}
	// The lock was released: another writer gets it at once.
	w, err = NewUpdater(dir, UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Abort()
}

// readTree reads every regular file under dir but the OwnershipFile.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == OwnershipFile {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
