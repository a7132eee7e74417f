package karmada

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// patchOp is one JSON patch operation as Karmada builds it (its
// overrideOption).
type patchOp struct {
	op    string
	path  string
	value any
	// raw, when set, is value's JSON (a policy value encoded once).
	raw []byte
}

// document is the object being overridden.
type document struct {
	data map[string]any
	// nonFinite tells that data holds NaN or an infinity, which JSON
	// cannot encode: any patch then fails as Karmada's marshal does.
	nonFinite bool
	// prov, when set, records what each overrider changes; policy and
	// rule name the rule being applied.
	prov   manifest.Provenance
	policy *Policy
	rule   int
}

// patch applies ops as one JSON patch followed by a JSON round trip, as
// Karmada's applyJSONPatch does with evanphx/json-patch v5, in memory:
// every operation has the library's semantics (negative indices allowed,
// no missing paths) and fails with the library's message. It returns the
// index of the operation that failed (-1 for the round trip).
func (d *document) patch(ops []patchOp) (int, error) {
	if d.nonFinite {
		_, err := json.Marshal(d.data) // Karmada's marshal fails the same way
		return -1, err
	}
	var root any = d.data
	lost := -1 // the first operation after which the document has no kind
	for i, o := range ops {
		if err := applyOp(&root, o); err != nil {
			return i, err
		}
		if lost < 0 && !hasKind(root) {
			lost = i
		}
	}
	m, ok := root.(map[string]any)
	if !ok { // unstructured.UnmarshalJSON reads a non-object as having no kind
		data, _ := json.Marshal(root)
		//lint:ignore ST1005 apimachinery's message, kept verbatim
		return lost, fmt.Errorf("Object 'Kind' is missing in '%s'", data)
	}
	// unstructured.UnmarshalJSON refuses an object without a kind.
	if !hasKind(m) {
		data, _ := json.Marshal(m)
		//lint:ignore ST1005 apimachinery's message, kept verbatim
		return lost, fmt.Errorf("Object 'Kind' is missing in '%s'", data)
	}
	d.data = m
	return -1, nil
}

// marshalPatch encodes ops the way Karmada marshals its overrideOptions.
func marshalPatch(ops []patchOp) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, o := range ops {
		if i > 0 {
			b.WriteByte(',')
		}
		op, _ := json.Marshal(o.op)
		path, _ := json.Marshal(o.path)
		raw := o.raw
		if raw == nil {
			var err error
			if raw, err = json.Marshal(o.value); err != nil {
				return nil, err
			}
		}
		fmt.Fprintf(&b, `{"op":%s,"path":%s,"value":%s}`, op, path, raw)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// normalize deep-copies a JSON-model value as a JSON round trip leaves it:
// a whole float64 that encoding/json prints without an exponent and that
// fits int64 becomes int64. ok is false if the value holds NaN or an
// infinity, which JSON cannot encode.
func normalize(v any) (out any, ok bool) {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		ok = true
		for k, e := range x {
			var eok bool
			m[k], eok = normalize(e)
			ok = ok && eok
		}
		return m, ok
	case []any:
		l := make([]any, len(x))
		ok = true
		for i, e := range x {
			var eok bool
			l[i], eok = normalize(e)
			ok = ok && eok
		}
		return l, ok
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return x, false
		}
		if x == math.Trunc(x) && x >= -(1<<63) && x < 1<<63 && math.Abs(x) < 1e21 {
			return int64(x), true
		}
		return x, true
	case int:
		return int64(x), true
	case []string:
		l := make([]any, len(x))
		for i, s := range x {
			l[i] = s
		}
		return l, true
	}
	return v, true
}

var pointerDecoder = strings.NewReplacer("~1", "/", "~0", "~")

// unescape decodes a JSON pointer segment (~1 is '/', ~0 is '~').
func unescape(seg string) string {
	if strings.IndexByte(seg, '~') < 0 {
		return seg
	}
	return pointerDecoder.Replace(seg)
}

// hasKind reports a document unstructured.UnmarshalJSON accepts: an object
// with a non-empty kind.
func hasKind(doc any) bool {
	m, _ := doc.(map[string]any)
	k, _ := m["kind"].(string)
	return k != ""
}

// applyOp applies one add, remove or replace to the document in root with
// the semantics and messages of evanphx/json-patch v5 (Karmada's defaults:
// negative indices allowed, missing paths refused).
func applyOp(root *any, o patchOp) error {
	val, finite := normalize(o.value)
	if !finite {
		_, err := json.Marshal(o.value) // Karmada's marshal of the patch fails so
		return err
	}
	if o.path == "" {
		return replaceDocument(root, o.op, val)
	}
	parent, key, ok := findContainer(root, o.path)
	switch o.op {
	case OpAdd:
		if !ok {
			return fmt.Errorf("add operation does not apply: doc is missing path: \"%s\": %w", o.path, errMissing)
		}
		if err := parent.add(key, val); err != nil {
			return fmt.Errorf("error in add for path: '%s': %w", o.path, err)
		}
	case OpRemove:
		if !ok {
			return fmt.Errorf("remove operation does not apply: doc is missing path: \"%s\": %w", o.path, errMissing)
		}
		if err := parent.remove(key); err != nil {
			return fmt.Errorf("error in remove for path: '%s': %w", o.path, err)
		}
	case OpReplace:
		if !ok {
			return fmt.Errorf("replace operation does not apply: doc is missing path: %s: %w", o.path, errMissing)
		}
		if _, err := parent.child(key); err != nil {
			return fmt.Errorf("replace operation does not apply: doc is missing key: %s: %w", o.path, errMissing)
		}
		if err := parent.set(key, val); err != nil {
			return fmt.Errorf("error in remove for path: '%s': %w", o.path, err) // sic: the library's words
		}
	default:
		//lint:ignore ST1005 json-patch's (or apimachinery's) message, kept verbatim
		return fmt.Errorf("Unexpected kind: %s", o.op)
	}
	return nil
}

// replaceDocument is an operation on the path "": add and replace swap the
// whole document for the value, remove finds nothing to remove.
func replaceDocument(root *any, op string, v any) error {
	switch op {
	case OpRemove:
		return fmt.Errorf("error in remove for path: '': %w", errExpectedObject)
	case OpReplace:
		switch v.(type) {
		case map[string]any, []any:
		default:
			return errors.New("replace operation value must be object or array: %!w(<nil>)")
		}
	case OpAdd:
		switch v.(type) {
		case map[string]any, []any, nil:
		default:
			return fmt.Errorf("json: cannot unmarshal %s into Go value of type map[string]*jsonpatch.lazyNode", manifest.JSONKind(v))
		}
	default:
		//lint:ignore ST1005 json-patch's (or apimachinery's) message, kept verbatim
		return fmt.Errorf("Unexpected kind: %s", op)
	}
	*root = v
	return nil
}

// The library's sentinel errors, by their messages.
var (
	errMissing        = errors.New("missing value")
	errInvalidIndex   = errors.New("invalid index referenced")
	errExpectedObject = errors.New("invalid value, expected object")
)

// slot is where a value of the document is held: an object's key or a
// variable (the root, an array element), so that a value can be replaced.
type slot struct {
	m map[string]any
	k string
	p *any
}

func (s slot) get() any {
	if s.m != nil {
		return s.m[s.k]
	}
	return *s.p
}

func (s slot) put(v any) {
	if s.m != nil {
		s.m[s.k] = v
		return
	}
	*s.p = v
}

// container is an object or an array inside the document, reached through
// the slot that holds it so that an array can grow or shrink.
type container struct {
	at slot
}

// findContainer is the library's findObject: the container of the last
// path segment, walking the others (whatever precedes the first '/' is
// ignored). ok is false where the walk fails: a missing key or index, a
// value that is not an object or array (null included), an empty segment.
func findContainer(root *any, path string) (container, string, bool) {
	_, rest, found := strings.Cut(path, "/")
	if !found {
		return container{}, "", false
	}
	c := container{at: slot{p: root}}
	for {
		part, tail, more := strings.Cut(rest, "/")
		if !more {
			return c, unescape(part), true
		}
		if part == "" {
			return container{}, "", false
		}
		next, err := c.child(unescape(part))
		if err != nil {
			return container{}, "", false
		}
		switch next.get().(type) {
		case map[string]any, []any:
		default:
			return container{}, "", false
		}
		c, rest = container{at: next}, tail
	}
}

// child is the library's get: the slot of key ("" is the container itself).
func (c container) child(key string) (slot, error) {
	if key == "" {
		return c.at, nil
	}
	switch v := c.at.get().(type) {
	case map[string]any:
		if _, ok := v[key]; !ok {
			return slot{}, fmt.Errorf("unable to get nonexistent key: %s: %w", key, errMissing)
		}
		return slot{m: v, k: key}, nil
	case []any:
		i, err := strconv.Atoi(key)
		if err != nil {
			return slot{}, err
		}
		if i, err = arrayIndex(i, len(v), len(v)); err != nil {
			return slot{}, err
		}
		return slot{p: &v[i]}, nil
	}
	return slot{}, errExpectedObject
}

// set is the library's set: an object's key, or an existing array element.
func (c container) set(key string, val any) error {
	switch v := c.at.get().(type) {
	case map[string]any:
		v[key] = val
		return nil
	case []any:
		i, err := strconv.Atoi(key)
		if err != nil {
			return err
		}
		if i < 0 {
			if i < -len(v) {
				//lint:ignore ST1005 json-patch's (or apimachinery's) message, kept verbatim
				return fmt.Errorf("Unable to access invalid index: %d: %w", i, errInvalidIndex)
			}
			i += len(v)
		}
		v[i] = val
		return nil
	}
	return errExpectedObject
}

// add is the library's add: an object's key, or an array insertion ("-"
// appends).
func (c container) add(key string, val any) error {
	v, isArray := c.at.get().([]any)
	if !isArray {
		return c.set(key, val)
	}
	if key == "-" {
		c.at.put(append(v, val))
		return nil
	}
	i, err := strconv.Atoi(key)
	if err != nil {
		return fmt.Errorf("value was not a proper array index: '%s': %w", key, err)
	}
	if i, err = arrayIndex(i, len(v)+1, len(v)+1); err != nil {
		return err
	}
	out := make([]any, 0, len(v)+1)
	out = append(out, v[:i]...)
	out = append(out, val)
	c.at.put(append(out, v[i:]...))
	return nil
}

// remove is the library's remove.
func (c container) remove(key string) error {
	switch v := c.at.get().(type) {
	case map[string]any:
		if _, ok := v[key]; !ok {
			return fmt.Errorf("unable to remove nonexistent key: %s: %w", key, errMissing)
		}
		delete(v, key)
		return nil
	case []any:
		i, err := strconv.Atoi(key)
		if err != nil {
			return err
		}
		if i, err = arrayIndex(i, len(v), len(v)); err != nil {
			return err
		}
		out := make([]any, 0, len(v)-1)
		out = append(out, v[:i]...)
		c.at.put(append(out, v[i+1:]...))
		return nil
	}
	return errExpectedObject
}

// arrayIndex resolves index i (negative counts back from n) below limit,
// with the library's message for an index out of range.
func arrayIndex(i, n, limit int) (int, error) {
	if i >= limit {
		//lint:ignore ST1005 json-patch's (or apimachinery's) message, kept verbatim
		return 0, fmt.Errorf("Unable to access invalid index: %d: %w", i, errInvalidIndex)
	}
	if i < 0 {
		if i < -n {
			//lint:ignore ST1005 json-patch's (or apimachinery's) message, kept verbatim
			return 0, fmt.Errorf("Unable to access invalid index: %d: %w", i, errInvalidIndex)
		}
		i += n
	}
	return i, nil
}
