package gatekeeper

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

const (
	constraintGroup = "constraints.gatekeeper.sh"
	// enforcementPoint is the point drydock enforces at, gator's.
	enforcementPoint = "gator.gatekeeper.sh"
)

// constraint is one Constraint bound to its template.
type constraint struct {
	id   string // Kind/name
	pos  manifest.Pos
	tmpl *template
	// match is spec.match, nil when absent (everything matches).
	match *match
	// params is input.parameters: spec.parameters with the schema's
	// defaults, {} when absent.
	params ast.Value
	// celParams is what CEL sees as params: the constraint, with the
	// defaults of its CRD (spec.enforcementAction, spec.parameters')
	// applied. nil for a Rego template.
	celParams *unstructured.Unstructured
	action    string
	// scoped are the actions of a scoped constraint for gator's
	// enforcement point, sorted.
	scoped []string
	// skip is set for a scoped constraint with no action for gator's
	// enforcement point: Gatekeeper does not evaluate it there.
	skip bool
}

// globRE is the pattern Gatekeeper's CRD gives match globs.
var globRE = regexp.MustCompile(`^\*?[-:a-z0-9]*\*?$`)

// parseConstraint reads a Constraint of tmpl's kind. Errors about the
// CRD schema wrap errSchema.
func parseConstraint(obj *manifest.Object, tmpl *template) (*constraint, error) {
	c := &constraint{id: obj.Kind() + "/" + obj.Name(), pos: obj.Pos, tmpl: tmpl, action: "deny"}
	bad := func(path fieldpath.Path, format string, args ...any) error {
		return errAt(obj.FieldPos(path), "constraint %s: %s: %w", c.id, path, fmt.Errorf(format, args...))
	}
	schemaErr := func(path fieldpath.Path, format string, args ...any) error {
		return bad(path, "%w: "+format, append([]any{errSchema}, args...)...)
	}
	if obj.Name() == "" {
		return nil, errAt(obj.Pos, "constraint of kind %s: metadata.name is required", obj.Kind())
	}
	if msg := manifest.DNS1123Subdomain(obj.Name()); msg != "" {
		return nil, bad(fieldpath.New("metadata", "name"), "invalid name %q: %s", obj.Name(), msg)
	}
	spec := map[string]any{}
	if v, ok := obj.Data["spec"]; ok && v != nil {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, schemaErr(fieldpath.New("spec"), "must be of type object")
		}
		spec = m
	}
	if v, ok := spec["enforcementAction"]; ok && v != nil {
		s, ok := v.(string)
		if !ok {
			return nil, schemaErr(fieldpath.New("spec", "enforcementAction"), "must be of type string")
		}
		// Written, even empty, it is the action: only an absent one
		// defaults to deny (frameworks/constraint
		// pkg/apis/constraints/apis.go, GetEnforcementAction), so gator
		// test does not fail on an empty one.
		c.action = s
	}
	scoped, err := scopedActions(spec["scopedEnforcementActions"])
	if err != nil {
		fe := err.(*manifest.FieldError)
		return nil, schemaErr(fieldpath.New("spec", "scopedEnforcementActions").Join(fe.Path), "%s", fe.Msg)
	}
	if c.action == "scoped" {
		// frameworks/constraint pkg/apis/constraints/apis.go,
		// GetEnforcementActionsForEP: a list is required.
		if scoped == nil {
			return nil, bad(fieldpath.New("spec", "scopedEnforcementActions"), "missing required field: spec.scopedEnforcementActions must be defined when enforcementAction is scoped")
		}
		c.scoped = scoped.forGator()
		c.skip = len(c.scoped) == 0
	}
	if v, ok := spec["match"]; ok && v != nil {
		m, err := parseMatch(v)
		if err != nil {
			fe, _ := err.(*manifest.FieldError)
			path := fieldpath.New("spec", "match")
			msg := err.Error()
			if fe != nil {
				path = path.Join(fe.Path)
				msg = fe.Msg
			}
			return nil, schemaErr(path, "%s", msg)
		}
		c.match = m
	}
	params := map[string]any{}
	if v, ok := spec["parameters"]; ok && v != nil {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, schemaErr(fieldpath.New("spec", "parameters"), "must be of type object")
		}
		params = manifest.DeepCopy(m).(map[string]any)
	}
	if _, ok := spec["parameters"]; ok && tmpl.schema == nil && !tmpl.legacySchema {
		return nil, bad(fieldpath.New("spec", "parameters"), "unknown field: template %s declares no parameters (spec.crd.spec.validation.openAPIV3Schema)", tmpl.kind)
	}
	if tmpl.schema != nil {
		applyDefaults(tmpl.schema, params)
		if err := validate(tmpl.schema, params, fieldpath.New("spec", "parameters"), !tmpl.legacySchema); err != nil {
			if err.unknown {
				return nil, bad(err.path, "%s", err.msg)
			}
			return nil, schemaErr(err.path, "%s", err.msg)
		}
	}
	if tmpl.cel != nil {
		c.celParams = celParams(obj, params)
		return c, nil
	}
	v, err := ast.InterfaceToValue(params)
	if err != nil {
		return nil, bad(fieldpath.New("spec", "parameters"), "%v", err)
	}
	c.params = v
	return c, nil
}

// celParams is the constraint as Gatekeeper gives it to CEL: defaulted by
// its CRD, whose schema sets spec.enforcementAction to deny and the
// template's defaults in spec.parameters (params, the parameters with
// their defaults, replaces them when they are set; when they are not,
// variables.params is null).
func celParams(obj *manifest.Object, params map[string]any) *unstructured.Unstructured {
	data := manifest.DeepCopy(obj.Data).(map[string]any)
	if spec, ok := data["spec"].(map[string]any); ok {
		if spec["enforcementAction"] == nil {
			spec["enforcementAction"] = "deny"
		}
		if spec["parameters"] != nil {
			spec["parameters"] = params
		}
	}
	return &unstructured.Unstructured{Object: data}
}

// scopedList is a constraint's spec.scopedEnforcementActions: each
// action with the names of its enforcement points.
type scopedList []scopedAction

type scopedAction struct {
	action string
	points []string
}

// scopedActions reads spec.scopedEnforcementActions, checked as the
// constraint CRD's schema does (frameworks/constraint
// pkg/client/crds/schema.go): a list of {action: string,
// enforcementPoints: [{name: string}]}. nil when absent or null. Errors
// are *manifest.FieldError.
func scopedActions(v any) (scopedList, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fieldErr(nil, "must be of type array")
	}
	out := scopedList{}
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, fieldErr(fieldpath.New(i), "must be of type object")
		}
		var a scopedAction
		var err error
		if a.action, err = manifest.OptionalString(m, "action"); err != nil {
			return nil, manifest.PrefixError(fieldpath.New(i), err)
		}
		points, ok := m["enforcementPoints"].([]any)
		if !ok && m["enforcementPoints"] != nil {
			return nil, fieldErr(fieldpath.New(i, "enforcementPoints"), "must be of type array")
		}
		for j, p := range points {
			pm, ok := p.(map[string]any)
			if !ok {
				return nil, fieldErr(fieldpath.New(i, "enforcementPoints", j), "must be of type object")
			}
			name, err := manifest.OptionalString(pm, "name")
			if err != nil {
				return nil, manifest.PrefixError(fieldpath.New(i, "enforcementPoints", j), err)
			}
			a.points = append(a.points, name)
		}
		out = append(out, a)
	}
	return out, nil
}

// forGator lists, sorted and without duplicates, the actions that name
// gator's enforcement point or "*" (frameworks/constraint
// pkg/apis/constraints/apis.go, GetEnforcementActionsForEP, with gator's
// only enforcement point, gatekeeper pkg/gator/opa.go). The actions are
// not validated, as gator does not validate them.
func (l scopedList) forGator() []string {
	var out []string
	for _, a := range l {
		if slices.ContainsFunc(a.points, func(p string) bool { return p == enforcementPoint || p == "*" }) {
			out = append(out, a.action)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// match is a constraint's spec.match.
type match struct {
	kinds              []kindMatch
	namespaces         []string
	excludedNamespaces []string
	labelSelector      *manifest.LabelSelector
	namespaceSelector  *manifest.LabelSelector
	// labelSelectorErr and namespaceSelectorErr are why Validate rejects
	// the selectors: Gatekeeper's autoreject on every object they meet.
	labelSelectorErr     error
	namespaceSelectorErr error
	scope                string
	name                 string
	source               string
}

type kindMatch struct {
	apiGroups []string
	kinds     []string
}

func fieldErr(path fieldpath.Path, format string, args ...any) error {
	return &manifest.FieldError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// parseMatch decodes spec.match, checking it as Gatekeeper's CRD schema
// does (types, glob patterns, source's enum).
func parseMatch(v any) (*match, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fieldErr(nil, "must be of type object")
	}
	out := &match{}
	var err error
	if raw, ok := m["kinds"]; ok && raw != nil {
		list, ok := raw.([]any)
		if !ok {
			return nil, fieldErr(fieldpath.New("kinds"), "must be of type array")
		}
		for i, e := range list {
			km, ok := e.(map[string]any)
			if !ok {
				return nil, fieldErr(fieldpath.New("kinds", i), "must be of type object")
			}
			var k kindMatch
			if k.apiGroups, err = manifest.DecodeStringList(km["apiGroups"]); err != nil {
				return nil, manifest.PrefixError(fieldpath.New("kinds", i, "apiGroups"), err)
			}
			if k.kinds, err = manifest.DecodeStringList(km["kinds"]); err != nil {
				return nil, manifest.PrefixError(fieldpath.New("kinds", i, "kinds"), err)
			}
			out.kinds = append(out.kinds, k)
		}
	}
	for _, f := range []struct {
		key string
		dst *[]string
	}{{"namespaces", &out.namespaces}, {"excludedNamespaces", &out.excludedNamespaces}} {
		if *f.dst, err = manifest.DecodeStringList(m[f.key]); err != nil {
			return nil, manifest.PrefixError(fieldpath.New(f.key), err)
		}
		for i, g := range *f.dst {
			if !globRE.MatchString(g) {
				return nil, fieldErr(fieldpath.New(f.key, i), "Invalid value: %q: should match '%s'", g, globRE)
			}
		}
	}
	for _, f := range []struct {
		key string
		dst **manifest.LabelSelector
	}{{"labelSelector", &out.labelSelector}, {"namespaceSelector", &out.namespaceSelector}} {
		if *f.dst, err = manifest.DecodeLabelSelector(m[f.key]); err != nil {
			return nil, manifest.PrefixError(fieldpath.New(f.key), err)
		}
	}
	out.labelSelectorErr = out.labelSelector.Validate()
	out.namespaceSelectorErr = out.namespaceSelector.Validate()
	for _, f := range []struct {
		key string
		dst *string
	}{{"scope", &out.scope}, {"name", &out.name}, {"source", &out.source}} {
		if *f.dst, err = manifest.OptionalString(m, f.key); err != nil {
			return nil, err
		}
	}
	if out.name != "" && !globRE.MatchString(out.name) {
		return nil, fieldErr(fieldpath.New("name"), "Invalid value: %q: should match '%s'", out.name, globRE)
	}
	if out.source != "" && !slices.Contains([]string{"All", "Generated", "Original"}, out.source) {
		return nil, fieldErr(fieldpath.New("source"), `Unsupported value: %q: supported values: "All", "Generated", "Original"`, out.source)
	}
	return out, nil
}

// glob matches s against a Gatekeeper wildcard: *x* contains, *x suffix,
// x* prefix, else equality.
func glob(pattern, s string) bool {
	switch {
	case len(pattern) >= 2 && strings.HasPrefix(pattern, "*") && strings.HasSuffix(pattern, "*"):
		return strings.Contains(s, pattern[1:len(pattern)-1])
	case strings.HasPrefix(pattern, "*"):
		return strings.HasSuffix(s, pattern[1:])
	case strings.HasSuffix(pattern, "*"):
		return strings.HasPrefix(s, pattern[:len(pattern)-1])
	}
	return pattern == s
}

// matchObject is what spec.match looks at in an object, read once for
// every constraint.
type matchObject struct {
	name, generateName string
	group, kind        string
	namespace          string
	labels             map[string]string
}

func newMatchObject(o *manifest.Object) matchObject {
	return matchObject{
		name:         o.Name(),
		generateName: manifest.String(o.Data, "metadata", "generateName"),
		group:        manifest.Group(o.APIVersion()),
		kind:         o.Kind(),
		namespace:    o.Namespace(),
		labels:       o.Labels(),
	}
}

// namespace is a Namespace as spec.match sees it.
type namespace struct {
	name   string
	labels map[string]string
}

// matches reports whether obj is in scope, as Gatekeeper's matchers do in
// their order (kinds, scope, namespaces, excludedNamespaces, labelSelector,
// namespaceSelector, name, source; gatekeeper pkg/mutation/match/match.go
// at v3.23.1). ns is the Namespace the object is reviewed in, nil when it
// has none. An error is what Gatekeeper turns into an autoreject result.
func (m *match) matches(obj *matchObject, ns *namespace) (bool, error) {
	isNamespace := obj.kind == "Namespace" && obj.group == ""
	if len(m.kinds) > 0 {
		found := false
		for _, k := range m.kinds {
			kindOK := len(k.kinds) == 0 || slices.Contains(k.kinds, "*") || slices.Contains(k.kinds, obj.kind)
			groupOK := len(k.apiGroups) == 0 || slices.Contains(k.apiGroups, "*") || slices.Contains(k.apiGroups, obj.group)
			if kindOK && groupOK {
				found = true
				break
			}
		}
		if !found {
			return false, nil
		}
	}
	hasNS := obj.namespace != "" || ns != nil
	switch m.scope {
	case "Cluster":
		if !isNamespace && hasNS {
			return false, nil
		}
	case "Namespaced":
		if isNamespace || !hasNS {
			return false, nil
		}
	}
	// The namespace that namespaces and excludedNamespaces look at.
	namespace, known := obj.namespace, obj.namespace != ""
	switch {
	case isNamespace:
		namespace, known = obj.name, true
	case ns != nil:
		namespace, known = ns.name, true
	}
	if len(m.namespaces) > 0 && known && !slices.ContainsFunc(m.namespaces, func(p string) bool { return glob(p, namespace) }) {
		return false, nil
	}
	if len(m.excludedNamespaces) > 0 && known && slices.ContainsFunc(m.excludedNamespaces, func(p string) bool { return glob(p, namespace) }) {
		return false, nil
	}
	if m.labelSelector != nil {
		if m.labelSelectorErr != nil {
			return false, m.labelSelectorErr
		}
		if !m.labelSelector.MatchesValidated(obj.labels) {
			return false, nil
		}
	}
	if m.namespaceSelector != nil && (isNamespace || hasNS) {
		if m.namespaceSelectorErr != nil {
			return false, m.namespaceSelectorErr
		}
		switch {
		case isNamespace:
			if !m.namespaceSelector.MatchesValidated(obj.labels) {
				return false, nil
			}
		case ns == nil:
			return false, fmt.Errorf("namespace selector for namespace-scoped object but missing Namespace")
		case !m.namespaceSelector.MatchesValidated(ns.labels):
			return false, nil
		}
	}
	// Only a pattern ending in * can match a generateName.
	if m.name != "" && !glob(m.name, obj.name) && !(strings.HasSuffix(m.name, "*") && glob(m.name, obj.generateName)) {
		return false, nil
	}
	// drydock reviews objects as written: source Original.
	if m.source == "Generated" {
		return false, nil
	}
	return true, nil
}
