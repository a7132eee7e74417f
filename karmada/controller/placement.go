package controller

import (
	"github.com/drydock-dev/drydock/karmada/propagation"
	"github.com/drydock-dev/drydock/manifest"
)

// Placements explain where Karmada placed each object it propagated
// (Options.Explain): the explanation of a template's placement, filed
// under every copy in a member and, for a control plane of the
// inventory, under the template in that control plane.
type Placements struct {
	byKey map[string]*propagation.Explanation
}

// Of is the explanation of the object key in cluster c; nil when Karmada
// did not place it (or p is nil).
func (p *Placements) Of(c string, key manifest.Key) *propagation.Explanation {
	if p == nil {
		return nil
	}
	return p.byKey[placementKey(c, key)]
}

// placementKey is the key of Placements.byKey for the object key in
// cluster c.
func placementKey(c string, key manifest.Key) string { return c + "\x00" + key.String() }

// explainPlacement is why Karmada placed template t with policy p as d
// does (err: why it could not; d is then empty).
func explainPlacement(t *manifest.Object, cp *controlPlane, p *propagation.Policy, d propagation.Decision, err error) *propagation.Explanation {
	if err != nil {
		x := propagation.ExplainFailure(p, cp.members, err)
		return &x
	}
	x := propagation.Explain(t, cp.props, cp.members, d)
	return &x
}

// explained files r's placement under the objects it placed and the
// template in its control plane.
func (cp *controlPlane) explained(r *placed) {
	if cp.placements == nil || r.placement == nil {
		return
	}
	if cp.name != "" {
		cp.placements.byKey[placementKey(cp.name, r.key)] = r.placement
	}
	for j, e := range r.writes {
		cp.placements.byKey[placementKey(r.targets[j], e.Object.Key())] = r.placement
	}
}
