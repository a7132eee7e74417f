package propagation

import (
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/karmada"
	"github.com/drydock-dev/drydock/manifest"
)

// Explanation says why Karmada placed a template as Decision d does:
// which propagation policy won and why, why each member holds the
// template or not, and how its replicas were divided.
type Explanation struct {
	// Policy is the policy that placed the template.
	Policy string `json:"by"`
	// Why explains the choice of Policy over the other candidates.
	Why []string `json:"why,omitempty"`
	// Clusters are the members, in inventory order.
	Clusters []ClusterReason `json:"clusters"`
	// Replicas tells the division step by step (empty when nothing was
	// divided).
	Replicas []string `json:"replicas,omitempty"`
}

// ClusterReason is one member's part in an Explanation.
type ClusterReason struct {
	Cluster  string `json:"cluster"`
	Selected bool   `json:"selected"`
	Why      string `json:"why"`
	Replicas int64  `json:"replicas,omitempty"`
}

// seatTraceMax bounds the replicas traced one by one.
const seatTraceMax = 20

// Explain explains d, the decision Schedule made for template with
// policy d.Policy among policies over members.
func Explain(template *manifest.Object, policies []*Policy, members []*cluster.Cluster, d Decision) Explanation {
	p := d.Policy
	x := Explanation{Policy: p.String(), Why: choice(template, policies, p)}
	w, _ := readWorkload(template)
	var term *AffinityTerm
	for i := range p.Affinities {
		if p.Affinities[i].Name == d.Affinity {
			term = &p.Affinities[i]
		}
	}
	if d.Affinity != "" {
		x.Why = append(x.Why, fmt.Sprintf("cluster affinity term %q is the first that can hold it", d.Affinity))
	}
	if d.Empty != "" {
		x.Why = append(x.Why, d.Empty)
	}
	targets := map[string]Target{}
	var selected []*cluster.Cluster
	for _, t := range d.Targets {
		targets[t.Cluster.Name] = t
		selected = append(selected, t.Cluster)
	}
	for _, c := range members {
		r := ClusterReason{Cluster: c.Name}
		if t, ok := targets[c.Name]; ok {
			r.Selected, r.Replicas, r.Why = true, t.Replicas, selectedWhy(p)
		} else if why := p.rejects(c, w, term); why != "" {
			r.Why = strings.Replace(why, "cluster(s)", "the cluster", 1)
		} else if d.Empty != "" {
			r.Why = "feasible, but a workload with 0 replicas gets no share"
		} else {
			r.Why = "feasible, but not chosen (spread constraints or a share of 0 replicas)"
		}
		x.Clusters = append(x.Clusters, r)
	}
	if d.Workload && w.replicas > 0 {
		x.Replicas = division(p, w, selected, targets)
	}
	return x
}

// ExplainFailure explains why policy p placed template nowhere: err is
// what Schedule returned.
func ExplainFailure(p *Policy, members []*cluster.Cluster, err error) Explanation {
	x := Explanation{Policy: p.String(), Why: []string{"Karmada's scheduler cannot place it: " + manifest.Format(err, nil)}}
	for _, m := range members {
		x.Clusters = append(x.Clusters, ClusterReason{Cluster: m.Name, Why: "not placed"})
	}
	return x
}

// choice explains why p was chosen among the policies selecting template.
func choice(template *manifest.Object, policies []*Policy, p *Policy) []string {
	winner := p.implicitPriority(template)
	out := []string{fmt.Sprintf("%s selects it %s, priority %d", p, selectorKind(winner), p.Priority)}
	for _, q := range policies {
		if q == p {
			continue
		}
		implicit := q.implicitPriority(template)
		if implicit == karmada.PriorityMismatch {
			continue
		}
		if q.Kind != p.Kind {
			if q.Kind == KindClusterPropagationPolicy {
				out = append(out, fmt.Sprintf("%s also selects it, but a PropagationPolicy of its namespace comes first", q))
			}
			continue
		}
		if p.Kind == KindPropagationPolicy && q.Namespace != template.Namespace() {
			continue
		}
		var why string
		switch {
		case q.Priority < p.Priority:
			why = fmt.Sprintf("its priority %d is lower", q.Priority)
		case implicit < winner:
			why = fmt.Sprintf("it selects it %s, and %s wins", selectorKind(implicit), selectorKind(winner))
		default:
			why = "same priority and selector kind: the name that sorts first wins"
		}
		out = append(out, fmt.Sprintf("%s also selects it, not chosen: %s", q, why))
	}
	return out
}

func selectorKind(implicit int) string {
	switch implicit {
	case karmada.PriorityName:
		return "by name"
	case karmada.PriorityLabelSelector:
		return "by label selector"
	}
	return "by kind (matches all)"
}

func selectedWhy(p *Policy) string {
	if p.Affinity == nil && len(p.Affinities) == 0 {
		return "selected: the policy has no cluster affinity"
	}
	return "selected: matches the cluster affinity"
}

// division tells how the replicas went to the selected clusters.
func division(p *Policy, w workload, selected []*cluster.Cluster, targets map[string]Target) []string {
	var out []string
	switch p.strategy() {
	case strategyDuplicated:
		return []string{fmt.Sprintf("Duplicated: every selected cluster runs all %d replicas", w.replicas)}
	case strategyAggregated:
		out = append(out, fmt.Sprintf("Divided, Aggregated: %d replicas packed into as few clusters as their room allows", w.replicas))
	case strategyDynamicWeight:
		out = append(out, fmt.Sprintf("Divided, Weighted by available replicas: %d replicas in proportion to each cluster's room", w.replicas))
	case strategyStaticWeight:
		weights := p.weights(selected)
		parts := make([]string, len(selected))
		for i, c := range selected {
			parts[i] = fmt.Sprintf("%s %d", c.Name, weights[i])
		}
		out = append(out, fmt.Sprintf("Divided, static weights %s: %d replicas by Webster's method (each replica to the highest weight/(2×replicas+1))", strings.Join(parts, ", "), w.replicas))
		out = append(out, websterTrace(w, weights, selected)...)
	}
	var shares []string
	for _, c := range selected {
		shares = append(shares, fmt.Sprintf("%s %d", c.Name, targets[c.Name].Replicas))
	}
	return append(out, "result: "+strings.Join(shares, ", "))
}

// websterTrace names the cluster each replica went to, up to
// seatTraceMax replicas.
func websterTrace(w workload, weights []int64, clusters []*cluster.Cluster) []string {
	if w.replicas > seatTraceMax {
		return []string{fmt.Sprintf("(%d replicas: too many to list one by one)", w.replicas)}
	}
	var out []string
	prev := make([]int64, len(clusters))
	for n := int64(1); n <= w.replicas; n++ {
		seats := webster(n, weights, clusters, descendingUID(w.uid))
		for i := range seats {
			if seats[i] > prev[i] {
				out = append(out, fmt.Sprintf("replica %d → %s (%d/%d = %.2f)", n, clusters[i].Name, weights[i], 2*prev[i]+1, float64(weights[i])/float64(2*prev[i]+1)))
			}
		}
		prev = seats
	}
	return out
}
