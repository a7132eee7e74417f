package manifest

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestWalkFS: the tree twin of WalkFiles selects the same way, and
// ReadFS refuses what ReadFile refuses.
func TestWalkFS(t *testing.T) {
	tree := fstest.MapFS{
		"apps/b.yaml":        {Data: []byte("b: 1\n")},
		"apps/a.yaml":        {Data: []byte("a: 1\n")},
		"apps/notes.txt":     {Data: []byte("skip")},
		"apps/.hidden/x.yml": {Data: []byte("x: 1\n")},
		"apps/sub/c.json":    {Data: []byte("{}")},
		"apps/pipe.yaml":     {Mode: fs.ModeNamedPipe},
	}
	opts := WalkOptions{
		Keep:    func(n string) bool { return strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".json") },
		SkipDir: func(n string) bool { return strings.HasPrefix(n, ".") },
	}
	got, err := WalkFS(tree, "apps", opts)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"apps/a.yaml", "apps/b.yaml", "apps/pipe.yaml", "apps/sub/c.json"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("WalkFS (-want +got):\n%s", diff)
	}
	if got, err := WalkFS(tree, "apps/a.yaml", opts); err != nil || len(got) != 1 {
		t.Errorf("WalkFS of a file: %v, %v", got, err)
	}
	if _, err := WalkFS(tree, "missing", opts); err == nil || !strings.HasPrefix(err.Error(), "missing: ") {
		t.Errorf("WalkFS of a missing path: %v", err)
	}
	if data, err := ReadFS(tree, "apps/a.yaml"); err != nil || string(data) != "a: 1\n" {
		t.Errorf("ReadFS = %q, %v", data, err)
	}
	if _, err := ReadFS(tree, "apps/pipe.yaml"); err == nil || !strings.HasPrefix(err.Error(), "apps/pipe.yaml: not a regular file (a FIFO)") {
		t.Errorf("ReadFS of a FIFO: %v", err)
	}
}
