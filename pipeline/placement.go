package pipeline

import (
	"fmt"
	"io"

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
		if c.Replicas > 0 {
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
