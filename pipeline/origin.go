package pipeline

import (
	"slices"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/workflow"
)

// origin locates what produced a write in the Application: the policy
// whose definition rendered it, else its component, else the app.
func origin(app *render.Application, w workflow.Write) cluster.Origin {
	o := cluster.Origin{Pos: app.Object.Pos, Application: app.Name, Component: w.Resource.Component, Policy: w.Resource.Policy}
	if w.Resource.Trait != cueval.AuxiliaryWorkload {
		o.Trait = w.Resource.Trait
	}
	for _, p := range app.Policies {
		if w.Resource.Policy != "" && p.Name == w.Resource.Policy {
			o.Pos = app.FieldPos(p.Path)
			return o
		}
	}
	for _, c := range app.Components {
		if c.Name == w.Resource.Component {
			o.Pos = app.FieldPos(c.Path)
			break
		}
	}
	return o
}

// graftAuthored gives the object of w, when its component wrote it out
// verbatim in its properties (a k8s-objects component's
// properties.objects[i], a raw component's properties), the positions of
// that authored object, so that what is said about its fields (a
// validation finding) points at the line they are written on, not at
// the component. The authored object is the one of the same apiVersion,
// kind and name; a trait's objects are never one.
func graftAuthored(app *render.Application, w workflow.Write, o *manifest.Object) {
	if sub := authored(app, w, o.Data); sub != nil {
		o.Graft(nil, sub)
		o.SetFieldPos(nil, sub.Pos) // what it does not write: the object
	}
}

// authored is the authored object (with its positions) whose data the
// write w of data copies verbatim, nil when there is none.
func authored(app *render.Application, w workflow.Write, data map[string]any) *manifest.Object {
	if (w.Resource.Trait != "" && w.Resource.Trait != cueval.AuxiliaryWorkload) || w.Resource.Policy != "" {
		return nil
	}
	for _, c := range app.Components {
		if c.Name != w.Resource.Component || c.Path.IsExternal() {
			continue
		}
		props := c.Path.Child("properties")
		type candidate struct {
			ref  render.FieldRef
			data any
		}
		candidates := []candidate{{props, c.Properties}}
		if objs, ok := c.Properties["objects"].([]any); ok {
			for i, obj := range objs {
				candidates = append(candidates, candidate{props.Child("objects").At(i), obj})
			}
		}
		for _, cand := range candidates {
			authored, ok := cand.data.(map[string]any)
			if !ok || !sameObject(authored, data) {
				continue
			}
			return app.Object.Sub(cand.ref.Path)
		}
		return nil
	}
	return nil
}

// sameObject reports whether two objects have the same apiVersion, kind
// and name (a name given).
func sameObject(a, b map[string]any) bool {
	name := manifest.String(a, "metadata", "name")
	return name != "" && name == manifest.String(b, "metadata", "name") &&
		manifest.String(a, "apiVersion") == manifest.String(b, "apiVersion") && manifest.String(a, "kind") == manifest.String(b, "kind")
}

// metaValuePos finds where the name or namespace the API server refuses
// was authored: a string field equal to it in the component (its name,
// properties, traits) or in the policies that placed or rendered the
// object, preferring a field of the refused field's name (name,
// namespace). A namespace is looked for in the policies first, a name in
// the component. Without a match it returns fallback.
func metaValuePos(app *render.Application, w workflow.Write, me *cluster.MetaError, fallback manifest.Pos) manifest.Pos {
	value, ok := me.Value.(string)
	if !ok {
		return fallback
	}
	s := valueSearch{value: value, key: "name"}
	comp := func() {
		for _, c := range app.Components {
			if c.Name == w.Resource.Component {
				s.walk(c.Raw, c.Path)
			}
		}
	}
	pols := func() {
		for _, p := range app.Policies {
			if p.Object == nil && (p.Name == w.Resource.Policy || slices.Contains(w.Policies, p.Name)) {
				s.walk(p.Properties, p.Path.Child("properties"))
			}
		}
	}
	if me.Field.Equal(fieldpath.New("metadata", "namespace")) {
		s.key = "namespace"
		pols()
		comp()
	} else {
		comp()
		pols()
	}
	for _, p := range []*render.FieldRef{s.best, s.any} {
		if p != nil {
			return app.FieldPos(*p)
		}
	}
	return fallback
}

// valueSearch finds the field paths of a string value: the first whose
// last key is key (best), and the first at all (any).
type valueSearch struct {
	value, key string
	best, any  *render.FieldRef
}

func (s *valueSearch) walk(v any, path render.FieldRef) {
	switch x := v.(type) {
	case string:
		if x != s.value {
			return
		}
		if s.any == nil {
			s.any = &path
		}
		if last, ok := path.Path.Last(); s.best == nil && ok && last == fieldpath.Key(s.key) {
			s.best = &path
		}
	case map[string]any:
		for _, k := range manifest.SortedKeys(x) {
			s.walk(x[k], path.Child(k))
		}
	case []any:
		for i, e := range x {
			s.walk(e, path.At(i))
		}
	}
}
