package check

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDataPaths checks that a suite's data paths are joined to the
// config's directory with their place under data ("a.b:dir") kept in
// front, and that only their file part has to exist and is read.
func TestDataPaths(t *testing.T) {
	r := &runner{dir: "cfg"}
	paths := []string{"data", "a.b:data/sub", "/abs/x.yaml", "p:/abs/dir"}
	if diff := cmp.Diff([]string{"cfg/data", "a.b:cfg/data/sub", "/abs/x.yaml", "p:/abs/dir"}, r.dataPaths(paths)); diff != "" {
		t.Errorf("dataPaths (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"data", "data/sub", "/abs/x.yaml", "/abs/dir"}, dataFilePaths(paths)); diff != "" {
		t.Errorf("dataFilePaths (-want +got):\n%s", diff)
	}
	s := Suite{Data: []string{"a.b:data/sub"}}
	if !s.Reads("cfg", "cfg/data/sub/x.yaml") {
		t.Error("a suite with data a.b:data/sub does not read data/sub/x.yaml")
	}
}
