package workflow

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
)

// placement is one deploy target of a topology policy.
type placement struct {
	cluster, namespace string
}

// deploy emulates KubeVela's deploy step: placements from topology
// policies, components patched by override policies and replicated by
// replication policies, each component applied to each placement.
func (w *workflowRun) deploy(s *render.WorkflowStep) error {
	params, err := w.deployParameters(s)
	if err != nil {
		return err
	}
	if params.Auto != nil && !*params.Auto {
		if err := w.suspend(s.Name); err != nil {
			return err
		}
	}
	if *params.Parallelism < 1 {
		return w.stepFieldErr(s, "properties.parallelism", "parallelism cannot be smaller than 1")
	}
	pols, err := w.selectPolicies(s, params.Policies)
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
	comps, err := w.overrideComponents(s, pols)
	if err != nil {
		return err
	}
	comps, keys, err := w.replicate(pols, comps)
	if err != nil {
		return err
	}
	for _, i := range componentOrder(comps) {
		for _, pl := range pls {
			p := cueval.Placement{Cluster: pl.cluster, Namespace: pl.namespace, ReplicaKey: keys[i]}
			if err := w.apply(&comps[i], p, s.Name, names); err != nil {
				return withDeployContext(err, s.Name, pols)
			}
		}
	}
	return nil
}

// deployParameter is the parameter of KubeVela's deploy step definition
// (vela-templates/definitions/internal/workflowstep/deploy.cue).
const deployParameter = `parameter: {
	auto:                     *true | bool
	policies:                 *[] | [...string]
	parallelism:              *5 | int
	ignoreTerraformComponent: *true | bool
}
`

// deployParameters evaluates a deploy step's properties with the deploy
// definition's parameter, defaults included. The parser has decoded a
// top-level step's properties strictly already; a sub-step's are only
// checked here.
func (w *workflowRun) deployParameters(s *render.WorkflowStep) (*kvDeployWorkflowStepSpec, error) {
	v := w.e.Compile(deployParameter)
	if s.Properties != nil {
		v = v.FillPath(cue.ParsePath("parameter"), w.e.Context().Encode(cueval.NormalizeNumbers(s.Properties)))
	}
	params := &kvDeployWorkflowStepSpec{}
	param := v.LookupPath(cue.ParsePath("parameter"))
	err := param.Validate(cue.Concrete(true))
	if err == nil {
		var data []byte
		if data, err = param.MarshalJSON(); err == nil {
			err = json.Unmarshal(data, params)
		}
	}
	if err != nil {
		rel := "properties"
		if errs := cueerrors.Errors(err); len(errs) > 0 {
			if p := errs[0].Path(); len(p) > 1 && p[0] == "parameter" {
				rel = render.PropertyPath("", p[1:])
			}
		}
		return nil, w.stepFieldErr(s, rel, "%s", render.CUEMessage(err))
	}
	return params, nil
}

// stepFieldErr is a step's refusal naming the field (relative to the step).
func (w *workflowRun) stepFieldErr(s *render.WorkflowStep, rel, format string, args ...any) error {
	path := render.JoinField(s.Path, rel)
	return &render.Error{Pos: w.pos(path), App: w.app.Name,
		Err: fmt.Errorf("step %q: %s: %s", s.Name, render.DisplayPath(path), fmt.Sprintf(format, args...))}
}

// selectPolicies finds the policies a deploy step names, among the
// Application's and the external ones the parser loaded.
func (w *workflowRun) selectPolicies(s *render.WorkflowStep, names []string) ([]*render.Policy, error) {
	var out []*render.Policy
	for i, name := range names {
		p := w.policy(name)
		if p == nil {
			return nil, &render.Error{Pos: w.pos(manifest.Path(s.Path, "properties", "policies", i)), App: w.app.Name,
				Err: fmt.Errorf("step %q: policy %q not found", s.Name, name)}
		}
		out = append(out, p)
	}
	return out, nil
}

func (w *workflowRun) placements(pols []*render.Policy) ([]placement, error) {
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

// topology is the placements of a topology policy
// (GetPlacementsFromTopologyPolicies): its clusters, else the clusters its
// clusterLabelSelector matches, else the hub. clusterSelector, the
// deprecated spelling, only counts behind KubeVela's DeprecatedPolicySpec
// feature gate, which is off.
func (w *workflowRun) topology(p *render.Policy) ([]placement, error) {
	if p.Properties == nil {
		return nil, w.policyErr(p, "", "topology policy %s must not have empty properties", p.Name)
	}
	var spec kvTopologyPolicySpec
	if err := render.DecodeStrict(p.Properties, &spec); err != nil {
		return nil, w.policyFieldErr(p, render.ErrorPath(p.Properties, err), "failed to parse topology policy %s: %v", p.Name, err)
	}
	var names []string
	switch {
	case spec.Clusters != nil:
		for i, name := range spec.Clusters {
			if _, ok := w.inv.Get(name); !ok {
				return nil, w.policyErr(p, manifest.Path("clusters", i), "cluster %q is not in the cluster inventory", name)
			}
			names = append(names, name)
		}
	case spec.ClusterLabelSelector != nil:
		names = w.matchClusters(spec.ClusterLabelSelector)
		if len(names) == 0 && !spec.AllowEmpty {
			return nil, w.policyErr(p, "clusterLabelSelector", "failed to find any cluster matches given labels")
		}
	default:
		names = []string{cluster.Local}
	}
	out := make([]placement, 0, len(names))
	for _, n := range names {
		out = append(out, placement{cluster: n, namespace: spec.Namespace})
	}
	return out, nil
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

func (w *workflowRun) policyErr(p *render.Policy, field, format string, args ...any) error {
	path := p.Path + ".properties"
	if field != "" {
		path += "." + field
	}
	if p.Properties == nil {
		path = p.Path
	}
	return &render.Error{Pos: w.pos(path), App: w.app.Name,
		Err: fmt.Errorf("policy %q: %s", p.Name, fmt.Sprintf(format, args...))}
}

// policyFieldErr is a refusal of a policy's properties in KubeVela's
// words, naming the field (rel, relative to the properties).
func (w *workflowRun) policyFieldErr(p *render.Policy, rel, format string, args ...any) error {
	path := render.JoinField(p.Path+".properties", rel)
	if p.Properties == nil {
		path = p.Path
	}
	return &render.Error{Pos: w.pos(path), App: w.app.Name,
		Err: fmt.Errorf("policy %q: %s: %s", p.Name, render.DisplayPath(path), fmt.Sprintf(format, args...))}
}

// overrideComponents applies the override policies to copies of the
// application's components (overrideConfiguration).
func (w *workflowRun) overrideComponents(s *render.WorkflowStep, pols []*render.Policy) ([]render.Component, error) {
	comps := make([]render.Component, len(w.app.Components))
	for i, c := range w.app.Components {
		comps[i] = c.Clone()
	}
	for _, p := range pols {
		if p.Type != "override" {
			continue
		}
		if p.Properties == nil {
			return nil, w.policyErr(p, "", "override policy %s must not have empty properties", p.Name)
		}
		var spec kvOverridePolicySpec
		if err := render.DecodeStrict(p.Properties, &spec); err != nil {
			return nil, w.policyFieldErr(p, render.ErrorPath(p.Properties, err), "failed to parse override policy %s: %v", p.Name, err)
		}
		var err error
		if comps, err = w.override(s, p, comps); err != nil {
			return nil, err
		}
	}
	return comps, nil
}

var componentNamePattern = regexp.MustCompile(`[a-z]([a-z-]{0,61}[a-z])?`)

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
func (w *workflowRun) override(s *render.WorkflowStep, p *render.Policy, comps []render.Component) ([]render.Component, error) {
	patches, _ := p.Properties["components"].([]any)
	failed, lost := 0, ""
	var last error
	merge := func(c *render.Component, patch map[string]any, overlay string, named bool) {
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
	for i, raw := range patches {
		patch, _ := raw.(map[string]any)
		name, typ := manifest.String(patch, "name"), manifest.String(patch, "type")
		overlay := manifest.Path(p.Path, "properties", "components", i)
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
				merge(&comps[j], patch, overlay, true)
			}
		}
		if !matched && componentNamePattern.MatchString(name) {
			comps = append(comps, componentFromPatch(patch, p.Path, overlay))
		}
	}
	if lost != "" && failed == 0 {
		return nil, w.policyFieldErr(p, "components", "failed to apply override policy %s: KubeVela's merge loses component %s "+
			"(a trait patch whose properties are not an object, then one that merges) and dereferences it: the deploy fails", p.Name, lost)
	}
	if failed > 0 {
		if last != nil && !errors.Is(last, errComponentLost) {
			return nil, w.policyFieldErr(p, "components", "failed to apply override policy %s: failed to merge application components: %v", p.Name, last)
		}
		w.warnf("%s: application %q policy %q: a component patch does not merge (its properties are not an object); KubeVela then drops every component of deploy step %q, which dispatches nothing",
			w.pos(p.Path+".properties.components"), w.app.Name, p.Name, s.Name)
		return nil, nil
	}
	return selectComponents(p, comps), nil
}

// selectComponents keeps the components an override policy's selector
// names (all when it has none).
func selectComponents(p *render.Policy, comps []render.Component) []render.Component {
	sel, ok := p.Properties["selector"].([]any)
	if !ok {
		return comps
	}
	keep := map[string]bool{}
	for _, s := range sel {
		if n, ok := s.(string); ok {
			keep[n] = true
		}
	}
	var out []render.Component
	for _, c := range comps {
		if keep[c.Name] {
			out = append(out, c)
		}
	}
	return out
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
func mergeComponent(c *render.Component, patch map[string]any, overlay string) error {
	if raw, ok := patch["properties"]; ok && raw != nil {
		props, isMap := raw.(map[string]any)
		if !isMap {
			return fmt.Errorf("failed to merge component properties: %w", notAMap(raw))
		}
		if c.Properties == nil {
			c.Properties = map[string]any{}
		}
		mergeMaps(c.Properties, props)
	}
	var failed int
	var last error
	traits, _ := patch["traits"].([]any)
	for k, raw := range traits {
		t, _ := raw.(map[string]any)
		typ := manifest.String(t, "type")
		disable, _ := t["disable"].(bool)
		tpath := manifest.Path(overlay, "traits", k)
		idx := slices.IndexFunc(c.Traits, func(tr render.Trait) bool { return tr.Type == typ })
		switch {
		case idx >= 0 && disable:
			c.Traits = append(c.Traits[:idx:idx], c.Traits[idx+1:]...)
		case idx >= 0:
			last = mergeTrait(&c.Traits[idx], t, tpath)
			if last != nil {
				failed++
			}
		case !disable:
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
func mergeTrait(tr *render.Trait, t map[string]any, tpath string) error {
	raw := t["properties"]
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
func componentFromPatch(patch map[string]any, path, overlay string) render.Component {
	c := render.Component{Name: manifest.String(patch, "name"), Type: manifest.String(patch, "type"), Raw: patch, Path: path}
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
	c.AddOverlay(overlay)
	return c
}

func traitFromPatch(t map[string]any, path, overlay string) render.Trait {
	tr := render.Trait{Type: manifest.String(t, "type"), Path: path, Overlays: []string{overlay}}
	if props, ok := t["properties"].(map[string]any); ok {
		tr.Properties = manifest.DeepCopy(props).(map[string]any)
	}
	return tr
}

// replicate applies replication policies: selected components are copied
// once per key, their context.replicaKey set.
func (w *workflowRun) replicate(pols []*render.Policy, comps []render.Component) ([]render.Component, []string, error) {
	keys := make([]string, len(comps))
	for _, p := range pols {
		if p.Type != "replication" || p.Properties == nil {
			continue
		}
		var spec kvReplicationPolicySpec
		if err := render.DecodeStrict(p.Properties, &spec); err != nil {
			return nil, nil, w.policyFieldErr(p, render.ErrorPath(p.Properties, err), "failed to parse replicate policy %s: %v", p.Name, err)
		}
		sel := map[string]bool{}
		for _, s := range strs(p.Properties["selector"]) {
			sel[s] = true
		}
		var kept, replicas []render.Component
		var keptKeys, replicaKeys []string
		for i, c := range comps {
			if !sel[c.Name] {
				kept, keptKeys = append(kept, c), append(keptKeys, keys[i])
				continue
			}
			for _, k := range strs(p.Properties["keys"]) {
				replicas, replicaKeys = append(replicas, c.Clone()), append(replicaKeys, k)
			}
		}
		if len(kept) == len(comps) {
			return nil, nil, w.policyErr(p, "selector", "no component selected to replicate")
		}
		comps, keys = append(kept, replicas...), append(keptKeys, replicaKeys...)
	}
	return comps, keys, nil
}

// withDeployContext names the deploy step and its override policies in a
// render error: an override may be what made the properties invalid.
func withDeployContext(err error, step string, pols []*render.Policy) error {
	var re *render.Error
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
func componentOrder(comps []render.Component) []int {
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

// strs is the strings of a list (schemas and the decoding of the policy
// have checked its type).
func strs(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, e := range l {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
