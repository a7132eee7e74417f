package golden

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/tree"
)

// knownRun compares got (tree path to content; each object's digest is
// that of its content here) with dir given known, as a comparison that
// began at start, and returns the report, what it learned and the paths
// it encoded (read).
func knownRun(t *testing.T, dir string, known tree.Known, start time.Time, got map[string]string) (*Report, tree.Known, []string) {
	t.Helper()
	c, err := NewComparer(dir)
	if err != nil {
		t.Fatal(err)
	}
	c.Known, c.Start = known, start
	var encoded []string
	for _, p := range sortedPaths(got) {
		data := got[p]
		if err := c.PutDigest(p, contentDigest(data), func() ([]byte, error) {
			encoded = append(encoded, p)
			return []byte(data), nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	rep := c.Report()
	learned, _ := c.Learned()
	return rep, learned, encoded
}

func sortedPaths(m map[string]string) []string {
	t := tree.Tree{}
	for p, d := range m {
		t[p] = []byte(d)
	}
	return t.Paths()
}

// contentDigest stands for a rendered object's digest.
func contentDigest(s string) tree.Digest {
	var d tree.Digest
	copy(d[:], s)
	return d
}

// TestPutDigest: a golden file known equal to the same rendered object is
// not read again; each thing that could make it differ (the rendered
// object, an edit of the golden file of the same size with its
// modification time put back, its deletion, its replacement, a file
// written too recently) makes it read, and the report is the one a
// comparison without Known gives.
func TestPutDigest(t *testing.T) {
	const a, b = "kind: A\n", "kind: B\n"
	old := time.Now().Add(time.Hour) // every file written before it is not racy
	tests := []struct {
		name string
		// change is done between the first comparison and the second.
		change  func(t *testing.T, dir string)
		got     map[string]string
		encoded []string
		known   int
	}{
		{"nothing changed: nothing read", nil, map[string]string{"a.yaml": a, "b.yaml": b}, nil, 2},
		{"a new rendered object", nil, map[string]string{"a.yaml": a, "b.yaml": b, "c.yaml": a}, []string{"c.yaml"}, 2},
		{"a rendered object changed", nil, map[string]string{"a.yaml": b, "b.yaml": b}, []string{"a.yaml"}, 1},
		{"a golden file edited (same size, same modification time)", func(t *testing.T, dir string) {
			full := filepath.Join(dir, "a.yaml")
			fi, err := os.Stat(full)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte("kind: X\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(full, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, map[string]string{"a.yaml": a, "b.yaml": b}, []string{"a.yaml"}, 1},
		{"a golden file deleted", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "a.yaml")); err != nil {
				t.Fatal(err)
			}
		}, map[string]string{"a.yaml": a, "b.yaml": b}, []string{"a.yaml"}, 1},
		{"a golden file replaced by the same bytes", func(t *testing.T, dir string) {
			full := filepath.Join(dir, "b.yaml")
			if err := os.Remove(full); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}, map[string]string{"a.yaml": a, "b.yaml": b}, []string{"b.yaml"}, 1},
		{"a rendered object stops rendering", nil, map[string]string{"a.yaml": a}, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tree.Write(dir, tree.Tree{"a.yaml": []byte(a), "b.yaml": []byte(b)}); err != nil {
				t.Fatal(err)
			}
			first := map[string]string{"a.yaml": a, "b.yaml": b}
			_, known, encoded := knownRun(t, dir, nil, old, first)
			if diff := cmp.Diff([]string{"a.yaml", "b.yaml"}, encoded); diff != "" {
				t.Fatalf("first comparison read (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"a.yaml", "b.yaml"}, sortedKnown(known)); diff != "" {
				t.Fatalf("first comparison learned (-want +got):\n%s", diff)
			}
			if tt.change != nil {
				tt.change(t, dir)
			}
			cold, _, _ := knownRun(t, dir, nil, old, tt.got)
			warm, _, encoded := knownRun(t, dir, known, old, tt.got)
			if diff := cmp.Diff(tt.encoded, encoded); diff != "" {
				t.Errorf("read (-want +got):\n%s", diff)
			}
			if warm.Known != tt.known {
				t.Errorf("tree.Known = %d, want %d", warm.Known, tt.known)
			}
			warm.Known = 0
			if diff := cmp.Diff(cold, warm); diff != "" {
				t.Errorf("the report differs from a comparison without tree.Known (-cold +warm):\n%s", diff)
			}
		})
	}
}

func sortedKnown(k tree.Known) []string {
	m := map[string]string{}
	for p := range k {
		m[p] = ""
	}
	return sortedPaths(m)
}

// TestPutDigestRacy: a golden file written within tree's racy window of
// the comparison is not learned (a write in the same clock tick could
// leave its FileID as it is), and a second Put of a path forgets what the
// first learned.
func TestPutDigestRacy(t *testing.T) {
	dir := t.TempDir()
	if err := tree.Write(dir, tree.Tree{"a.yaml": []byte("kind: A\n")}); err != nil {
		t.Fatal(err)
	}
	_, known, _ := knownRun(t, dir, nil, time.Now(), map[string]string{"a.yaml": "kind: A\n"})
	if len(known) != 0 {
		t.Errorf("a file written now was learned: %v", known)
	}
	c, err := NewComparer(dir)
	if err != nil {
		t.Fatal(err)
	}
	c.Start = time.Now().Add(time.Hour)
	for _, data := range []string{"kind: A\n", "kind: B\n"} {
		if err := c.PutDigest("a.yaml", contentDigest(data), func() ([]byte, error) { return []byte(data), nil }); err != nil {
			t.Fatal(err)
		}
	}
	if learned, _ := c.Learned(); len(learned) != 0 {
		t.Errorf("Learned() = %v after a changed second Put", learned)
	}
	c.Report()
}
