package main

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestHeapBudget: render raises the collector's heap budget (and again
// with --validate); other commands keep the default.
func TestHeapBudget(t *testing.T) {
	t.Cleanup(func() { heapBudget.Store(defaultHeapBudget) })
	example := filepath.Join("..", "..", "examples", "first-vela-app.yaml")
	for _, tc := range []struct {
		name string
		args []string
		want uint64
	}{
		{"version", []string{"version"}, defaultHeapBudget},
		{"render", []string{"render", example, "--output-dir", t.TempDir()}, renderHeapBudget},
		{"render --validate", []string{"render", example, "--validate", "--output-dir", t.TempDir()}, validateHeapBudget},
	} {
		t.Run(tc.name, func(t *testing.T) {
			heapBudget.Store(defaultHeapBudget)
			var stdout, stderr bytes.Buffer
			if code := run(tc.args, nil, &stdout, &stderr); code != exitOK {
				t.Fatalf("drydock %v: exit %d: %s", tc.args, code, stderr.String())
			}
			if got := heapBudget.Load(); got != tc.want {
				t.Errorf("drydock %v: heap budget %d MiB, want %d MiB", tc.args, got>>20, tc.want>>20)
			}
		})
	}
}
