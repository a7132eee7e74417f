// Package golden owns drydock's canonical output tree: one object per file
// under <cluster>/<namespace or _cluster>/<kind>[.<group>]_<name>.yaml,
// keys sorted, LF line ends, byte-identical across runs; and comparing such
// a tree with a committed one.
package golden

import (
	"fmt"
	"os"
	"path/filepath"
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

// Write writes the tree under dir, creating directories. It writes nothing
// outside dir: every path is checked to stay below it.
func Write(dir string, t Tree) error {
	root, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for _, p := range t.Paths() {
		full := filepath.Join(root, filepath.FromSlash(p))
		if rel, err := filepath.Rel(root, full); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("output path %q escapes %s", p, dir)
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, t[p], 0o644); err != nil {
			return err
		}
	}
	return nil
}
