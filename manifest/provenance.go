package manifest

import (
	"reflect"
	"sort"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
)

// Stage names what set a rendered field.
type Stage string

// The stages that set fields, in the order a render runs them.
const (
	// StageInput is an authored object (a resource template, an addon
	// resource, an observed object) taken as it is.
	StageInput Stage = "input"
	// StageTemplate is a definition template's literal or expression;
	// StageDefault a parameter default the template declares;
	// StageContext a template reading KubeVela's context.
	StageTemplate Stage = "template"
	StageDefault  Stage = "default"
	StageContext  Stage = "context"
	// StageProperty is a property of a component in the Application;
	// StageTrait a trait's patch (from its property or its template);
	// StagePatchOutputs a trait's patchOutputs.
	StageProperty     Stage = "property"
	StageTrait        Stage = "trait"
	StagePatchOutputs Stage = "patchOutputs"
	// StageOverridePolicy is a KubeVela override policy's entry.
	StageOverridePolicy Stage = "override policy"
	// StageLabels is what KubeVela's controller (or drydock's apply)
	// writes on every dispatched object: labels, annotations, namespace.
	StageLabels Stage = "labels"
	// StageKarmada is what Karmada writes when it places a template on a
	// member (divided replicas, its labels); StageKarmadaOverride a rule
	// of an OverridePolicy or ClusterOverridePolicy.
	StageKarmada         Stage = "karmada"
	StageKarmadaOverride Stage = "karmada override"
	// StageHelm is a Helm chart's template (a HelmRelease's, or KubeVela's
	// helmchart); StageKustomize a Flux Kustomization's build.
	StageHelm      Stage = "helm"
	StageKustomize Stage = "kustomize"
)

// ProducedBy is the provenance of an object a whole stage produced:
// every leaf of data set by o, with its own value.
func ProducedBy(data map[string]any, o Origin) Provenance {
	p := Provenance{}
	WalkLeaves(data, func(path fieldpath.Path, v any) {
		leaf := o
		leaf.Value = v
		p[path.String()] = []Origin{leaf}
	})
	return p
}

// Origin is one stage that set a field: what it was, where it was
// authored, and the value it set.
type Origin struct {
	Stage Stage
	// Name is the stage's subject: the definition, component, trait
	// type, policy or overrider's policy.
	Name string
	// Detail adds what within it: a property path, "rule 0
	// imageOverrider[0]", a context field.
	Detail string
	// Pos is where the stage's setting is authored (the template's CUE
	// field, the property's line, the overrider); it may be unknown.
	Pos Pos
	// Value is the value the stage set (the JSON data model).
	Value any
}

// Provenance maps the field paths of an object's leaves, by their string
// form (fieldpath.Path.String), to the stages that set them, oldest
// first: the last one set the value the object holds. A nil Provenance
// records nothing.
type Provenance map[string][]Origin

// Chain returns the origins recorded for the leaf at path, oldest first.
func (p Provenance) Chain(path fieldpath.Path) []Origin { return p[path.String()] }

// Last returns the origin of the value at path, and whether one is
// recorded.
func (p Provenance) Last(path fieldpath.Path) (Origin, bool) { return p.last(path.String()) }

func (p Provenance) last(key string) (Origin, bool) {
	chain := p[key]
	if len(chain) == 0 {
		return Origin{}, false
	}
	return chain[len(chain)-1], true
}

// Find returns the origin of path or, when path is not a recorded leaf,
// of the nearest recorded leaf under it or above it: what a finding about
// a field points at.
func (p Provenance) Find(path fieldpath.Path) (Origin, bool) {
	key := path.String()
	if o, ok := p.last(key); ok {
		return o, true
	}
	var under []string
	for k := range p {
		if strings.HasPrefix(k, key) && len(k) > len(key) && (k[len(key)] == '.' || k[len(key)] == '[') {
			under = append(under, k)
		}
	}
	if len(under) > 0 {
		sort.Strings(under)
		return p.last(under[0])
	}
	for n := len(path) - 1; n > 0; n-- {
		if o, ok := p.Last(path[:n]); ok {
			return o, true
		}
	}
	return Origin{}, false
}

// Clone returns a copy whose chains can grow without touching p's.
func (p Provenance) Clone() Provenance {
	if p == nil {
		return nil
	}
	out := make(Provenance, len(p))
	for k, v := range p {
		out[k] = v[:len(v):len(v)]
	}
	return out
}

// Record notes that o set every leaf of after that before does not hold
// with the same value, and forgets the leaves after no longer has. The
// value o set is taken from after. before may be nil.
func (p Provenance) Record(before, after map[string]any, o Origin) {
	p.Update(before, after, func(fieldpath.Path, any) []Origin { return []Origin{o} })
}

// Update is Record with the origins of each changed leaf given by
// origins(path, value), oldest first; the last one's Value is set to the
// leaf's.
func (p Provenance) Update(before, after map[string]any, origins func(path fieldpath.Path, v any) []Origin) {
	seen := make(map[string]bool, len(p))
	walkPair(nil, "", before, before != nil, after, func(path fieldpath.Path, key string, v any, same bool) {
		seen[key] = true
		if same && len(p[key]) > 0 {
			return
		}
		add := origins(path, v)
		if len(add) == 0 {
			return
		}
		chain := append(p[key][:len(p[key]):len(p[key])], add...)
		chain[len(chain)-1].Value = v
		p[key] = chain
	})
	for k := range p {
		if !seen[k] {
			delete(p, k)
		}
	}
}

// leafFunc is told each leaf's path, the path's string form, its value
// and whether the other tree holds the same value there.
type leafFunc func(path fieldpath.Path, key string, v any, same bool)

// walkPair walks the leaves of after, telling f whether before holds the
// same value at the same path. key is path's string form.
func walkPair(path fieldpath.Path, key string, before any, has bool, after any, f leafFunc) {
	switch x := after.(type) {
	case map[string]any:
		if len(x) == 0 && len(path) > 0 {
			b, ok := before.(map[string]any)
			f(path, key, x, has && ok && len(b) == 0)
			return
		}
		b, ok := before.(map[string]any)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			bv, bok := b[k]
			seg := fieldpath.Key(k)
			walkPair(path.Append(seg), seg.After(key), bv, has && ok && bok, x[k], f)
		}
	case []any:
		b, ok := before.([]any)
		if len(x) == 0 {
			f(path, key, x, has && ok && len(b) == 0)
			return
		}
		for i, e := range x {
			var bv any
			if ok && i < len(b) {
				bv = b[i]
			}
			seg := fieldpath.Index(i)
			walkPair(path.Append(seg), seg.After(key), bv, has && ok && i < len(b), e, f)
		}
	default:
		f(path, key, after, has && reflect.DeepEqual(before, after))
	}
}

// WalkLeaves calls f for every leaf of data in key order: scalars, null,
// and empty maps and lists, with its path.
func WalkLeaves(data map[string]any, f func(path fieldpath.Path, v any)) {
	walkPair(nil, "", nil, false, data, func(path fieldpath.Path, _ string, v any, _ bool) { f(path, v) })
}

// InputProvenance is the provenance of an object taken as it was
// authored: every leaf set by StageInput at its position.
func (o *Object) InputProvenance() Provenance {
	p := Provenance{}
	walkPair(nil, "", nil, false, o.Data, func(path fieldpath.Path, key string, v any, _ bool) {
		p[key] = []Origin{{Stage: StageInput, Pos: o.FieldPos(path), Value: v}}
	})
	return p
}

// PlaceFields gives the fields of a rendered object the positions its
// Provenance records (each leaf where the stage that set it was authored,
// a map or list where its first leaf was), so that what reads the object
// as an input (a Karmada policy a component rendered) points at the
// authored lines. Fields with a position keep it.
func (o *Object) PlaceFields() {
	if o.Provenance == nil {
		return
	}
	walkPair(nil, "", nil, false, o.Data, func(path fieldpath.Path, key string, _ any, _ bool) {
		last, ok := o.Provenance.last(key)
		if !ok || !last.Pos.IsValid() {
			return
		}
		for p := range path.PrefixStrings() {
			if _, ok := o.fields[p]; ok || p == "" {
				break
			}
			o.setFieldPos(p, last.Pos)
		}
	})
}

// Describe says what set a value, as explanations print it: "trait
// scaler properties.replicas", "override policy deploy-ha ...",
// "OverridePolicy default/eu, rule 0 imageOverrider[0]" (without the
// position).
func (o Origin) Describe() string {
	join := func(parts ...string) string {
		var out []string
		for _, p := range parts {
			if p != "" {
				out = append(out, p)
			}
		}
		return strings.Join(out, " ")
	}
	switch o.Stage {
	case StageTemplate:
		return join("template", o.Name)
	case StageDefault:
		return o.Name + " default"
	case StageContext:
		return join("template", o.Name+",", o.Detail)
	case StageProperty:
		return join("component", o.Name, o.Detail)
	case StageTrait:
		if o.Detail == "patch" {
			return join("trait", o.Name)
		}
		return join("trait", o.Name, o.Detail)
	case StagePatchOutputs:
		return join("trait", o.Name, "patchOutputs")
	case StageOverridePolicy:
		return join("override policy", o.Name, o.Detail)
	case StageLabels:
		return join(o.Name, o.Detail)
	case StageKarmada, StageKarmadaOverride:
		return o.Name + ", " + o.Detail
	case StageInput:
		return "input"
	}
	return join(string(o.Stage), o.Name, o.Detail)
}

// ChangedLeaf is the first leaf (in key order) whose value differs
// between before and after, preferring one after holds; false when they
// hold the same leaves.
func ChangedLeaf(before, after map[string]any) (fieldpath.Path, bool) {
	var first fieldpath.Path
	found := false
	visit := func(path fieldpath.Path, _ string, _ any, same bool) {
		if !same && !found {
			first, found = path, true
		}
	}
	walkPair(nil, "", before, true, after, visit)
	if !found {
		walkPair(nil, "", after, true, before, visit)
	}
	return first, found
}
