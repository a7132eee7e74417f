package gatekeeper

import (
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// applyDefaults sets, in v, the defaults an OpenAPI v3 schema gives
// missing object properties, recursively (what the API server's
// structural defaulting does to a constraint's spec.parameters).
func applyDefaults(schema map[string]any, v any) {
	switch x := v.(type) {
	case map[string]any:
		props := asMap(schema["properties"])
		for _, k := range manifest.SortedKeys(props) {
			ps := asMap(props[k])
			if _, ok := x[k]; !ok {
				if d, ok := ps["default"]; ok {
					x[k] = manifest.DeepCopy(d)
				}
			}
			if e, ok := x[k]; ok {
				applyDefaults(ps, e)
			}
		}
		if ap := asMap(schema["additionalProperties"]); ap != nil {
			for k, e := range x {
				if _, declared := props[k]; !declared {
					applyDefaults(ap, e)
				}
			}
		}
	case []any:
		if items := asMap(schema["items"]); items != nil {
			for _, e := range x {
				applyDefaults(items, e)
			}
		}
	}
}

// schemaError is the first way a value breaks its schema.
type schemaError struct {
	path fieldpath.Path
	msg  string
	// unknown marks a field the schema does not declare (Gatekeeper
	// reports it apart from schema violations).
	unknown bool
}

// validate checks v against the parts of an OpenAPI v3 schema that
// decide a constraint's validity: type, enum, required, properties,
// additionalProperties, items, x-kubernetes-int-or-string and
// x-kubernetes-preserve-unknown-fields. strict reports undeclared fields
// (Gatekeeper's v1 templates; legacy ones keep them). Nulls are skipped:
// the API server prunes them.
func validate(schema map[string]any, v any, path fieldpath.Path, strict bool) *schemaError {
	if v == nil || schema == nil {
		return nil
	}
	typ, _ := schema["type"].(string)
	if intOrString, _ := schema["x-kubernetes-int-or-string"].(bool); intOrString {
		switch v.(type) {
		case string, int64:
		default:
			return &schemaError{path: path, msg: fmt.Sprintf("Invalid value: %q: must be of type integer or string", manifest.TypeName(v))}
		}
	} else if typ != "" && !hasType(v, typ) {
		return &schemaError{path: path, msg: fmt.Sprintf("Invalid value: %q: must be of type %s", manifest.TypeName(v), typ)}
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return reflect.DeepEqual(e, v) }) {
		return &schemaError{path: path, msg: fmt.Sprintf("Unsupported value: %v: supported values: %v", v, enum)}
	}
	switch x := v.(type) {
	case map[string]any:
		props := asMap(schema["properties"])
		required, _ := manifest.DecodeStringList(schema["required"])
		for _, k := range required {
			if _, ok := x[k]; !ok {
				return &schemaError{path: path.Child(k), msg: "Required value"}
			}
		}
		preserve, _ := schema["x-kubernetes-preserve-unknown-fields"].(bool)
		ap, apSet := schema["additionalProperties"]
		for _, k := range manifest.SortedKeys(x) {
			if ps, ok := props[k]; ok {
				if err := validate(asMap(ps), x[k], path.Child(k), strict); err != nil {
					return err
				}
				continue
			}
			switch a := ap.(type) {
			case map[string]any:
				if err := validate(a, x[k], path.Child(k), strict); err != nil {
					return err
				}
				continue
			case bool:
				if a {
					continue
				}
			}
			if strict && !preserve && !apSet && (typ == "object" || len(props) > 0) {
				return &schemaError{path: path.Child(k), msg: "unknown field", unknown: true}
			}
		}
	case []any:
		if items := asMap(schema["items"]); items != nil {
			for i, e := range x {
				if err := validate(items, e, path.At(i), strict); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func hasType(v any, typ string) bool {
	switch typ {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "integer":
		switch n := v.(type) {
		case int64:
			return true
		case float64:
			return n == math.Trunc(n)
		}
		return false
	case "number":
		switch v.(type) {
		case int64, float64:
			return true
		}
		return false
	}
	return true
}
