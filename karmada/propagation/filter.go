package propagation

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
)

// ErrUnschedulable is wrapped by the errors of a template Karmada's
// scheduler cannot place: Karmada dispatches it to no cluster. The
// message is the scheduler's.
var ErrUnschedulable = errors.New("unschedulable")

// UnschedulableError is a scheduling failure in Karmada's words.
type UnschedulableError struct {
	Message string
}

func (e *UnschedulableError) Error() string { return e.Message }

// Is makes every UnschedulableError match ErrUnschedulable.
func (e *UnschedulableError) Is(target error) bool { return target == ErrUnschedulable }

func unschedulable(format string, args ...any) error {
	return &UnschedulableError{Message: fmt.Sprintf(format, args...)}
}

// filter runs Karmada's filter plugins over the members (the API
// enablement filter passes: drydock assumes every member serves every
// API). Karmada runs its plugins in map order; drydock reports a
// cluster's first failing filter in the registry's order: taints, cluster
// affinity, spread fields. No feasible cluster is Karmada's FitError.
func (p *Policy) filter(w workload, members []*cluster.Cluster, term *AffinityTerm) ([]*cluster.Cluster, error) {
	var out []*cluster.Cluster
	reasons := map[string]int{}
	for _, c := range members {
		if reason := p.rejects(c, w, term); reason != "" {
			reasons[reason]++
			continue
		}
		out = append(out, c)
	}
	if len(out) > 0 {
		return out, nil
	}
	if len(members) == 0 || len(reasons) == 0 {
		return nil, unschedulable("0/%d clusters are available: no cluster exists.", len(members))
	}
	var parts []string
	for r, n := range reasons {
		parts = append(parts, fmt.Sprintf("%d %s", n, r))
	}
	sort.Strings(parts)
	return nil, unschedulable("0/%d clusters are available: %s.", len(members), strings.Join(parts, ", "))
}

// rejects is the reason the first failing filter gives for c ("" when c
// fits).
func (p *Policy) rejects(c *cluster.Cluster, w workload, term *AffinityTerm) string {
	if t, ok := p.untolerated(c); ok {
		return fmt.Sprintf("cluster(s) had untolerated taint {%s}", t)
	}
	if !p.affinityMatches(c, w, term) {
		return "cluster(s) did not match the placement cluster affinity constraint"
	}
	for _, s := range p.Spread {
		switch {
		case s.Field == SpreadProvider && c.Provider == "":
			return "cluster(s) did not have provider property"
		case s.Field == SpreadRegion && c.Region == "":
			return "cluster(s) did not have region property"
		case s.Field == SpreadZone && len(c.Zones) == 0:
			return "cluster(s) did not have zones property"
		}
	}
	return ""
}

// affinityMatches is the ClusterAffinity filter: the policy's affinity,
// or the observed term's (with its overflow affinities for a workload).
func (p *Policy) affinityMatches(c *cluster.Cluster, w workload, term *AffinityTerm) bool {
	if term == nil {
		return p.Affinity.Matches(c)
	}
	if term.Affinity.Matches(c) {
		return true
	}
	if !w.isWorkload() {
		return false
	}
	for _, a := range term.Overflow {
		if a.Matches(c) {
			return true
		}
	}
	return false
}

// untolerated is the first NoSchedule or NoExecute taint of c that no
// cluster toleration of the policy tolerates.
func (p *Policy) untolerated(c *cluster.Cluster) (cluster.Taint, bool) {
	for _, t := range c.Taints {
		if t.Effect != "NoSchedule" && t.Effect != "NoExecute" {
			continue
		}
		tolerated := false
		for _, tol := range p.Tolerations {
			if tol.tolerates(t) {
				tolerated = true
				break
			}
		}
		if !tolerated {
			return t, true
		}
	}
	return cluster.Taint{}, false
}

// tolerates is Kubernetes' Toleration.ToleratesTaint without the Lt and Gt
// operators (which Karmada refuses).
func (tol Toleration) tolerates(t cluster.Taint) bool {
	if tol.Effect != "" && tol.Effect != t.Effect {
		return false
	}
	if tol.Key != "" && tol.Key != t.Key {
		return false
	}
	switch tol.Operator {
	case "", "Equal":
		return tol.Value == t.Value
	case "Exists":
		return true
	}
	return false
}
