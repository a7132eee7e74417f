package override

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"

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

// errNative means the in-memory patcher met a case it does not reproduce
// (or an operation that fails); Apply then starts again in exact mode,
// where every patch goes through evanphx/json-patch as in Karmada.
var errNative = errors.New("native patch not applicable")

// document is the object being overridden.
type document struct {
	data map[string]any
	// exact applies patches with evanphx/json-patch on the JSON encoding,
	// followed by a JSON round trip, exactly as Karmada's applyJSONPatch.
	exact bool
}

// patch applies ops as one JSON patch followed by a JSON round trip.
func (d *document) patch(ops []patchOp) error {
	if d.exact {
		out, err := exactPatch(d.data, ops)
		if err != nil {
			return err
		}
		d.data = out
		return nil
	}
	for _, o := range ops {
		if !nativeOp(d.data, o) {
			return errNative
		}
	}
	// unstructured.UnmarshalJSON refuses an object without a kind.
	if k, ok := d.data["kind"].(string); !ok || k == "" {
		return errNative
	}
	return nil
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

// exactPatch is Karmada's applyJSONPatch: marshal, patch, unmarshal.
func exactPatch(doc map[string]any, ops []patchOp) (map[string]any, error) {
	patchJSON, err := marshalPatch(ops)
	if err != nil {
		return nil, err
	}
	patch, err := jsonpatch.DecodePatch(patchJSON)
	if err != nil {
		return nil, err
	}
	docJSON, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	out, err := patch.Apply(docJSON)
	if err != nil {
		return nil, err
	}
	return decodeObject(out)
}

// decodeObject is unstructured.UnmarshalJSON: whole numbers become int64,
// others float64, and the object must have a kind.
func decodeObject(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	manifest.FromJSONNumbers(m)
	if k, ok := m["kind"].(string); !ok || k == "" {
		//lint:ignore ST1005 apimachinery's message, kept verbatim
		return nil, fmt.Errorf("Object 'Kind' is missing in '%s'", data)
	}
	return m, nil
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

// nativeOp applies one add, remove or replace to doc in memory with the
// semantics of evanphx/json-patch v5 (default options: negative indices
// allowed, no missing paths). It reports false when the operation would
// fail or when the path takes a corner this code leaves to the library (an
// empty path or segment).
func nativeOp(doc map[string]any, o patchOp) bool {
	// evanphx ignores whatever precedes the first '/'.
	i := strings.IndexByte(o.path, '/')
	if i < 0 {
		return false
	}
	rest := o.path[i+1:]
	var parent any = doc
	// slot is where parent is stored, so an array that grows or shrinks
	// can be stored back.
	var slotMap map[string]any
	var slotKey string
	var slotList []any
	slotIndex := -1
	for {
		seg, tail, more := strings.Cut(rest, "/")
		if seg == "" {
			return false
		}
		key := unescape(seg)
		if !more {
			switch c := parent.(type) {
			case map[string]any:
				return mapOp(c, key, o)
			case []any:
				out, ok := arrayOp(c, key, o)
				if !ok {
					return false
				}
				switch {
				case slotMap != nil:
					slotMap[slotKey] = out
				case slotIndex >= 0:
					slotList[slotIndex] = out
				}
				return true
			}
			return false
		}
		var child any
		switch c := parent.(type) {
		case map[string]any:
			v, ok := c[key]
			if !ok {
				return false
			}
			child, slotMap, slotKey, slotList, slotIndex = v, c, key, nil, -1
		case []any:
			idx, ok := arrayIndex(key, len(c))
			if !ok {
				return false
			}
			child, slotMap, slotList, slotIndex = c[idx], nil, c, idx
		}
		switch child.(type) {
		case map[string]any, []any:
		default:
			return false
		}
		parent, rest = child, tail
	}
}

// arrayIndex resolves an index to an existing element (negative counts
// from the end).
func arrayIndex(key string, n int) (int, bool) {
	i, err := strconv.Atoi(key)
	if err != nil {
		return 0, false
	}
	if i < 0 {
		if i < -n {
			return 0, false
		}
		i += n
	}
	if i >= n {
		return 0, false
	}
	return i, true
}

func patchValue(o patchOp) any {
	v, _ := normalize(o.value)
	return v
}

func mapOp(m map[string]any, key string, o patchOp) bool {
	_, exists := m[key]
	switch o.op {
	case OpAdd:
		m[key] = patchValue(o)
	case OpReplace:
		if !exists {
			return false
		}
		m[key] = patchValue(o)
	case OpRemove:
		if !exists {
			return false
		}
		delete(m, key)
	default:
		return false
	}
	return true
}

func arrayOp(a []any, key string, o patchOp) ([]any, bool) {
	switch o.op {
	case OpAdd:
		if key == "-" {
			return append(a, patchValue(o)), true
		}
		i, err := strconv.Atoi(key)
		if err != nil {
			return nil, false
		}
		size := len(a) + 1
		if i >= size || i < -size {
			return nil, false
		}
		if i < 0 {
			i += size
		}
		out := make([]any, 0, size)
		out = append(out, a[:i]...)
		out = append(out, patchValue(o))
		return append(out, a[i:]...), true
	case OpReplace:
		i, ok := arrayIndex(key, len(a))
		if !ok {
			return nil, false
		}
		a[i] = patchValue(o)
		return a, true
	case OpRemove:
		i, ok := arrayIndex(key, len(a))
		if !ok {
			return nil, false
		}
		out := make([]any, 0, len(a)-1)
		out = append(out, a[:i]...)
		return append(out, a[i+1:]...), true
	}
	return nil, false
}
