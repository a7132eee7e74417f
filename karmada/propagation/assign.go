package propagation

import (
	"fmt"
	"sort"
)

// Karmada's replica assignment strategies (pkg/scheduler/core).
const (
	strategyDuplicated    = "Duplicated"
	strategyAggregated    = "Aggregated"
	strategyStaticWeight  = "StaticWeight"
	strategyDynamicWeight = "DynamicWeight"
)

// share is a cluster and its replicas: Karmada's TargetCluster.
type share struct {
	name     string
	replicas int64
}

// byReplicas is Karmada's TargetClustersList: sorted by replicas,
// descending, with sort.Sort (not stable), exactly as Karmada sorts it.
type byReplicas []share

func (a byReplicas) Len() int           { return len(a) }
func (a byReplicas) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a byReplicas) Less(i, j int) bool { return a[i].replicas > a[j].replicas }

// assignment is Karmada's assignState for the dynamic strategies
// (Aggregated, and Weighted by dynamicWeight).
type assignment struct {
	candidates []candidate
	strategy   string
	replicas   int64 // spec.replicas
	previous   []share
	uid        string

	scheduled    []share // previous shares on clusters still candidates
	assigned     int64   // their sum
	available    []share // room per cluster: the dynamic weights
	availableSum int64
	target       int64 // replicas to divide in this round
}

// assignDynamic is Karmada's assignByDynamicStrategy: a first schedule is
// a scale-up from nothing; with previous shares, a scale-down divides the
// new count by the old shares and a scale-up divides the extra replicas
// by the clusters' room and adds them to the old shares.
func assignDynamic(as *assignment) ([]share, error) {
	as.buildScheduled()
	switch {
	case as.assigned > as.replicas:
		res, err := as.scaleDown()
		return res, wrapAssign("failed to scale down", err)
	case as.assigned < as.replicas:
		res, err := as.scaleUp()
		return res, wrapAssign("failed to scale up", err)
	}
	return as.scheduled, nil
}

func wrapAssign(msg string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", msg, err)
}

func (as *assignment) buildScheduled() {
	in := map[string]bool{}
	for _, c := range as.candidates {
		in[c.cluster.Name] = true
	}
	as.scheduled = []share{}
	as.assigned = 0
	for _, s := range as.previous {
		if in[s.name] {
			as.scheduled = append(as.scheduled, s)
			as.assigned += s.replicas
		}
	}
}

func (as *assignment) setAvailable(list []share) {
	as.available = list
	as.availableSum = 0
	for _, s := range list {
		as.availableSum += s.replicas
	}
}

// roomList is each candidate's allocatable replicas, sorted as Karmada
// sorts it. (Karmada's fresh reschedule, which adds the previous shares,
// is triggered by a user on a live placement: not emulated.)
func (as *assignment) roomList() []share {
	list := make(byReplicas, len(as.candidates))
	for i, c := range as.candidates {
		list[i] = share{name: c.cluster.Name, replicas: c.allocatable}
	}
	sort.Sort(list)
	return list
}

func (as *assignment) scaleDown() ([]share, error) {
	as.target = as.replicas
	list := make(byReplicas, len(as.scheduled))
	copy(list, as.scheduled)
	sort.Sort(list)
	as.setAvailable(list)
	as.scheduled = nil
	return as.divide()
}

func (as *assignment) scaleUp() ([]share, error) {
	as.target = as.replicas - as.assigned
	as.setAvailable(as.roomList())
	return as.divide()
}

// divide is Karmada's dynamicDivideReplicas: the target replicas are
// dealt by Webster with the clusters' room as weights (Aggregated first
// keeps the fewest clusters, previous ones first, whose room covers the
// target), then added to the previous shares.
func (as *assignment) divide() ([]share, error) {
	if as.availableSum < as.target {
		return nil, &UnschedulableError{Message: fmt.Sprintf("Clusters available replicas %d are not enough to schedule.", as.availableSum)}
	}
	if as.strategy == strategyAggregated {
		as.available = as.resortAvailable()
		var sum int64
		for i := range as.available {
			if sum += as.available[i].replicas; sum >= as.target {
				as.available = as.available[:i+1]
				break
			}
		}
	}
	votes := make([]int64, len(as.available))
	names := make([]string, len(as.available))
	for i, s := range as.available {
		votes[i], names[i] = s.replicas, s.name
	}
	var dealt []share
	if sumOf(votes) > 0 { // Karmada's dispenser deals nothing when all weights are 0
		seats := websterSeats(as.target, votes, nil, names, descendingUID(as.uid))
		for i, n := range seats {
			dealt = append(dealt, share{name: names[i], replicas: n})
		}
	}
	return mergeShares(as.scheduled, dealt), nil
}

// resortAvailable puts the clusters that had replicas first.
func (as *assignment) resortAvailable() []share {
	prior := map[string]bool{}
	for _, s := range as.scheduled {
		if s.replicas > 0 {
			prior[s.name] = true
		}
	}
	if len(prior) == 0 {
		return as.available
	}
	var prev, rest []share
	for _, s := range as.available {
		if prior[s.name] {
			prev = append(prev, s)
		} else {
			rest = append(rest, s)
		}
	}
	return append(prev, rest...)
}

// mergeShares adds old shares to new ones (Karmada's MergeTargetClusters);
// the result is sorted by name.
func mergeShares(old, dealt []share) []share {
	if len(old) == 0 {
		return sortShares(dealt)
	}
	if len(dealt) == 0 {
		return sortShares(old)
	}
	out := append([]share(nil), dealt...)
	index := map[string]int{}
	for i, s := range out {
		index[s.name] = i
	}
	for _, s := range old {
		if i, ok := index[s.name]; ok {
			out[i].replicas += s.replicas
		} else {
			out = append(out, s)
		}
	}
	return sortShares(out)
}

func sortShares(l []share) []share {
	sort.Slice(l, func(i, j int) bool { return l[i].name < l[j].name })
	return l
}

func sumOf(l []int64) int64 {
	var s int64
	for _, v := range l {
		s += v
	}
	return s
}

// removeZero drops clusters left with no replicas
// (removeZeroReplicasCluster).
func removeZero(l []share) []share {
	out := make([]share, 0, len(l))
	for _, s := range l {
		if s.replicas > 0 {
			out = append(out, s)
		}
	}
	return out
}
