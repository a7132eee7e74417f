package addon

import (
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// field is a node of the strict schema of a definition spec, mirroring the
// Go types KubeVela strictly unmarshals definition attributes into.
type field struct {
	kind   string            // "object", "string", "bool", "int", "list", "strmap", "any"
	fields map[string]*field // object fields
	elem   *field            // list element
}

var (
	fString = &field{kind: "string"}
	fBool   = &field{kind: "bool"}
	fAny    = &field{kind: "any"}
	fStrMap = &field{kind: "strmap"}
)

func fObject(fields map[string]*field) *field { return &field{kind: "object", fields: fields} }
func fList(elem *field) *field                { return &field{kind: "list", elem: elem} }

var (
	fDefinitionRef = fObject(map[string]*field{"name": fString, "version": fString})
	fStatus        = fObject(map[string]*field{"customStatus": fString, "healthPolicy": fString, "details": fString})
	fSchematic     = fObject(map[string]*field{
		"kube": fObject(map[string]*field{
			"template": fAny,
			"parameters": fList(fObject(map[string]*field{
				"name": fString, "type": fString, "fieldPaths": fList(fString),
				"required": fBool, "description": fString,
			})),
		}),
		"cue":       fObject(map[string]*field{"template": fString}),
		"helm":      fObject(map[string]*field{"release": fAny, "repository": fAny}),
		"terraform": fAny,
	})
	specSchemas = map[string]*field{
		"ComponentDefinition": fObject(map[string]*field{
			"workload": fObject(map[string]*field{
				"type":       fString,
				"definition": fObject(map[string]*field{"apiVersion": fString, "kind": fString}),
			}),
			"childResourceKinds": fList(fObject(map[string]*field{"apiVersion": fString, "kind": fString, "selector": fStrMap})),
			"revisionLabel":      fString,
			"podSpecPath":        fString,
			"status":             fStatus,
			"schematic":          fSchematic,
			"extension":          fAny,
		}),
		"TraitDefinition": fObject(map[string]*field{
			"definitionRef":      fDefinitionRef,
			"revisionEnabled":    fBool,
			"workloadRefPath":    fString,
			"podDisruptive":      fBool,
			"appliesToWorkloads": fList(fString),
			"conflictsWith":      fList(fString),
			"schematic":          fSchematic,
			"status":             fStatus,
			"extension":          fAny,
			"manageWorkload":     fBool,
			"controlPlaneOnly":   fBool,
			"stage":              fString,
		}),
		"PolicyDefinition": fObject(map[string]*field{
			"definitionRef":     fDefinitionRef,
			"schematic":         fSchematic,
			"manageHealthCheck": fBool,
		}),
		"WorkflowStepDefinition": fObject(map[string]*field{
			"definitionRef": fDefinitionRef,
			"schematic":     fSchematic,
			"version":       fString,
		}),
	}
)

// validateSpec checks a definition spec as KubeVela's strict JSON unmarshal
// into the typed spec does: unknown fields and mistyped values are errors.
func validateSpec(spec map[string]any, kind string) error {
	s, ok := specSchemas[kind]
	if !ok {
		return nil
	}
	return s.check(fieldpath.New("spec"), spec)
}

func (f *field) check(path fieldpath.Path, v any) error {
	if v == nil || f.kind == "any" {
		return nil
	}
	switch f.kind {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return typeErr(path, v, "object")
		}
		for _, k := range manifest.SortedKeys(m) {
			sub := f.lookup(k)
			if sub == nil {
				return fmt.Errorf("unknown field %q", path.Child(k))
			}
			if err := sub.check(path.Child(k), m[k]); err != nil {
				return err
			}
		}
	case "list":
		l, ok := v.([]any)
		if !ok {
			return typeErr(path, v, "list")
		}
		for i, e := range l {
			if err := f.elem.check(path.At(i), e); err != nil {
				return err
			}
		}
	case "strmap":
		m, ok := v.(map[string]any)
		if !ok {
			return typeErr(path, v, "map of strings")
		}
		for _, k := range manifest.SortedKeys(m) {
			if err := fString.check(path.Child(k), m[k]); err != nil {
				return err
			}
		}
	default:
		return f.checkScalar(path, v)
	}
	return nil
}

// lookup finds a field the way encoding/json does: exact name first, then
// case-insensitively.
func (f *field) lookup(k string) *field {
	if sub, ok := f.fields[k]; ok {
		return sub
	}
	for name, sub := range f.fields {
		if strings.EqualFold(name, k) {
			return sub
		}
	}
	return nil
}

func (f *field) checkScalar(path fieldpath.Path, v any) error {
	ok := false
	switch f.kind {
	case "string":
		_, ok = v.(string)
	case "bool":
		_, ok = v.(bool)
	}
	if !ok {
		return typeErr(path, v, f.kind)
	}
	return nil
}

func typeErr(path fieldpath.Path, v any, want string) error {
	return fmt.Errorf("%s: cannot unmarshal %s into a %s", path, manifest.JSONKind(v), want)
}
