package pipeline

import (
	"fmt"
	"io"

	"github.com/drydock-dev/drydock/karmada/propagation"
	"github.com/drydock-dev/drydock/manifest"
)

// Placement explains where an object went: for each cluster of the
// inventory, whether it holds the object and why, and how replicas were
// divided.
type Placement struct {
	// By is what placed the object: a propagation policy or a topology
	// policy.
	By string `json:"by"`
	// Why says how By was chosen (other candidates, priorities).
	Why []string `json:"why,omitempty"`
	// Clusters are the inventory's clusters, in order.
	Clusters []ClusterChoice `json:"clusters"`
	// Replicas is how the replicas were divided, step by step.
	Replicas []string `json:"replicas,omitempty"`
}

// ClusterChoice is one cluster's part in a Placement.
type ClusterChoice struct {
	Cluster  string `json:"cluster"`
	Selected bool   `json:"selected"`
	Why      string `json:"why"`
	Replicas int64  `json:"replicas,omitempty"`
}

// PlacementKey is the key of Result.Placements for the object key in
// cluster c.
func PlacementKey(c string, key manifest.Key) string { return c + "\x00" + key.String() }

// Print writes the placement as explain shows it.
func (p *Placement) Print(w io.Writer) {
	fmt.Fprintf(w, "placement: %s\n", p.By)
	for _, why := range p.Why {
		fmt.Fprintf(w, "  %s\n", why)
	}
	for _, c := range p.Clusters {
		mark := "-"
		if c.Selected {
			mark = "+"
		}
		line := fmt.Sprintf("  %s %s: %s", mark, c.Cluster, c.Why)
		switch {
		case c.Replicas == 1:
			line += " (1 replica)"
		case c.Replicas > 1:
			line += fmt.Sprintf(" (%d replicas)", c.Replicas)
		}
		fmt.Fprintln(w, line)
	}
	if len(p.Replicas) > 0 {
		fmt.Fprintln(w, "  replicas:")
		for _, r := range p.Replicas {
			fmt.Fprintf(w, "    %s\n", r)
		}
	}
}

// explainPlacement is why Karmada placed template t with policy p as d
// does (err: why it could not; d is then empty).
func explainPlacement(t *manifest.Object, cp *controlPlane, policy *propagation.Policy, d propagation.Decision, err error) *Placement {
	if err != nil {
		p := &Placement{By: policy.String(), Why: []string{"Karmada's scheduler cannot place it: " + err.Error()}}
		for _, m := range cp.members {
			p.Clusters = append(p.Clusters, ClusterChoice{Cluster: m.Name, Why: "not placed"})
		}
		return p
	}
	x := propagation.Explain(t, cp.props, cp.members, d)
	p := &Placement{By: x.Policy, Why: x.Why, Replicas: x.Replicas}
	for _, c := range x.Clusters {
		p.Clusters = append(p.Clusters, ClusterChoice{Cluster: c.Cluster, Selected: c.Selected, Why: c.Why, Replicas: c.Replicas})
	}
	return p
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
