// Package schemas owns the shapes drydock accepts: embedded schemas of the
// input kinds (what the Kubernetes API server's CRD validation would reject
// before KubeVela ever saw an object) and their validation with positions.
//
// It checks structure only (types, required fields, and the fields
// KubeVela's CRDs do not declare: strict field validation, FieldValidation);
// what the objects mean is for render, placement and overrides.
package schemas

import (
	"errors"
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
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
	kBool
	kInt
)

func (k kind) String() string {
	return [...]string{"", "a string", "a mapping", "a list", "any value", "a boolean", "an integer"}[k]
}

// field is one schema node: its type, required children, and children.
// An item that names itself (a component, trait, policy or step) has a
// noun and the key holding its name, so errors inside it can name it.
type field struct {
	kind     kind
	required []string
	fields   map[string]*field
	items    *field
	noun     string
	nameKey  string
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

var step = &field{kind: kMap, noun: "step", nameKey: "name", required: []string{"type"}, fields: map[string]*field{
	"name": str, "type": str, "properties": props, "dependsOn": strs, "if": str, "timeout": str,
	"inputs": inputs, "outputs": outputs, "meta": {kind: kMap, fields: map[string]*field{"alias": str}},
}}

// steps is a workflow's steps: a step may be a group with sub-steps (one
// level) and a mode for them.
var steps = &field{kind: kList, items: withSubSteps(step)}

// mode is a workflow's execution mode (StepByStep or DAG).
var mode = &field{kind: kMap, fields: map[string]*field{"steps": str, "subSteps": str}}

var application = &field{kind: kMap, fields: map[string]*field{
	"metadata": {kind: kMap, required: []string{"name"}, fields: map[string]*field{
		"name": str, "namespace": str,
		"labels":      {kind: kMap, items: str},
		"annotations": {kind: kMap, items: str},
	}},
	"spec": {kind: kMap, required: []string{"components"}, fields: map[string]*field{
		"components": {kind: kList, items: &field{kind: kMap, noun: "component", nameKey: "name", required: []string{"name", "type"}, fields: map[string]*field{
			"name": str, "type": str, "properties": props, "dependsOn": strs, "externalRevision": str,
			"inputs": inputs, "outputs": outputs, "scopes": {kind: kMap, items: str},
			"traits": {kind: kList, items: &field{kind: kMap, noun: "trait", nameKey: "type", required: []string{"type"}, fields: map[string]*field{
				"type": str, "properties": props,
			}}},
		}}},
		"policies": {kind: kList, items: &field{kind: kMap, noun: "policy", nameKey: "name", required: []string{"type"}, fields: map[string]*field{
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

// Definitions (charts/vela-core/crds/core.oam.dev_*definitions.yaml): the
// spec fields' types and required fields. The template's content is
// KubeVela's webhook's concern (render.AdmitDefinition).
var (
	boolean   = &field{kind: kBool}
	integer   = &field{kind: kInt}
	schematic = &field{kind: kMap, fields: map[string]*field{
		"cue": {kind: kMap, required: []string{"template"}, fields: map[string]*field{"template": str}},
		"terraform": {kind: kMap, required: []string{"configuration"}, fields: map[string]*field{
			"configuration": str, "customRegion": str, "deleteResource": boolean, "path": str, "type": str,
			"gitCredentialsSecretReference": props,
			"providerRef":                   {kind: kMap, required: []string{"name"}, fields: map[string]*field{"name": str, "namespace": str}},
			"writeConnectionSecretToRef":    {kind: kMap, required: []string{"name"}, fields: map[string]*field{"name": str, "namespace": str}},
		}},
	}}
	definitionRef = &field{kind: kMap, required: []string{"name"}, fields: map[string]*field{"name": str, "version": str}}
	defStatus     = &field{kind: kMap, fields: map[string]*field{"customStatus": str, "details": str, "healthPolicy": str}}
	defMetadata   = &field{kind: kMap, fields: map[string]*field{"name": str, "namespace": str,
		"labels": {kind: kMap, items: str}, "annotations": {kind: kMap, items: str}}}
)

var definitions = map[string]*field{
	"ComponentDefinition": {kind: kMap, fields: map[string]*field{"metadata": defMetadata,
		"spec": {kind: kMap, required: []string{"workload"}, fields: map[string]*field{
			"childResourceKinds": {kind: kList, items: props}, "extension": props, "podSpecPath": str, "revisionLabel": str,
			"schematic": schematic, "status": defStatus, "version": str,
			"workload": {kind: kMap, fields: map[string]*field{"type": str,
				"definition": {kind: kMap, required: []string{"apiVersion", "kind"}, fields: map[string]*field{"apiVersion": str, "kind": str}}}},
		}}}},
	"TraitDefinition": {kind: kMap, fields: map[string]*field{"metadata": defMetadata,
		"spec": {kind: kMap, fields: map[string]*field{
			"appliesToWorkloads": strs, "conflictsWith": strs, "controlPlaneOnly": boolean, "definitionRef": definitionRef,
			"extension": props, "manageWorkload": boolean, "podDisruptive": boolean, "revisionEnabled": boolean,
			"schematic": schematic, "stage": str, "status": defStatus, "version": str, "workloadRefPath": str,
		}}}},
	"PolicyDefinition": {kind: kMap, fields: map[string]*field{"metadata": defMetadata,
		"spec": {kind: kMap, fields: map[string]*field{
			"definitionRef": definitionRef, "global": boolean, "manageHealthCheck": boolean, "priority": integer,
			"schematic": schematic, "scope": str, "version": str,
		}}}},
	"WorkflowStepDefinition": {kind: kMap, fields: map[string]*field{"metadata": defMetadata,
		"spec": {kind: kMap, fields: map[string]*field{"definitionRef": definitionRef, "schematic": schematic, "version": str}}}},
}

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

// violation is what a schema violation says about its field (its path
// and what is wrong); it wraps ErrInvalid. The position and who it
// concerns (the object and the named component, trait, policy or step the
// path goes through) are on the manifest.Error around it.
type violation struct {
	path fieldpath.Path
	msg  string
}

func (v *violation) Error() string {
	switch {
	case len(v.path) == 0:
		return v.msg
	case strings.HasPrefix(v.msg, "must be"):
		return v.path.String() + " " + v.msg
	}
	return v.path.String() + ": " + v.msg
}

// Unwrap makes every violation match ErrInvalid.
func (v *violation) Unwrap() error { return ErrInvalid }

// ValidateApplication checks a core.oam.dev Application's structure and
// reports the first violation at its position.
func ValidateApplication(obj *manifest.Object) error {
	return check(obj, application)
}

// ValidateDefinition checks a core.oam.dev/v1beta1 Component-, Trait-,
// Policy- or WorkflowStepDefinition's spec as its CRD does (other kinds
// pass).
func ValidateDefinition(obj *manifest.Object) error {
	f := definitions[obj.Kind()]
	if f == nil {
		return Served(obj)
	}
	return check(obj, f)
}

// ValidateWorkflow checks a core.oam.dev/v1alpha1 Workflow's structure.
func ValidateWorkflow(obj *manifest.Object) error {
	return check(obj, workflow)
}

// ValidatePolicy checks a core.oam.dev/v1alpha1 Policy's structure.
func ValidatePolicy(obj *manifest.Object) error {
	return check(obj, policy)
}

func check(obj *manifest.Object, f *field) error {
	if err := Served(obj); err != nil {
		return err
	}
	subject := obj.Kind()
	if name, ok := manifest.Lookup(obj.Data, "metadata", "name"); ok {
		if s, ok := name.(string); ok && s != "" {
			subject = fmt.Sprintf("%s %q", subjectKind(obj.Kind()), s)
		}
	}
	return (&walker{obj: obj}).validate(f, obj.Data, nil, subject)
}

// subjectKind is how errors name an object's kind: application, workflow
// and policy as render names them, definitions by their kind.
func subjectKind(kind string) string {
	if strings.HasSuffix(kind, "Definition") {
		return kind
	}
	return strings.ToLower(kind)
}

// walker validates one object against a schema.
type walker struct{ obj *manifest.Object }

func (w *walker) violation(path fieldpath.Path, subject, format string, args ...any) *manifest.Error {
	return &manifest.Error{Pos: w.obj.FieldPos(path), Subjects: []manifest.Subject{{Kind: subject}}, Field: path,
		Err: &violation{path: path, msg: fmt.Sprintf(format, args...)}}
}

func (w *walker) validate(f *field, v any, path fieldpath.Path, subject string) error {
	if !hasKind(f.kind, v) {
		if len(path) == 0 {
			return w.violation(path, subject, "the document must be %s", f.kind)
		}
		return w.violation(path, subject, "must be %s", f.kind)
	}
	switch x := v.(type) {
	case map[string]any:
		return w.mapping(f, x, path, subject)
	case []any:
		return w.list(f, x, path, subject)
	}
	return nil
}

// mapping checks a mapping's required fields and its children. A null
// field counts as absent: the API server drops nulls of non-nullable
// fields before it validates.
func (w *walker) mapping(f *field, x map[string]any, path fieldpath.Path, subject string) error {
	for _, r := range f.required {
		v, ok := x[r]
		if !ok {
			return w.violation(path, subject, "missing required field %q", r)
		}
		if v == nil {
			err := w.violation(path, subject, "missing required field %q (null counts as absent: the API server drops null fields)", r)
			err.Pos = w.obj.FieldPos(path.Child(r))
			return err
		}
	}
	for _, k := range manifest.SortedKeys(x) {
		child := f.fields[k]
		if child == nil {
			child = f.items
		}
		if child != nil && x[k] != nil {
			if err := w.validate(child, x[k], path.Child(k), subject); err != nil {
				return err
			}
		}
	}
	return nil
}

// list checks a list's items; an item that names itself extends the
// subject for errors inside it.
func (w *walker) list(f *field, x []any, path fieldpath.Path, subject string) error {
	if f.items == nil {
		return nil
	}
	for i, e := range x {
		item := path.At(i)
		if e == nil {
			return w.violation(item, subject, "null item (want %s)", f.items.kind)
		}
		if err := w.validate(f.items, e, item, named(subject, f.items, e)); err != nil {
			return err
		}
	}
	return nil
}

// named extends subject with the item's name the way render names it:
// `application "a" component "c" trait "t"`, `application "a": policy "p"`.
func named(subject string, f *field, item any) string {
	m, ok := item.(map[string]any)
	if !ok || f.noun == "" {
		return subject
	}
	name, ok := m[f.nameKey].(string)
	if !ok || name == "" {
		return subject
	}
	sep := " "
	if f.noun == "policy" || f.noun == "step" {
		sep = ": "
		// A sub-step's error names the sub-step, not its group.
		if i := strings.Index(subject, `: step "`); i >= 0 {
			subject = subject[:i]
		}
	}
	return fmt.Sprintf("%s%s%s %q", subject, sep, f.noun, name)
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
	case kBool:
		_, ok := v.(bool)
		return ok
	case kInt:
		switch n := v.(type) {
		case int, int64:
			return true
		case float64:
			return n == float64(int64(n))
		}
		return false
	}
	return true
}
