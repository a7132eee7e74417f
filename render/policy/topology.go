package policy

import (
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/render"
)

// TopologyPolicySpec is KubeVela's v1alpha1.TopologyPolicySpec: the
// properties of a topology policy.
type TopologyPolicySpec struct {
	Placement `json:",inline"`
	Namespace string `json:"namespace,omitempty"`
}

// Placement is KubeVela's v1alpha1.Placement: the clusters a topology
// policy names, or the labels that select them.
type Placement struct {
	Clusters                  []string          `json:"clusters,omitempty"`
	ClusterLabelSelector      map[string]string `json:"clusterLabelSelector,omitempty"`
	AllowEmpty                bool              `json:"allowEmpty,omitempty"`
	DeprecatedClusterSelector map[string]string `json:"clusterSelector,omitempty"`
}

// PlacementDecision is one deploy target of topology policies (KubeVela's
// v1alpha1.PlacementDecision): a cluster of the inventory, and the
// namespace that replaces the Application's ("" keeps it).
type PlacementDecision struct {
	Cluster, Namespace string
}

// Placements returns the deploy targets of the topology policies among
// pols, in order and without duplicates; the hub when there is none
// (KubeVela's GetPlacementsFromTopologyPolicies). inv is the cluster
// inventory the policies' clusters and labels refer to.
func Placements(app *render.Application, pols []*render.Policy, inv *cluster.Inventory) ([]PlacementDecision, error) {
	var out []PlacementDecision
	seen := map[PlacementDecision]bool{}
	found := false
	for _, p := range pols {
		if p.Type != "topology" {
			continue
		}
		found = true
		pl, err := topology(app, p, inv)
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
		out = []PlacementDecision{{Cluster: cluster.Local}}
	}
	return out, nil
}

// topology is the placements of a topology policy: its clusters, else the
// clusters its clusterLabelSelector matches, else the hub.
// clusterSelector, the deprecated spelling, only counts behind KubeVela's
// DeprecatedPolicySpec feature gate, which is off.
func topology(app *render.Application, p *render.Policy, inv *cluster.Inventory) ([]PlacementDecision, error) {
	if p.Properties == nil {
		return nil, render.PolicyError(app, p, nil, "topology policy %s must not have empty properties", p.Name)
	}
	var spec TopologyPolicySpec
	if err := render.DecodeStrict(p.Properties, &spec); err != nil {
		return nil, render.PolicyFieldError(app, p, render.ErrorPath(p.Properties, err), "failed to parse topology policy %s: %v", p.Name, err)
	}
	var names []string
	switch {
	case spec.Clusters != nil:
		for i, name := range spec.Clusters {
			if _, ok := inv.Get(name); !ok {
				return nil, render.PolicyError(app, p, fieldpath.New("clusters", i), "cluster %q is not in the cluster inventory", name)
			}
			names = append(names, name)
		}
	case spec.ClusterLabelSelector != nil:
		names = matchClusters(inv, spec.ClusterLabelSelector)
		if len(names) == 0 && !spec.AllowEmpty {
			return nil, render.PolicyError(app, p, fieldpath.New("clusterLabelSelector"), "failed to find any cluster matches given labels")
		}
	default:
		names = []string{cluster.Local}
	}
	out := make([]PlacementDecision, 0, len(names))
	for _, n := range names {
		out = append(out, PlacementDecision{Cluster: n, Namespace: spec.Namespace})
	}
	return out, nil
}

// matchClusters lists the clusters whose labels include sel, `local`
// first.
func matchClusters(inv *cluster.Inventory, sel map[string]string) []string {
	var out []string
	for _, c := range inv.Clusters() {
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
