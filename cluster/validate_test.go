package cluster

import (
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// TestAddRefusals: Cluster objects the API server or Karmada's
// ValidateCluster refuses are refused with the field's position and the
// API server's wording; values print as apimachinery prints them.
func TestAddRefusals(t *testing.T) {
	const head = "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: m1\n"
	tests := []struct{ name, body, want string }{
		{"label key", "  labels: {'bad key!': x}\n", `c.yaml:5:11: Cluster "m1": metadata.labels: Invalid value: "bad key!": `},
		{"label value", "  labels: {env: 'prod env!'}\n", `c.yaml:5:17: Cluster "m1": metadata.labels.env: Invalid value: "prod env!": a valid label must be`},
		// A key holding dots is one segment: bracketed, and located at its value.
		{"dotted label value", "  labels: {app.kubernetes.io/name: 'bad value!'}\n", `c.yaml:5:36: Cluster "m1": metadata.labels[app.kubernetes.io/name]: Invalid value: "bad value!": a valid label must be`},
		{"label value type", "  labels: {tier: 1}\n", `metadata.labels.tier: Invalid value: "integer": metadata.labels.tier in body must be of type string: "integer"`},
		{"labels type", "  labels: [a]\n", `metadata.labels: Invalid value: "array": metadata.labels in body must be of type object: "array"`},
		{"provider type", "spec: {provider: 42}\n", `spec.provider: Invalid value: "integer": spec.provider in body must be of type string: "integer"`},
		{"region value", "spec: {region: 'eu west'}\n", `spec.region: Invalid value: "eu west": a valid label must be`},
		{"zone type", "spec: {zones: [1]}\n", `spec.zones[0]: Invalid value: "integer": spec.zones[0] in body must be of type string`},
		{"version type", "status: {kubernetesVersion: 1.29}\n", `status.kubernetesVersion: Invalid value: "number": status.kubernetesVersion in body must be of type string: "number"`},
		{"summary type", "status: {resourceSummary: x}\n", `status.resourceSummary: Invalid value: "string": status.resourceSummary in body must be of type object`},
		{"quantity", "status: {resourceSummary: {allocatable: {cpu: abc}}}\n", `status.resourceSummary.allocatable.cpu: Invalid value: "abc": quantities must match the regular expression`},
		{"quantity type", "status: {resourceSummary: {allocatable: {memory: {value: 8}}}}\n", `allocatable.memory: Invalid value: {"value":8}: quantities must be a string or a number, not object`},
		{"modelings type", "status: {resourceSummary: {allocatableModelings: {a: 1}}}\n", `allocatableModelings in body must be of type array: "object"`},
		{"modeling grade", "status: {resourceSummary: {allocatableModelings: [{count: 1}]}}\n", `status.resourceSummary.allocatableModelings[0].grade: Required value`},
		{"taints type", "spec: {taints: {a: b}}\n", `spec.taints: Invalid value: "object": spec.taints in body must be of type array: "object"`},
		{"taint item type", "spec: {taints: [x]}\n", `spec.taints[0]: Invalid value: "string": spec.taints[0] in body must be of type object: "string"`},
		{"taint key", "spec: {taints: [{key: 'bad key!', effect: NoSchedule}]}\n", `spec.taints[0].key: Invalid value: "bad key!": name part must consist`},
		{"taint effect", "spec: {taints: [{key: k, effect: Sometimes}]}\n", `spec.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`},
		{"taint duplicate", "spec: {taints: [{key: k, effect: NoSchedule}, {key: k, value: v, effect: NoSchedule}]}\n", `spec.taints[1]: Duplicate value: {"effect":"NoSchedule","key":"k","value":"v"}: taints must be unique by key and effect pair`},
		{"model grade type", "spec: {resourceModels: [{grade: one}]}\n", `spec.resourceModels[0].grade: Invalid value: "string": spec.resourceModels[0].grade in body must be of type integer`},
		{"model range name", "spec: {resourceModels: [{grade: 0, ranges: [{min: 0, max: 1}]}]}\n", `spec.resourceModels[0].ranges[0].name: Required value`},
		{"model same grade", "spec: {resourceModels: [{grade: 0, ranges: [{name: cpu, min: 0, max: 1}]}, {grade: 0, ranges: [{name: cpu, min: 1, max: 2}]}]}\n", `spec.resourceModels: Invalid value: [`},
		{"model gap", "spec: {resourceModels: [{grade: 0, ranges: [{name: cpu, min: 0, max: 1}]}, {grade: 1, ranges: [{name: cpu, min: 2, max: 3}]}]}\n", `Model intervals for resources must be contiguous and non-overlapping`},
		{"model max below min", "spec: {resourceModels: [{grade: 0, ranges: [{name: cpu, min: 0, max: 2}]}, {grade: 1, ranges: [{name: cpu, min: 2, max: 1}]}, {grade: 2, ranges: [{name: cpu, min: 1, max: 5}]}]}\n", `The max value of each resource must be greater than the min value`},
		{"model names", "spec: {resourceModels: [{grade: 0, ranges: [{name: cpu, min: 0, max: 1}]}, {grade: 1, ranges: [{name: memory, min: 1, max: 2}]}]}\n", `The resource types of each models should be the same`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := manifest.Decode("c.yaml", []byte(head+tt.body), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			err = NewInventory().Add(objs[0])
			if err == nil || !strings.Contains(manifest.Format(err, nil), tt.want) || !strings.HasPrefix(manifest.Format(err, nil), "c.yaml:") {
				t.Fatalf("error %v,\nwant it to start with c.yaml: and contain %q", err, tt.want)
			}
		})
	}
}

// TestAddDuplicate: a second Cluster of one name names both documents.
func TestAddDuplicate(t *testing.T) {
	objs, err := manifest.Decode("c.yaml", []byte("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m1}\n---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m1}\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inv := NewInventory()
	if err := inv.Add(objs[0]); err != nil {
		t.Fatal(err)
	}
	const want = `c.yaml:5:1: Cluster "m1" is already in the inventory (c.yaml:1:1)`
	if err := inv.Add(objs[1]); err == nil || manifest.Format(err, nil) != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}
