// Package manifest owns drydock's in-memory form of a Kubernetes object: its
// decoded content, the place in the authored input it came from, its identity
// (Key), and the YAML stream decoding and canonical encoding around it.
//
// It is the leaf of drydock's package graph: it knows nothing about KubeVela,
// Karmada, clusters or checks. Values inside an Object use the JSON data model
// with one refinement: whole numbers are int64 and other numbers float64, so
// that integers reach CUE as integers.
package manifest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
)

// Pos is a place in an authored input file. Line and Col are 1-based; a zero
// Line means the position is unknown.
type Pos struct {
	File string
	Line int
	Col  int
}

// String formats the position as file:line:col, leaving out unknown parts.
func (p Pos) String() string {
	switch {
	case p.File == "":
		return ""
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// IsValid reports whether the position names a file.
func (p Pos) IsValid() bool { return p.File != "" }

// Object is one Kubernetes object with the place it was authored.
type Object struct {
	// Data is the object's content in the JSON data model.
	Data map[string]any
	// Pos is where the object's document starts.
	Pos Pos
	// ListItem is "items[i]" for an object that was item i of a kubectl
	// List document, else "".
	ListItem string
	// fields maps the string form of a field path (fieldpath.Path.String)
	// to the position of its value; "#key" and "#block" suffixes hold the
	// positions of a mapping entry's key and a block scalar's content.
	fields map[string]Pos
	// doc is the document the object can be decoded again from.
	doc *Document
	// Provenance is who set each leaf of Data, when a render was asked to
	// record it (nil otherwise).
	Provenance Provenance
	// Sums, when set, are hashes of Data its holder computed before (the
	// render cache keeps them with each object it holds), so that the
	// checks that need them do not hash Data again. They are true only
	// while Data is as it was hashed: whoever sets them clears them before
	// anything may change Data (see Sums).
	Sums *Sums
}

// Sums are hashes of an object's Data, as Object.Sums carries them.
type Sums struct {
	// Digest is tree.DigestOf's (Digested false: it has none).
	Digest   [32]byte
	Digested bool
	// Content is the findings cache's hash of the content (package
	// pipeline).
	Content [32]byte
}

// Item is how errors name where in its document an object is:
// "items[i]: " for an item of a List, else "".
func (o *Object) Item() string {
	if o.ListItem == "" {
		return ""
	}
	return o.ListItem + ": "
}

// New returns an Object for data without source positions.
func New(data map[string]any) *Object { return &Object{Data: data} }

// FieldPos returns the position of the value at path, or of its nearest
// ancestor with a recorded position, or the object's own position.
func (o *Object) FieldPos(path fieldpath.Path) Pos {
	if len(o.fields) == 0 {
		return o.Pos
	}
	for s := range path.PrefixStrings() {
		if p, ok := o.fields[s]; ok {
			return p
		}
	}
	return o.Pos
}

// HasField reports whether the value at path was authored (has a
// recorded position).
func (o *Object) HasField(path fieldpath.Path) bool {
	_, ok := o.fields[path.String()]
	return ok
}

// KeyPos returns the position of the key of the mapping entry at path when
// the object was decoded with DecodeOptions.KeyPositions, else FieldPos.
func (o *Object) KeyPos(path fieldpath.Path) Pos {
	if p, ok := o.fields[path.String()+keySuffix]; ok {
		return p
	}
	return o.FieldPos(path)
}

// SetFieldPos records that the value at path was authored at p, for
// objects built from something other than YAML.
func (o *Object) SetFieldPos(path fieldpath.Path, p Pos) { o.setFieldPos(path.String(), p) }

// setFieldPos is SetFieldPos for a path's string form.
func (o *Object) setFieldPos(path string, p Pos) {
	if o.fields == nil {
		o.fields = map[string]Pos{}
	}
	o.fields[path] = p
}

// Graft records the positions of src's fields under prefix, as if src had
// been authored at that path of o: the value at prefix is located at
// src.Pos, the one at prefix.f where src's f was. With an empty prefix
// every position of src is copied and o.Pos is left alone.
func (o *Object) Graft(prefix fieldpath.Path, src *Object) {
	pre := prefix.String()
	if pre != "" && src.Pos.IsValid() {
		o.setFieldPos(pre, src.Pos)
	}
	for p, pos := range src.fields {
		switch {
		case pre == "":
		case p[0] == '[':
			p = pre + p
		default:
			p = pre + "." + p
		}
		o.setFieldPos(p, pos)
	}
}

// Sub returns the positions of the value at prefix of o as an object's
// (its Pos where that value is, its fields' where they are), for Graft:
// nil when o has no position recorded at prefix itself.
func (o *Object) Sub(prefix fieldpath.Path) *Object {
	pre := prefix.String()
	at, ok := o.fields[pre]
	if !ok || pre == "" {
		return nil
	}
	sub := &Object{Pos: at}
	for p, pos := range o.fields {
		rest, found := strings.CutPrefix(p, pre)
		switch {
		case !found || rest == "":
		case rest[0] == '.':
			sub.setFieldPos(rest[1:], pos)
		case rest[0] == '[':
			sub.setFieldPos(rest, pos)
		}
	}
	return sub
}

// MapPos replaces the object's position and every recorded field position
// by f's result (for example to make file names relative to another
// directory).
func (o *Object) MapPos(f func(Pos) Pos) {
	o.Pos = f(o.Pos)
	for p, pos := range o.fields {
		o.fields[p] = f(pos)
	}
}

// BlockStart returns where the content of the block scalar (| or >) at path
// starts in the authored file.
func (o *Object) BlockStart(path fieldpath.Path) (Pos, bool) {
	p, ok := o.fields[path.String()+blockSuffix]
	return p, ok
}

// APIVersion returns apiVersion, or "".
func (o *Object) APIVersion() string { return String(o.Data, "apiVersion") }

// Kind returns kind, or "".
func (o *Object) Kind() string { return String(o.Data, "kind") }

// Name returns metadata.name, or "".
func (o *Object) Name() string { return String(o.Data, "metadata", "name") }

// Namespace returns metadata.namespace, or "".
func (o *Object) Namespace() string { return String(o.Data, "metadata", "namespace") }

// Labels returns metadata.labels as strings (non-string values are skipped).
func (o *Object) Labels() map[string]string { return StringMap(o.Data, "metadata", "labels") }

// Annotations returns metadata.annotations as strings.
func (o *Object) Annotations() map[string]string {
	return StringMap(o.Data, "metadata", "annotations")
}

// Key returns the object's identity within one cluster.
func (o *Object) Key() Key {
	return Key{Group: Group(o.APIVersion()), Kind: o.Kind(), Namespace: o.Namespace(), Name: o.Name()}
}

// Key identifies an object within one cluster: API group (not version),
// kind, namespace and name, the way an API server keys its storage.
type Key struct {
	Group     string
	Kind      string
	Namespace string
	Name      string
}

// String formats the key as group/kind namespace/name.
func (k Key) String() string {
	gk := k.Kind
	if k.Group != "" {
		gk = k.Kind + "." + k.Group
	}
	if k.Namespace == "" {
		return gk + " " + k.Name
	}
	return gk + " " + k.Namespace + "/" + k.Name
}

// Less orders keys by namespace, group, kind and name.
func (k Key) Less(o Key) bool {
	if k.Namespace != o.Namespace {
		return k.Namespace < o.Namespace
	}
	if k.Group != o.Group {
		return k.Group < o.Group
	}
	if k.Kind != o.Kind {
		return k.Kind < o.Kind
	}
	return k.Name < o.Name
}

// Group returns the API group of an apiVersion ("" for the core group).
func Group(apiVersion string) string {
	if i := strings.LastIndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i]
	}
	return ""
}

// Lookup walks nested maps along keys and returns the value found.
func Lookup(m map[string]any, keys ...string) (any, bool) {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = mm[k]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}

// String returns the string at keys, or "".
func String(m map[string]any, keys ...string) string {
	v, _ := Lookup(m, keys...)
	s, _ := v.(string)
	return s
}

// Map returns the map at keys, or nil.
func Map(m map[string]any, keys ...string) map[string]any {
	v, _ := Lookup(m, keys...)
	mm, _ := v.(map[string]any)
	return mm
}

// StringMap returns the string values of the map at keys, or nil.
func StringMap(m map[string]any, keys ...string) map[string]string {
	mm := Map(m, keys...)
	if mm == nil {
		return nil
	}
	out := make(map[string]string, len(mm))
	for k, v := range mm {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// SetNested sets value at keys, creating intermediate maps.
func SetNested(m map[string]any, value any, keys ...string) {
	for _, k := range keys[:len(keys)-1] {
		next, ok := m[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[keys[len(keys)-1]] = value
}

// DeepCopy copies a JSON-model value.
func DeepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = DeepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = DeepCopy(e)
		}
		return out
	}
	return v
}

// SortedKeys returns the keys of m in byte order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// SortedObjectKeys returns the keys of m in Key.Less order: the order of
// objects in drydock's output.
func SortedObjectKeys[V any](m map[Key]V) []Key {
	keys := make([]Key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Less(keys[j]) })
	return keys
}
