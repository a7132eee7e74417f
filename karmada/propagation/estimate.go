package propagation

import (
	"math"

	"github.com/drydock-dev/drydock/cluster"
)

// podsPerModelNode is the pod capacity Karmada gives each node of a
// resource model (Kubernetes' default of 110 pods per node).
const podsPerModelNode = 110

// availableReplicas is what Karmada's scheduler knows of each candidate's
// room for w (calAvailableReplicas with only the general estimator, the
// default): the estimate from the inventory's resource figures, or w's
// replica count where there is no estimate (a template with no replicas,
// or an estimate of MaxInt32, which Karmada takes for "unbounded").
func availableReplicas(clusters []*cluster.Cluster, w workload) []int64 {
	out := make([]int64, len(clusters))
	for i, c := range clusters {
		if w.replicas == 0 {
			out[i] = 0 // Karmada skips the estimate and uses spec.replicas
			continue
		}
		n := maxAvailable(c, w.req)
		if n == math.MaxInt32 { // Karmada's "no estimate" bound
			out[i] = w.replicas
			continue
		}
		out[i] = int64(n)
	}
	return out
}

// maxAvailable is Karmada's GeneralEstimator for one cluster: the free pod
// count, bounded by the resource models' node capacities when the cluster
// reports nodes per model grade, else by its free resources. No
// resourceSummary means room for nothing.
func maxAvailable(c *cluster.Cluster, req *requirements) int32 {
	capa := c.Capacity
	if capa == nil {
		return 0
	}
	most := allowedPods(capa)
	if most <= 0 {
		return 0
	}
	if req == nil {
		return int32(most) // #nosec G115: as Karmada converts
	}
	if len(capa.Modelings) > 0 {
		if n, ok := byModels(capa, req.request); ok {
			return int32(min(most, n)) // #nosec G115: as Karmada converts
		}
	}
	return int32(min(most, bySummary(capa, req.request))) // #nosec G115: as Karmada converts
}

// allowedPods is allocatable minus allocated minus allocating pods, at
// least 0.
func allowedPods(c *cluster.Capacity) int64 {
	q := c.Allocatable.Pods()
	a, b := c.Allocated.Pods(), c.Allocating.Pods()
	n := q.Value() - a.Value() - b.Value()
	return max(n, 0)
}

// bySummary is getMaximumReplicasBasedOnClusterSummary: for each requested
// resource, the free amount (allocatable - allocated - allocating) over
// one replica's request; CPU in millicores. A requested resource the
// cluster does not list, or has none of, leaves room for nothing.
func bySummary(c *cluster.Capacity, request cluster.ResourceList) int64 {
	most := int64(math.MaxInt64)
	for name, q := range request {
		need := q.Value()
		if need <= 0 {
			continue
		}
		free, ok := c.Allocatable[name]
		if !ok {
			return 0
		}
		if used, ok := c.Allocated[name]; ok {
			free.Sub(used)
		}
		if used, ok := c.Allocating[name]; ok {
			free.Sub(used)
		}
		have := free.Value()
		if have <= 0 {
			return 0
		}
		if name == "cpu" {
			need, have = q.MilliValue(), free.MilliValue()
		}
		most = min(most, have/need)
	}
	return most
}

// byModels is getMaximumReplicasBasedOnResourceModels: Karmada builds, for
// each grade both modelled and counted, that many nodes holding the
// grade's minimum resources and 110 pods, and places one-pod replicas on
// them first-fit. Nodes are independent, so the total is the sum of what
// each node holds, at most MaxInt32. ok is false where Karmada's model
// building fails (no resource models, a negative node count) and it falls
// back to the summary.
func byModels(c *cluster.Capacity, request cluster.ResourceList) (int64, bool) {
	if len(c.Models) == 0 {
		return 0, false
	}
	counts := map[int64]int64{}
	for _, m := range c.Modelings {
		if m.Count < 0 {
			return 0, false
		}
		counts[m.Grade] += m.Count
	}
	perReplica := newAmounts(request)
	perReplica.pods = 1
	need := perReplica.list()
	nodes := map[int64]cluster.ResourceList{}
	for _, m := range c.Models { // the last model of a grade wins, as in Karmada's map
		nodes[m.Grade] = m.Min
	}
	var total int64
	for grade, minimum := range nodes {
		node := newAmounts(minimum)
		node.pods = podsPerModelNode
		fit := node.maxDivided(need)
		if fit > 0 && counts[grade] > 0 {
			if fit > (math.MaxInt32-total)/counts[grade] {
				return math.MaxInt32, true
			}
			total += fit * counts[grade]
		}
	}
	return min(total, math.MaxInt32), true
}
