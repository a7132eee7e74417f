package policy

import "github.com/drydock-dev/drydock/render"

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

// Replicate applies the replication policies among pols, in order, to
// comps: a selected component is replaced by one copy per key, after the
// components not selected. keys holds each returned component's
// context.replicaKey ("" for none).
func Replicate(app *render.Application, pols []*render.Policy, comps []render.Component) (replicated []render.Component, keys []string, err error) {
	keys = make([]string, len(comps))
	for _, p := range pols {
		if p.Type != "replication" || p.Properties == nil {
			continue
		}
		spec, err := parseReplication(p.Properties)
		if err != nil {
			return nil, nil, policyFieldErr(app, p, render.ErrorPath(p.Properties, err), "failed to parse replicate policy %s: %v", p.Name, err)
		}
		sel := map[string]bool{}
		for _, s := range spec.Selector {
			sel[s] = true
		}
		var kept, replicas []render.Component
		var keptKeys, replicaKeys []string
		for i, c := range comps {
			if !sel[c.Name] {
				kept, keptKeys = append(kept, c), append(keptKeys, keys[i])
				continue
			}
			for _, k := range spec.Keys {
				replicas, replicaKeys = append(replicas, c.Clone()), append(replicaKeys, k)
			}
		}
		if len(kept) == len(comps) {
			return nil, nil, policyErr(app, p, "selector", "no component selected to replicate")
		}
		comps, keys = append(kept, replicas...), append(keptKeys, replicaKeys...)
	}
	return comps, keys, nil
}
