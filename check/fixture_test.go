package check

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// writeFiles writes files (relative path: content) under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runFiles writes files into a fresh working directory, loads its
// drydock.yaml and runs it with opts: findings name files relative to it.
func runFiles(t *testing.T, files map[string]string, opts Options) *Result {
	t.Helper()
	t.Chdir(t.TempDir())
	writeFiles(t, ".", files)
	cfg, err := LoadConfig("drydock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return Run(context.Background(), cfg, opts)
}
