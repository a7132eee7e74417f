package golden

import (
	"crypto/sha256"
	"encoding/hex"
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

// maxFileName is the longest file name most file systems accept, in bytes.
const maxFileName = 255

// ObjectPath is where obj lives in a tree under cluster:
// <cluster>/<namespace or _cluster>/<kind>[.<group>]_<name>.yaml, the kind
// in lower case. Kubernetes names reach 253 characters, so a file name over
// 255 bytes is shortened deterministically: the name is cut and followed
// by "-" and 16 hex digits of its SHA-256, which keeps distinct names
// apart. The object inside the file keeps its full name.
func ObjectPath(cluster string, obj *manifest.Object) string {
	ns := obj.Namespace()
	if ns == "" {
		ns = "_cluster"
	}
	kind := strings.ToLower(obj.Kind())
	if g := manifest.Group(obj.APIVersion()); g != "" {
		kind += "." + g
	}
	return cluster + "/" + ns + "/" + fileName(kind, obj.Name())
}

// fileName is <kind>_<name>.yaml, shortened to maxFileName bytes.
func fileName(kind, name string) string {
	f := kind + "_" + name + ".yaml"
	if len(f) <= maxFileName {
		return f
	}
	sum := sha256.Sum256([]byte(name))
	tag := "-" + hex.EncodeToString(sum[:8]) + ".yaml"
	keep := max(0, maxFileName-len(kind)-1-len(tag))
	return kind + "_" + name[:min(keep, len(name))] + tag
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

// Write writes the tree under dir, as one atomic step like Update: the
// new tree (the files of t, and every file already in dir, which Write
// never deletes) is built beside dir and swapped in, under the same lock,
// so a killed render leaves the old directory or the new one. It writes
// nothing outside dir: every path must be a clean relative slash path, and
// a parent directory that resolves outside dir through a symlink is
// rejected, as is any absolute symlink on the way (os.Root rules); both are
// checked for every path before anything is written, and errors wrap
// ErrInvalidPath. Unlike Update it neither compares, nor prunes, nor
// records ownership.
func Write(dir string, t Tree) error {
	if err := validate(t, false); err != nil {
		return err
	}
	target, err := realTarget(dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	unlock, err := lock(target)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := recoverLeftovers(target); err != nil {
		return err
	}
	p := &plan{got: t, write: map[string]bool{}, drop: map[string]bool{}}
	for _, path := range t.Paths() {
		p.write[path] = true
	}
	if _, err := os.Stat(target); err == nil {
		p.exists = true
		if err := checkPaths(target, t.Paths()); err != nil {
			return err
		}
	}
	return p.apply(target)
}
