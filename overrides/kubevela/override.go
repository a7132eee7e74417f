package kubevela

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// OverridePolicySpec is KubeVela's v1alpha1.OverridePolicySpec: the
// properties of an override policy.
type OverridePolicySpec struct {
	Components []EnvComponentPatch `json:"components,omitempty"`
	Selector   []string            `json:"selector,omitempty"`
}

// EnvComponentPatch is KubeVela's v1alpha1.EnvComponentPatch: a patch of
// the components it names (all of its type, or all, when nameless).
type EnvComponentPatch struct {
	Name             string          `json:"name"`
	Type             string          `json:"type"`
	Properties       *RawExtension   `json:"properties,omitempty"`
	Traits           []EnvTraitPatch `json:"traits,omitempty"`
	ExternalRevision string          `json:"externalRevision,omitempty"`
	// authored is the patch as written (nil after a plain decode).
	authored map[string]any
}

// EnvTraitPatch is KubeVela's v1alpha1.EnvTraitPatch: a patch of the
// trait of a type, or its removal.
type EnvTraitPatch struct {
	Type       string        `json:"type"`
	Properties *RawExtension `json:"properties,omitempty"`
	Disable    bool          `json:"disable,omitempty"`
}

// RawExtension is KubeVela's runtime.RawExtension: any JSON value but
// null. Value is the value as authored when this package parsed the spec
// (not its JSON round trip, which would change numbers); nil after a
// plain decode.
type RawExtension struct {
	raw   json.RawMessage
	Value any
}

// UnmarshalJSON keeps the value, as RawExtension does.
func (r *RawExtension) UnmarshalJSON(in []byte) error {
	if !bytes.Equal(in, []byte("null")) {
		r.raw = append(r.raw[:0], in...)
	}
	return nil
}

// value is the authored value, nil for no properties.
func (r *RawExtension) value() any {
	if r == nil {
		return nil
	}
	return r.Value
}

// parseOverride decodes an override policy's properties strictly, as the
// deploy step does, and keeps the authored values of the patches.
func parseOverride(props map[string]any) (*OverridePolicySpec, error) {
	var spec OverridePolicySpec
	if err := render.DecodeStrict(props, &spec); err != nil {
		return nil, err
	}
	authored, _ := props["components"].([]any)
	for i := range spec.Components {
		spec.Components[i].setAuthored(authored[i])
	}
	return &spec, nil
}

// setAuthored records the authored patch v that c was decoded from.
func (c *EnvComponentPatch) setAuthored(v any) {
	c.authored, _ = v.(map[string]any)
	if c.Properties != nil {
		c.Properties.Value = c.authored["properties"]
	}
	traits, _ := c.authored["traits"].([]any)
	for j := range c.Traits {
		if t, _ := traits[j].(map[string]any); c.Traits[j].Properties != nil {
			c.Traits[j].Properties.Value = t["properties"]
		}
	}
}

// Override applies the override policies among pols, in order, to copies
// of app's components (KubeVela's overrideConfiguration) and returns the
// components the deploy step named step dispatches. The warnings note
// what KubeVela does without an error: it drops every component when a
// patch does not merge.
func Override(app *render.Application, step string, pols []*render.Policy) (comps []render.Component, warnings []string, err error) {
	comps = make([]render.Component, len(app.Components))
	for i, c := range app.Components {
		comps[i] = c.Clone()
	}
	for _, p := range pols {
		if p.Type != "override" {
			continue
		}
		if p.Properties == nil {
			return nil, nil, render.PolicyError(app, p, nil, "override policy %s must not have empty properties", p.Name)
		}
		spec, err := parseOverride(p.Properties)
		if err != nil {
			return nil, nil, render.PolicyFieldError(app, p, render.ErrorPath(p.Properties, err), "failed to parse override policy %s: %v", p.Name, err)
		}
		var more []string
		if comps, more, err = override(app, step, p, spec, comps); err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, more...)
	}
	return comps, warnings, nil
}

var componentNamePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[a-z]([a-z-]{0,61}[a-z])?`) })

// errComponentLost is KubeVela's MergeComponent returning neither a
// component nor an error (see mergeComponent).
var errComponentLost = errors.New("component lost")

// override is KubeVela's PatchComponents. A patch that does not merge (its
// properties are not an object) makes KubeVela fail with the error of the
// last merge of a nameless patch; when that merge succeeded, or the
// failing patch named its component (KubeVela keeps that error in a
// shadowed variable), PatchComponents returns no components and no error,
// and the deploy step dispatches none: a KubeVela bug drydock reproduces,
// with a warning. KubeVela visits the components of a nameless patch in
// Go map order; drydock in the written order.
func override(app *render.Application, step string, p *render.Policy, spec *OverridePolicySpec, comps []render.Component) ([]render.Component, []string, error) {
	failed, lost := 0, ""
	var added []string
	var last error
	merge := func(c *render.Component, patch *EnvComponentPatch, overlay render.FieldRef, named bool) {
		err := mergeComponent(c, patch, overlay)
		switch {
		case errors.Is(err, errComponentLost):
			lost = c.Name
		case err != nil:
			failed++
		}
		if !named {
			last = err
		}
	}
	for i := range spec.Components {
		patch := &spec.Components[i]
		name, typ := patch.Name, patch.Type
		overlay := p.Path.Child("properties").Child("components").At(i)
		if name == "" {
			for j := range comps {
				if typ == "" || comps[j].Type == typ {
					merge(&comps[j], patch, overlay, false)
				}
			}
			continue
		}
		re, err := regexp.Compile(regexpFromWildcard(name))
		if err != nil {
			return nil, nil, render.PolicyError(app, p, fieldpath.New("components", i, "name"), "invalid component name pattern %q: %v", name, err)
		}
		matched := false
		for j := range comps {
			if !re.MatchString(comps[j].Name) {
				continue
			}
			matched = true
			if typ != "" && typ != comps[j].Type {
				comps[j] = componentFromPatch(patch, comps[j].Path, overlay)
			} else {
				merge(&comps[j], patch, overlay, true)
			}
		}
		if !matched && componentNamePattern().MatchString(name) {
			comps = append(comps, componentFromPatch(patch, p.Path, overlay))
			added = append(added, addedWarning(app, p, overlay, name, typ))
		}
	}
	if lost != "" && failed == 0 {
		return nil, nil, render.PolicyFieldError(app, p, fieldpath.New("components"), "failed to apply override policy %s: KubeVela's merge loses component %s "+
			"(a trait patch whose properties are not an object, then one that merges) and dereferences it: the deploy fails", p.Name, lost)
	}
	if failed > 0 {
		if last != nil && !errors.Is(last, errComponentLost) {
			return nil, nil, render.PolicyFieldError(app, p, fieldpath.New("components"), "failed to apply override policy %s: failed to merge application components: %v", p.Name, last)
		}
		return nil, []string{fmt.Sprintf("%s: application %q policy %q: a component patch does not merge (its properties are not an object); KubeVela then drops every component of deploy step %q, which dispatches nothing",
			p.FieldPos(app, p.Path.Child("properties").Child("components")), app.Name, p.Name, step)}, nil
	}
	kept, dropped := selectComponents(spec.Selector, comps)
	if len(dropped) > 0 {
		added = append(added, fmt.Sprintf("%s: application %q policy %q: the selector %s keeps only those components in deploy step %q: KubeVela leaves out %s there",
			p.FieldPos(app, p.Path.Child("properties").Child("selector")), app.Name, p.Name, quoteList(spec.Selector), step, quoteList(dropped)))
	}
	return kept, added, nil
}

// addedWarning notes that a patch naming no component of the
// Application adds one (PatchComponents: "if no component matches, and
// the component name is a valid kubernetes name, a new component will be
// added").
func addedWarning(app *render.Application, p *render.Policy, overlay render.FieldRef, name, typ string) string {
	return fmt.Sprintf("%s: application %q policy %q: no component matches %q: KubeVela adds a component %q of type %q from the patch",
		p.FieldPos(app, overlay.Child("name")), app.Name, p.Name, name, name, typ)
}

// quoteList writes names quoted, comma-separated, in brackets.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// selectComponents keeps the components an override policy's selector
// names (all when it has none) and lists the names of those it drops.
func selectComponents(selector []string, comps []render.Component) (kept []render.Component, dropped []string) {
	if selector == nil {
		return comps, nil
	}
	keep := map[string]bool{}
	for _, n := range selector {
		keep[n] = true
	}
	for _, c := range comps {
		if keep[c.Name] {
			kept = append(kept, c)
		} else {
			dropped = append(dropped, c.Name)
		}
	}
	return kept, dropped
}

// regexpFromWildcard turns a component name pattern into KubeVela's
// (unanchored) regular expression: `*` matches anything.
func regexpFromWildcard(name string) string { return strings.ReplaceAll(name, "*", ".*") }

// mergeComponent merges an override patch into c as KubeVela's
// MergeComponent does: properties deep-merged (lists replaced, zero
// values override), traits matched by type. overlay is the patch's field
// path in the Application. Properties that are not an object do not
// merge: the error is KubeVela's; when a later trait merges after one
// that did not, KubeVela returns no component and no error
// (errComponentLost).
func mergeComponent(c *render.Component, patch *EnvComponentPatch, overlay render.FieldRef) error {
	if raw := patch.Properties.value(); raw != nil {
		props, isMap := raw.(map[string]any)
		if !isMap {
			return fmt.Errorf("failed to merge component properties: %w", notAMap(raw))
		}
		if c.Properties == nil {
			c.Properties = map[string]any{}
		}
		mergeMaps(c.Properties, props)
		c.AddOverlay(overlay)
	}
	var failed int
	var last error
	for k := range patch.Traits {
		t := &patch.Traits[k]
		tpath := overlay.Child("traits").At(k)
		idx := slices.IndexFunc(c.Traits, func(tr render.Trait) bool { return tr.Type == t.Type })
		switch {
		case idx >= 0 && t.Disable:
			c.Traits = append(c.Traits[:idx:idx], c.Traits[idx+1:]...)
		case idx >= 0:
			last = mergeTrait(&c.Traits[idx], t, tpath)
			if last != nil {
				failed++
			}
		case !t.Disable:
			c.Traits = append(c.Traits, traitFromPatch(t, c.Path, tpath))
		}
	}
	switch {
	case failed > 0 && last == nil:
		return errComponentLost
	case failed > 0:
		return fmt.Errorf("failed to merge component traits: %w", last)
	}
	return nil
}

// mergeTrait merges a trait patch's properties into tr.
func mergeTrait(tr *render.Trait, t *EnvTraitPatch, tpath render.FieldRef) error {
	raw := t.Properties.value()
	props, isMap := raw.(map[string]any)
	if raw != nil && !isMap {
		return notAMap(raw)
	}
	if tr.Properties == nil {
		tr.Properties = map[string]any{}
	}
	mergeMaps(tr.Properties, props)
	tr.Overlays = append(slices.Clip(tr.Overlays), tpath)
	return nil
}

// notAMap is KubeVela's error for patch properties that are not an object
// (RawExtension2Map).
func notAMap(v any) error {
	return fmt.Errorf("failed to convert patch parameters to map: json: cannot unmarshal %s into Go value of type map[string]interface {}", manifest.JSONKind(v))
}

// mergeMaps merges copies of src's values into dst.
func mergeMaps(dst, src map[string]any) {
	for _, k := range manifest.SortedKeys(src) {
		sv := src[k]
		if sm, ok := sv.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeMaps(dm, sm)
				continue
			}
		}
		dst[k] = manifest.DeepCopy(sv)
	}
}

// componentFromPatch is the component an override patch describes
// (KubeVela's ToApplicationComponent: every trait not disabled, in order).
func componentFromPatch(patch *EnvComponentPatch, path, overlay render.FieldRef) render.Component {
	c := render.Component{Name: patch.Name, Type: patch.Type, Raw: patch.authored, Path: path}
	if props, ok := patch.Properties.value().(map[string]any); ok {
		c.Properties = manifest.DeepCopy(props).(map[string]any)
	}
	for k := range patch.Traits {
		if t := &patch.Traits[k]; !t.Disable {
			c.Traits = append(c.Traits, traitFromPatch(t, path, overlay.Child("traits").At(k)))
		}
	}
	c.AddOverlay(overlay)
	return c
}

func traitFromPatch(t *EnvTraitPatch, path, overlay render.FieldRef) render.Trait {
	tr := render.Trait{Type: t.Type, Path: path, Overlays: []render.FieldRef{overlay}}
	if props, ok := t.Properties.value().(map[string]any); ok {
		tr.Properties = manifest.DeepCopy(props).(map[string]any)
	}
	return tr
}
