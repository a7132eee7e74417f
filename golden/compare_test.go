package golden

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drydock-dev/drydock/tree"
)

// writeDir creates files (slash paths to contents) under dir.
func writeDir(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readAll returns every file under dir (slash paths to contents) and the
// directories as "dir/" entries.
func readAll(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(full string, d fs.DirEntry, err error) error {
		if err != nil || full == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, full)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		data, err := os.ReadFile(full)
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// owning adds to files a tree.OwnershipFile listing paths, as tree writes
// it.
func owning(files map[string]string, paths ...string) map[string]string {
	sorted := slices.Sorted(slices.Values(paths))
	own := "# Files drydock wrote in this golden directory; --prune deletes only these.\n"
	for _, p := range sorted {
		own += p + "\n"
	}
	out := map[string]string{tree.OwnershipFile: own}
	for p, data := range files {
		out[p] = data
	}
	return out
}

// owningYAML adds to files an OwnershipFile listing their .yaml files.
func owningYAML(files map[string]string) map[string]string {
	var paths []string
	for p := range files {
		if strings.HasSuffix(p, ".yaml") {
			paths = append(paths, p)
		}
	}
	return owning(files, paths...)
}

// treeOf builds a tree.Tree from strings.
func treeOf(files map[string]string) tree.Tree {
	t := tree.Tree{}
	for p, data := range files {
		t[p] = []byte(data)
	}
	return t
}

const (
	cmBlue  = "apiVersion: v1\ndata:\n  color: blue\nkind: ConfigMap\nmetadata:\n  name: app\n"
	cmGreen = "apiVersion: v1\ndata:\n  color: green\nkind: ConfigMap\nmetadata:\n  name: app\n"
	cmDiff  = "--- golden/c1/ns/configmap_app.yaml\n+++ rendered/c1/ns/configmap_app.yaml\n" +
		"@@ -1,6 +1,6 @@\n apiVersion: v1\n data:\n-  color: blue\n+  color: green\n kind: ConfigMap\n metadata:\n   name: app\n"
	cmPath = "c1/ns/configmap_app.yaml"
	nsPath = "c1/_cluster/namespace_ns.yaml"
	ns     = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns\n"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		name   string
		golden map[string]string
		got    map[string]string
		want   Report
	}{
		{
			name:   "identical",
			golden: map[string]string{cmPath: cmBlue, nsPath: ns},
			got:    map[string]string{cmPath: cmBlue, nsPath: ns},
			want:   Report{Report: tree.Report{Unchanged: 2}},
		},
		{
			name:   "added",
			golden: map[string]string{nsPath: ns},
			got:    map[string]string{cmPath: cmBlue, nsPath: ns},
			want:   Report{Report: tree.Report{Added: []string{cmPath}, Unchanged: 1}},
		},
		{
			name:   "removed",
			golden: map[string]string{cmPath: cmBlue, nsPath: ns},
			got:    map[string]string{nsPath: ns},
			want:   Report{Report: tree.Report{Removed: []string{cmPath}, Unchanged: 1}},
		},
		{
			name:   "changed",
			golden: map[string]string{cmPath: cmBlue, nsPath: ns},
			got:    map[string]string{cmPath: cmGreen, nsPath: ns},
			want:   Report{Report: tree.Report{Changed: []string{cmPath}, Unchanged: 1}, Diffs: map[string]string{cmPath: cmDiff}},
		},
		{
			name:   "all three, sorted",
			golden: owning(map[string]string{"b/x.yaml": "1\n", "a/gone.yaml": "1\n", "z/gone.yaml": "1\n", "c.yaml": "1\n"}, "a/gone.yaml", "b/x.yaml", "c.yaml", "z/gone.yaml"),
			got:    map[string]string{"b/x.yaml": "2\n", "c.yaml": "1\n", "y/new.yaml": "1\n", "a/new.yaml": "1\n"},
			want: Report{
				Report: tree.Report{
					Added:     []string{"a/new.yaml", "y/new.yaml"},
					Removed:   []string{"a/gone.yaml", "z/gone.yaml"},
					Changed:   []string{"b/x.yaml"},
					Unchanged: 1,
				},
				Diffs: map[string]string{"b/x.yaml": "--- golden/b/x.yaml\n+++ rendered/b/x.yaml\n@@ -1 +1 @@\n-1\n+2\n"},
			},
		},
		{
			name:   "CRLF golden file is not drift",
			golden: map[string]string{cmPath: "apiVersion: v1\r\ndata:\r\n  color: blue\r\nkind: ConfigMap\r\nmetadata:\r\n  name: app\r\n"},
			got:    map[string]string{cmPath: cmBlue},
			want:   Report{Report: tree.Report{Unchanged: 1}},
		},
		{
			name:   "missing final newline is not drift",
			golden: map[string]string{cmPath: cmBlue[:len(cmBlue)-1]},
			got:    map[string]string{cmPath: cmBlue},
			want:   Report{Report: tree.Report{Unchanged: 1}},
		},
		{
			name:   "CRLF golden file with a real change diffs without CR noise",
			golden: map[string]string{cmPath: "apiVersion: v1\r\ndata:\r\n  color: blue\r\nkind: ConfigMap\r\nmetadata:\r\n  name: app"},
			got:    map[string]string{cmPath: cmGreen},
			want:   Report{Report: tree.Report{Changed: []string{cmPath}}, Diffs: map[string]string{cmPath: cmDiff}},
		},
		{
			name:   "same YAML, other key order is drift (bytes are compared)",
			golden: map[string]string{cmPath: "kind: ConfigMap\napiVersion: v1\n"},
			got:    map[string]string{cmPath: "apiVersion: v1\nkind: ConfigMap\n"},
			want: Report{Report: tree.Report{Changed: []string{cmPath}}, Diffs: map[string]string{cmPath: "--- golden/" + cmPath + "\n+++ rendered/" + cmPath + "\n" +
				"@@ -1,2 +1,2 @@\n-kind: ConfigMap\n apiVersion: v1\n+kind: ConfigMap\n"}},
		},
		{
			name:   "only *.yaml files take part",
			golden: map[string]string{"README.md": "# golden\n", "c1/notes.txt": "x", "c1/old.yml": "x", nsPath: ns},
			got:    map[string]string{nsPath: ns},
			want:   Report{Report: tree.Report{Unchanged: 1}},
		},
		{
			name:   "only owned files are removed",
			golden: owning(map[string]string{cmPath: cmBlue, "c1/ns/secret_mine.yaml": "x\n", "notes.yaml": "x\n"}, cmPath),
			got:    map[string]string{},
			want:   Report{Report: tree.Report{Removed: []string{cmPath}}},
		},
		{
			name:   "without an ownership file, nothing is owned, whatever the paths' shape",
			golden: map[string]string{cmPath: cmBlue, "c1/ns/secret_s.yaml": "x\n", "notes.yaml": "x\n", "c1/x.yaml": "x\n", "a/b/c/d.yaml": "x\n"},
			got:    map[string]string{},
			want:   Report{Report: tree.Report{Unowned: true}},
		},
		{
			name: "empty tree, empty directory",
			want: Report{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			golden := tt.golden
			if _, ok := golden[tree.OwnershipFile]; !ok && len(golden) > 0 && !tt.want.Unowned {
				golden = owningYAML(golden)
			}
			writeDir(t, dir, golden)
			got, err := Compare(dir, treeOf(tt.got))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Compare (-want +got):\n%s", diff)
			}
			if wantOK := len(tt.want.Added)+len(tt.want.Removed)+len(tt.want.Changed) == 0; got.OK() != wantOK {
				t.Errorf("OK() = %v, want %v", got.OK(), wantOK)
			}
		})
	}
}

func TestCompareMissingDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nothing-here")
	got, err := Compare(dir, treeOf(map[string]string{nsPath: ns}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&Report{Report: tree.Report{Added: []string{nsPath}}}, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Compare (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Compare created %s", dir)
	}
}

func TestCompareInvalidPaths(t *testing.T) {
	for _, p := range []string{
		"../x.yaml", "/abs/x.yaml", "a/../b.yaml", "./a.yaml", "a//b.yaml", "", "a\\b.yaml", "a/", "x.json",
	} {
		t.Run(p, func(t *testing.T) {
			_, err := Compare(t.TempDir(), treeOf(map[string]string{p: ns}))
			if !errors.Is(err, tree.ErrInvalidPath) {
				t.Errorf("Compare(%q) error = %v, want tree.ErrInvalidPath", p, err)
			}
		})
	}
	t.Run("file and directory", func(t *testing.T) {
		_, err := Compare(t.TempDir(), treeOf(map[string]string{"a.yaml": ns, "a.yaml/b.yaml": ns}))
		if !errors.Is(err, tree.ErrInvalidPath) {
			t.Errorf("error = %v, want tree.ErrInvalidPath", err)
		}
	})
}

func TestCompareSymlinks(t *testing.T) {
	tests := []struct {
		name    string
		link    string // created in the golden directory
		target  func(golden, outside string) string
		wantErr bool
	}{
		{"directory pointing outside", "c1", func(_, out string) string { return out }, true},
		{"directory pointing inside", "c2", func(g, _ string) string { return filepath.Join(g, "c1") }, true},
		{"yaml file", "c1/x.yaml", func(_, out string) string { return filepath.Join(out, "x.yaml") }, true},
		{"other file", "README.md", func(_, out string) string { return filepath.Join(out, "x.yaml") }, false},
		{"dangling other file", "NOTES", func(_, out string) string { return filepath.Join(out, "missing") }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden, outside := t.TempDir(), t.TempDir()
			writeDir(t, outside, map[string]string{"x.yaml": ns})
			if tt.link != "c1" {
				writeDir(t, golden, map[string]string{"c1/_cluster/namespace_ns.yaml": ns})
			}
			full := filepath.Join(golden, filepath.FromSlash(tt.link))
			if err := os.Symlink(tt.target(golden, outside), full); err != nil {
				t.Skipf("symlinks unsupported: %v", err)
			}
			_, err := Compare(golden, treeOf(map[string]string{nsPath: ns}))
			if tt.wantErr != errors.Is(err, tree.ErrInvalidPath) || (!tt.wantErr && err != nil) {
				t.Errorf("Compare error = %v, want tree.ErrInvalidPath: %v", err, tt.wantErr)
			}
		})
	}
}

func TestCompareGoldenDirIsSymlink(t *testing.T) {
	real := t.TempDir()
	writeDir(t, real, map[string]string{nsPath: ns})
	link := filepath.Join(t.TempDir(), "golden")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("symlinks unsupported: %v", err)
	}
	got, err := Compare(link, treeOf(map[string]string{nsPath: ns}))
	if err != nil {
		t.Fatal(err)
	}
	if !got.OK() {
		t.Errorf("Compare through a symlinked golden directory:\n%s", got)
	}
}

func TestReportString(t *testing.T) {
	tests := []struct {
		name string
		r    Report
		want string
	}{
		{"ok", Report{Report: tree.Report{Unchanged: 3}}, "golden: up to date, 3 unchanged\n"},
		{
			name: "drift",
			r: Report{
				Report: tree.Report{Added: []string{"a/new.yaml"}, Removed: []string{"a/old.yaml", "b/old.yaml"}, Changed: []string{cmPath}, Unchanged: 4},
				Diffs:  map[string]string{cmPath: cmDiff},
			},
			want: "golden: 1 changed, 1 added, 2 removed, 4 unchanged\n" +
				"changed  " + cmPath + "\n" +
				"added    a/new.yaml\n" +
				"removed  a/old.yaml\n" +
				"removed  b/old.yaml\n" +
				"\n" + cmDiff,
		},
		{
			name: "pruned",
			r:    Report{Report: tree.Report{Removed: []string{"a/old.yaml"}, Pruned: true}},
			want: "golden: 0 changed, 0 added, 1 pruned, 0 unchanged\npruned   a/old.yaml\n",
		},
		{
			name: "what an update found and did",
			r: Report{Report: tree.Report{Unchanged: 1, Unowned: true, Leftovers: []string{"rolled back an update that was killed"},
				Adopted: []string{cmPath}, Kept: []string{"mnt/x.yaml"}}},
			want: "golden: rolled back an update that was killed\n" +
				"golden: the directory has no " + tree.OwnershipFile + ": drydock wrote none of its files, so stale ones are not reported (take the tree over with --adopt)\n" +
				"adopted  " + cmPath + "\n" +
				"kept     mnt/x.yaml (on another file system: not pruned)\n" +
				"golden: up to date, 1 unchanged\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.r.String()); diff != "" {
				t.Errorf("String (-want +got):\n%s", diff)
			}
		})
	}
}
