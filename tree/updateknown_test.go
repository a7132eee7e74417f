package tree

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// knownUpdate updates dir to got (each object's digest stands for its
// content) given known, as an update that began at start, and returns
// the report, what it learned and the paths it encoded.
func knownUpdate(t *testing.T, dir string, known Known, start time.Time, got map[string]string) (*Report, Known, []string) {
	t.Helper()
	u, err := NewUpdater(dir, UpdateOptions{Prune: true})
	if err != nil {
		t.Fatal(err)
	}
	u.Known, u.Start = known, start
	var encoded []string
	for _, p := range treeOf(got).Paths() {
		data := got[p]
		if err := u.PutDigest(p, contentDigest(data), func() ([]byte, error) {
			encoded = append(encoded, p)
			return []byte(data), nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := u.Commit()
	if err != nil {
		t.Fatal(err)
	}
	learned, _ := u.Learned()
	return rep, learned, encoded
}

// TestUpdatePutDigest: an update given what the last one learned reads
// only the files whose object or file changed, and leaves the directory
// holding the render, as an update without it does.
func TestUpdatePutDigest(t *testing.T) {
	const a, b = "kind: A\n", "kind: B\n"
	old := time.Now().Add(time.Hour)
	tests := []struct {
		name    string
		change  func(t *testing.T, dir string)
		got     map[string]string
		encoded []string
		want    Report
	}{
		{"nothing changed", nil, map[string]string{"a.yaml": a, "b.yaml": b}, nil, Report{Unchanged: 2}},
		{"a rendered object changed", nil, map[string]string{"a.yaml": b, "b.yaml": b}, []string{"a.yaml"}, Report{Changed: []string{"a.yaml"}, Unchanged: 1}},
		{"a file edited, its size and modification time kept", func(t *testing.T, dir string) {
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
		}, map[string]string{"a.yaml": a, "b.yaml": b}, []string{"a.yaml"}, Report{Changed: []string{"a.yaml"}, Unchanged: 1}},
		{"a file deleted", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "b.yaml")); err != nil {
				t.Fatal(err)
			}
		}, map[string]string{"a.yaml": a, "b.yaml": b}, []string{"b.yaml"}, Report{Added: []string{"b.yaml"}, Unchanged: 1}},
		{"an object no longer renders", nil, map[string]string{"a.yaml": a}, nil, Report{Removed: []string{"b.yaml"}, Pruned: true, Unchanged: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := Write(dir, Tree{"a.yaml": []byte(a), "b.yaml": []byte(b)}); err != nil {
				t.Fatal(err)
			}
			first := map[string]string{"a.yaml": a, "b.yaml": b}
			_, known, _ := knownUpdate(t, dir, nil, old, first)
			if len(known) != 2 {
				t.Fatalf("the first update learned %v", known)
			}
			if tt.change != nil {
				tt.change(t, dir)
			}
			rep, _, encoded := knownUpdate(t, dir, known, old, tt.got)
			if diff := cmp.Diff(tt.encoded, encoded); diff != "" {
				t.Errorf("read (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(&tt.want, rep, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.got, readTree(t, dir)); diff != "" {
				t.Errorf("the directory (-want +got):\n%s", diff)
			}
		})
	}
}
