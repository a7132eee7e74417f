package propagation

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
)

// Spread fields of a Karmada spread constraint.
const (
	SpreadCluster  = "cluster"
	SpreadRegion   = "region"
	SpreadZone     = "zone"
	SpreadProvider = "provider"
)

// SpreadConstraint is a placement.spreadConstraints entry after Karmada's
// mutating webhook defaults (an entry naming neither field nor label
// spreads by cluster; minGroups 0 becomes 1).
type SpreadConstraint struct {
	Field, Label         string
	MinGroups, MaxGroups int
}

// candidate is a feasible cluster as Karmada's scheduler ranks it
// (ClusterDetailInfo).
type candidate struct {
	cluster  *cluster.Cluster
	score    int64 // every score plugin gives 0 to a first schedule
	overflow int32 // 0: the primary affinity; i: its i-th overflow affinity
	// available is the cluster's room (plus what it already holds);
	// allocatable its room alone.
	available, allocatable int64
}

// group is a region's candidates (RegionInfo).
type group struct {
	name      string
	score     int64
	available int64
	clusters  []candidate
}

// sortCandidates is Karmada's sortClusters with the available-replicas
// comparison: overflow order, score, room (descending), name.
func sortCandidates(cs []candidate) {
	sort.Slice(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.overflow != b.overflow {
			return a.overflow < b.overflow
		}
		if a.score != b.score {
			return a.score > b.score
		}
		if a.available != b.available {
			return a.available > b.available
		}
		return a.cluster.Name < b.cluster.Name
	})
}

// spreadSelection is what SelectBestClusters needs of the binding.
type spreadSelection struct {
	constraints []SpreadConstraint
	duplicated  bool  // replicaScheduling absent or Duplicated
	ignore      bool  // static weights make Karmada ignore the constraints
	replicas    int64 // spec.replicas
}

func (s spreadSelection) constraint(field string) (SpreadConstraint, bool) {
	var out SpreadConstraint
	found := false
	for _, c := range s.constraints {
		if c.Field == field {
			out, found = c, true // the last one wins, as in Karmada's map
		}
	}
	return out, found
}

// selectBest is Karmada's SelectBestClusters over the sorted candidates.
func (s spreadSelection) selectBest(cs []candidate) ([]candidate, error) {
	if len(s.constraints) == 0 || s.ignore {
		return cs, nil
	}
	need := s.replicas
	if s.duplicated {
		need = -1 // Karmada's InvalidReplicas: room does not matter
	}
	if _, ok := s.constraint(SpreadRegion); ok {
		return s.byRegion(cs)
	}
	if c, ok := s.constraint(SpreadCluster); ok {
		return byCluster(c, cs, need)
	}
	return nil, errors.New("just support cluster and region spread constraint")
}

// byCluster is selectBestClustersByCluster.
func byCluster(c SpreadConstraint, cs []candidate, need int64) ([]candidate, error) {
	if len(cs) < c.MinGroups {
		return nil, errors.New("the number of feasible clusters is less than spreadConstraint.MinGroups")
	}
	n := min(len(cs), c.MaxGroups)
	if need < 0 {
		return cs[:n], nil
	}
	picked := selectByRoom(cs, n, need)
	if len(picked) == 0 {
		return nil, fmt.Errorf("no enough resource when selecting %d clusters", n)
	}
	return picked, nil
}

// selectByRoom is selectClustersByAvailableResource: the n best clusters,
// where while their room falls short of need the last ones are swapped,
// from the end, for the roomiest of the rest. Like Karmada it swaps in
// place in cs.
func selectByRoom(cs []candidate, n int, need int64) []candidate {
	picked, rest := cs[:n], cs[n:]
	for i := len(picked) - 1; !enoughRoom(picked, need) && i >= 0; i-- {
		if j := roomiest(rest, picked[i].available); j >= 0 {
			picked[i], rest[j] = rest[j], picked[i]
		}
	}
	if !enoughRoom(picked, need) {
		return nil
	}
	return picked
}

func enoughRoom(cs []candidate, need int64) bool {
	var total int64
	for _, c := range cs {
		total += c.available
	}
	return total >= need
}

// roomiest is GetClusterWithMaxAvailableResource: the first cluster with
// the most room above floor, -1 for none.
func roomiest(cs []candidate, floor int64) int {
	best := -1
	for i, c := range cs {
		if floor < c.available {
			best, floor = i, c.available
		}
	}
	return best
}

// byRegion is selectBestClustersByRegion: the best regions (selectGroups),
// the best cluster of each, then the best of the others up to the
// cluster constraint's maxGroups.
func (s spreadSelection) byRegion(cs []candidate) ([]candidate, error) {
	return s.fromRegions(s.regions(cs))
}

// fromRegions is selectBestClustersByRegion over grouped, scored regions.
func (s spreadSelection) fromRegions(regions map[string]*group) ([]candidate, error) {
	regionC, _ := s.constraint(SpreadRegion)
	clusterC, _ := s.constraint(SpreadCluster)
	if len(regions) < regionC.MinGroups {
		return nil, errors.New("the number of feasible region is less than spreadConstraint.MinGroups")
	}
	chosen := selectRegions(regions, regionC, clusterC)
	if len(chosen) == 0 {
		return nil, errors.New("the number of clusters is less than the cluster spreadConstraint.MinGroups")
	}
	var picked, rest []candidate
	for _, r := range chosen {
		picked = append(picked, r.clusters[0])
		rest = append(rest, r.clusters[1:]...)
	}
	n := min(len(rest)+len(picked), clusterC.MaxGroups)
	if more := n - len(picked); more > 0 {
		sortCandidates(rest)
		picked = append(picked, rest[:more]...)
	}
	return picked, nil
}

// regions groups the sorted candidates by spec.region (clusters without
// one are left out) and scores each region (calcGroupScore).
func (s spreadSelection) regions(cs []candidate) map[string]*group {
	out := map[string]*group{}
	for _, c := range cs {
		r := c.cluster.Region
		if r == "" {
			continue
		}
		g := out[r]
		if g == nil {
			g = &group{name: r}
			out[r] = g
		}
		g.clusters = append(g.clusters, c)
		g.available += c.available
	}
	regionC, _ := s.constraint(SpreadRegion)
	for _, g := range out {
		g.score = s.groupScore(g.clusters, regionC.MinGroups)
	}
	return out
}

// weightUnit makes room count before score in a group's score.
const weightUnit = 1000

// groupScore is calcGroupScore: with Duplicated, the clusters that can hold
// every replica; when divided, the room of the best clusters up to the
// share a group needs; then the mean score.
func (s spreadSelection) groupScore(cs []candidate, minGroups int) int64 {
	if s.duplicated {
		var valid, sum int64
		for _, c := range cs {
			if c.available >= s.replicas {
				valid++
				sum += c.score
			}
		}
		if valid == 0 {
			return 0
		}
		return valid*weightUnit + sum/valid
	}
	target := int64(math.Ceil(float64(s.replicas) / float64(minGroups)))
	clusterMin := 0
	if c, ok := s.constraint(SpreadCluster); ok {
		clusterMin = c.MinGroups
	}
	clusterMin = max(clusterMin, minGroups)
	var room, sum, valid int64
	for _, c := range cs {
		room += c.available
		sum += c.score
		valid++
		if valid >= int64(clusterMin) && room >= target {
			break
		}
	}
	if room < target {
		return room*weightUnit + sum/int64(len(cs))
	}
	return target*weightUnit + sum/valid
}

// selectRegions is Karmada's selectRegions: the best combination of
// regions by selectGroups, as regions.
func selectRegions(regions map[string]*group, regionC, clusterC SpreadConstraint) []*group {
	groups := make([]*groupInfo, 0, len(regions))
	for _, r := range regions {
		groups = append(groups, &groupInfo{name: r.name, value: len(r.clusters), weight: r.score})
	}
	best := selectGroups(groups, regionC.MinGroups, regionC.MaxGroups, clusterC.MinGroups)
	out := make([]*group, 0, len(best))
	for _, g := range best {
		out = append(out, regions[g.name])
	}
	return out
}

// groupInfo is a group as selectGroups weighs it: value is its cluster
// count, weight its score.
type groupInfo struct {
	name   string
	value  int
	weight int64
}

// dfsPath is a combination of groups found by the search.
type dfsPath struct {
	id     int
	groups []*groupInfo
	weight int64
	value  int
}

// next snapshots the path (Karmada's dfsPath.next, including its way of
// numbering snapshots).
func (p *dfsPath) next() *dfsPath {
	p.id++
	out := &dfsPath{id: p.id, groups: append([]*groupInfo(nil), p.groups...)}
	for _, g := range out.groups {
		out.weight += g.weight
		out.value += g.value
	}
	sort.Slice(out.groups, func(i, j int) bool {
		if out.groups[i].weight != out.groups[j].weight {
			return out.groups[i].weight > out.groups[j].weight
		}
		return out.groups[i].name < out.groups[j].name
	})
	return out
}

// hasPrefix reports whether sub is a shorter path starting like p.
func (p *dfsPath) hasPrefix(sub *dfsPath) bool {
	if len(sub.groups) >= len(p.groups) {
		return false
	}
	for i, g := range sub.groups {
		if p.groups[i].name != g.name {
			return false
		}
	}
	return true
}

func (p *dfsPath) String() string {
	names := make([]string, len(p.groups))
	for i, g := range p.groups {
		names[i] = g.name
	}
	return "[" + strings.Join(names, "->") + "]"
}

// selectGroups is Karmada's selectGroups: every combination of minC to
// maxC groups holding at least target clusters, the best by weight, then
// value, then discovery order, preferring a shorter combination the best
// one starts with.
func selectGroups(groups []*groupInfo, minC, maxC, target int) []*groupInfo {
	if len(groups) == 0 {
		return nil
	}
	paths := feasiblePaths(groups, minC, maxC, target)
	if len(paths) == 0 {
		return nil
	}
	return bestPath(paths).groups
}

// feasiblePaths is findFeasiblePaths, Karmada's depth-first search, with
// its early stop when every group is needed.
func feasiblePaths(groups []*groupInfo, minC, maxC, target int) []*dfsPath {
	if len(groups) > 1 {
		sort.Slice(groups, func(i, j int) bool {
			a, b := groups[i], groups[j]
			if a.value != b.value {
				return a.value < b.value
			}
			if a.weight != b.weight {
				return a.weight > b.weight
			}
			return a.name < b.name
		})
	}
	root := &dfsPath{}
	var paths []*dfsPath
	var dfs func(sum, begin int)
	dfs = func(sum, begin int) {
		if sum >= target && len(root.groups) >= minC && len(root.groups) <= maxC {
			paths = append(paths, root.next())
			return
		}
		if len(root.groups) >= maxC {
			return
		}
		for i := begin; i < len(groups); i++ {
			sum += groups[i].value
			root.groups = append(root.groups, groups[i])
			dfs(sum, i+1)
			if len(groups) == minC {
				break
			}
			sum -= groups[i].value
			root.groups = root.groups[:len(root.groups)-1]
		}
	}
	dfs(0, 0)
	return paths
}

// bestPath is prioritizePaths.
func bestPath(paths []*dfsPath) *dfsPath {
	if len(paths) == 1 {
		return paths[0]
	}
	sort.Slice(paths, func(i, j int) bool {
		a, b := paths[i], paths[j]
		if a.weight != b.weight {
			return a.weight > b.weight
		}
		if a.value != b.value {
			return a.value > b.value
		}
		return a.id < b.id
	})
	best := paths[0]
	for _, p := range paths[1:] {
		if best.hasPrefix(p) {
			best = p
		}
	}
	return best
}
