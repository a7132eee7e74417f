package propagation

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Karmada's test UIDs (pkg/util/helper/binding_test.go): the FNV-32a hash
// of oddUID is odd, of evenUID even.
const (
	oddUID  = "d43fdeeb-d750-4e2b-bee3-64eb94534f4c"
	evenUID = "4858ca61-3ff8-4095-8267-f3d059d8074c"
)

// allocate is AllocateWebsterSeats' view of websterSeats: parties by name
// (those with initial seats and those with votes), their seats after
// total new ones, sorted by name.
func allocate(total int64, votes, init []share, descending bool) []share {
	index := map[string]int{}
	var names []string
	for _, l := range [][]share{init, votes} {
		for _, s := range l {
			if _, ok := index[s.name]; !ok {
				index[s.name] = len(names)
				names = append(names, s.name)
			}
		}
	}
	v, seats := make([]int64, len(names)), make([]int64, len(names))
	for _, s := range votes {
		v[index[s.name]] = s.replicas
	}
	for _, s := range init {
		seats[index[s.name]] = s.replicas
	}
	out := make([]share, len(names))
	for i, n := range websterSeats(total, v, seats, names, descending) {
		out[i] = share{names[i], n}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// TestWebsterInitKarmadaRows are the rows of Karmada's
// TestAllocateWebsterSeats (pkg/util/helper/webstermethod_test.go at
// f8fdd02) that start from initial assignments, and its two rows without
// parties (TestWebsterKarmadaRows has the rest). Its custom tie-breaker
// rows are those of the two orders tieBreakerByUID gives, already there.
func TestWebsterInitKarmadaRows(t *testing.T) {
	tests := []struct {
		name  string
		seats int64
		votes []share
		init  []share
		want  []share
	}{
		{"empty party votes, expect nil result", 1, nil, nil, nil},
		{"both party votes and newSeats are 0, expect nil result", 0, nil, nil, nil},
		{"tie-breaker is nil, expect break tie by seats", 1, []share{{"PartyA", 3}, {"PartyB", 1}}, []share{{"PartyA", 1}, {"PartyB", 0}},
			[]share{{"PartyA", 1}, {"PartyB", 1}}},
		{"non-initial allocation, new party joins, only new party gets new seats", 2, []share{{"NewParty1", 1}, {"NewParty2", 1}},
			[]share{{"OldParty", 0}}, []share{{"NewParty1", 1}, {"NewParty2", 1}, {"OldParty", 0}}},
		{"non-initial allocation, both new and old parties compete for new seats", 2, []share{{"OldParty", 1}, {"NewParty", 1}},
			[]share{{"OldParty", 1}}, []share{{"NewParty", 2}, {"OldParty", 1}}},
		{"non-initial allocation, initialAssignments party not in partyVotes, expect no new seats for that party", 2,
			[]share{{"PartyA", 100}}, []share{{"PartyB", 3}}, []share{{"PartyA", 2}, {"PartyB", 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := allocate(tt.seats, tt.votes, tt.init, false)
			if diff := cmp.Diff(targetList(tt.want), targetList(got), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("seats (-want +got):\n%s", diff)
			}
		})
	}
}

// dispense is Karmada's Dispenser.AllocateByWeight: nothing is dealt when
// the weights sum to 0 (the initial result stays), else Webster's method
// from the initial result with the UID's tie-break.
func dispense(total int64, weights, init []share, uid string) []share {
	var sum int64
	for _, w := range weights {
		sum += w.replicas
	}
	if sum == 0 {
		return init
	}
	return allocate(total, weights, init, descendingUID(uid))
}

// TestDispenserKarmadaRows are the rows of Karmada's
// Test_dispenser_AllocateByWeight (pkg/util/helper/binding_test.go at
// f8fdd02), compared in any order as Karmada's test does.
func TestDispenserKarmadaRows(t *testing.T) {
	abc := []share{{"A", 1}, {"B", 2}, {"C", 3}}
	twoOne := []share{{"A", 2}, {"B", 1}}
	big := []share{{"A", 170}, {"B", 110}, {"C", 60}}
	even := []share{{"A", 1}, {"B", 1}}
	tests := []struct {
		name     string
		replicas int64
		init     []share
		weights  []share
		uid      string
		want     []share
	}{
		{"Scale up 6 replicas", 6, abc, abc, "", []share{{"A", 2}, {"B", 4}, {"C", 6}}},
		{"Scale up 3 replicas", 3, abc, abc, "", []share{{"A", 2}, {"B", 3}, {"C", 4}}},
		{"Scale up 2 replicas", 2, abc, abc, "", []share{{"A", 1}, {"B", 3}, {"C", 4}}},
		{"HA scenario with weight 2:1: assign 1 replica", 1, nil, twoOne, "", []share{{"A", 1}, {"B", 0}}},
		{"HA scenario with weight 2:1: assign 2 replicas", 2, nil, twoOne, "", []share{{"A", 1}, {"B", 1}}},
		{"HA scenario with weight 2:1: assign 3 replicas", 3, nil, twoOne, "", []share{{"A", 2}, {"B", 1}}},
		{"brand new assign 5 replicas", 5, nil, big, "", []share{{"A", 2}, {"B", 2}, {"C", 1}}},
		{"brand new assign 6 replicas", 6, nil, big, "", []share{{"A", 3}, {"B", 2}, {"C", 1}}},
		{"brand new assign 5 replicas with odd uuid", 5, nil, even, oddUID, []share{{"A", 2}, {"B", 3}}},
		{"brand new assign 5 replicas with even uuid", 5, nil, even, evenUID, []share{{"A", 3}, {"B", 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sameTargets(t, tt.want, dispense(tt.replicas, tt.weights, tt.init, tt.uid))
		})
	}
}

// TestSpreadByTargetClustersKarmadaRows are the rows of Karmada's
// TestDispenseReplicasByTargetClusters (pkg/util/helper/binding_test.go
// at f8fdd02): SpreadReplicasByTargetClusters, the clusters' replicas as
// weights, from no initial result and an empty UID. A row passes when the
// result is any of its wanted ones.
func TestSpreadByTargetClustersKarmadaRows(t *testing.T) {
	fives := []share{{"member1", 5}, {"member2", 5}, {"member3", 5}}
	tests := []struct {
		name     string
		clusters []share
		sum      int64
		wants    [][]share
	}{
		{"empty clusters", nil, 10, [][]share{{}}},
		{"1 cluster, 5 replicas, 10 sum", []share{{"member1", 5}}, 10, [][]share{{{"member1", 10}}}},
		{"3 cluster, 1:1:1, 12 sum", fives, 12, [][]share{{{"member1", 4}, {"member2", 4}, {"member3", 4}}}},
		{"3 cluster, 1:1:1, 10 sum", fives, 10, [][]share{
			{{"member1", 4}, {"member2", 3}, {"member3", 3}},
			{{"member1", 3}, {"member2", 4}, {"member3", 3}},
			{{"member1", 3}, {"member2", 3}, {"member3", 4}}}},
		{"3 cluster, 1:2:3, 13 sum", []share{{"member1", 1}, {"member2", 2}, {"member3", 3}}, 13,
			[][]share{{{"member1", 2}, {"member2", 4}, {"member3", 7}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := targetList(dispense(tt.sum, tt.clusters, nil, ""))
			for _, want := range tt.wants {
				if cmp.Equal(targetList(want), got, cmpopts.EquateEmpty()) {
					return
				}
			}
			t.Errorf("got %v, want one of %v", got, tt.wants)
		})
	}
}

// requirementsView is what drydock keeps of Karmada's ReplicaRequirements:
// whether it has a NodeClaim, and the resource request.
type requirementsView struct {
	NodeClaim bool
	Request   map[string]string
}

func viewRequirements(r *requirements) *requirementsView {
	if r == nil {
		return nil
	}
	v := &requirementsView{NodeClaim: r.nodeClaim}
	for name, q := range r.request {
		if v.Request == nil {
			v.Request = map[string]string{}
		}
		v.Request[name] = q.String()
	}
	return v
}

// TestReplicaRequirementsKarmadaRows are the rows of Karmada's
// TestGenerateReplicaRequirements (pkg/util/helper/binding_test.go at
// f8fdd02), with each pod template in a Deployment read by readWorkload.
// drydock keeps only whether there is a NodeClaim (the general estimator
// does not read it).
func TestReplicaRequirementsKarmadaRows(t *testing.T) {
	tests := []struct {
		name     string
		template string
		want     *requirementsView
	}{
		{"nodeClaim and resource request are nil", "{}", nil},
		{"has nodeClaim", `{spec: {nodeSelector: {foo: foo1}, tolerations: [{key: foo, operator: Exists, effect: NoSchedule}],
  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchFields: [{key: foo, operator: Exists}]}]}}}}}`,
			&requirementsView{NodeClaim: true}},
		{"has resourceRequest", "{spec: {containers: [{name: c, resources: {limits: {cpu: 200m}}}]}}",
			&requirementsView{Request: map[string]string{"cpu": "200m"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := decode(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w, namespace: default}\nspec:\n  replicas: 1\n  template: "+tt.template+"\n")[0]
			w, err := readWorkload(obj)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, viewRequirements(w.req)); diff != "" {
				t.Errorf("requirements (-want +got):\n%s", diff)
			}
		})
	}
}
