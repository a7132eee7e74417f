package schemas

import (
	"embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// Structural is a CRD's structural schema (the OpenAPI v3 subset
// Kubernetes allows in CustomResourceDefinitions), reduced to what
// validation reads.
type Structural struct {
	Type                 string                 `json:"type"`
	Format               string                 `json:"format"`
	Enum                 []any                  `json:"enum"`
	Required             []string               `json:"required"`
	Properties           map[string]*Structural `json:"properties"`
	Items                *Structural            `json:"items"`
	AdditionalProperties *Structural            `json:"additionalProperties"`
	Minimum              *float64               `json:"minimum"`
	Maximum              *float64               `json:"maximum"`
	MinLength            *int64                 `json:"minLength"`
	MaxLength            *int64                 `json:"maxLength"`
	MinItems             *int64                 `json:"minItems"`
	MaxItems             *int64                 `json:"maxItems"`
	IntOrString          bool                   `json:"x-kubernetes-int-or-string"`
	PreserveUnknown      bool                   `json:"x-kubernetes-preserve-unknown-fields"`
}

// FieldError is one violation of a structural schema, in the API server's
// words, at the offending field's position.
type FieldError struct {
	Path fieldpath.Path
	Pos  manifest.Pos
	Msg  string
}

func (e FieldError) Error() string { return e.Msg }

//go:embed karmada/*.json
var karmadaFS embed.FS

// karmada holds the policy.karmada.io schemas by kind (the cluster-scoped
// kinds share their namespaced twins'), read at the first use.
var karmada = sync.OnceValue(func() map[string]*Structural {
	read := func(file string) *Structural {
		data, err := karmadaFS.ReadFile("karmada/" + file + ".json")
		if err != nil {
			panic(err)
		}
		s := &Structural{}
		if err := json.Unmarshal(data, s); err != nil {
			panic(err)
		}
		return s
	}
	pp, op := read("propagationpolicies"), read("overridepolicies")
	return map[string]*Structural{
		"PropagationPolicy": pp, "ClusterPropagationPolicy": pp,
		"OverridePolicy": op, "ClusterOverridePolicy": op,
	}
})

// Karmada returns the CRD schema of a policy.karmada.io policy kind
// (Karmada f8fdd02), nil for another kind.
func Karmada(kind string) *Structural { return karmada()[kind] }

// Validate checks obj against s as the API server checks a custom
// resource created with strict field validation (kubectl's default):
// types, enums, required fields, bounds, and no field the schema does not
// declare. Null values count as absent (the API server prunes them).
// Violations are in document order.
func (s *Structural) Validate(obj *manifest.Object) []FieldError {
	v := &validator{obj: obj}
	v.walk(s, obj.Data, nil)
	byPos := func(a, b FieldError) int { return a.Pos.Compare(b.Pos) }
	slices.SortStableFunc(v.errs, byPos)
	slices.SortStableFunc(v.unknown, byPos)
	if len(v.unknown) > 0 {
		v.errs = append(v.errs, FieldError{Path: v.unknown[0].Path, Pos: v.unknown[0].Pos, Msg: unknownMessage(v.unknown)})
	}
	return v.errs
}

type validator struct {
	obj     *manifest.Object
	errs    []FieldError
	unknown []FieldError
}

func (v *validator) add(path fieldpath.Path, format string, args ...any) {
	v.errs = append(v.errs, FieldError{Path: path, Pos: v.obj.FieldPos(path), Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) walk(s *Structural, val any, path fieldpath.Path) {
	if val == nil || s == nil {
		return
	}
	if !v.typeOK(s, val, path) {
		return
	}
	v.checkValue(s, val, path)
	switch x := val.(type) {
	case map[string]any:
		v.walkObject(s, x, path)
	case []any:
		for i, item := range x {
			v.walk(s.Items, item, path.At(i))
		}
	}
}

func (v *validator) walkObject(s *Structural, m map[string]any, path fieldpath.Path) {
	for _, r := range s.Required {
		if m[r] == nil {
			v.add(path.Child(r), "%s: Required value", path.Child(r))
		}
	}
	for _, k := range manifest.SortedKeys(m) {
		child := path.Child(k)
		switch {
		case s.Properties[k] != nil:
			v.walk(s.Properties[k], m[k], child)
		case s.AdditionalProperties != nil:
			v.walk(s.AdditionalProperties, m[k], child)
		case !s.PreserveUnknown && !path.Equal(fieldpath.New("metadata")): // ObjectMeta is checked on its own
			v.unknown = append(v.unknown, FieldError{Path: child, Pos: v.obj.FieldPos(child)})
		}
	}
}

// typeOK checks val's JSON type against the schema's.
func (v *validator) typeOK(s *Structural, val any, path fieldpath.Path) bool {
	if s.Type == "" || s.IntOrString {
		return true
	}
	got := manifest.TypeName(val)
	switch {
	case got == s.Type, got == "integer" && s.Type == "number":
		return true
	case got == "number" && s.Type == "integer":
		if f, ok := val.(float64); ok && f == math.Trunc(f) {
			return true
		}
	}
	v.add(path, "%s: Invalid value: %q: %s in body must be of type %s: %q", path, got, path, s.Type, got)
	return false
}

// checkValue checks enums and bounds.
func (v *validator) checkValue(s *Structural, val any, path fieldpath.Path) {
	if len(s.Enum) > 0 && !inEnum(s.Enum, val) {
		quoted := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			quoted[i] = strconv.Quote(fmt.Sprint(e))
		}
		v.add(path, "%s: Unsupported value: %s: supported values: %s", path, render(val), strings.Join(quoted, ", "))
	}
	switch x := val.(type) {
	case string:
		n := int64(len(x))
		if s.MinLength != nil && n < *s.MinLength {
			v.add(path, "%s: Invalid value: %q: %s in body should be at least %d chars long", path, x, path, *s.MinLength)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			v.add(path, "%s: Too long: may not be more than %d bytes", path, *s.MaxLength)
		}
	case int64, float64:
		f := toFloat(x)
		if s.Minimum != nil && f < *s.Minimum {
			v.add(path, "%s: Invalid value: %s: %s in body should be greater than or equal to %s", path, render(x), path, render(*s.Minimum))
		}
		if s.Maximum != nil && f > *s.Maximum {
			v.add(path, "%s: Invalid value: %s: %s in body should be less than or equal to %s", path, render(x), path, render(*s.Maximum))
		}
	case []any:
		n := int64(len(x))
		if s.MinItems != nil && n < *s.MinItems {
			v.add(path, "%s: Invalid value: %d: %s in body should have at least %d items", path, n, path, *s.MinItems)
		}
		if s.MaxItems != nil && n > *s.MaxItems {
			v.add(path, "%s: Too many: %d: must have at most %d items", path, n, *s.MaxItems)
		}
	}
}

func inEnum(enum []any, val any) bool {
	for _, e := range enum {
		if fmt.Sprint(e) == fmt.Sprint(val) && manifest.TypeName(e) == manifest.TypeName(val) {
			return true
		}
	}
	return false
}

func toFloat(v any) float64 {
	if n, ok := v.(int64); ok {
		return float64(n)
	}
	return v.(float64)
}

// render formats a value as apimachinery's field errors do.
func render(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case int64, bool:
		return fmt.Sprint(x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// unknownMessage is the API server's strict-decoding refusal of fields the
// schema does not declare.
func unknownMessage(unknown []FieldError) string {
	parts := make([]string, len(unknown))
	for i, u := range unknown {
		parts[i] = fmt.Sprintf("unknown field %q", u.Path)
	}
	return "strict decoding error: " + strings.Join(parts, ", ")
}
