package main

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDataFromBase checks that --data paths are rewritten relative to the
// config's directory with their place under data ("a.b:dir") kept, and
// that only their file part is checked.
func TestDataFromBase(t *testing.T) {
	t.Chdir(t.TempDir())
	paths := []string{"data", "a.b:data/sub", "p:/abs/x.yaml"}
	if diff := cmp.Diff([]string{filepath.Join("..", "data"), "a.b:" + filepath.Join("..", "data", "sub"), "p:/abs/x.yaml"}, dataFromBase("cfg", paths)); diff != "" {
		t.Errorf("dataFromBase (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"data", "data/sub", "/abs/x.yaml"}, dataFilePaths(paths)); diff != "" {
		t.Errorf("dataFilePaths (-want +got):\n%s", diff)
	}
}
