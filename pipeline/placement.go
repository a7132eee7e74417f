package pipeline

import (
	"github.com/drydock-dev/drydock/karmada/propagation"
	"github.com/drydock-dev/drydock/manifest"
)

// PlacementKey is the key of Result.Placements for the object key in
// cluster c.
func PlacementKey(c string, key manifest.Key) string { return c + "\x00" + key.String() }

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
		cp.placements[PlacementKey(cp.name, r.key)] = r.placement
	}
	for j, e := range r.writes {
		cp.placements[PlacementKey(r.targets[j], e.Object.Key())] = r.placement
	}
}
