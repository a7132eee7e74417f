// Package karmada owns Karmada's OverridePolicy and ClusterOverridePolicy:
// parsing and validating them as Karmada's CRD schema and admission webhook
// do, choosing the policies that apply to an object, ordering them, and
// applying their overriders (image, command, args, labels, annotations,
// field and plaintext JSON patches) for one member cluster. The real
// behaviour lives upstream in Karmada's override manager
// (pkg/util/overridemanager) and its webhook (pkg/webhook/overridepolicy);
// this package reproduces them exactly.
//
// It is a pure library. It does not decide which clusters an object reaches
// (that is karmada/propagation), does not add or strip Karmada's bookkeeping
// labels and annotations, and never mutates its inputs. The selectors and
// cluster affinities it matches with are the karmada package's (imported
// here under its own name, karmada). KubeVela's override policies, which
// patch an Application's components rather than rendered objects, are
// overrides/kubevela's; the two share no code.
package karmada

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/karmada"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/schemas"
)

// Kinds of override policy.
const (
	KindOverridePolicy        = "OverridePolicy"
	KindClusterOverridePolicy = "ClusterOverridePolicy"

	group   = "policy.karmada.io"
	version = "v1alpha1"
)

// Overrider operators.
const (
	OpAdd     = "add"
	OpRemove  = "remove"
	OpReplace = "replace"
)

// Image components an ImageOverrider acts on.
const (
	ComponentRegistry   = "Registry"
	ComponentRepository = "Repository"
	ComponentTag        = "Tag"
)

// ErrInvalid is wrapped by every error Parse returns: the policy is one
// Karmada's API server would reject.
var ErrInvalid = errors.New("invalid override policy")

// Policy is one parsed OverridePolicy or ClusterOverridePolicy. It is
// read-only once parsed: Apply may use the same policies from several
// goroutines at once.
type Policy struct {
	// Kind is KindOverridePolicy or KindClusterOverridePolicy.
	Kind string
	Name string
	// Namespace is the policy's namespace ("default" when an
	// OverridePolicy leaves it out, as kubectl would); "" for a
	// ClusterOverridePolicy.
	Namespace string
	// Pos is where the policy's document starts.
	Pos manifest.Pos
	// ResourceSelectors restrict the objects the policy applies to; none
	// means every object in the policy's scope. An OverridePolicy's
	// selectors without a namespace get the policy's (Karmada's mutating
	// webhook does this).
	ResourceSelectors []karmada.ResourceSelector
	// Rules are applied in order, each on the clusters its TargetCluster
	// matches. The deprecated form (spec.targetCluster + spec.overriders) is
	// normalised, as Karmada does, into a single rule when
	// spec.overrideRules is empty.
	Rules []Rule
}

// Rule is one override rule: overriders for the clusters TargetCluster
// matches.
type Rule struct {
	// TargetCluster selects the clusters; nil matches every cluster.
	TargetCluster *karmada.Affinity
	Overriders    Overriders
	// Path is where the rule's overriders sit in the policy, for messages:
	// spec.overrideRules[0].overriders, or spec.overriders for the
	// deprecated form.
	Path fieldpath.Path
}

// Overriders are the overriders of one rule. Karmada applies them in the
// order of the fields, whatever the order in the YAML.
type Overriders struct {
	Image       []ImageOverrider
	Command     []CommandArgsOverrider
	Args        []CommandArgsOverrider
	Labels      []LabelAnnotationOverrider
	Annotations []LabelAnnotationOverrider
	Field       []FieldOverrider
	// Plaintext operations are applied as one JSON patch, last.
	Plaintext []Operation
}

// ImageOverrider rewrites one component of container images.
type ImageOverrider struct {
	// PredicatePath, when HasPredicate, is the JSON pointer of the one image
	// string to rewrite; otherwise the containers of the workload kinds are
	// found automatically.
	PredicatePath string
	HasPredicate  bool
	Component     string
	Operator      string
	Value         string
	// Pos is where the overrider is authored.
	Pos manifest.Pos
}

// CommandArgsOverrider adds or removes command or args entries of the
// containers named ContainerName.
type CommandArgsOverrider struct {
	ContainerName string
	Operator      string
	Value         []string
	// Pos is where the overrider is authored.
	Pos manifest.Pos
}

// LabelAnnotationOverrider adds, replaces or removes keys of the object's
// own metadata.labels or metadata.annotations.
type LabelAnnotationOverrider struct {
	Operator string
	Value    map[string]string
	// Pos is where the overrider is authored.
	Pos manifest.Pos
}

// FieldOverrider patches a JSON or YAML document held in a string field.
type FieldOverrider struct {
	// FieldPath is the JSON pointer of the string field.
	FieldPath string
	JSON      []Operation
	YAML      []Operation
	// Pos is where the overrider is authored.
	Pos manifest.Pos
}

// Operation is one JSON patch operation (a plaintext overrider, or a
// fieldOverrider json/yaml entry whose Path is its subPath).
type Operation struct {
	Operator string
	Path     string
	// Value is the operation's value in the JSON data model; HasValue tells
	// an absent value (which Karmada sends as null) from an explicit one.
	Value    any
	HasValue bool
	// Pos is where the operation is authored.
	Pos manifest.Pos
	// raw caches Value's JSON encoding.
	raw []byte
}

// valueJSON returns the JSON Karmada sends for the value ("null" when
// absent).
func (o *Operation) valueJSON() ([]byte, error) {
	if o.raw != nil {
		return o.raw, nil
	}
	return json.Marshal(o.Value)
}

// IsPolicy reports whether obj is an OverridePolicy or ClusterOverridePolicy
// (API group policy.karmada.io).
func IsPolicy(obj *manifest.Object) bool {
	if manifest.Group(obj.APIVersion()) != group {
		return false
	}
	k := obj.Kind()
	return k == KindOverridePolicy || k == KindClusterOverridePolicy
}

// subject names the policy in messages: its kind, and its name as
// Karmada writes it ("OverridePolicy default/foo").
func (p *Policy) subject() manifest.Subject {
	if p.Namespace == "" {
		return manifest.Subject{Kind: p.Kind, Name: p.Name, Bare: true}
	}
	return manifest.Subject{Kind: p.Kind, Name: p.Namespace + "/" + p.Name, Bare: true}
}

// policyError is what is wrong with a policy (or with applying it), in
// Karmada's words, carrying its sentinel.
type policyError struct {
	msg      string
	sentinel error
}

func (e *policyError) Error() string { return e.msg }
func (e *policyError) Unwrap() error { return e.sentinel }

// located is an error about the policy subject, at pos, about the field
// at path (empty for the policy as a whole).
func located(pos manifest.Pos, subject manifest.Subject, path fieldpath.Path, msg string, sentinel error) error {
	return &manifest.Error{Pos: pos, Subjects: []manifest.Subject{subject}, Field: path,
		Err: &policyError{msg: msg, sentinel: sentinel}}
}

// Parse reads and validates an OverridePolicy or ClusterOverridePolicy. It
// rejects what Karmada's CRD schema rejects (wrong types, missing required
// fields, operators and components outside their enums) and what its
// validating webhook (validation.ValidateOverrideSpec, plus the rule that an
// OverridePolicy's selectors stay in its namespace) rejects. Errors wrap
// ErrInvalid and read "file:line:col: Kind ns/name: field.path: message",
// the message using Karmada's wording.
func Parse(obj *manifest.Object) (*Policy, error) {
	p := &parser{obj: obj}
	pol := p.header()
	if p.err != nil {
		return nil, p.err
	}
	if err := schemaError(obj, p.subject, schemas.Karmada(pol.Kind).Validate(obj)); err != nil {
		return nil, err
	}
	p.subject = pol.subject()
	spec := p.spec()
	if p.err != nil {
		return nil, p.err
	}
	if err := p.validate(pol, spec); err != nil {
		return nil, err
	}
	pol.ResourceSelectors = spec.selectors
	if pol.Kind == KindOverridePolicy {
		for i := range pol.ResourceSelectors {
			if pol.ResourceSelectors[i].Namespace == "" {
				pol.ResourceSelectors[i].Namespace = pol.Namespace
			}
		}
	}
	pol.Rules = spec.rules
	if len(pol.Rules) == 0 {
		pol.Rules = []Rule{{TargetCluster: spec.target, Overriders: spec.overriders, Path: fieldpath.New("spec", "overriders")}}
	}
	return pol, nil
}

// header reads apiVersion, kind and metadata.
func (p *parser) header() *Policy {
	pol := &Policy{Kind: p.obj.Kind(), Pos: p.obj.Pos}
	p.subject = manifest.Subject{Kind: pol.Kind}
	if !IsPolicy(p.obj) {
		p.fail(fieldpath.New("kind"), "%q in %q is not an override policy", pol.Kind, p.obj.APIVersion())
		return pol
	}
	if v := p.obj.APIVersion(); v != group+"/"+version {
		p.fail(fieldpath.New("apiVersion"), "no matches for kind %q in version %q", pol.Kind, v)
		return pol
	}
	meta := p.mapField(p.obj.Data, nil, "metadata")
	pol.Name = p.str(meta, fieldpath.New("metadata"), "name", false)
	if pol.Name == "" && p.err == nil {
		p.fail(fieldpath.New("metadata", "name"), "Required value: name or generateName is required")
	}
	if pol.Kind == KindOverridePolicy {
		pol.Namespace = p.str(meta, fieldpath.New("metadata"), "namespace", false)
		if pol.Namespace == "" {
			pol.Namespace = "default"
		}
	}
	return pol
}

// parsedSpec is the spec as read, before normalisation.
type parsedSpec struct {
	selectors    []karmada.ResourceSelector
	rules        []Rule
	rulesPresent bool
	target       *karmada.Affinity
	overriders   Overriders
}

func (p *parser) spec() *parsedSpec {
	s := &parsedSpec{}
	specV, ok := p.obj.Data["spec"]
	if !ok || specV == nil {
		p.fail(fieldpath.New("spec"), "Required value")
		return s
	}
	spec := p.mapField(p.obj.Data, nil, "spec")
	for i, e := range p.listField(spec, fieldpath.New("spec"), "resourceSelectors") {
		path := fieldpath.New("spec", "resourceSelectors", i)
		m := p.asMap(e, path)
		if m == nil {
			continue
		}
		rs, err := karmada.DecodeResourceSelector(m)
		p.fieldErr(path, err)
		s.selectors = append(s.selectors, rs)
	}
	if v, ok := spec["overrideRules"]; ok && v != nil {
		s.rulesPresent = true
	}
	for i, e := range p.listField(spec, fieldpath.New("spec"), "overrideRules") {
		path := fieldpath.New("spec", "overrideRules", i)
		m := p.asMap(e, path)
		if m == nil {
			continue
		}
		r := Rule{Path: path.Child("overriders")}
		r.TargetCluster = p.affinity(m, path)
		if v, ok := m["overriders"]; !ok || v == nil {
			p.fail(r.Path, "Required value")
		}
		r.Overriders = p.overriders(p.mapField(m, path, "overriders"), r.Path)
		s.rules = append(s.rules, r)
	}
	s.target = p.affinity(spec, fieldpath.New("spec"))
	s.overriders = p.overriders(p.mapField(spec, fieldpath.New("spec"), "overriders"), fieldpath.New("spec", "overriders"))
	return s
}

func (p *parser) affinity(m map[string]any, path fieldpath.Path) *karmada.Affinity {
	tm := p.mapField(m, path, "targetCluster")
	if tm == nil {
		return nil
	}
	a, err := karmada.DecodeAffinity(tm)
	p.fieldErr(path.Child("targetCluster"), err)
	return a
}

func (p *parser) overriders(m map[string]any, path fieldpath.Path) Overriders {
	var o Overriders
	if m == nil {
		return o
	}
	for i, e := range p.listField(m, path, "plaintext") {
		ipath := path.Child("plaintext").At(i)
		if im := p.asMap(e, ipath); im != nil {
			op := p.operation(im, ipath, "path")
			o.Plaintext = append(o.Plaintext, op)
		}
	}
	for i, e := range p.listField(m, path, "imageOverrider") {
		ipath := path.Child("imageOverrider").At(i)
		if im := p.asMap(e, ipath); im != nil {
			o.Image = append(o.Image, p.image(im, ipath))
		}
	}
	o.Command = p.commandArgs(m, path, "commandOverrider")
	o.Args = p.commandArgs(m, path, "argsOverrider")
	o.Labels = p.labelAnnotations(m, path, "labelsOverrider")
	o.Annotations = p.labelAnnotations(m, path, "annotationsOverrider")
	for i, e := range p.listField(m, path, "fieldOverrider") {
		ipath := path.Child("fieldOverrider").At(i)
		if im := p.asMap(e, ipath); im != nil {
			o.Field = append(o.Field, p.field(im, ipath))
		}
	}
	return o
}

func (p *parser) operation(m map[string]any, path fieldpath.Path, pathKey string) Operation {
	op := Operation{Pos: p.obj.FieldPos(path)}
	op.Path = p.str(m, path, pathKey, true)
	op.Operator = p.enum(m, path, "operator", OpAdd, OpRemove, OpReplace)
	op.Value, op.HasValue = m["value"]
	raw, err := json.Marshal(op.Value)
	if err != nil {
		p.fail(path.Child("value"), "Invalid value: %v", err)
	}
	op.raw = raw
	return op
}

func (p *parser) image(m map[string]any, path fieldpath.Path) ImageOverrider {
	im := ImageOverrider{Pos: p.obj.FieldPos(path)}
	if pm := p.mapField(m, path, "predicate"); pm != nil {
		im.HasPredicate = true
		im.PredicatePath = p.str(pm, path.Child("predicate"), "path", true)
	}
	im.Component = p.enum(m, path, "component", ComponentRegistry, ComponentRepository, ComponentTag)
	im.Operator = p.enum(m, path, "operator", OpAdd, OpRemove, OpReplace)
	im.Value = p.str(m, path, "value", false)
	return im
}

func (p *parser) commandArgs(m map[string]any, path fieldpath.Path, key string) []CommandArgsOverrider {
	var out []CommandArgsOverrider
	for i, e := range p.listField(m, path, key) {
		ipath := path.Child(key).At(i)
		im := p.asMap(e, ipath)
		if im == nil {
			continue
		}
		c := CommandArgsOverrider{Pos: p.obj.FieldPos(ipath)}
		c.ContainerName = p.str(im, ipath, "containerName", true)
		c.Operator = p.enum(im, ipath, "operator", OpAdd, OpRemove)
		values, err := manifest.DecodeStringList(im["value"])
		p.fieldErr(ipath.Child("value"), err)
		c.Value = values
		out = append(out, c)
	}
	return out
}

func (p *parser) labelAnnotations(m map[string]any, path fieldpath.Path, key string) []LabelAnnotationOverrider {
	var out []LabelAnnotationOverrider
	for i, e := range p.listField(m, path, key) {
		ipath := path.Child(key).At(i)
		im := p.asMap(e, ipath)
		if im == nil {
			continue
		}
		l := LabelAnnotationOverrider{Pos: p.obj.FieldPos(ipath)}
		l.Operator = p.enum(im, ipath, "operator", OpAdd, OpRemove, OpReplace)
		if v, ok := im["value"]; !ok || v == nil {
			p.fail(ipath.Child("value"), "Required value")
		}
		values, err := manifest.DecodeStringMap(im["value"])
		p.fieldErr(ipath.Child("value"), err)
		l.Value = values
		out = append(out, l)
	}
	return out
}

func (p *parser) field(m map[string]any, path fieldpath.Path) FieldOverrider {
	f := FieldOverrider{Pos: p.obj.FieldPos(path)}
	f.FieldPath = p.str(m, path, "fieldPath", true)
	for _, format := range []string{"json", "yaml"} {
		var ops []Operation
		for i, e := range p.listField(m, path, format) {
			ipath := path.Child(format).At(i)
			if im := p.asMap(e, ipath); im != nil {
				ops = append(ops, p.operation(im, ipath, "subPath"))
			}
		}
		if format == "json" {
			f.JSON = ops
		} else {
			f.YAML = ops
		}
	}
	return f
}

// parser reads a policy's fields, keeping the first error.
type parser struct {
	obj     *manifest.Object
	subject manifest.Subject
	err     error
}

// schemaError is the API server's refusal of a policy that breaks the
// CRD's schema: every violation, aggregated as field.ErrorList does,
// positioned at the first; nil for none.
func schemaError(obj *manifest.Object, subject manifest.Subject, errs []schemas.FieldError) error {
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Msg
	}
	msg := msgs[0]
	if len(msgs) > 1 {
		msg = "[" + strings.Join(msgs, ", ") + "]"
	}
	return located(errs[0].Pos, subject, errs[0].Path, msg, ErrInvalid)
}

// fail records an error about the field at path (the first one wins).
func (p *parser) fail(path fieldpath.Path, format string, args ...any) {
	if p.err != nil {
		return
	}
	p.err = invalidError(p.obj, p.subject, path, fmt.Sprintf(format, args...))
}

func invalidError(obj *manifest.Object, subject manifest.Subject, path fieldpath.Path, msg string) error {
	return invalidErrorAt(obj, subject, path, path, msg)
}

// invalidErrorAt reports msg about the field at path, positioned at the
// field at pos.
func invalidErrorAt(obj *manifest.Object, subject manifest.Subject, pos, path fieldpath.Path, msg string) error {
	return located(obj.FieldPos(pos), subject, path, path.String()+": "+msg, ErrInvalid)
}

// fieldErr records a decoder's *manifest.FieldError under base.
func (p *parser) fieldErr(base fieldpath.Path, err error) {
	if err == nil {
		return
	}
	var fe *manifest.FieldError
	if errors.As(err, &fe) {
		p.fail(base.Join(fe.Path), "%s", fe.Msg)
		return
	}
	p.fail(base, "%v", err)
}

func (p *parser) typeFail(path fieldpath.Path, v any, want string) {
	p.fail(path, "Invalid value: %q: must be of type %s", manifest.TypeName(v), want)
}

func (p *parser) asMap(v any, path fieldpath.Path) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		p.typeFail(path, v, "object")
		return nil
	}
	return m
}

// mapField returns m[key] as a map (nil when absent or null).
func (p *parser) mapField(m map[string]any, path fieldpath.Path, key string) map[string]any {
	v := m[key]
	if v == nil {
		return nil
	}
	return p.asMap(v, path.Child(key))
}

// listField returns m[key] as a list (nil when absent or null).
func (p *parser) listField(m map[string]any, path fieldpath.Path, key string) []any {
	v := m[key]
	if v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		p.typeFail(path.Child(key), v, "array")
		return nil
	}
	return l
}

func (p *parser) str(m map[string]any, path fieldpath.Path, key string, required bool) string {
	v, ok := m[key]
	if !ok || v == nil {
		if required {
			p.fail(path.Child(key), "Required value")
		}
		return ""
	}
	s, ok := v.(string)
	if !ok {
		p.typeFail(path.Child(key), v, "string")
	}
	return s
}

// enum reads a required string restricted to allowed values.
func (p *parser) enum(m map[string]any, path fieldpath.Path, key string, allowed ...string) string {
	s := p.str(m, path, key, true)
	if _, ok := m[key].(string); !ok {
		return s
	}
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	quoted := ""
	for i, a := range allowed {
		if i > 0 {
			quoted += ", "
		}
		quoted += fmt.Sprintf("%q", a)
	}
	p.fail(path.Child(key), "Unsupported value: %q: supported values: %s", s, quoted)
	return s
}
