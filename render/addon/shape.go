package addon

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// shapeError is a value that encoding/json cannot decode into the Go type
// KubeVela decodes it into, said in the terms of the authored document
// instead of Go's ("cannot unmarshal string into Go struct field ...").
type shapeError struct {
	path  fieldpath.Path
	want  string
	found string
}

// checkShape returns the first value of v (in document order, as at
// records it) that does not fit t the way encoding/json decodes, or nil.
// With coerce, scalars fit string fields, as sigs.k8s.io/yaml.Unmarshal
// turns them into strings before decoding.
func checkShape(t reflect.Type, v any, path fieldpath.Path, at *manifest.Object, coerce bool) *shapeError {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil || decodesItself(t) || t.Kind() == reflect.Interface {
		return nil
	}
	mismatch := &shapeError{path: path, want: typeNoun(t), found: valueNoun(v)}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return mismatch
		}
		return checkFields(t, m, path, at, coerce)
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return mismatch
		}
		for _, k := range keysInOrder(m, path, at) {
			if e := checkShape(t.Elem(), m[k], path.Child(k), at, coerce); e != nil {
				return e
			}
		}
	case reflect.Slice:
		l, ok := v.([]any)
		if !ok {
			return mismatch
		}
		for i, e := range l {
			if err := checkShape(t.Elem(), e, path.At(i), at, coerce); err != nil {
				return err
			}
		}
	default:
		if !scalarFits(t.Kind(), v, coerce) {
			return mismatch
		}
	}
	return nil
}

// checkFields checks the keys of m that name a JSON field of struct t.
func checkFields(t reflect.Type, m map[string]any, path fieldpath.Path, at *manifest.Object, coerce bool) *shapeError {
	fields := jsonFields(t)
	for _, k := range keysInOrder(m, path, at) {
		ft, ok := fields[k]
		if !ok {
			for name, f := range fields {
				if strings.EqualFold(name, k) {
					ft, ok = f, true
					break
				}
			}
		}
		if !ok {
			continue
		}
		if e := checkShape(ft, m[k], path.Child(k), at, coerce); e != nil {
			return e
		}
	}
	return nil
}

// jsonFields maps the JSON names of t's fields (embedded structs
// flattened) to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || !f.IsExported() && !f.Anonymous:
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			for k, v := range jsonFields(f.Type) {
				out[k] = v
			}
		case name == "":
			out[f.Name] = f.Type
		default:
			out[name] = f.Type
		}
	}
	return out
}

// keysInOrder returns m's keys in the order they were authored.
func keysInOrder(m map[string]any, path fieldpath.Path, at *manifest.Object) []string {
	keys := manifest.SortedKeys(m)
	pos := func(k string) manifest.Pos { return at.FieldPos(path.Child(k)) }
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := pos(keys[i]), pos(keys[j])
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return keys
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// decodesItself reports whether t takes any JSON value (json.RawMessage).
func decodesItself(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return pt.Implements(jsonUnmarshaler) || pt.Implements(textUnmarshaler)
}

func scalarFits(k reflect.Kind, v any, coerce bool) bool {
	switch k {
	case reflect.String:
		switch v.(type) {
		case string:
			return true
		case bool, int64, float64:
			return coerce
		}
	case reflect.Bool:
		_, ok := v.(bool)
		return ok
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		_, ok := v.(int64)
		return ok
	case reflect.Float32, reflect.Float64:
		switch v.(type) {
		case int64, float64:
			return true
		}
	}
	return false
}

// typeNoun names what a Go type takes, in YAML terms.
func typeNoun(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice:
		elem := t.Elem()
		for elem.Kind() == reflect.Pointer {
			elem = elem.Elem()
		}
		switch elem.Kind() {
		case reflect.String:
			return "a list of strings"
		case reflect.Struct, reflect.Map:
			return "a list of mappings"
		}
		return "a list"
	}
	return "a mapping"
}

// valueNoun describes a decoded YAML value.
func valueNoun(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case int64, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	case nil:
		return "null"
	}
	return "a mapping"
}

// shapeErr locates a shape error in the authored file: "what: path: must be
// want, found found".
func shapeErr(at *manifest.Object, what string, e *shapeError) error {
	path := e.path.String()
	if path == "" {
		path = "the document"
	}
	return invalidf(at.FieldPos(e.path), "%s: %s: must be %s, found %s", what, path, e.want, e.found)
}
