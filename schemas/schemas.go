// Package schemas owns the shapes drydock accepts: embedded schemas of the
// input kinds (what the Kubernetes API server's CRD validation would reject
// before KubeVela ever saw an object) and their validation with positions.
//
// It checks structure only (types and required fields); what the objects
// mean is for render, placement and overrides.
package schemas

import (
	"errors"
	"fmt"

	"github.com/drydock-dev/drydock/manifest"
)

// ErrInvalid is wrapped by every validation error.
var ErrInvalid = errors.New("schema violation")

// kind is a JSON type a field must have.
type kind int

const (
	kString kind = iota + 1
	kMap
	kList
	kAny
)

func (k kind) String() string {
	return [...]string{"", "a string", "a mapping", "a list", "any value"}[k]
}

// field is one schema node: its type, required children, and children.
type field struct {
	kind     kind
	required []string
	fields   map[string]*field
	items    *field
}

var (
	str   = &field{kind: kString}
	props = &field{kind: kMap}
	strs  = &field{kind: kList, items: str}
)

// inputs and outputs pass values between workflow steps and components.
var (
	inputs = &field{kind: kList, items: &field{kind: kMap, required: []string{"from"}, fields: map[string]*field{
		"from": str, "parameterKey": str,
	}}}
	outputs = &field{kind: kList, items: &field{kind: kMap, required: []string{"name", "valueFrom"}, fields: map[string]*field{
		"name": str, "valueFrom": str,
	}}}
)

var step = &field{kind: kMap, required: []string{"type"}, fields: map[string]*field{
	"name": str, "type": str, "properties": props, "dependsOn": strs, "if": str, "timeout": str,
	"inputs": inputs, "outputs": outputs, "meta": {kind: kMap, fields: map[string]*field{"alias": str}},
}}

// steps is a workflow's steps: a step may be a group with sub-steps (one
// level) and a mode for them.
var steps = &field{kind: kList, items: withSubSteps(step)}

// mode is a workflow's execution mode (StepByStep or DAG).
var mode = &field{kind: kMap, fields: map[string]*field{"steps": str, "subSteps": str}}

var application = &field{kind: kMap, required: []string{"spec"}, fields: map[string]*field{
	"metadata": {kind: kMap, required: []string{"name"}, fields: map[string]*field{
		"name": str, "namespace": str,
		"labels":      {kind: kMap, items: str},
		"annotations": {kind: kMap, items: str},
	}},
	"spec": {kind: kMap, required: []string{"components"}, fields: map[string]*field{
		"components": {kind: kList, items: &field{kind: kMap, required: []string{"name", "type"}, fields: map[string]*field{
			"name": str, "type": str, "properties": props, "dependsOn": strs, "externalRevision": str,
			"inputs": inputs, "outputs": outputs, "scopes": {kind: kMap, items: str},
			"traits": {kind: kList, items: &field{kind: kMap, required: []string{"type"}, fields: map[string]*field{
				"type": str, "properties": props,
			}}},
		}}},
		"policies": {kind: kList, items: &field{kind: kMap, required: []string{"type"}, fields: map[string]*field{
			"name": str, "type": str, "properties": props,
		}}},
		"workflow": {kind: kMap, fields: map[string]*field{
			"ref": str, "mode": mode, "steps": steps,
		}},
	}},
}}

// workflow is a core.oam.dev/v1alpha1 Workflow (charts/vela-core/crds/
// core.oam.dev_workflows.yaml): steps and mode at the top level.
var workflow = &field{kind: kMap, fields: map[string]*field{
	"metadata": {kind: kMap, required: []string{"name"}, fields: map[string]*field{"name": str, "namespace": str}},
	"mode":     mode, "steps": steps,
}}

// policy is a core.oam.dev/v1alpha1 Policy (core.oam.dev_policies.yaml).
var policy = &field{kind: kMap, required: []string{"type"}, fields: map[string]*field{
	"metadata": {kind: kMap, required: []string{"name"}, fields: map[string]*field{"name": str, "namespace": str}},
	"type":     str, "properties": props,
}}

func withSubSteps(s *field) *field {
	cp := *s
	cp.fields = map[string]*field{}
	for k, v := range s.fields {
		cp.fields[k] = v
	}
	cp.fields["subSteps"] = &field{kind: kList, items: s}
	cp.fields["mode"] = str
	return &cp
}

// ValidateApplication checks a core.oam.dev Application's structure and
// reports the first violation at its position.
func ValidateApplication(obj *manifest.Object) error {
	return validate(obj, application, obj.Data, "")
}

// ValidateWorkflow checks a core.oam.dev/v1alpha1 Workflow's structure.
func ValidateWorkflow(obj *manifest.Object) error {
	return validate(obj, workflow, obj.Data, "")
}

// ValidatePolicy checks a core.oam.dev/v1alpha1 Policy's structure.
func ValidatePolicy(obj *manifest.Object) error {
	return validate(obj, policy, obj.Data, "")
}

func validate(obj *manifest.Object, f *field, v any, path string) error {
	if !hasKind(f.kind, v) {
		name := path
		if name == "" {
			name = "the document"
		}
		return fmt.Errorf("%s: %w: %s %s must be %s", obj.FieldPos(path), ErrInvalid, obj.Kind(), name, f.kind)
	}
	switch x := v.(type) {
	case map[string]any:
		for _, r := range f.required {
			if _, ok := x[r]; !ok {
				return fmt.Errorf("%s: %w: %s %s: missing required field %q", obj.FieldPos(path), ErrInvalid, obj.Kind(), orTop(path), r)
			}
		}
		for _, k := range manifest.SortedKeys(x) {
			child := f.fields[k]
			if child == nil {
				child = f.items
			}
			if child != nil && x[k] != nil {
				if err := validate(obj, child, x[k], join(path, k)); err != nil {
					return err
				}
			}
		}
	case []any:
		if f.items != nil {
			for i, e := range x {
				item := fmt.Sprintf("%s[%d]", path, i)
				if e == nil {
					return fmt.Errorf("%s: %w: %s %s: null item (want %s)", obj.FieldPos(item), ErrInvalid, obj.Kind(), item, f.items.kind)
				}
				if err := validate(obj, f.items, e, item); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func hasKind(k kind, v any) bool {
	switch k {
	case kString:
		_, ok := v.(string)
		return ok
	case kMap:
		_, ok := v.(map[string]any)
		return ok || v == nil
	case kList:
		_, ok := v.([]any)
		return ok || v == nil
	}
	return true
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func orTop(path string) string {
	if path == "" {
		return "object"
	}
	return path
}
