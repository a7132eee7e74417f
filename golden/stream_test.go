package golden

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drydock-dev/drydock/tree"
)

// TestComparerReplace: a second Put of a path replaces the first in a
// Comparer, and its diff goes with it.
func TestComparerReplace(t *testing.T) {
	dir := t.TempDir()
	writeDir(t, dir, owning(map[string]string{"a/x.yaml": "three\n", "a/y.yaml": "y\n"}, "a/x.yaml", "a/y.yaml"))
	c, err := NewComparer(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct{ path, data string }{{"a/x.yaml", "changed\n"}, {"a/x.yaml", "three\n"}, {"a/z.yaml", "z\n"}} {
		if err := c.Put(step.path, []byte(step.data)); err != nil {
			t.Fatal(err)
		}
	}
	want := &Report{Report: tree.Report{Added: []string{"a/z.yaml"}, Removed: []string{"a/y.yaml"}, Unchanged: 1}}
	if diff := cmp.Diff(want, c.Report(), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
}

// TestComparerReportSorted: the report lists its Added, Changed and
// Removed files sorted whatever order they were Put in, a changed file's
// diff under its path, and never a Put file as Removed.
func TestComparerReportSorted(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"b/c.yaml": "c\n", "a/c.yaml": "c\n", "z/c.yaml": "c\n", "a/same.yaml": "s\n", "y/gone.yaml": "g\n", "b/gone.yaml": "g\n"}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	writeDir(t, dir, owning(files, paths...))
	c, err := NewComparer(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"z/c.yaml", "z/new.yaml", "a/same.yaml", "b/c.yaml", "a/new.yaml", "a/c.yaml", "m/new.yaml"} {
		data := "new\n"
		if p == "a/same.yaml" {
			data = "s\n"
		}
		if err := c.Put(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	got := c.Report()
	want := tree.Report{
		Added:     []string{"a/new.yaml", "m/new.yaml", "z/new.yaml"},
		Changed:   []string{"a/c.yaml", "b/c.yaml", "z/c.yaml"},
		Removed:   []string{"b/gone.yaml", "y/gone.yaml"},
		Unchanged: 1,
	}
	if diff := cmp.Diff(want, got.Report, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
	for _, p := range want.Changed {
		if got.Diffs[p] == "" || len(got.Diffs) != len(want.Changed) {
			t.Errorf("diff of %s missing (diffs %v)", p, got.Diffs)
		}
	}
}
