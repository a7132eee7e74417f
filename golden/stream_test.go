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
