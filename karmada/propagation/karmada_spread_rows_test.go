package propagation

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/karmada"
	"github.com/drydock-dev/drydock/manifest"
)

// topo is Karmada's NewClusterWithTopology: a cluster with a provider, a
// region and one zone.
func topo(name, provider, region, zone string) *cluster.Cluster {
	return &cluster.Cluster{Name: name, Provider: provider, Region: region, Zones: []string{zone}}
}

// detail is a ClusterDetailInfo: a cluster with a score and available
// replicas.
func detail(c *cluster.Cluster, score, available int64) candidate {
	return candidate{cluster: c, score: score, available: available}
}

// TestGroupClustersKarmadaRows are the rows of Karmada's
// Test_GroupClustersWithScore (pkg/scheduler/core/spreadconstraint at
// f8fdd02): four clusters with scores 20/40/30/60 and room 100 are ranked
// by score, and a region constraint groups them into two regions. The
// rows' zone and provider counts are not checked: drydock groups no zones
// or providers, as SelectBestClusters never reads those groups.
func TestGroupClustersKarmadaRows(t *testing.T) {
	one := func(f string) SpreadConstraint { return SpreadConstraint{Field: f, MinGroups: 1, MaxGroups: 1} }
	tests := []struct {
		name        string
		constraints []SpreadConstraint
		regions     int
	}{
		{"test SpreadConstraints is nil", nil, 0},
		{"test SpreadConstraints is cluster", []SpreadConstraint{one(SpreadCluster)}, 0},
		{"test SpreadConstraints is zone", []SpreadConstraint{one(SpreadZone)}, 0},
		{"test SpreadConstraints is region", []SpreadConstraint{one(SpreadRegion)}, 2},
		{"test SpreadConstraints is provider", []SpreadConstraint{one(SpreadProvider)}, 0},
		{"test SpreadConstraints is provider/region/zone", []SpreadConstraint{one(SpreadProvider), one(SpreadRegion), one(SpreadZone)}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := []candidate{
				detail(topo("member1", "P1", "R1", "Z1"), 20, 100),
				detail(topo("member2", "P1", "R1", "Z2"), 40, 100),
				detail(topo("member3", "P2", "R1", "Z1"), 30, 100),
				detail(topo("member4", "P2", "R2", "Z2"), 60, 100),
			}
			sortCandidates(cs)
			if diff := cmp.Diff([]string{"member4", "member2", "member3", "member1"}, candidateNames(cs)); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
			s := spreadSelection{constraints: tt.constraints}
			regions := 0
			if _, ok := s.constraint(SpreadRegion); ok {
				regions = len(s.regions(cs))
			}
			if regions != tt.regions {
				t.Errorf("regions = %d, want %d", regions, tt.regions)
			}
		})
	}
}

// scores makes clusters member1... with scores and available replicas
// (Karmada's generateClusterScores).
func scores(score, available []int64) []candidate {
	out := make([]candidate, len(score))
	for i := range score {
		out[i] = detail(&cluster.Cluster{Name: "member" + strconv.Itoa(i+1)}, score[i], available[i])
	}
	return out
}

// TestCalcGroupScoreKarmadaRows are the rows of Karmada's Test_CalcGroupScore
// (pkg/scheduler/core/spreadconstraint at f8fdd02): which of two groups
// scores at least as high. Static weight and dynamic weight divide as
// Aggregated does here: only Duplicated scores differently.
func TestCalcGroupScoreKarmadaRows(t *testing.T) {
	tests := []struct {
		id                   int
		clusters1, clusters2 []candidate
		duplicated           bool
		replicas             int64
		minGroups            int
		group1Wins           bool
	}{
		{1, scores([]int64{100, 100, 0, 0, 0}, []int64{30, 30, 30, 30, 30}), scores([]int64{100, 100, 100, 100, 100}, []int64{30, 30, 30, 10, 10}), true, 20, 0, true},
		{2, scores([]int64{100, 100, 0, 0, 0}, []int64{30, 30, 30, 10, 10}), scores([]int64{100, 100, 100, 100, 100}, []int64{30, 30, 30, 10, 10}), true, 20, 0, false},
		{3, scores([]int64{100, 100, 0, 0, 0}, []int64{30, 30, 30, 10, 10}), scores([]int64{100, 100, 100, 100, 100}, []int64{10, 10, 10, 5, 5}), false, 100, 2, true},
		{4, scores([]int64{100, 100, 0, 0, 0}, []int64{10, 10, 10, 10, 5}), scores([]int64{100, 100, 100, 100, 100}, []int64{10, 10, 10, 5, 5}), false, 100, 2, true},
		{5, scores([]int64{100, 100, 0, 0, 0}, []int64{10, 10, 10, 5, 5}), scores([]int64{100, 100, 100, 100, 100}, []int64{10, 10, 10, 5, 5}), false, 100, 2, false},
		{6, scores([]int64{0, 0, 0, 0, 0}, []int64{100, 100, 100, 100, 100}), scores([]int64{100, 100, 100, 100, 100}, []int64{50, 50, 50, 50, 50}), false, 100, 2, false},
	}
	for _, tt := range tests {
		t.Run("", func(t *testing.T) {
			s := spreadSelection{duplicated: tt.duplicated, replicas: tt.replicas}
			score1, score2 := s.groupScore(tt.clusters1, tt.minGroups), s.groupScore(tt.clusters2, tt.minGroups)
			if got := score1 >= score2; got != tt.group1Wins {
				t.Errorf("test ID %d: score1 = %d, score2 = %d, group 1 wins = %t, want %t", tt.id, score1, score2, got, tt.group1Wins)
			}
		})
	}
}

// TestCalcGroupScoreForDuplicateKarmadaRows are the rows of Karmada's
// Test_CalcGroupScoreForDuplicate (pkg/scheduler/core/spreadconstraint at
// f8fdd02).
func TestCalcGroupScoreForDuplicateKarmadaRows(t *testing.T) {
	tests := []struct {
		name     string
		clusters []candidate
		want     int64
	}{
		{"get 0 score when clusters is empty", nil, 0},
		{"get 0 score when all clusters can not meet the replica requirements",
			[]candidate{detail(&cluster.Cluster{Name: "member1"}, 50, 5), detail(&cluster.Cluster{Name: "member2"}, 50, 5)}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := spreadSelection{duplicated: true, replicas: 10}
			if got := s.groupScore(tt.clusters, 0); got != tt.want {
				t.Errorf("score = %d, want %d", got, tt.want)
			}
		})
	}
}

// region is a RegionInfo: a scored group of ranked clusters.
func region(name string, score int64, cs ...candidate) *group {
	return &group{name: name, score: score, clusters: cs}
}

// regionMap keys regions by name.
func regionMap(rs ...*group) map[string]*group {
	out := map[string]*group{}
	for _, r := range rs {
		out[r.name] = r
	}
	return out
}

// regionCluster is a cluster of region r (provider P1, zone Z1).
func regionCluster(name, r string, score, available int64) candidate {
	return detail(topo(name, "P1", r, "Z1"), score, available)
}

// twoRegions is the R1/R2 layout several rows share.
func twoRegions() map[string]*group {
	return regionMap(
		region("R1", 100, regionCluster("member1", "R1", 100, 40), regionCluster("member2", "R1", 80, 40)),
		region("R2", 80, regionCluster("member3", "R2", 80, 40), regionCluster("member4", "R2", 80, 40), regionCluster("member5", "R2", 60, 40)))
}

// TestSelectByRegionKarmadaRows are the rows of Karmada's
// Test_selectBestClustersByRegion (pkg/scheduler/core/spreadconstraint at
// f8fdd02): regions already grouped and scored, then the region and
// cluster constraints; the selected clusters in order.
func TestSelectByRegionKarmadaRows(t *testing.T) {
	spread := func(regionMin, regionMax, clusterMin, clusterMax int) []SpreadConstraint {
		return []SpreadConstraint{{Field: SpreadRegion, MinGroups: regionMin, MaxGroups: regionMax},
			{Field: SpreadCluster, MinGroups: clusterMin, MaxGroups: clusterMax}}
	}
	tests := []struct {
		name        string
		constraints []SpreadConstraint
		regions     map[string]*group
		want        []string
		wantErr     bool
	}{
		{"select cluster from the region with the higher score", spread(1, 1, 2, 2), twoRegions(), []string{"member1", "member2"}, false},
		{"select cluster from the region with enough clusters", spread(1, 1, 3, 3), twoRegions(), []string{"member3", "member4", "member5"}, false},
		{"select cluster from the region with enough clusters and higher score", spread(2, 2, 4, 5), regionMap(
			region("R1", 90, regionCluster("member1", "R1", 90, 40)),
			region("R2", 70, regionCluster("member2", "R2", 70, 40), regionCluster("member3", "R2", 60, 40), regionCluster("member4", "R2", 30, 40)),
			region("R3", 80, regionCluster("member5", "R3", 80, 40), regionCluster("member6", "R3", 50, 60)),
			region("R4", 50, regionCluster("member7", "R4", 50, 50), regionCluster("member8", "R4", 40, 50),
				regionCluster("member9", "R4", 10, 50), regionCluster("member10", "R4", 0, 50))),
			[]string{"member1", "member2", "member3", "member4"}, false},
		{"select cluster from more than `minGroups` regions with enough clusters and higher score", spread(1, 3, 6, 8), regionMap(
			region("R1", 70, regionCluster("member1", "R1", 70, 40)),
			region("R2", 40, regionCluster("member2", "R2", 40, 40), regionCluster("member3", "R2", 40, 40), regionCluster("member4", "R2", 40, 40)),
			region("R3", 60, regionCluster("member5", "R3", 60, 40), regionCluster("member6", "R3", 50, 60)),
			region("R4", 70, regionCluster("member7", "R4", 70, 100)),
			region("R5", 50, regionCluster("member8", "R5", 50, 50))),
			[]string{"member1", "member5", "member2", "member6", "member3", "member4"}, false},
		{"no enough region", spread(3, 3, 3, 3), twoRegions(), nil, true},
		{"no enough clusters", spread(1, 1, 4, 4), regionMap(
			region("R1", 100, regionCluster("member1", "R1", 100, 40), regionCluster("member2", "R1", 80, 60)),
			region("R2", 80, regionCluster("member3", "R2", 80, 40), regionCluster("member4", "R2", 80, 40), regionCluster("member5", "R2", 60, 40))),
			nil, true},
		{"no more regions to replace", spread(1, 1, 3, 4), regionMap(
			region("R1", 100, regionCluster("member1", "R1", 100, 40), regionCluster("member2", "R1", 80, 20))),
			nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := spreadSelection{constraints: tt.constraints}.fromRegions(tt.regions)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error %t", err, tt.wantErr)
			}
			var names []string
			if got != nil {
				names = candidateNames(got)
			}
			if diff := cmp.Diff(tt.want, names); diff != "" {
				t.Errorf("selected (-want +got):\n%s", diff)
			}
		})
	}
}

// selectCandidates is Karmada's generateClusterInfo: four ranked clusters.
func selectCandidates() []candidate {
	return []candidate{
		detail(topo("member4", "P2", "R2", "Z2"), 60, 50),
		detail(topo("member2", "P1", "R1", "Z2"), 40, 60),
		detail(topo("member3", "P2", "R1", "Z1"), 30, 80),
		detail(topo("member1", "P1", "R1", "Z1"), 20, 40),
	}
}

// TestSelectBestClustersKarmadaRows are the rows of Karmada's
// TestSelectBestClusters (pkg/scheduler/core/spreadconstraint at f8fdd02):
// the placement as a Policy (without the webhook's defaults, as Karmada's
// test builds it), the needed replicas, and the selection or Karmada's
// error message.
func TestSelectBestClustersKarmadaRows(t *testing.T) {
	maxTwo := []SpreadConstraint{{Field: SpreadCluster, MinGroups: 1, MaxGroups: 2}}
	static := &Policy{Scheduling: Divided, Preference: Weighted, weightPreference: true, Spread: maxTwo,
		Weights: []StaticWeight{{Target: &karmada.Affinity{ClusterNames: []string{"member1"}}, Weight: 2}}}
	tests := []struct {
		name    string
		policy  *Policy
		need    int64
		want    []string
		wantErr string
	}{
		{"select clusters by cluster score", &Policy{Scheduling: Duplicated, Spread: maxTwo}, 100, []string{"member4", "member2"}, ""},
		{"select clusters by cluster score and ignore available resources when scheduling strategy is duplicated",
			&Policy{Scheduling: Duplicated, Spread: maxTwo}, 120, []string{"member4", "member2"}, ""},
		{"select clusters by cluster score and ignore available resources when scheduling strategy is static weight",
			static, 120, []string{"member4", "member2", "member3", "member1"}, ""},
		{"select clusters by cluster score and satisfy available resources", &Policy{Scheduling: Divided, Spread: maxTwo}, 120,
			[]string{"member4", "member3"}, ""},
		{"select clusters by cluster score and insufficient resources", &Policy{Scheduling: Divided, Spread: maxTwo}, 200,
			nil, "no enough resource when selecting 2 clusters"},
		{"select clusters by cluster score and exceeded the number of available clusters.",
			&Policy{Scheduling: Duplicated, Spread: []SpreadConstraint{{Field: SpreadCluster, MinGroups: 7, MaxGroups: 7}}}, 30,
			nil, "the number of feasible clusters is less than spreadConstraint.MinGroups"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.policy.spreadSelection(tt.need).selectBest(selectCandidates())
			if tt.wantErr != "" {
				if err == nil || manifest.Format(err, nil) != tt.wantErr {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, candidateNames(got)); diff != "" {
				t.Errorf("selected (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSelectGroupsKarmadaRows are the rows of Karmada's TestSelectGroups
// (pkg/scheduler/core/spreadconstraint at f8fdd02).
func TestSelectGroupsKarmadaRows(t *testing.T) {
	g := func(name string, value int, weight int64) *groupInfo {
		return &groupInfo{name: name, value: value, weight: weight}
	}
	tests := []struct {
		name             string
		groups           []*groupInfo
		minC, maxC, want int
		expected         []string
	}{
		{"empty groups", nil, 2, 3, 1, nil},
		{"no enough groups", []*groupInfo{g("R1", 1, 80)}, 2, 3, 1, nil},
		{"no enough value", []*groupInfo{g("R1", 1, 80), g("R2", 2, 30)}, 2, 3, 4, nil},
		{"select one group", []*groupInfo{g("R1", 1, 80)}, 1, 3, 1, []string{"R1"}},
		{"prioritize one path", []*groupInfo{g("R1", 1, 80), g("R3", 1, 80), g("R2", 1, 60), g("R5", 2, 60), g("R4", 5, 50), g("R6", 3, 50)},
			1, 3, 10, []string{"R5", "R4", "R6"}},
		{"select groups with less total number", []*groupInfo{g("R1", 1, 80), g("R2", 4, 40), g("R3", 1, 30), g("R4", 3, 30), g("R5", 3, 20), g("R6", 5, 10)},
			2, 6, 5, []string{"R1", "R2"}},
		{"select groups with the highest score", []*groupInfo{g("R1", 1, 60), g("R2", 1, 50), g("R3", 1, 40), g("R4", 3, 30), g("R5", 3, 20), g("R6", 3, 10)},
			1, 3, 6, []string{"R1", "R4", "R5"}},
		{"select groups that are chosen earlier", []*groupInfo{g("R1", 1, 60), g("R2", 2, 50), g("R3", 3, 40), g("R4", 4, 30)},
			1, 2, 5, []string{"R1", "R4"}},
		{"select groups with greater value", []*groupInfo{g("R4", 1, 60), g("R3", 3, 50), g("R1", 3, 40), g("R2", 4, 30)},
			1, 2, 5, []string{"R3", "R1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var names []string
			for _, gi := range selectGroups(tt.groups, tt.minC, tt.maxC, tt.want) {
				names = append(names, gi.name)
			}
			if diff := cmp.Diff(tt.expected, names); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSpreadConstraintExistedKarmadaRows are the rows of Karmada's
// TestIsSpreadConstraintExisted (pkg/scheduler/core/spreadconstraint at
// f8fdd02), through spreadSelection.constraint.
func TestSpreadConstraintExistedKarmadaRows(t *testing.T) {
	tests := []struct {
		name   string
		fields []string
		want   bool
	}{
		{"the specific field is existed in the spread constraints", []string{SpreadCluster, SpreadZone}, true},
		{"the specific field is not existed in the spread constraints", []string{SpreadRegion, SpreadZone}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s spreadSelection
			for _, f := range tt.fields {
				s.constraints = append(s.constraints, SpreadConstraint{Field: f})
			}
			if _, got := s.constraint(SpreadCluster); got != tt.want {
				t.Errorf("existed = %t, want %t", got, tt.want)
			}
		})
	}
}

// TestSortClustersKarmadaRows are the rows of Karmada's Test_sortClusters
// (pkg/scheduler/core/spreadconstraint at f8fdd02). drydock always sorts
// with the available-replicas comparison, as every Karmada caller does;
// the row without it ("same score, default to sort by name") wants the
// order that comparison gives too.
func TestSortClustersKarmadaRows(t *testing.T) {
	c := func(name string) *cluster.Cluster { return &cluster.Cluster{Name: name} }
	tests := []struct {
		name  string
		infos []candidate
		want  []string
	}{
		{"different scores", []candidate{detail(c("b"), 2, 0), detail(c("a"), 1, 0)}, []string{"b", "a"}},
		{"same score, default to sort by name", []candidate{detail(c("b"), 1, 5), detail(c("a"), 1, 10)}, []string{"a", "b"}},
		{"same score, sort by availableReplicas", []candidate{detail(c("a"), 1, 5), detail(c("b"), 1, 10)}, []string{"b", "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sortCandidates(tt.infos)
			if diff := cmp.Diff(tt.want, candidateNames(tt.infos)); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}
