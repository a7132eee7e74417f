package schemas

import (
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// FieldValidation is what becomes of the fields of KubeVela's objects
// (Applications, Policies, Workflows, definitions) that their CRDs do not
// declare: the API server's field validation (fieldValidation=Strict,
// Warn, Ignore), which kubectl sets with --validate=strict|warn|ignore.
// The zero value is Strict, kubectl's default.
type FieldValidation int

const (
	// FieldStrict refuses an object with unknown fields, as the API
	// server does with kubectl's default --validate=strict.
	FieldStrict FieldValidation = iota
	// FieldWarn accepts the object and warns about each unknown field
	// (the API server drops them).
	FieldWarn
	// FieldIgnore drops unknown fields silently.
	FieldIgnore
)

// fieldValidations are the modes by kubectl's names.
var fieldValidations = []string{"strict", "warn", "ignore"}

// ParseFieldValidation reads a mode as kubectl's --validate does: strict,
// warn or ignore in any case, true for strict and false for ignore ("" is
// strict).
func ParseFieldValidation(s string) (FieldValidation, error) {
	switch l := strings.ToLower(s); l {
	case "", "true":
		return FieldStrict, nil
	case "false":
		return FieldIgnore, nil
	default:
		if i := slices.Index(fieldValidations, l); i >= 0 {
			return FieldValidation(i), nil
		}
		return FieldStrict, fmt.Errorf("%q: want strict, warn or ignore%s", s, manifest.DidYouMean(l, fieldValidations))
	}
}

// String is the mode's kubectl name.
func (v FieldValidation) String() string {
	if v < 0 || int(v) >= len(fieldValidations) {
		return fmt.Sprintf("FieldValidation(%d)", int(v))
	}
	return fieldValidations[v]
}

// ErrUnknownField is wrapped by every error UnknownFields returns.
var ErrUnknownField = errors.New("unknown field")

// unknownFieldError is one unknown field in the API server's words, with
// a hint naming the field that was probably meant.
type unknownFieldError struct {
	path fieldpath.Path
	hint string
	// warning words it as the API server's warning (Warn), without
	// "strict decoding error".
	warning bool
}

func (e *unknownFieldError) Error() string {
	prefix := "strict decoding error: "
	if e.warning {
		prefix = ""
	}
	return fmt.Sprintf("%sunknown field %q%s", prefix, e.path, e.hint)
}

// Unwrap makes every unknown field match ErrUnknownField.
func (e *unknownFieldError) Unwrap() error { return ErrUnknownField }

//go:embed kubevela/*.json
var kubevelaFS embed.FS

// kubevelaCRDs are the schemas of KubeVela's kinds (charts/vela-core/crds
// at 5a44b5f) by Kind and served version, their root metadata replaced
// by ObjectMeta's; read at the first use.
var kubevelaCRDs = sync.OnceValue(func() map[string]map[string]*Structural {
	read := func(file string, into any) {
		data, err := kubevelaFS.ReadFile("kubevela/" + file + ".json")
		if err != nil {
			panic(err)
		}
		if err := json.Unmarshal(data, into); err != nil {
			panic(fmt.Errorf("kubevela/%s.json: %w", file, err))
		}
	}
	meta := &Structural{}
	read("objectmeta", meta)
	out := map[string]map[string]*Structural{}
	for kind, file := range map[string]string{
		"Application": "applications", "Policy": "policies", "Workflow": "workflows",
		"ComponentDefinition": "componentdefinitions", "TraitDefinition": "traitdefinitions",
		"PolicyDefinition": "policydefinitions", "WorkflowStepDefinition": "workflowstepdefinitions",
		"WorkloadDefinition": "workloaddefinitions",
	} {
		versions := map[string]*Structural{}
		read(file, &versions)
		for _, s := range versions {
			s.Properties["metadata"] = meta
		}
		out[kind] = versions
	}
	return out
})

// KubeVela returns the CRD schema of a core.oam.dev kind in version
// (KubeVela 5a44b5f's chart, metadata as ObjectMeta), nil for a kind or
// version KubeVela does not serve.
func KubeVela(kind, version string) *Structural { return kubevelaCRDs()[kind][version] }

// UnknownFields lists the fields of obj, a core.oam.dev object of a kind
// and version KubeVela serves, that its CRD does not declare (metadata
// checked as ObjectMeta), in document order: what the API server's strict
// field validation refuses. Each error is at the field's key, names the
// object and the field's path, and says which field was probably meant:
// a close sibling, or for a field beside `properties` (a dedented
// property) the property. Other objects have none.
func UnknownFields(obj *manifest.Object) manifest.Errors {
	if manifest.Group(obj.APIVersion()) != "core.oam.dev" {
		return nil
	}
	_, version, _ := strings.Cut(obj.APIVersion(), "/")
	s := KubeVela(obj.Kind(), version)
	if s == nil {
		return nil
	}
	var paths []unknownFieldError
	unknownIn(s, obj.Data, make(fieldpath.Path, 0, 16), &paths)
	if len(paths) == 0 {
		return nil
	}
	keys := obj.WithKeyPositions()
	subject := obj.Kind()
	if name := obj.Name(); name != "" {
		subject = fmt.Sprintf("%s %q", subjectKind(obj.Kind()), name)
	}
	out := make(manifest.Errors, len(paths))
	for i := range paths {
		out[i] = &manifest.Error{Pos: keys.KeyPos(paths[i].path), Subjects: []manifest.Subject{{Kind: subject}},
			Field: paths[i].path, Err: &paths[i]}
	}
	slices.SortFunc(out, func(a, b error) int {
		x, y := a.(*manifest.Error), b.(*manifest.Error)
		return cmp.Or(x.Pos.Compare(y.Pos), strings.Compare(x.Field.String(), y.Field.String()))
	})
	return out
}

// CheckFields applies field validation v to obj's unknown fields
// (UnknownFields). Strict: they are the error (nil: none), obj is left as
// it is. Warn and Ignore: they are dropped from obj, as the API server
// drops them, and returned worded as the API server's warning
// (`unknown field "spec.x"`): Warn reports them, Ignore does not.
func CheckFields(obj *manifest.Object, v FieldValidation) (dropped []*manifest.Error, err error) {
	unknown := UnknownFields(obj)
	if len(unknown) == 0 {
		return nil, nil
	}
	if v == FieldStrict {
		return nil, unknown
	}
	for _, e := range unknown {
		me := e.(*manifest.Error)
		fieldpath.Delete(obj.Data, me.Field)
		w := *me
		uf := *me.Err.(*unknownFieldError)
		uf.warning = true
		w.Err = &uf
		dropped = append(dropped, &w)
	}
	return dropped, nil
}

// unknownIn adds the fields under v (at path) that s does not declare, as
// the API server's pruning finds them: a field is known when s has it as
// a property or has additionalProperties; x-kubernetes-preserve-unknown-
// fields keeps any field, yet known nested ones are still checked. path
// is a stack the walk reuses: a field found is cloned. Maps are walked in
// Go's order; UnknownFields sorts what it finds.
func unknownIn(s *Structural, v any, path fieldpath.Path, out *[]unknownFieldError) {
	if s == nil {
		return
	}
	// A value of the wrong type is the schema check's to refuse (ahead
	// of the API server's unknown fields inside it, with a clearer
	// message), whatever the field validation.
	switch x := v.(type) {
	case []any:
		if s.Type != "" && s.Type != "array" {
			return
		}
		for i, e := range x {
			unknownIn(s.Items, e, append(path, fieldpath.Index(i)), out)
		}
	case map[string]any:
		if s.Type != "" && s.Type != "object" {
			return
		}
		for k, e := range x {
			switch child := s.Properties[k]; {
			case child != nil:
				unknownIn(child, e, append(path, fieldpath.Key(k)), out)
			case s.AdditionalProperties != nil:
				unknownIn(s.AdditionalProperties, e, append(path, fieldpath.Key(k)), out)
			case !s.PreserveUnknown:
				p := slices.Clone(append(path, fieldpath.Key(k)))
				*out = append(*out, unknownFieldError{path: p, hint: meant(s, path, k)})
			}
		}
	}
}

// meant is the hint for unknown field k of an object of schema s: the
// closest declared sibling (" (did you mean "policies"?)"), else, beside
// a `properties` that keeps anything, that property (a key dedented out
// of properties), else "". A definition's kube or helm schematic says
// what became of it.
func meant(s *Structural, path fieldpath.Path, k string) string {
	if (k == "kube" || k == "helm") && path.String() == "spec.schematic" {
		// kubevela f1bae1672 (v1.9.0): "Chore: remove schematic kube and helm".
		return fmt.Sprintf(" (KubeVela removed the %s schematic in v1.9; use a CUE template)", k)
	}
	if hint := manifest.DidYouMean(k, manifest.SortedKeys(s.Properties)); hint != "" {
		return hint
	}
	if p := s.Properties["properties"]; p != nil && p.PreserveUnknown {
		return fmt.Sprintf(" (did you mean %q?)", fieldpath.New("properties", k))
	}
	return ""
}
