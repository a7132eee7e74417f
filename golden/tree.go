package golden

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

// Tree maps slash-separated relative paths to file contents.
type Tree map[string][]byte

// Paths returns the tree's paths in byte order.
func (t Tree) Paths() []string {
	out := make([]string, 0, len(t))
	for p := range t {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ObjectPath is where obj lives in a tree under cluster.
func ObjectPath(cluster string, obj *manifest.Object) string {
	ns := obj.Namespace()
	if ns == "" {
		ns = "_cluster"
	}
	kind := strings.ToLower(obj.Kind())
	if g := manifest.Group(obj.APIVersion()); g != "" {
		kind += "." + g
	}
	return cluster + "/" + ns + "/" + kind + "_" + obj.Name() + ".yaml"
}

// Encode is the canonical YAML of an object (sigs.k8s.io/yaml: keys
// sorted, block style).
func Encode(obj *manifest.Object) ([]byte, error) {
	return yaml.Marshal(obj.Data)
}

// Add encodes obj into the tree under cluster.
func (t Tree) Add(cluster string, obj *manifest.Object) error {
	data, err := Encode(obj)
	if err != nil {
		return fmt.Errorf("encode %s: %w", obj.Key(), err)
	}
	t[ObjectPath(cluster, obj)] = data
	return nil
}

// Write writes the tree under dir, creating directories (dir included) and
// replacing existing files atomically (temporary file, then rename). It
// leaves files that are not in the tree alone. It writes nothing outside
// dir: every path must be a clean relative slash path, and a parent
// directory that resolves outside dir through a symlink is rejected, as is
// any absolute symlink on the way (os.Root rules); both are checked for
// every path before the first write, and errors wrap ErrInvalidPath.
func Write(dir string, t Tree) error {
	if err := validate(t, false); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeFiles(dir, t, t.Paths())
}
