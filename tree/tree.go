package tree

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

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

// Path is where obj lives in a tree under cluster:
// <cluster>/<namespace or _cluster>/<kind>[.<group>]_<name>.yaml, the kind
// in lower case. Kubernetes names reach 253 characters, so a file name over
// 255 bytes is shortened deterministically: the name is cut and followed
// by "-" and 16 hex digits of its SHA-256, which keeps distinct names
// apart. The object inside the file keeps its full name.
func Path(cluster string, obj *manifest.Object) string { return KeyPath(cluster, obj.Key()) }

// KeyPath is Path of the object of key k.
//
// It is made in one allocation when the kind is ASCII and the file name
// needs no shortening, as for nearly every object (a run makes one a
// rendered object): keyPath, which concatenates a part at a time, makes
// the others.
func KeyPath(cluster string, k manifest.Key) string {
	ns := k.Namespace
	if ns == "" {
		ns = "_cluster"
	}
	kindLen := len(k.Kind)
	if k.Group != "" {
		kindLen += 1 + len(k.Group)
	}
	file := kindLen + 1 + len(k.Name) + len(".yaml")
	if file > maxFileName || !isASCII(k.Kind) {
		return keyPath(cluster, ns, k)
	}
	var b strings.Builder
	b.Grow(len(cluster) + 1 + len(ns) + 1 + file)
	b.WriteString(cluster)
	b.WriteByte('/')
	b.WriteString(ns)
	b.WriteByte('/')
	for i := range len(k.Kind) { // strings.ToLower, of ASCII
		c := k.Kind[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	if k.Group != "" {
		b.WriteByte('.')
		b.WriteString(k.Group)
	}
	b.WriteByte('_')
	b.WriteString(k.Name)
	b.WriteString(".yaml")
	return b.String()
}

// keyPath is KeyPath (ns the namespace part) a part at a time.
func keyPath(cluster, ns string, k manifest.Key) string {
	kind := strings.ToLower(k.Kind)
	if k.Group != "" {
		kind += "." + k.Group
	}
	return cluster + "/" + ns + "/" + fileName(kind, k.Name)
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

// Add encodes obj into the tree under cluster.
func (t Tree) Add(cluster string, obj *manifest.Object) error {
	data, err := Encode(obj)
	if err != nil {
		return fmt.Errorf("encode %s: %w", obj.Key(), err)
	}
	t[Path(cluster, obj)] = data
	return nil
}
