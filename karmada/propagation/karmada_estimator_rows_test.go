package propagation

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/drydock-dev/drydock/cluster"
)

// rl is a ResourceList from name/quantity pairs (resource.MustParse).
func rl(kv ...string) cluster.ResourceList {
	out := cluster.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = resource.MustParse(kv[i+1])
	}
	return out
}

// cpuModels are the three CPU-only grades (min 0, 1, 2 cores) several of
// Karmada's rows share; mem adds the memory ranges (0, 1Gi, 2Gi).
func cpuModels(mem bool) []cluster.ResourceModel {
	out := []cluster.ResourceModel{{Grade: 0, Min: rl("cpu", "0")}, {Grade: 1, Min: rl("cpu", "1")}, {Grade: 2, Min: rl("cpu", "2")}}
	if mem {
		for i, m := range []string{"0", "1Gi", "2Gi"} {
			out[i].Min["memory"] = resource.MustParse(m)
		}
	}
	return out
}

// oneNodePerGrade is allocatableModelings with one node of grades 0-2.
var oneNodePerGrade = []cluster.Modeling{{Grade: 0, Count: 1}, {Grade: 1, Count: 1}, {Grade: 2, Count: 1}}

// TestResourceModelsKarmadaRows are the rows of Karmada's
// TestGetMaximumReplicasBasedOnResourceModels (pkg/estimator/client/
// general_test.go at f8fdd02), through byModels; ok false is Karmada's
// error (then -1), after which its estimator falls back to the summary.
func TestResourceModelsKarmadaRows(t *testing.T) {
	tests := []struct {
		name    string
		capa    *cluster.Capacity
		request cluster.ResourceList
		want    int64
		wantOK  bool
	}{
		{"No grade defined should result in an error", &cluster.Capacity{}, rl("cpu", "1"), 0, false},
		{"Partially compliant grades", &cluster.Capacity{Models: cpuModels(false), Modelings: oneNodePerGrade}, rl("cpu", "1.5"), 1, true},
		{"No compliant grades", &cluster.Capacity{Models: cpuModels(false), Modelings: oneNodePerGrade}, rl("cpu", "3"), 0, true},
		{"Multi resource request", &cluster.Capacity{Models: cpuModels(true), Modelings: oneNodePerGrade}, rl("cpu", "1", "memory", "1.5Gi"), 1, true},
		{"request exceeds highest grade", &cluster.Capacity{Models: cpuModels(true), Modelings: oneNodePerGrade}, rl("cpu", "1", "memory", "2.5Gi"), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := byModels(tt.capa, tt.request)
			if ok != tt.wantOK || (ok && got != tt.want) {
				t.Errorf("byModels = %d, %t; want %d, %t", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// summary80 is the resource summary several of Karmada's rows share: 4
// CPUs, 8Gi and 100 pods allocatable, of which 1 CPU, 2Gi and 20 pods are
// allocated.
func summary80() *cluster.Capacity {
	return &cluster.Capacity{Allocatable: rl("cpu", "4", "memory", "8Gi", "pods", "100"), Allocated: rl("cpu", "1", "memory", "2Gi", "pods", "20")}
}

// halfCPUOneGi is a replica requesting 500m and 1Gi.
func halfCPUOneGi() *requirements {
	return &requirements{request: rl("cpu", "500m", "memory", "1Gi")}
}

// TestMaxAvailableKarmadaRows are the rows of Karmada's
// TestMaxAvailableReplicas and TestMaxAvailableReplicasGeneral
// (pkg/estimator/client/general_test.go at f8fdd02), and the baseline of
// TestMaxAvailableReplicasGeneralWithResourceModels, through maxAvailable.
// Skipped: "assumed workloads reduce replicas", "assumed workloads are
// deducted" and the assumed half of the resource-model test
// (SchedulingOvercommitProtection, off by default; drydock has no
// in-flight bindings either).
func TestMaxAvailableKarmadaRows(t *testing.T) {
	models := &cluster.Capacity{
		Allocatable: rl("pods", "100", "cpu", "3"),
		Models:      []cluster.ResourceModel{{Grade: 0, Min: rl("cpu", "0")}, {Grade: 1, Min: rl("cpu", "1")}},
		Modelings:   []cluster.Modeling{{Grade: 0, Count: 0}, {Grade: 1, Count: 3}},
	}
	tests := []struct {
		name string
		capa *cluster.Capacity
		req  *requirements
		want int32
	}{
		{"TestMaxAvailableReplicas: single cluster with resources", summary80(), halfCPUOneGi(), 6},
		{"TestMaxAvailableReplicas: cluster with no resources", nil, &requirements{request: rl("cpu", "1")}, 0},
		{"nil resource summary", nil, nil, 0},
		{"no allowed pods", &cluster.Capacity{Allocatable: rl("pods", "10"), Allocated: rl("pods", "10")}, nil, 0},
		{"nil replica requirements", &cluster.Capacity{Allocatable: rl("pods", "10")}, nil, 10},
		{"basic resource estimation", summary80(), halfCPUOneGi(), 6},
		{"with resource models, without assumed workloads", models, &requirements{request: rl("cpu", "500m")}, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := maxAvailable(&cluster.Cluster{Capacity: tt.capa}, tt.req); got != tt.want {
				t.Errorf("maxAvailable = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestAllowedPodsKarmadaRows are the rows of Karmada's
// TestGetAllowedPodNumber (pkg/estimator/client/general_test.go at
// f8fdd02).
func TestAllowedPodsKarmadaRows(t *testing.T) {
	tests := []struct {
		name string
		capa *cluster.Capacity
		want int64
	}{
		{"normal case", &cluster.Capacity{Allocatable: rl("pods", "100"), Allocated: rl("pods", "40"), Allocating: rl("pods", "10")}, 50},
		{"no allocatable pods", &cluster.Capacity{Allocated: rl("pods", "10")}, 0},
		{"over allocation", &cluster.Capacity{Allocatable: rl("pods", "100"), Allocated: rl("pods", "90"), Allocating: rl("pods", "20")}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := allowedPods(tt.capa); got != tt.want {
				t.Errorf("allowedPods = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestSummaryKarmadaRows are the rows of Karmada's
// TestGetMaximumReplicasBasedOnClusterSummary (pkg/estimator/client/
// general_test.go at f8fdd02). The estimator's other tests (component
// sets, assumed-workload deduction) need MultiplePodTemplatesScheduling or
// SchedulingOvercommitProtection, both off by default: skipped.
func TestSummaryKarmadaRows(t *testing.T) {
	tests := []struct {
		name string
		capa *cluster.Capacity
		want int64
	}{
		{"sufficient resources", &cluster.Capacity{Allocatable: rl("cpu", "4", "memory", "8Gi"), Allocated: rl("cpu", "1", "memory", "2Gi")}, 6},
		{"insufficient memory", &cluster.Capacity{Allocatable: rl("cpu", "4", "memory", "2Gi"), Allocated: rl("cpu", "1", "memory", "1.5Gi")}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bySummary(tt.capa, halfCPUOneGi().request); got != tt.want {
				t.Errorf("bySummary = %d, want %d", got, tt.want)
			}
		})
	}
}
