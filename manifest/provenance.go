package manifest

import (
	"reflect"
	"sort"
	"strconv"
	"strings"
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
)

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

// Provenance maps the field paths of an object's leaves (see FieldPath)
// to the stages that set them, oldest first: the last one set the value
// the object holds. A nil Provenance records nothing.
type Provenance map[string][]Origin

// Last returns the origin of the value at path, and whether one is
// recorded.
func (p Provenance) Last(path string) (Origin, bool) {
	chain := p[path]
	if len(chain) == 0 {
		return Origin{}, false
	}
	return chain[len(chain)-1], true
}

// Find returns the origin of path or, when path is not a recorded leaf,
// of the nearest recorded leaf under it or above it: what a finding about
// a field points at.
func (p Provenance) Find(path string) (Origin, bool) {
	if o, ok := p.Last(path); ok {
		return o, true
	}
	var under []string
	for k := range p {
		if strings.HasPrefix(k, path) && len(k) > len(path) && (k[len(path)] == '.' || k[len(path)] == '[') {
			under = append(under, k)
		}
	}
	if len(under) > 0 {
		sort.Strings(under)
		return p.Last(under[0])
	}
	for {
		i := strings.LastIndexAny(path, ".[")
		if i <= 0 {
			return Origin{}, false
		}
		path = path[:i]
		if o, ok := p.Last(path); ok {
			return o, true
		}
	}
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
	p.Update(before, after, func(string, any) []Origin { return []Origin{o} })
}

// Update is Record with the origins of each changed leaf given by
// origins(path, value), oldest first; the last one's Value is set to the
// leaf's.
func (p Provenance) Update(before, after map[string]any, origins func(path string, v any) []Origin) {
	seen := make(map[string]bool, len(p))
	walkPair("", before, before != nil, after, func(path string, v any, same bool) {
		seen[path] = true
		if same && len(p[path]) > 0 {
			return
		}
		add := origins(path, v)
		if len(add) == 0 {
			return
		}
		chain := append(p[path][:len(p[path]):len(p[path])], add...)
		chain[len(chain)-1].Value = v
		p[path] = chain
	})
	for k := range p {
		if !seen[k] {
			delete(p, k)
		}
	}
}

// walkPair walks the leaves of after, telling f whether before holds the
// same value at the same path.
func walkPair(path string, before any, has bool, after any, f func(string, any, bool)) {
	switch x := after.(type) {
	case map[string]any:
		if len(x) == 0 && path != "" {
			b, ok := before.(map[string]any)
			f(path, x, has && ok && len(b) == 0)
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
			walkPair(FieldPathJoin(path, k), bv, has && ok && bok, x[k], f)
		}
	case []any:
		b, ok := before.([]any)
		if len(x) == 0 {
			f(path, x, has && ok && len(b) == 0)
			return
		}
		for i, e := range x {
			var bv any
			if ok && i < len(b) {
				bv = b[i]
			}
			walkPair(path+"["+strconv.Itoa(i)+"]", bv, has && ok && i < len(b), e, f)
		}
	default:
		f(path, after, has && reflect.DeepEqual(before, after))
	}
}

// WalkLeaves calls f for every leaf of data in key order: scalars, null,
// and empty maps and lists, with its FieldPath.
func WalkLeaves(data map[string]any, f func(path string, v any)) {
	walkPair("", nil, false, data, func(path string, v any, _ bool) { f(path, v) })
}

// FieldPathJoin appends key to a field path: "a.b"; "a[b.c]" for a key
// ParseFieldPath could not read back after a dot (one holding '.', '[' or
// ']'); `a["80"]` for a number (or a key with quotes).
func FieldPathJoin(path, key string) string {
	switch {
	case isIndex(key) || strings.ContainsAny(key, `"'`):
		return path + `["` + key + `"]`
	case key == "" || strings.ContainsAny(key, ".[]"):
		return path + "[" + key + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func isIndex(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// FieldPath joins field names and list indexes as FieldPathJoin does.
func FieldPath(elems ...any) string {
	var p string
	for _, e := range elems {
		switch v := e.(type) {
		case int:
			p += "[" + strconv.Itoa(v) + "]"
		case string:
			p = FieldPathJoin(p, v)
		}
	}
	return p
}

// InputProvenance is the provenance of an object taken as it was
// authored: every leaf set by StageInput at its position.
func (o *Object) InputProvenance() Provenance {
	p := Provenance{}
	WalkLeaves(o.Data, func(path string, v any) {
		p[path] = []Origin{{Stage: StageInput, Pos: o.FieldPos(ObjectPath(path)), Value: v}}
	})
	return p
}

// ObjectPath converts a FieldPath to the form FieldPos takes (see Path).
func ObjectPath(fieldPath string) string {
	segs, err := ParseFieldPath(fieldPath)
	if err != nil {
		return fieldPath
	}
	return Path(segs...)
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
	WalkLeaves(o.Data, func(path string, _ any) {
		last, ok := o.Provenance.Last(path)
		if !ok || !last.Pos.IsValid() {
			return
		}
		segs, err := ParseFieldPath(path)
		if err != nil {
			return
		}
		for n := len(segs); n > 0; n-- {
			p := Path(segs[:n]...)
			if _, ok := o.fields[p]; ok {
				break
			}
			o.SetFieldPos(p, last.Pos)
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
// between before and after, preferring one after holds; "" when they
// hold the same leaves.
func ChangedLeaf(before, after map[string]any) string {
	var first string
	walkPair("", before, true, after, func(path string, _ any, same bool) {
		if !same && first == "" {
			first = path
		}
	})
	if first == "" {
		walkPair("", after, true, before, func(path string, _ any, same bool) {
			if !same && first == "" {
				first = path
			}
		})
	}
	return first
}
