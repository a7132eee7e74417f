package policy

import (
	"slices"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/render"
)

// ReplicationPolicySpec is KubeVela's v1alpha1.ReplicationPolicySpec: the
// properties of a replication policy.
type ReplicationPolicySpec struct {
	Keys     []string `json:"keys,omitempty"`
	Selector []string `json:"selector,omitempty"`
}

// parseReplication decodes a replication policy's properties strictly,
// as the deploy step does. A null key is left out, as drydock always has
// (KubeVela decodes it as "": a replica whose context.replicaKey is "").
func parseReplication(props map[string]any) (*ReplicationPolicySpec, error) {
	var spec ReplicationPolicySpec
	if err := render.DecodeStrict(props, &spec); err != nil {
		return nil, err
	}
	l, _ := props["keys"].([]any)
	spec.Keys = nil
	for _, k := range l {
		if s, ok := k.(string); ok {
			spec.Keys = append(spec.Keys, s)
		}
	}
	return &spec, nil
}

// Replicate applies the replication policies among pols to comps as
// KubeVela's ReplicateComponents does: each policy selects among comps as
// given (not among an earlier policy's replicas), the selected components
// are removed and one copy per key is added after the components no
// policy selected, in the policies' order. keys holds each returned
// component's context.replicaKey ("" for none).
func Replicate(app *render.Application, pols []*render.Policy, comps []render.Component) (replicated []render.Component, keys []string, err error) {
	removed := map[string]bool{}
	var replicas []render.Component
	var replicaKeys []string
	for _, p := range pols {
		if p.Type != "replication" || p.Properties == nil {
			continue
		}
		spec, err := parseReplication(p.Properties)
		if err != nil {
			return nil, nil, render.PolicyFieldError(app, p, render.ErrorPath(p.Properties, err), "failed to parse replicate policy %s: %v", p.Name, err)
		}
		selected := false
		for _, c := range comps {
			if !slices.Contains(spec.Selector, c.Name) {
				continue
			}
			selected, removed[c.Name] = true, true
			for _, k := range spec.Keys {
				replicas, replicaKeys = append(replicas, c.Clone()), append(replicaKeys, k)
			}
		}
		if !selected {
			return nil, nil, render.PolicyError(app, p, fieldpath.New("selector"), "no component selected to replicate")
		}
	}
	for _, c := range comps {
		if !removed[c.Name] {
			replicated, keys = append(replicated, c), append(keys, "")
		}
	}
	return append(replicated, replicas...), append(keys, replicaKeys...), nil
}
