package check

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/parsers"
	"github.com/drydock-dev/drydock/schemas"
)

// configDocument decodes the config's one YAML document, keeping the
// positions of its keys and values.
func configDocument(path string, data []byte) (*manifest.Object, error) {
	docs, err := manifest.Decode(path, data, manifest.DecodeOptions{KeepLists: true, KeyPositions: true})
	switch {
	case err != nil:
		return nil, err
	case len(docs) == 0:
		return nil, manifest.At(manifest.Pos{File: path, Line: 1, Col: 1}, "no suites: the file is empty")
	case len(docs) > 1:
		return nil, manifest.At(docs[1].Pos, "a second YAML document: %s holds one (suites and limits)", path)
	}
	return docs[0], nil
}

// configDecoder fills the config types from the decoded document by their
// json tags (the keys of drydock.yaml). A null value leaves a field at its
// zero value; an unknown key or a value of another type is an error at its
// position.
type configDecoder struct {
	doc *manifest.Object
}

// value decodes v, found at path, into rv.
func (d configDecoder) value(path fieldpath.Path, v any, rv reflect.Value) error {
	if v == nil {
		return nil
	}
	switch rv.Kind() {
	case reflect.String:
		s, ok := scalarString(v)
		if !ok {
			return d.wrongType(path, v, rv.Type())
		}
		rv.SetString(s)
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return d.wrongType(path, v, rv.Type())
		}
		rv.SetBool(b)
	case reflect.Slice:
		return d.list(path, v, rv)
	case reflect.Interface: // any value, as written (a test's expected value)
		rv.Set(reflect.ValueOf(manifest.DeepCopy(v)))
	case reflect.Map: // a mapping of any values (properties, objects), or of typed ones (sources)
		m, ok := v.(map[string]any)
		if !ok {
			return d.wrongType(path, v, rv.Type())
		}
		if rv.Type().Elem().Kind() == reflect.Interface {
			rv.Set(reflect.ValueOf(manifest.DeepCopy(m)))
			return nil
		}
		out := reflect.MakeMapWithSize(rv.Type(), len(m))
		for _, k := range manifest.SortedKeys(m) {
			elem := reflect.New(rv.Type().Elem()).Elem()
			if m[k] == nil {
				return d.wrongType(path.Child(k), m[k], elem.Type())
			}
			if err := d.value(path.Child(k), m[k], elem); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k), elem)
		}
		rv.Set(out)
	case reflect.Int:
		switch n := v.(type) {
		case int64:
			rv.SetInt(n)
		case int:
			rv.SetInt(int64(n))
		default:
			return d.wrongType(path, v, rv.Type())
		}
	case reflect.Pointer: // an optional value: nil when not given
		elem := reflect.New(rv.Type().Elem())
		if err := d.value(path, v, elem.Elem()); err != nil {
			return err
		}
		rv.Set(elem)
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return d.wrongType(path, v, rv.Type())
		}
		return d.mapping(path, m, rv)
	default:
		panic(fmt.Sprintf("config field %s of unsupported type %s", path, rv.Type()))
	}
	return nil
}

// list decodes a sequence; a null item is an error (a list of paths with
// a hole in it is a mistake, not an empty path).
func (d configDecoder) list(path fieldpath.Path, v any, rv reflect.Value) error {
	items, ok := v.([]any)
	if !ok {
		return d.wrongType(path, v, rv.Type())
	}
	out := reflect.MakeSlice(rv.Type(), len(items), len(items))
	for i, item := range items {
		at := path.At(i)
		if item == nil {
			return d.wrongType(at, nil, rv.Type().Elem())
		}
		if err := d.value(at, item, out.Index(i)); err != nil {
			return err
		}
	}
	rv.Set(out)
	return nil
}

// mapping decodes a mapping into a struct, key by key in the order they
// are written, so the first problem in the file is the one reported.
func (d configDecoder) mapping(path fieldpath.Path, m map[string]any, rv reflect.Value) error {
	fields := configFields(rv.Type())
	keys := manifest.SortedKeys(m)
	at := make(map[string]manifest.Pos, len(keys))
	for _, k := range keys {
		at[k] = d.doc.KeyPos(path.Child(k))
	}
	slices.SortStableFunc(keys, func(a, b string) int { return at[a].Compare(at[b]) })
	for _, k := range keys {
		at := path.Child(k)
		i, ok := fields[k]
		if !ok {
			hint := ""
			if best := manifest.Closest(k, manifest.SortedKeys(fields)); best != "" {
				hint = fmt.Sprintf("; did you mean %q?", best)
			}
			return manifest.At(d.doc.KeyPos(at), "%sunknown key %q (valid keys%s: %s)%s", prefix(path), k, levelName(path),
				strings.Join(manifest.SortedKeys(fields), ", "), hint)
		}
		if err := d.value(at, m[k], rv.Field(i)); err != nil {
			return err
		}
	}
	return nil
}

// configFields maps the keys of a config struct (its exported fields'
// json names) to field indexes.
func configFields(t reflect.Type) map[string]int {
	out := map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && name != "" && name != "-" {
			out[name] = i
		}
	}
	return out
}

// wrongType is the error of a value v at path that is not of type t.
func (d configDecoder) wrongType(path fieldpath.Path, v any, t reflect.Type) error {
	msg := fmt.Sprintf("%s: %swant %s, found %s", d.doc.FieldPos(path), prefix(path), typeName(t), valueName(v))
	if _, isBool := v.(bool); isBool && t.Kind() == reflect.String {
		msg += " (YAML reads unquoted yes/no/on/off/true/false as booleans: quote it)"
	}
	return errors.New(msg)
}

// prefix is "path: ", or "" at the top level.
func prefix(path fieldpath.Path) string {
	if len(path) == 0 {
		return ""
	}
	return path.String() + ": "
}

// levelName names the mapping at path for the list of its valid keys.
func levelName(path fieldpath.Path) string {
	switch {
	case len(path) == 0:
		return " at the top level"
	case len(path) == 2 && path.HasPrefix(fieldpath.New("suites")) && path[1].IsIndex():
		return " of a suite"
	}
	return " of " + path.String()
}

// scalarString reads a string field: numbers are taken as written (a
// namespace named 5), booleans are not.
func scalarString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	}
	return "", false
}

// typeName says what a config field of type t holds.
func typeName(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int:
		return "an integer"
	case reflect.Interface:
		return "a value"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Struct {
			return "a list of mappings"
		}
		return "a list of strings"
	}
	return "a mapping"
}

// valueName describes a decoded YAML value for messages.
func valueName(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %t", x)
	case int64, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	}
	return "a mapping"
}

// check validates what the types cannot say: suites exist, are named
// once, have inputs, a known Rego version and field validation; limits
// parse.
func (d configDecoder) check(cfg *Config) error {
	if len(cfg.Suites) == 0 {
		return manifest.At(d.doc.FieldPos(fieldpath.New("suites")), "no suites (want suites: a list of {name, inputs, ...})")
	}
	names := map[string]fieldpath.Path{}
	for i, s := range cfg.Suites {
		at := fieldpath.New("suites", i)
		switch {
		case s.Name == "":
			return manifest.At(d.doc.FieldPos(at), "%s: name is required", at)
		case names[s.Name] != nil:
			return manifest.At(d.doc.FieldPos(at.Child("name")), "%s: duplicate suite name %q (first at %s)", at, s.Name, d.doc.FieldPos(names[s.Name]))
		case len(s.Inputs) == 0 && (len(s.Addons) == 0 || s.Plain):
			// An addon suite renders its addons alone.
			return manifest.At(d.doc.FieldPos(at.Child("inputs")), "suite %q: inputs are required (or addons, for a suite of addons alone)", s.Name)
		case s.RegoVersion != "" && s.RegoVersion != "v0" && s.RegoVersion != "v1":
			return manifest.At(d.doc.FieldPos(at.Child("regoVersion")), "suite %q: regoVersion %q: want v0 or v1", s.Name, s.RegoVersion)
		}
		if _, err := schemas.ParseFieldValidation(s.FieldValidation); err != nil {
			return manifest.At(d.doc.FieldPos(at.Child("fieldValidation")), "suite %q: fieldValidation %w", s.Name, err)
		}
		if _, err := ParseNow(s.Now); err != nil {
			return manifest.At(d.doc.FieldPos(at.Child("now")), "suite %q: now %q: %w", s.Name, s.Now, err)
		}
		if err := d.checkPlainKeys(s, at); err != nil {
			return err
		}
		names[s.Name] = at.Child("name")
	}
	return d.checkLimits(&cfg.Limits)
}

// checkPlainKeys checks a suite's parser and ignorePattern: known and
// compiling, and only on a plain suite (a rendered suite reads its
// inputs as a render does).
func (d configDecoder) checkPlainKeys(s Suite, at fieldpath.Path) error {
	for _, k := range []struct {
		key string
		set bool
	}{{"parser", s.Parser != ""}, {"ignorePattern", s.IgnorePattern != ""}} {
		if key, set := k.key, k.set; set && !s.Plain {
			return manifest.At(d.doc.FieldPos(at.Child(key)), "suite %q: %s is for plain suites (plain: true)", s.Name, key)
		}
	}
	if s.Parser != "" && !parsers.Known(s.Parser) {
		return manifest.At(d.doc.FieldPos(at.Child("parser")), "suite %q: parser %q: %w (parsers: %s)", s.Name, s.Parser, parsers.ErrUnknown, strings.Join(parsers.Names(), ", "))
	}
	if _, err := regexp.Compile(s.IgnorePattern); err != nil {
		return manifest.At(d.doc.FieldPos(at.Child("ignorePattern")), "suite %q: ignorePattern: %w", s.Name, err)
	}
	return nil
}

// checkLimits checks that the limits parse.
func (d configDecoder) checkLimits(l *Limits) error {
	durations := []struct{ key, value, example string }{
		{"evalTimeout", l.EvalTimeout, "30s or 2m"},
		{"ruleTimeout", l.RuleTimeout, "10s or 1m"},
	}
	for _, f := range durations {
		if _, err := parseDuration(f.key, f.value, f.example); err != nil {
			return manifest.At(d.doc.FieldPos(fieldpath.New("limits", f.key)), "%w", err)
		}
	}
	if l.Memory != "" {
		if _, err := ParseSize(l.Memory); err != nil {
			return manifest.At(d.doc.FieldPos(fieldpath.New("limits", "memory")), "limits.memory %q: %w", l.Memory, err)
		}
	}
	return nil
}
