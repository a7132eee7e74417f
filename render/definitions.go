package render

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/schemas"
)

// Definition kinds KubeVela knows.
const (
	KindComponent    = "ComponentDefinition"
	KindTrait        = "TraitDefinition"
	KindPolicy       = "PolicyDefinition"
	KindWorkflowStep = "WorkflowStepDefinition"
	KindWorkload     = "WorkloadDefinition"
)

// StagePostDispatch marks traits KubeVela dispatches once components are healthy.
const StagePostDispatch = "PostDispatch"

// ErrUnknownDefinition is wrapped when an application names a type that no
// definition provides.
var ErrUnknownDefinition = errors.New("unknown type")

// Definition is a KubeVela X-Definition: its CUE template (or kube
// schematic) and the spec fields the render path reads.
type Definition struct {
	Kind      string
	Name      string
	Namespace string
	// Template is the CUE template text. It is laid out so that CUE positions
	// name lines of the authored file (see TemplateFile).
	Template string
	// TemplateFile is the file CUE errors in the template point at.
	TemplateFile string
	// Terraform is set for a component with a terraform schematic: it
	// renders a terraform-controller Configuration, not a template.
	Terraform *TerraformSchematic
	// Stage is the trait's dispatch stage ("" or PostDispatch).
	Stage string
	// WorkloadType is spec.workload.type of a ComponentDefinition.
	WorkloadType string
	// Status is spec.status: the CUE KubeVela evaluates against the
	// dispatched objects as the cluster holds them (health, message).
	Status StatusSpec
	// Source is where the definition was authored.
	Source manifest.Pos
	// SpecHash, when set, is KubeVela's spec hash of the definition as a
	// cluster holds it, for a definition whose spec drydock does not carry
	// (a built-in: its KubeVela chart counterpart's); see render/revision.
	SpecHash string
	// spec is what KubeVela's webhook checks besides the template.
	spec defSpec
	// velaDef is, for a `vela def` CUE file, the spec `vela def apply`
	// makes of it.
	velaDef map[string]any
	// placed is true when Template's positions are the authored file's
	// (false for a template whose place in its file is unknown).
	placed bool
	// upgrade, for a template KubeVela upgrades before rendering it
	// (components, traits, policies), places an upgraded template as
	// Template is placed; nil for none.
	upgrade func(string) string
	// rendered is RenderedTemplate's result, computed once.
	rendered struct {
		once sync.Once
		text string
	}
}

// RenderedTemplate is the template KubeVela renders: Template after
// v1.11's legacy-CUE upgrade (pkg/cue/definition/template.go,
// application_policies.go) for a component, trait or policy, computed on
// first use, since the upgrade parses and formats the template and most
// definitions a render loads are never rendered. Admission judges
// Template, the authored one: the upgrade can shadow the list import (a
// field named list, as kubevela/catalog's grafana-dashboard trait has),
// which the shared addon corpus expects admitted.
func (d *Definition) RenderedTemplate() string {
	if d.upgrade == nil {
		return d.Template
	}
	d.rendered.once.Do(func() {
		d.rendered.text = d.Template
		if up := upgradedCUE(d.Template); up != "" {
			d.rendered.text = d.upgrade(up)
		}
	})
	return d.rendered.text
}

// upgrades memoises upgradeLegacyCUE by template text ("" for a template
// it leaves as it is): a process renders the same definitions again
// (every case of a suite loads its -d directory; --watch reloads).
var upgrades sync.Map

// upgradedCUE is upgradeLegacyCUE's upgraded template, "" when it
// changes nothing.
func upgradedCUE(tmpl string) string {
	if up, ok := upgrades.Load(tmpl); ok {
		return up.(string)
	}
	up, ok := upgradeLegacyCUE(tmpl)
	if !ok {
		up = ""
	}
	upgrades.Store(tmpl, up)
	return up
}

// defSpec are the spec fields KubeVela's definition webhooks read, and
// where they were authored.
type defSpec struct {
	// workload is true when spec.workload names a type or a definition.
	workload bool
	// ref is spec.definitionRef.name.
	ref string
	// cue is true when spec.schematic.cue is given.
	cue     bool
	version string
	// obj is the authored object (nil for a `vela def` CUE file).
	obj *manifest.Object
}

// Spec is the definition's spec as a cluster holds it: the authored
// object's spec, or for a `vela def` CUE file the spec `vela def apply`
// writes (its attributes and its template). Callers must not modify it.
func (d *Definition) Spec() map[string]any {
	if d.spec.obj != nil {
		return manifest.Map(d.spec.obj.Data, "spec")
	}
	return d.velaDef
}

// TerraformSchematic is a ComponentDefinition's `schematic.terraform`
// (KubeVela's common.Terraform), with what of the definition object the
// Configuration it renders carries.
type TerraformSchematic struct {
	// Configuration is the HCL, or the remote module's git URL.
	Configuration string
	// Type is hcl (the CRD's default), json or remote.
	Type string
	// Path is the remote module's sub-directory.
	Path string
	// WriteConnectionSecretToRef, ProviderRef and
	// GitCredentialsSecretRef are the schematic's references as authored
	// (nil: none).
	WriteConnectionSecretToRef, ProviderRef, GitCredentialsSecretRef map[string]any
	// Annotations are the definition's metadata.annotations.
	Annotations map[string]any
	// Category is true when the definition's annotation `type` is
	// "terraform", which makes KubeVela render its components as
	// Terraform even without the schematic.
	Category bool
}

// IsDefinitionKind reports whether kind (core.oam.dev) is a definition kind.
func IsDefinitionKind(kind string) bool {
	switch kind {
	case KindComponent, KindTrait, KindPolicy, KindWorkflowStep, KindWorkload:
		return true
	}
	return false
}

// Definitions is a set of definitions keyed by kind and name. A later Add of
// the same kind and name replaces the earlier one. Get is safe for
// concurrent use; Add is not.
type Definitions struct {
	byKind map[string]map[string]*Definition
	// fallback finds the definitions not added (nil: none).
	fallback *lazyDefinitions
}

// NewDefinitions returns an empty set.
func NewDefinitions() *Definitions {
	return &Definitions{byKind: map[string]map[string]*Definition{}}
}

// NewLazyDefinitions returns a set that holds, besides what is added to
// it, the definitions load finds: it is called at the first Get of a
// kind and name not added, once per kind and name (its result, nil when
// it has no such definition, is kept). A set of many definitions of which
// a render uses few (drydock's built-ins) parses only those. names lists
// the names load may find (of any kind), for Names.
func NewLazyDefinitions(load func(kind, name string) *Definition, names func() []string) *Definitions {
	s := NewDefinitions()
	s.fallback = &lazyDefinitions{load: load, names: names, found: map[[2]string]*Definition{}}
	return s
}

// lazyDefinitions are the definitions a loader finds, kept once found.
type lazyDefinitions struct {
	mu    sync.Mutex
	load  func(kind, name string) *Definition
	names func() []string
	found map[[2]string]*Definition
}

func (l *lazyDefinitions) get(kind, name string) *Definition {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := [2]string{kind, name}
	d, ok := l.found[key]
	if !ok {
		d = l.load(kind, name)
		l.found[key] = d
	}
	return d
}

// Add inserts or replaces d.
func (s *Definitions) Add(d *Definition) {
	m := s.byKind[d.Kind]
	if m == nil {
		m = map[string]*Definition{}
		s.byKind[d.Kind] = m
	}
	m[d.Name] = d
}

// Get returns the definition of kind and name, or nil.
func (s *Definitions) Get(kind, name string) *Definition {
	if d, ok := s.byKind[kind][name]; ok || s.fallback == nil {
		return d
	}
	return s.fallback.get(kind, name)
}

// ComponentOrTrait returns the component definition typ, else the trait
// definition typ (nil: neither): the definitions with a status.
func (s *Definitions) ComponentOrTrait(typ string) *Definition {
	if d := s.Get(KindComponent, typ); d != nil {
		return d
	}
	return s.Get(KindTrait, typ)
}

// Names lists the names of the definitions of kind the set holds, sorted
// (loading every lazy one of that kind: for messages, not renders).
func (s *Definitions) Names(kind string) []string {
	seen := map[string]bool{}
	for name := range s.byKind[kind] {
		seen[name] = true
	}
	if s.fallback != nil && s.fallback.names != nil {
		for _, name := range s.fallback.names() {
			if !seen[name] && s.fallback.get(kind, name) != nil {
				seen[name] = true
			}
		}
	}
	return manifest.SortedKeys(seen)
}

// Clone returns a copy that can be extended without touching s.
func (s *Definitions) Clone() *Definitions {
	c := NewDefinitions()
	c.fallback = s.fallback
	for _, m := range s.byKind {
		for _, d := range m {
			c.Add(d)
		}
	}
	return c
}

// Lookup returns the definition of kind that typ, a type an Application
// names, refers to. A missing one is an error wrapping ErrUnknownDefinition; a type@vN names
// a DefinitionRevision (KubeVela's GetCapabilityDefinition), which
// drydock does not have: the error says so, or that the name is not one
// KubeVela accepts.
func (s *Definitions) Lookup(kind, typ string) (*Definition, error) {
	return s.LookupAmong(kind, typ, nil)
}

// LookupAmong is Lookup for a kind some of whose types need no
// definition (others): a missing type's did-you-mean names the nearest
// definition, else the nearest of others.
func (s *Definitions) LookupAmong(kind, typ string, others []string) (*Definition, error) {
	if d := s.Get(kind, typ); d != nil {
		return d, nil
	}
	if !strings.Contains(typ, "@") {
		return nil, fmt.Errorf("%w: no %s %q%s", ErrUnknownDefinition, kind, typ, manifest.DidYouMean(typ, s.Names(kind), others))
	}
	if err := definitionRevisionName(typ); err != nil {
		return nil, err
	}
	name, _, _ := strings.Cut(typ, "@")
	return nil, fmt.Errorf("%w: %q names a revision of %s %q: DefinitionRevision objects are not available offline (drydock renders with the definitions it is given; use %q)",
		ErrUnknownDefinition, typ, kind, name, name)
}

// definitionRevisionName checks a type@vN as ConvertDefinitionRevName does.
func definitionRevisionName(typ string) error {
	name, rev, found := strings.Cut(typ, "@v")
	if !found || name == "" {
		if msg := qualifiedName(typ); msg != "" {
			return fmt.Errorf("invalid definitionRevision name %s:%s", typ, msg)
		}
		return nil
	}
	if msg := qualifiedName(name + "-v" + rev); msg != "" {
		return fmt.Errorf("invalid definitionRevision name %s:%s", name, msg)
	}
	return nil
}

var qualifiedNamePart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`) })

// qualifiedName is Kubernetes' IsQualifiedName for a name without a
// prefix: its problems joined by commas, or "".
func qualifiedName(s string) string {
	const format = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	var problems []string
	switch {
	case s == "":
		problems = append(problems, "name part must be non-empty")
	case len(s) > 63:
		problems = append(problems, "name part must be no more than 63 characters")
	}
	if !qualifiedNamePart().MatchString(s) {
		problems = append(problems, format)
	}
	return strings.Join(problems, ",")
}

// DefinitionFromObject reads a definition authored as a Kubernetes object.
func DefinitionFromObject(obj *manifest.Object) (*Definition, error) {
	d := &Definition{
		Kind:      obj.Kind(),
		Name:      obj.Name(),
		Namespace: obj.Namespace(),
		Source:    obj.Pos,
	}
	if d.Name == "" {
		return nil, manifest.At(obj.Pos, "%s without metadata.name", d.Kind)
	}
	if err := schemas.ValidateDefinition(obj); err != nil {
		return nil, err
	}
	var me *cluster.MetaError
	if err := cluster.ValidateMeta(obj); errors.As(err, &me) {
		return nil, manifest.At(obj.FieldPos(me.Field), "%s %q: %s: %s", d.Kind, d.Name, me.Field, me.Msg)
	}
	spec := manifest.Map(obj.Data, "spec")
	d.spec = defSpec{obj: obj, ref: manifest.String(spec, "definitionRef", "name"), version: manifest.String(spec, "version"),
		workload: manifest.String(spec, "workload", "type") != "" || manifest.String(spec, "workload", "definition", "apiVersion") != "" ||
			manifest.String(spec, "workload", "definition", "kind") != ""}
	_, d.spec.cue = manifest.Lookup(spec, "schematic", "cue")
	d.Stage = manifest.String(spec, "stage")
	d.WorkloadType = manifest.String(spec, "workload", "type")
	d.Status = StatusSpec{HealthPolicy: manifest.String(spec, "status", "healthPolicy"),
		CustomStatus: manifest.String(spec, "status", "customStatus"), Details: manifest.String(spec, "status", "details")}
	d.Terraform = terraformSchematic(obj, spec)
	if d.Terraform != nil && manifest.Map(spec, "schematic", "terraform") != nil {
		return d, nil
	}
	// KubeVela v1.9 removed the kube schematic (f1bae1672, "Chore: remove
	// schematic kube and helm"): v1.11's CRD has no spec.schematic.kube,
	// and the API server's strict field validation refuses it.
	if _, ok := manifest.Lookup(spec, "schematic", "kube"); ok {
		return nil, manifest.At(obj.FieldPos(fieldpath.New("spec", "schematic", "kube")),
			"%s %q: strict decoding error: unknown field \"spec.schematic.kube\" (KubeVela removed the kube schematic in v1.9; use a CUE template)", d.Kind, d.Name)
	}
	// A template may also sit in the legacy spec.extension; a definition
	// with neither (e.g. one that only names a CRD) renders nothing and is
	// an error only when an application uses it.
	for _, path := range []fieldpath.Path{fieldpath.New("spec", "schematic", "cue", "template"), fieldpath.New("spec", "extension", "template")} {
		tmpl, ok := fieldpath.Get(obj.Data, path)
		if !ok {
			continue
		}
		text, ok := tmpl.(string)
		if !ok {
			return nil, manifest.At(obj.FieldPos(path), "%s %q: %s must be a string", d.Kind, d.Name, path)
		}
		d.Template, d.TemplateFile = placeTemplate(obj, path, text)
		if d.Kind == KindComponent || d.Kind == KindTrait || d.Kind == KindPolicy {
			d.upgrade = func(up string) string {
				placed, _ := placeTemplate(obj, path, up)
				return placed
			}
		}
		_, d.placed = obj.BlockStart(path)
		return d, nil
	}
	return d, nil
}

// placeTemplate pads a template embedded in YAML so that CUE positions
// match the authored file: the text starts on its line and column.
func placeTemplate(obj *manifest.Object, path fieldpath.Path, text string) (string, string) {
	start, ok := obj.BlockStart(path)
	if !ok {
		return text, obj.Pos.File
	}
	indent := strings.Repeat(" ", start.Col-1)
	var b strings.Builder
	b.Grow(len(text) + start.Line + len(indent)*strings.Count(text, "\n"))
	b.WriteString(strings.Repeat("\n", start.Line-1))
	for _, line := range strings.SplitAfter(text, "\n") {
		if line != "" && line != "\n" {
			b.WriteString(indent)
		}
		b.WriteString(line)
	}
	return b.String(), start.File
}

// terraformSchematic reads spec.schematic.terraform as KubeVela's
// loadSchematicToTemplate and newTemplateOfCompDefinition do
// (pkg/appfile/template.go): a terraform schematic wins over a CUE one,
// and a ComponentDefinition annotated `type: terraform` is a Terraform
// component even without it. nil for neither.
func terraformSchematic(obj *manifest.Object, spec map[string]any) *TerraformSchematic {
	tf := manifest.Map(spec, "schematic", "terraform")
	annotated := obj.Kind() == KindComponent && manifest.String(obj.Data, "metadata", "annotations", "type") == "terraform"
	if tf == nil && !annotated {
		return nil
	}
	t := &TerraformSchematic{Category: annotated, Annotations: manifest.Map(obj.Data, "metadata", "annotations"),
		Configuration: manifest.String(tf, "configuration"), Type: manifest.String(tf, "type"), Path: manifest.String(tf, "path"),
		WriteConnectionSecretToRef: manifest.Map(tf, "writeConnectionSecretToRef"), ProviderRef: manifest.Map(tf, "providerRef"),
		GitCredentialsSecretRef: manifest.Map(tf, "gitCredentialsSecretReference")}
	if t.Type == "" {
		t.Type = "hcl" // +kubebuilder:default:=hcl (apis/core.oam.dev/common/types.go)
	}
	return t
}
