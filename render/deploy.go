package render

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// placement is one deploy target of a topology policy.
type placement struct {
	cluster, namespace string
}

// deploy emulates KubeVela's deploy step: placements from topology
// policies, components patched by override policies and replicated by
// replication policies, each component applied to each placement.
func (w *workflowRun) deploy(s *WorkflowStep) error {
	if auto, ok := s.Properties["auto"].(bool); ok && !auto {
		if err := w.suspend(s.Name); err != nil {
			return err
		}
	}
	pols, err := w.selectPolicies(s)
	if err != nil {
		return err
	}
	var names []string
	for _, p := range pols {
		names = append(names, p.Name)
	}
	pls, err := w.placements(pols)
	if err != nil {
		return err
	}
	comps, err := w.overrideComponents(pols)
	if err != nil {
		return err
	}
	comps, keys, err := w.replicate(pols, comps)
	if err != nil {
		return err
	}
	for _, i := range componentOrder(comps) {
		for _, pl := range pls {
			p := Placement{Cluster: pl.cluster, Namespace: pl.namespace, ReplicaKey: keys[i]}
			if err := w.apply(&comps[i], p, s.Name, names); err != nil {
				return withDeployContext(err, s.Name, pols)
			}
		}
	}
	return nil
}

func (w *workflowRun) selectPolicies(s *WorkflowStep) ([]*Policy, error) {
	var out []*Policy
	raw, _ := s.Properties["policies"].([]any)
	for i, r := range raw {
		name, _ := r.(string)
		p := w.policy(name)
		if p == nil {
			return nil, &Error{Pos: w.pos(manifest.Path(s.Path, "properties", "policies", i)), App: w.app.Name,
				Err: fmt.Errorf("step %q: policy %q not found", s.Name, name)}
		}
		out = append(out, p)
	}
	return out, nil
}

func (w *workflowRun) placements(pols []*Policy) ([]placement, error) {
	var out []placement
	seen := map[placement]bool{}
	found := false
	for _, p := range pols {
		if p.Type != "topology" {
			continue
		}
		found = true
		pl, err := w.topology(p)
		if err != nil {
			return nil, err
		}
		for _, x := range pl {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
	}
	if !found {
		out = []placement{{cluster: cluster.Local}}
	}
	return out, nil
}

var topologyFields = map[string]bool{"clusters": true, "clusterLabelSelector": true, "clusterSelector": true, "allowEmpty": true, "namespace": true}

func (w *workflowRun) topology(p *Policy) ([]placement, error) {
	if p.Properties == nil {
		return nil, w.policyErr(p, "", "topology policy must not have empty properties")
	}
	for _, k := range manifest.SortedKeys(p.Properties) {
		if !topologyFields[k] {
			return nil, w.policyErr(p, k, "unknown field %q", k)
		}
	}
	ns := manifest.String(p.Properties, "namespace")
	var names []string
	if raw, ok := p.Properties["clusters"]; ok && raw != nil {
		list, _ := raw.([]any)
		for i, c := range list {
			name, _ := c.(string)
			if _, ok := w.inv.Get(name); !ok {
				return nil, w.policyErr(p, manifest.Path("clusters", i), "cluster %q is not in the cluster inventory", name)
			}
			names = append(names, name)
		}
	} else if sel := selector(p.Properties); sel != nil {
		names = w.matchClusters(sel)
		allow, _ := p.Properties["allowEmpty"].(bool)
		if len(names) == 0 && !allow {
			return nil, w.policyErr(p, "clusterLabelSelector", "failed to find any cluster matches given labels")
		}
	} else {
		names = []string{cluster.Local}
	}
	out := make([]placement, 0, len(names))
	for _, n := range names {
		out = append(out, placement{cluster: n, namespace: ns})
	}
	return out, nil
}

func selector(props map[string]any) map[string]string {
	for _, k := range []string{"clusterLabelSelector", "clusterSelector"} {
		if raw, ok := props[k]; ok && raw != nil {
			m, _ := raw.(map[string]any)
			out := map[string]string{}
			for k, v := range m {
				out[k] = fmt.Sprint(v)
			}
			return out
		}
	}
	return nil
}

// matchClusters lists clusters whose labels include sel, `local` first.
func (w *workflowRun) matchClusters(sel map[string]string) []string {
	var out []string
	for _, c := range w.inv.Clusters() {
		ok := true
		for k, v := range sel {
			if c.Labels[k] != v {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, c.Name)
		}
	}
	return out
}

func (w *workflowRun) policyErr(p *Policy, field, format string, args ...any) error {
	path := p.Path + ".properties"
	if field != "" {
		path += "." + field
	}
	if p.Properties == nil {
		path = p.Path
	}
	return &Error{Pos: w.pos(path), App: w.app.Name,
		Err: fmt.Errorf("policy %q: %s", p.Name, fmt.Sprintf(format, args...))}
}

// overrideComponents applies the override policies to copies of the
// application's components.
func (w *workflowRun) overrideComponents(pols []*Policy) ([]Component, error) {
	comps := make([]Component, len(w.app.Components))
	for i, c := range w.app.Components {
		comps[i] = c.clone()
	}
	for _, p := range pols {
		if p.Type != "override" {
			continue
		}
		if p.Properties == nil {
			return nil, w.policyErr(p, "", "override policy must not have empty properties")
		}
		var err error
		if comps, err = w.override(p, comps); err != nil {
			return nil, err
		}
	}
	return comps, nil
}

var componentNamePattern = regexp.MustCompile(`[a-z]([a-z-]{0,61}[a-z])?`)

func (w *workflowRun) override(p *Policy, comps []Component) ([]Component, error) {
	patches, _ := p.Properties["components"].([]any)
	for i, raw := range patches {
		patch, ok := raw.(map[string]any)
		if !ok {
			return nil, w.policyErr(p, manifest.Path("components", i), "component patch must be a mapping")
		}
		name, typ := manifest.String(patch, "name"), manifest.String(patch, "type")
		overlay := manifest.Path(p.Path, "properties", "components", i)
		if name == "" {
			for j := range comps {
				if typ == "" || comps[j].Type == typ {
					mergeComponent(&comps[j], patch, overlay)
					comps[j].addOverlay(overlay)
				}
			}
			continue
		}
		re, err := regexp.Compile(regexpFromWildcard(name))
		if err != nil {
			return nil, w.policyErr(p, manifest.Path("components", i, "name"), "invalid component name pattern %q: %v", name, err)
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
				mergeComponent(&comps[j], patch, overlay)
				comps[j].addOverlay(overlay)
			}
		}
		if !matched && componentNamePattern.MatchString(name) {
			comps = append(comps, componentFromPatch(patch, p.Path, overlay))
		}
	}
	if sel, ok := p.Properties["selector"].([]any); ok {
		keep := map[string]bool{}
		for _, s := range sel {
			if n, ok := s.(string); ok {
				keep[n] = true
			}
		}
		var out []Component
		for _, c := range comps {
			if keep[c.Name] {
				out = append(out, c)
			}
		}
		comps = out
	}
	return comps, nil
}

// regexpFromWildcard turns a component name pattern into KubeVela's
// (unanchored) regular expression: `*` matches anything.
func regexpFromWildcard(name string) string { return strings.ReplaceAll(name, "*", ".*") }

// mergeComponent merges an override patch into c: properties deep-merged
// (lists replaced, zero values override), traits matched by type.
// overlay is the patch's field path in the Application.
func mergeComponent(c *Component, patch map[string]any, overlay string) {
	if props, ok := patch["properties"].(map[string]any); ok {
		if c.Properties == nil {
			c.Properties = map[string]any{}
		}
		mergeMaps(c.Properties, props)
	}
	traits, _ := patch["traits"].([]any)
	for k, raw := range traits {
		t, _ := raw.(map[string]any)
		typ := manifest.String(t, "type")
		disable, _ := t["disable"].(bool)
		tpath := manifest.Path(overlay, "traits", k)
		idx := -1
		for j := range c.Traits {
			if c.Traits[j].Type == typ {
				idx = j
				break
			}
		}
		switch {
		case idx >= 0 && disable:
			c.Traits = append(c.Traits[:idx:idx], c.Traits[idx+1:]...)
		case idx >= 0:
			if c.Traits[idx].Properties == nil {
				c.Traits[idx].Properties = map[string]any{}
			}
			props, _ := t["properties"].(map[string]any)
			mergeMaps(c.Traits[idx].Properties, props)
			c.Traits[idx].Overlays = append(slices.Clip(c.Traits[idx].Overlays), tpath)
		case !disable:
			c.Traits = append(c.Traits, traitFromPatch(t, c.Path, tpath))
		}
	}
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
func componentFromPatch(patch map[string]any, path, overlay string) Component {
	c := Component{Name: manifest.String(patch, "name"), Type: manifest.String(patch, "type"), Raw: patch, Path: path}
	if props, ok := patch["properties"].(map[string]any); ok {
		c.Properties = manifest.DeepCopy(props).(map[string]any)
	}
	traits, _ := patch["traits"].([]any)
	for k, raw := range traits {
		t, _ := raw.(map[string]any)
		if d, _ := t["disable"].(bool); !d {
			c.Traits = append(c.Traits, traitFromPatch(t, path, manifest.Path(overlay, "traits", k)))
		}
	}
	c.addOverlay(overlay)
	return c
}

func traitFromPatch(t map[string]any, path, overlay string) Trait {
	tr := Trait{Type: manifest.String(t, "type"), Path: path, Overlays: []string{overlay}}
	if props, ok := t["properties"].(map[string]any); ok {
		tr.Properties = manifest.DeepCopy(props).(map[string]any)
	}
	return tr
}

// replicate applies replication policies: selected components are copied
// once per key, their context.replicaKey set.
func (w *workflowRun) replicate(pols []*Policy, comps []Component) ([]Component, []string, error) {
	keys := make([]string, len(comps))
	for _, p := range pols {
		if p.Type != "replication" || p.Properties == nil {
			continue
		}
		sel := map[string]bool{}
		for _, s := range strs(p.Properties["selector"]) {
			sel[s] = true
		}
		var kept, replicas []Component
		var keptKeys, replicaKeys []string
		for i, c := range comps {
			if !sel[c.Name] {
				kept, keptKeys = append(kept, c), append(keptKeys, keys[i])
				continue
			}
			for _, k := range strs(p.Properties["keys"]) {
				replicas, replicaKeys = append(replicas, c.clone()), append(replicaKeys, k)
			}
		}
		if len(kept) == len(comps) {
			return nil, nil, w.policyErr(p, "selector", "no component selected to replicate")
		}
		comps, keys = append(kept, replicas...), append(keptKeys, replicaKeys...)
	}
	return comps, keys, nil
}

func (c Component) clone() Component {
	out := c
	if c.Properties != nil {
		out.Properties = manifest.DeepCopy(c.Properties).(map[string]any)
	}
	out.Traits = make([]Trait, len(c.Traits))
	for i, t := range c.Traits {
		out.Traits[i] = t
		if t.Properties != nil {
			out.Traits[i].Properties = manifest.DeepCopy(t.Properties).(map[string]any)
		}
	}
	return out
}

// withDeployContext names the deploy step and its override policies in a
// render error: an override may be what made the properties invalid.
func withDeployContext(err error, step string, pols []*Policy) error {
	var re *Error
	if !errors.As(err, &re) {
		return err
	}
	re.Step = step
	for _, p := range pols {
		if p.Type == "override" {
			re.Overrides = append(re.Overrides, p.Name)
		}
	}
	return err
}

// componentOrder is the order a deploy dispatches components in: as
// written, except that a component waits for the components it dependsOn
// and for those producing its inputs (KubeVela dispatches the rest in
// parallel, so only this order is observable). Cycles keep written order.
func componentOrder(comps []Component) []int {
	producer := map[string]int{}
	byName := map[string]int{}
	for i, c := range comps {
		if _, ok := byName[c.Name]; !ok {
			byName[c.Name] = i
		}
		for _, o := range c.Outputs {
			producer[o.Name] = i
		}
	}
	state := make([]int, len(comps))
	var out []int
	var visit func(i int)
	visit = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		for _, d := range comps[i].DependsOn {
			if j, ok := byName[d]; ok {
				visit(j)
			}
		}
		for _, in := range comps[i].Inputs {
			if j, ok := producer[strings.SplitN(in.From, ".", 2)[0]]; ok {
				visit(j)
			}
		}
		state[i] = 2
		out = append(out, i)
	}
	for i := range comps {
		visit(i)
	}
	return out
}

// addOverlay records that the override at path (an entry of an override
// policy's components) shaped c, so errors in its properties point there.
func (c *Component) addOverlay(path string) {
	c.Overlays = append(slices.Clip(c.Overlays), path)
}
