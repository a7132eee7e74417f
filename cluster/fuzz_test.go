package cluster

import (
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// FuzzInventory reads Cluster objects from arbitrary YAML: nothing may
// panic, and every refusal names the file.
func FuzzInventory(f *testing.F) {
	f.Add("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m1, labels: {env: prod}}\nspec: {provider: aws, region: eu, zones: [a, b]}\nstatus: {kubernetesVersion: v1.31.2}\n")
	f.Add("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m2}\nspec:\n  taints: [{key: k, value: v, effect: NoSchedule}]\n  resourceModels: [{grade: 1, ranges: [{name: cpu, min: '2', max: '4'}]}, {grade: 0, ranges: [{name: cpu, min: 1, max: '2'}]}]\nstatus:\n  resourceSummary:\n    allocatable: {cpu: 8, memory: 16Gi, pods: '110', nvidia.com/gpu: 2}\n    allocated: {cpu: 2500m}\n    allocatableModelings: [{grade: 0, count: 2}, {grade: 1, count: -1}]\n")
	f.Fuzz(func(t *testing.T, src string) {
		objs, err := manifest.Decode("c.yaml", []byte(src), manifest.DecodeOptions{})
		if err != nil {
			return
		}
		inv := NewInventory()
		for _, o := range objs {
			if !IsClusterObject(o) {
				continue
			}
			if err := inv.Add(o); err != nil && !strings.HasPrefix(manifest.Format(err, nil), "c.yaml:") {
				t.Fatalf("error %q does not name the file", err)
			}
		}
	})
}
