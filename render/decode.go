package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// KubeVela decodes the properties of its built-in policies, of deploy
// steps and of ref-objects components into Go structs with encoding/json,
// some strictly (unknown fields refused), and reports the decoder's error.
// drydock's mirrors of those structs (in render/policy, render/workflow
// and overrides/kubevela) have their shapes, field names and JSON tags; decoding
// the same JSON with DecodeStrict or DecodeLoose fails at the same place
// with the same words once kvError has put KubeVela's type names back.

// kvPackages names the KubeVela package of the mirrored types that are not
// in apis/core.oam.dev/v1alpha1.
var kvPackages = map[string]string{
	"DeployWorkflowStepSpec": "step",
	"ClusterSelector":        "common",
}

// renderPkg is this package's import path: mirrors live in it, in the
// packages under it and in overridesPkg (KubeVela's override policies).
var renderPkg = reflect.TypeFor[Application]().PkgPath()

// overridesPkg is overrides/kubevela's import path, which render cannot
// import (it imports render).
var overridesPkg = strings.TrimSuffix(renderPkg, "render") + "overrides/kubevela"

// isMirrorPkg reports whether pkg holds mirrors of KubeVela's types.
func isMirrorPkg(pkg string) bool {
	return pkg == renderPkg || strings.HasPrefix(pkg, renderPkg+"/") || pkg == overridesPkg
}

// KubeVelaTypeName is how reflect prints t in KubeVela: a mirror of one of
// KubeVela's structs under KubeVela's name and package. A mirror is a
// named type of a mirror package that has its KubeVela type's name, or
// that name behind a "kv" prefix when it is unexported
// (kvDeployWorkflowStepSpec mirrors step.DeployWorkflowStepSpec).
func KubeVelaTypeName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Slice:
		return "[]" + KubeVelaTypeName(t.Elem())
	case reflect.Map:
		return "map[" + KubeVelaTypeName(t.Key()) + "]" + KubeVelaTypeName(t.Elem())
	case reflect.Pointer:
		return "*" + KubeVelaTypeName(t.Elem())
	}
	if !isMirrorPkg(t.PkgPath()) {
		return t.String()
	}
	name := strings.TrimPrefix(t.Name(), "kv")
	pkg := kvPackages[name]
	if pkg == "" {
		pkg = "v1alpha1"
	}
	return pkg + "." + name
}

// kvFieldPath is a decoding error's Field with KubeVela's names for the
// embedded structs (whose Go field names are their type names).
func kvFieldPath(field string) string {
	segs := strings.Split(field, ".")
	for i, s := range segs {
		if rest, ok := strings.CutPrefix(s, "kv"); ok && rest != "" && unicode.IsUpper(rune(rest[0])) {
			segs[i] = rest
		}
	}
	return strings.Join(segs, ".")
}

// kvError rewrites an encoding/json error about a mirror type as KubeVela's
// decoder words it; the original stays reachable with errors.As.
func kvError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	msg := fmt.Sprintf("json: cannot unmarshal %s into Go value of type %s", te.Value, KubeVelaTypeName(te.Type))
	if te.Struct != "" || te.Field != "" {
		msg = fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s.%s of type %s",
			te.Value, strings.TrimPrefix(te.Struct, "kv"), kvFieldPath(te.Field), KubeVelaTypeName(te.Type))
	}
	return &decodeError{msg: msg, err: te}
}

// decodeError is a decoding error in KubeVela's words.
type decodeError struct {
	msg string
	err *json.UnmarshalTypeError
}

// Error is the message in KubeVela's words.
func (e *decodeError) Error() string { return e.msg }

// Unwrap returns encoding/json's error.
func (e *decodeError) Unwrap() error { return e.err }

// DecodeStrict decodes v (the JSON data model) into dst, a mirror of one
// of KubeVela's structs, as KubeVela's utils.StrictUnmarshal does: unknown
// fields are an error. A decoding error is worded as KubeVela's (its type
// names); the encoding/json error stays reachable with errors.As.
func DecodeStrict(v any, dst any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	err = d.Decode(dst)
	var te *json.UnmarshalTypeError
	if err != nil && !errors.As(err, &te) {
		// encoding/json has no type for an unknown field: find it, as the
		// decoder meets keys, to say where it is.
		if p, ok := unknownField(v, reflect.TypeOf(dst)); ok {
			return &UnknownFieldError{Path: p, err: err}
		}
	}
	return kvError(err)
}

// UnknownFieldError is DecodeStrict's error for a key the mirror has no
// field for: encoding/json's error (its text), with the key's path in the
// decoded value.
type UnknownFieldError struct {
	// Path is the key's path in the value.
	Path fieldpath.Path
	err  error
}

// Error is encoding/json's text (`json: unknown field "x"`).
func (e *UnknownFieldError) Error() string { return e.err.Error() }

// Unwrap returns encoding/json's error.
func (e *UnknownFieldError) Unwrap() error { return e.err }

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// unknownField is the path of the first key in v (the JSON data model)
// that type t has no field for, in the order encoding/json meets them
// (keys sorted, depth first): a struct's keys match its JSON names
// exactly, else case-insensitively, as encoding/json's do.
func unknownField(v any, t reflect.Type) (fieldpath.Path, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) {
		return nil, false // its own decoding: any key may be its
	}
	switch x := v.(type) {
	case map[string]any:
		return unknownInMap(x, t)
	case []any:
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return nil, false
		}
		for i, e := range x {
			if p, ok := unknownField(e, t.Elem()); ok {
				return joinPath(i, p), true
			}
		}
	}
	return nil, false
}

// unknownInMap is unknownField for an object decoded into t.
func unknownInMap(m map[string]any, t reflect.Type) (fieldpath.Path, bool) {
	var fields map[string]reflect.Type
	switch t.Kind() {
	case reflect.Struct:
		fields = map[string]reflect.Type{}
		jsonFields(t, fields)
	case reflect.Map:
	default:
		return nil, false
	}
	for _, k := range manifest.SortedKeys(m) {
		var ft reflect.Type
		if fields == nil {
			ft = t.Elem()
		} else if f, ok := fieldNamed(fields, k); ok {
			ft = f
		} else {
			return fieldpath.New(k), true
		}
		if p, ok := unknownField(m[k], ft); ok {
			return joinPath(k, p), true
		}
	}
	return nil, false
}

// fieldNamed is the field JSON key k decodes into: the exact name, else
// one equal under case folding.
func fieldNamed(fields map[string]reflect.Type, k string) (reflect.Type, bool) {
	if f, ok := fields[k]; ok {
		return f, true
	}
	for _, name := range manifest.SortedKeys(fields) {
		if strings.EqualFold(name, k) {
			return fields[name], true
		}
	}
	return nil, false
}

// jsonFields adds struct t's fields by their JSON names, those of its
// embedded structs (without a JSON name) promoted; an outer field wins.
func jsonFields(t reflect.Type, out map[string]reflect.Type) {
	var embedded []reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case f.Anonymous && name == "" && ft.Kind() == reflect.Struct:
			embedded = append(embedded, ft)
			continue
		case !f.IsExported():
			continue
		case name == "":
			name = f.Name
		}
		out[name] = f.Type
	}
	for _, e := range embedded {
		inner := map[string]reflect.Type{}
		jsonFields(e, inner)
		for k, ft := range inner {
			if _, ok := out[k]; !ok {
				out[k] = ft
			}
		}
	}
}

// DecodeLoose decodes v into dst as json.Unmarshal does (unknown fields
// allowed), its errors worded as DecodeStrict's.
func DecodeLoose(v any, dst any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return kvError(json.Unmarshal(data, dst))
}

// ErrorPath finds where in v (the JSON data model) an error of
// DecodeStrict or DecodeLoose arose: the path (relative to v) of the
// unknown field or of the value of the wrong type, empty when it cannot
// tell.
func ErrorPath(v any, err error) fieldpath.Path {
	var ue *UnknownFieldError
	if errors.As(err, &ue) {
		return ue.Path
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		p, _ := findTyped(v, fieldSegments(te.Field), te.Value)
		return p
	}
	return nil
}

// fieldSegments splits a decoding error's field path, leaving out the
// names of embedded structs (they are no JSON keys).
func fieldSegments(field string) []string {
	var out []string
	for _, s := range strings.Split(field, ".") {
		if s != "" && !unicode.IsUpper(rune(s[0])) && !strings.HasPrefix(s, "kv") {
			out = append(out, s)
		}
	}
	return out
}

// findTyped follows segs (map keys; lists are searched element by
// element) to the first value whose JSON type is kind.
func findTyped(v any, segs []string, kind string) (fieldpath.Path, bool) {
	if list, ok := v.([]any); ok && (len(segs) > 0 || manifest.JSONKind(v) != kind) {
		for i, e := range list {
			if p, ok := findTyped(e, segs, kind); ok {
				return joinPath(i, p), true
			}
		}
		return nil, false
	}
	if len(segs) == 0 {
		if m, ok := v.(map[string]any); ok && kind != "object" {
			for _, k := range manifest.SortedKeys(m) {
				if manifest.JSONKind(m[k]) == kind {
					return fieldpath.New(k), true
				}
			}
		}
		return nil, strings.HasPrefix(kind, manifest.JSONKind(v))
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	child, ok := m[segs[0]]
	if !ok {
		return nil, false
	}
	p, ok := findTyped(child, segs[1:], kind)
	return joinPath(segs[0], p), ok
}

// joinPath is first (a key or an index) followed by rest.
func joinPath(first any, rest fieldpath.Path) fieldpath.Path {
	return fieldpath.New(first).Join(rest)
}
