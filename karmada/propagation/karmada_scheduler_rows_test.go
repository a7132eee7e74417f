package propagation

import (
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/karmada"
)

// room makes candidates from (cluster, allocatable replicas) pairs, as
// Karmada's core tests build ClusterDetailInfo with AllocatableReplicas
// alone.
func room(l ...share) []candidate {
	out := make([]candidate, len(l))
	for i, s := range l {
		out[i] = candidate{cluster: &cluster.Cluster{Name: s.name}, allocatable: s.replicas}
	}
	return out
}

// targetList writes shares as "name=replicas", in their order.
func targetList(l []share) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = s.name + "=" + strconv.FormatInt(s.replicas, 10)
	}
	return out
}

// sameTargets compares shares as Karmada's IsScheduleResultEqual does:
// the same entries, in any order.
func sameTargets(t *testing.T, want, got []share) {
	t.Helper()
	less := func(a, b string) bool { return a < b }
	if diff := cmp.Diff(targetList(want), targetList(got), cmpopts.SortSlices(less), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("targets (-want +got):\n%s", diff)
	}
}

// TestDivideKarmadaRows are the rows of Karmada's Test_dynamicDivideReplicas
// (pkg/scheduler/core/division_algorithm_test.go at f8fdd02), through
// assignment.divide.
func TestDivideKarmadaRows(t *testing.T) {
	tests := []struct {
		name      string
		available []share
		target    int64
		strategy  string
		want      []share
	}{
		{"replica 12, dynamic weight 18:12:6", []share{{"member1", 18}, {"member2", 12}, {"member3", 6}}, 12, strategyDynamicWeight,
			[]share{{"member1", 6}, {"member2", 4}, {"member3", 2}}},
		{"replica 12, dynamic weight 20:12:6", []share{{"member1", 20}, {"member2", 12}, {"member3", 6}}, 12, strategyDynamicWeight,
			[]share{{"member1", 6}, {"member2", 4}, {"member3", 2}}},
		{"replica 12, dynamic weight 6:12:6", []share{{"member1", 6}, {"member2", 12}, {"member3", 6}}, 12, strategyDynamicWeight,
			[]share{{"member1", 3}, {"member2", 6}, {"member3", 3}}},
		{"replica 12, aggregated 12:6:6", []share{{"member2", 12}, {"member1", 6}, {"member3", 6}}, 12, strategyAggregated,
			[]share{{"member2", 12}}},
		{"replica 12, aggregated 6:6:6", []share{{"member1", 6}, {"member2", 6}, {"member3", 6}}, 12, strategyAggregated,
			[]share{{"member1", 6}, {"member2", 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := &assignment{strategy: tt.strategy, target: tt.target}
			as.setAvailable(tt.available)
			got, err := as.divide()
			if err != nil {
				t.Fatal(err)
			}
			sameTargets(t, tt.want, got)
		})
	}
}

// dynamicRow is a row of Karmada's dynamic assignment tests: candidates
// with their room, the binding's previous result and replicas.
type dynamicRow struct {
	name       string
	strategy   string
	candidates []share // allocatable replicas per cluster
	previous   []share // spec.clusters
	replicas   int64
	want       []share
	wantErr    bool
}

// TestDynamicScaleKarmadaRows are the rows of Karmada's Test_dynamicScale
// (pkg/scheduler/core/assignment_test.go at f8fdd02): assignByDynamicStrategy
// from a previous result, through assignDynamic.
func TestDynamicScaleKarmadaRows(t *testing.T) {
	ones := []share{{"member1", 1}, {"member2", 1}, {"member3", 1}}
	prev246 := []share{{"member1", 2}, {"member2", 4}, {"member3", 6}}
	prev48 := []share{{"member1", 4}, {"member2", 8}}
	tests := []dynamicRow{
		{"replica 12 -> 6, dynamic weighted 1:1:1", strategyDynamicWeight, ones, prev246, 6,
			[]share{{"member1", 1}, {"member2", 2}, {"member3", 3}}, false},
		{"replica 12 -> 24, dynamic weighted 10:10:10", strategyDynamicWeight, []share{{"member1", 10}, {"member2", 10}, {"member3", 10}}, prev246, 24,
			[]share{{"member1", 6}, {"member2", 8}, {"member3", 10}}, false},
		{"replica 12 -> 24, dynamic weighted 1:1:1", strategyDynamicWeight, ones, prev246, 24, nil, true},
		{"replica 12 -> 6, aggregated 1:1:1", strategyAggregated, ones, prev48, 6, []share{{"member2", 6}}, false},
		{"replica 12 -> 8, aggregated 100:100", strategyAggregated, []share{{"member1", 100}, {"member2", 100}}, prev48, 8,
			[]share{{"member2", 8}}, false},
		{"replica 12 -> 24, aggregated 4:6:8", strategyAggregated, []share{{"member1", 4}, {"member2", 6}, {"member3", 8}}, prev48, 24,
			[]share{{"member1", 7}, {"member2", 12}, {"member3", 5}}, false},
		{"replica 12 -> 24, aggregated 6:6:20", strategyAggregated, []share{{"member1", 6}, {"member2", 6}, {"member3", 20}}, prev48, 24,
			[]share{{"member1", 10}, {"member2", 14}}, false},
		{"replica 12 -> 24, aggregated 1:1:1", strategyAggregated, ones, prev48, 24, nil, true},
		{"replica 12 -> 24, aggregated 4:8:12, with cluster2 disappeared and cluster4 appeared", strategyAggregated,
			[]share{{"member1", 4}, {"member3", 8}, {"member4", 12}}, prev48, 24,
			[]share{{"member1", 7}, {"member3", 7}, {"member4", 10}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := assignDynamic(&assignment{candidates: room(tt.candidates...), strategy: tt.strategy, replicas: tt.replicas, previous: tt.previous})
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error %t", err, tt.wantErr)
			}
			if !tt.wantErr {
				sameTargets(t, tt.want, got)
			}
		})
	}
}

// TestDynamicScaleUpKarmadaRows are the rows of Karmada's
// Test_dynamicScaleUp (pkg/scheduler/core/assignment_test.go at f8fdd02):
// buildScheduledClusters then dynamicScaleUp. Each row has one wanted
// result.
func TestDynamicScaleUpKarmadaRows(t *testing.T) {
	threes := []share{{"member1", 3}, {"member2", 3}, {"member3", 3}}
	tests := []dynamicRow{
		{"replica 12, dynamic weight 6:8:10", strategyDynamicWeight, []share{{"member1", 6}, {"member2", 8}, {"member3", 10}}, nil, 12,
			[]share{{"member1", 3}, {"member2", 4}, {"member3", 5}}, false},
		{"replica 12, dynamic weight 8:8:10", strategyDynamicWeight, []share{{"member1", 8}, {"member2", 8}, {"member3", 10}}, nil, 12,
			[]share{{"member1", 4}, {"member2", 4}, {"member3", 4}}, false},
		{"replica 12, dynamic weight 3:3:3", strategyDynamicWeight, threes, nil, 12, nil, true},
		{"replica 12, aggregated 6:8:10", strategyAggregated, []share{{"member1", 6}, {"member2", 8}, {"member3", 10}}, nil, 12,
			[]share{{"member2", 5}, {"member3", 7}}, false},
		{"replica 12, aggregated 12:8:10", strategyAggregated, []share{{"member1", 12}, {"member2", 8}, {"member3", 10}}, nil, 12,
			[]share{{"member1", 12}}, false},
		{"replica 12, aggregated 3:3:3", strategyAggregated, threes, nil, 12, nil, true},
		{"replica 12, dynamic weight 3:3, with cluster3 disappeared and cluster2 appeared", strategyDynamicWeight,
			[]share{{"member1", 3}, {"member2", 3}}, []share{{"member1", 6}, {"member3", 6}}, 12,
			[]share{{"member1", 9}, {"member2", 3}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := &assignment{candidates: room(tt.candidates...), strategy: tt.strategy, replicas: tt.replicas, previous: tt.previous}
			as.buildScheduled()
			got, err := as.scaleUp()
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error %t", err, tt.wantErr)
			}
			if !tt.wantErr {
				sameTargets(t, tt.want, got)
			}
		})
	}
}

// TestDynamicUnschedulableKarmadaRows is Karmada's
// Test_assignByDynamicStrategy_UnschedulableErrorPreserved
// (pkg/scheduler/core/assignment_test.go at f8fdd02): room for 3 of 10
// replicas is an *UnschedulableError through the wrapping.
func TestDynamicUnschedulableKarmadaRows(t *testing.T) {
	_, err := assignDynamic(&assignment{candidates: room(share{"member1", 3}), strategy: strategyDynamicWeight, replicas: 10})
	var u *UnschedulableError
	if !errors.As(err, &u) {
		t.Fatalf("error %v is not an *UnschedulableError", err)
	}
}

// scoredCandidates ranks clusters as Karmada's SelectClusters does
// (GroupClustersWithScore), with the scores Karmada's test gives in place
// of drydock's first-schedule zeros.
func scoredCandidates(w workload, term *AffinityTerm, scores ...share) []candidate {
	clusters := make([]*cluster.Cluster, len(scores))
	for i, s := range scores {
		clusters[i] = &cluster.Cluster{Name: s.name}
	}
	cs := candidates(clusters, w, term)
	for i := range cs {
		for _, s := range scores {
			if s.name == cs[i].cluster.Name {
				cs[i].score = s.replicas
			}
		}
	}
	sortCandidates(cs)
	return cs
}

func candidateNames(cs []candidate) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.cluster.Name
	}
	return out
}

// overflowTerm is a clusterAffinities term naming its primary and
// overflow clusters.
func overflowTerm(name, primary, overflow string) *AffinityTerm {
	return &AffinityTerm{Name: name, Affinity: &karmada.Affinity{ClusterNames: []string{primary}},
		Overflow: []*karmada.Affinity{{ClusterNames: []string{overflow}}}, overflows: true}
}

// dynamicPolicy is Divided/Weighted by dynamicWeight AvailableReplicas.
func dynamicPolicy() *Policy {
	return &Policy{Scheduling: Divided, Preference: Weighted, DynamicWeight: true, weightPreference: true}
}

// TestSelectClustersKarmadaRows are the rows of Karmada's
// TestSelectClusters (pkg/scheduler/core/common_test.go at f8fdd02): the
// scored clusters ranked, then SelectBestClusters. As in Karmada's test the
// selected names are compared in any order. The scores are the test's;
// drydock's own are 0 on a first schedule.
func TestSelectClustersKarmadaRows(t *testing.T) {
	tests := []struct {
		name   string
		policy *Policy
		term   *AffinityTerm
		scores []share // cluster and score
		want   []string
	}{
		{"select all clusters", &Policy{Scheduling: Duplicated}, nil,
			[]share{{"cluster1", 10}, {"cluster2", 20}}, []string{"cluster1", "cluster2"}},
		{"select top 1 cluster", &Policy{Scheduling: Duplicated, Affinity: &karmada.Affinity{ClusterNames: []string{"cluster1", "cluster2", "cluster3"}},
			Spread: []SpreadConstraint{{Field: SpreadCluster, MaxGroups: 1}}}, nil,
			[]share{{"cluster1", 10}, {"cluster2", 20}, {"cluster3", 15}}, []string{"cluster2"}},
		{"select clusters with affinity", &Policy{Scheduling: Duplicated, Affinity: &karmada.Affinity{ClusterNames: []string{"cluster1", "cluster3"}}}, nil,
			[]share{{"cluster1", 10}, {"cluster3", 15}}, []string{"cluster1", "cluster3"}},
		{"select clusters with overflow affinities", withSpread(dynamicPolicy(), SpreadConstraint{Field: SpreadCluster, MinGroups: 1, MaxGroups: 1}),
			overflowTerm("affinity1", "cluster1", "cluster2"),
			[]share{{"cluster1", 10}, {"cluster2", 20}}, []string{"cluster1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := workload{} // the binding spec has no replicas
			got, err := tt.policy.spreadSelection(w.replicas).selectBest(scoredCandidates(w, tt.term, tt.scores...))
			if err != nil {
				t.Fatal(err)
			}
			less := func(a, b string) bool { return a < b }
			if diff := cmp.Diff(tt.want, candidateNames(got), cmpopts.SortSlices(less)); diff != "" {
				t.Errorf("selected (-want +got):\n%s", diff)
			}
		})
	}
}

func withSpread(p *Policy, c ...SpreadConstraint) *Policy {
	p.Spread = c
	return p
}

// TestAssignReplicasKarmadaRows are the rows of Karmada's
// TestAssignReplicas (pkg/scheduler/core/common_test.go at f8fdd02),
// through Policy.assign; as in Karmada's test the result is compared in
// order. Skipped: "Unsupported replica scheduling strategy" (Parse refuses
// an unknown replicaSchedulingType, so no Policy reaches assign with one).
// TestAssignComponentSchedulingResults is skipped whole: it is about
// multi-component workloads (MultiplePodTemplatesScheduling, off by
// default).
func TestAssignReplicasKarmadaRows(t *testing.T) {
	overflow := overflowTerm("affinity1", "member1", "member2")
	tier := func(name string, order int32, available, allocatable int64) candidate {
		return candidate{cluster: &cluster.Cluster{Name: name}, overflow: order, available: available, allocatable: allocatable}
	}
	tests := []struct {
		name       string
		policy     *Policy
		term       *AffinityTerm
		candidates []candidate
		w          workload
		want       []string
		wantErr    string
	}{
		{"Assign replicas to single cluster", &Policy{Scheduling: Divided, Preference: Weighted}, nil,
			room(share{"member1", 0}), workload{replicas: 3}, []string{"member1=3"}, ""},
		{"No clusters available", &Policy{Scheduling: Duplicated}, nil, nil, workload{replicas: 1}, nil, "no clusters available to schedule"},
		{"Non-workload scenario (zero replicas)", &Policy{Scheduling: Duplicated}, nil,
			room(share{"member1", 0}, share{"member2", 0}), workload{}, []string{"member1=0", "member2=0"}, ""},
		{"Overflow: primary group has enough capacity, no overflow needed", dynamicPolicy(), overflow,
			[]candidate{tier("member1", 0, 10, 10), tier("member2", 1, 10, 10)}, workload{replicas: 5}, []string{"member1=5"}, ""},
		{"Overflow: primary group capacity exhausted, remaining replicas overflow to next tier", dynamicPolicy(), overflow,
			[]candidate{tier("member1", 0, 2, 2), tier("member2", 1, 10, 10)}, workload{replicas: 5}, []string{"member1=2", "member2=3"}, ""},
		{"Overflow: all tiers exhausted, scheduling fails", dynamicPolicy(), overflow,
			[]candidate{tier("member1", 0, 2, 2), tier("member2", 1, 2, 2)}, workload{replicas: 10}, nil,
			"Clusters available replicas are not enough to schedule"},
		{"Overflow: AvailableReplicas greater than AllocatableReplicas due to previously assigned replicas", dynamicPolicy(), overflow,
			[]candidate{tier("member1", 0, 5, 2), tier("member2", 1, 10, 10)},
			workload{replicas: 8, previous: []share{{"member1", 3}}}, []string{"member1=5", "member2=3"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.policy.assign(tt.candidates, tt.w, tt.term)
			checkErr(t, err, tt.wantErr)
			if diff := cmp.Diff(tt.want, targetList(got), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("targets (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDistributionOfReplicasKarmadaRows are the rows of Karmada's
// Test_DistributionOfReplicas (pkg/scheduler/core/generic_scheduler_test.go
// at f8fdd02): static weights by cluster name, through Policy.assign;
// compared in order, as Karmada's test does.
func TestDistributionOfReplicasKarmadaRows(t *testing.T) {
	tests := []struct {
		name     string
		replicas int64
		weights  []int64 // member1, member2, ...
		members  int
		want     []string
	}{
		{"replica 3, static weighted 1:1", 3, []int64{1, 1}, 2, []string{"member1=2", "member2=1"}},
		{"replica 3, static weighted 1:1:1, change replicas from 3 to 5, before change", 3, []int64{1, 1, 1}, 3,
			[]string{"member1=1", "member2=1", "member3=1"}},
		{"replica 3, static weighted 1:1:1, change replicas from 3 to 5, after change", 5, []int64{1, 1, 1}, 3,
			[]string{"member1=2", "member2=2", "member3=1"}},
		{"replica 7, static weighted 2:1:1:1, change replicas from 7 to 8, before change", 7, []int64{2, 1, 1, 1}, 4,
			[]string{"member1=3", "member2=2", "member3=1", "member4=1"}},
		{"replica 7, static weighted 2:1:1:1, change replicas from 7 to 8, after change", 8, []int64{2, 1, 1, 1}, 4,
			[]string{"member1=3", "member2=2", "member3=2", "member4=1"}},
		{"replica 9, static weighted 2:1:1:1, change replicas from 9 to 8, before change", 9, []int64{2, 1, 1, 1}, 4,
			[]string{"member1=3", "member2=2", "member3=2", "member4=2"}},
		{"replica 9, static weighted 2:1:1:1, change replicas from 9 to 8, after change", 8, []int64{2, 1, 1, 1}, 4,
			[]string{"member1=3", "member2=2", "member3=2", "member4=1"}},
		{"replica 6, static weighted 1:1:1:1, change static weighted from 1:1:1:1 to 2:1:1:1, before change", 6, []int64{1, 1, 1, 1}, 4,
			[]string{"member1=2", "member2=2", "member3=1", "member4=1"}},
		{"replica 6, static weighted 1:1:1:1, change static weighted from 1:1:1:1 to 2:1:1:1, after change", 6, []int64{2, 1, 1, 1}, 4,
			[]string{"member1=3", "member2=1", "member3=1", "member4=1"}},
		{"replica 5, static weighted 1:1:1, add a new cluster and change static weight to 1:1:1:1, before change", 5, []int64{1, 1, 1}, 3,
			[]string{"member1=2", "member2=2", "member3=1"}},
		{"replica 5, static weighted 1:1:1, add a new cluster and change static weight to 1:1:1:1, after change", 5, []int64{1, 1, 1, 1}, 4,
			[]string{"member1=2", "member2=1", "member3=1", "member4=1"}},
		{"replica 6, static weighted 1:1:1:1, remove a cluster and change static weight to 1:1:1, before change", 6, []int64{1, 1, 1, 1}, 4,
			[]string{"member1=2", "member2=2", "member3=1", "member4=1"}},
		{"replica 6, static weighted 1:1:1:1, remove a cluster and change static weight to 1:1:1, after change", 6, []int64{1, 1, 1}, 3,
			[]string{"member1=2", "member2=2", "member3=2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &Policy{Scheduling: Divided, Preference: Weighted, weightPreference: true}
			var cs []candidate
			for i, w := range tt.weights {
				name := "member" + strconv.Itoa(i+1)
				p.Weights = append(p.Weights, StaticWeight{Target: &karmada.Affinity{ClusterNames: []string{name}}, Weight: w})
			}
			for i := range tt.members {
				cs = append(cs, room(share{"member" + strconv.Itoa(i+1), 0})...)
			}
			got, err := p.assign(cs, workload{replicas: tt.replicas}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, targetList(got)); diff != "" {
				t.Errorf("targets (-want +got):\n%s", diff)
			}
		})
	}
}
