package golden

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/tree"
)

// listedRun is knownRun through NewComparerKnown, given the last run's
// Listed: it also returns what this one's Listed records.
func listedRun(t *testing.T, dir string, known tree.Known, listed []byte, start time.Time, got map[string]string) (*Report, tree.Known, []byte) {
	t.Helper()
	c, err := NewComparerKnown(dir, start, known, listed)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range sortedPaths(got) {
		data := got[p]
		if err := c.PutDigest(p, contentDigest(data), func() ([]byte, error) { return []byte(data), nil }); err != nil {
			t.Fatal(err)
		}
	}
	rep := c.Report()
	learned, _ := c.Learned()
	return rep, learned, c.Listed()
}

// TestComparerListed: comparisons that take the last listing again (the
// golden directory's structure unchanged) report what comparisons that
// list it report, while Known changes in place under them: a golden file
// edited in place, dropped from Known when it is Put, is still changed,
// not added; a stale owned file Known never held is still removed, and
// so is one Known held and drops when it is not Put. A file added or
// removed between runs is seen.
func TestComparerListed(t *testing.T) {
	const a, b, s = "kind: A\n", "kind: B\n", "kind: Stale\n"
	dir := t.TempDir()
	if _, err := tree.Update(dir, tree.Tree{"a.yaml": []byte(a), "b.yaml": []byte(b), "sub/s.yaml": []byte(s)}, tree.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	start := time.Now().Add(time.Hour) // every file written before it is not racy
	got := map[string]string{"a.yaml": a, "b.yaml": b, "c.yaml": a}
	var known tree.Known
	var listed []byte
	check := func(step string) {
		t.Helper()
		want := compareFresh(t, dir, got)
		var rep *Report
		rep, known, listed = listedRun(t, dir, known, listed, start, got)
		rep.Known = 0
		if diff := cmp.Diff(want, rep); diff != "" {
			t.Errorf("%s: report (-listed +taken again):\n%s", step, diff)
		}
		if listed == nil {
			t.Fatalf("%s: nothing recorded", step)
		}
	}
	check("first")
	check("nothing changed")
	if err := os.WriteFile(filepath.Join(dir, "b.yaml"), []byte("kind: C\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("a file edited in place")
	check("nothing changed, the edit not learned")
	if err := os.WriteFile(filepath.Join(dir, "c.yaml"), []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	check("a file added")
	delete(got, "a.yaml")
	check("a file no longer rendered")
	check("a file no longer rendered, again")
	got["a.yaml"] = a
	if err := os.Remove(filepath.Join(dir, "a.yaml")); err != nil {
		t.Fatal(err)
	}
	check("a file removed")
	if err := os.Remove(filepath.Join(dir, "sub", "s.yaml")); err != nil {
		t.Fatal(err)
	}
	check("a stale file removed")
}

// compareFresh is the report of a comparison of got with dir that lists it.
func compareFresh(t *testing.T, dir string, got map[string]string) *Report {
	t.Helper()
	c, err := NewComparer(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range sortedPaths(got) {
		if err := c.Put(p, []byte(got[p])); err != nil {
			t.Fatal(err)
		}
	}
	return c.Report()
}
