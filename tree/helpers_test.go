package tree

import (
	"os"
	"path/filepath"
	"testing"
)

// writeDir creates files (slash paths to contents) under dir.
func writeDir(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// owning adds to files an OwnershipFile listing paths.
func owning(files map[string]string, paths ...string) map[string]string {
	out := map[string]string{OwnershipFile: string(encodeOwnership(paths))}
	for p, data := range files {
		out[p] = data
	}
	return out
}

// treeOf builds a Tree from strings.
func treeOf(files map[string]string) Tree {
	t := Tree{}
	for p, data := range files {
		t[p] = []byte(data)
	}
	return t
}

const (
	cmBlue  = "apiVersion: v1\ndata:\n  color: blue\nkind: ConfigMap\nmetadata:\n  name: app\n"
	cmGreen = "apiVersion: v1\ndata:\n  color: green\nkind: ConfigMap\nmetadata:\n  name: app\n"
	cmPath  = "c1/ns/configmap_app.yaml"
	nsPath  = "c1/_cluster/namespace_ns.yaml"
	ns      = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns\n"
)

// nextRun is the next drydock run opening dir: it lists it, completing
// what an interrupted update left.
func nextRun(dir string) error {
	l, err := List(dir)
	if err != nil {
		return err
	}
	l.Close()
	return nil
}

// readBack lists dir and reads got's paths from it, as a comparison does.
func readBack(dir string, got Tree) error {
	l, err := List(dir)
	if err != nil {
		return err
	}
	defer l.Close()
	for _, p := range got.Paths() {
		if _, _, err := l.Read(p); err != nil {
			return err
		}
	}
	return nil
}
