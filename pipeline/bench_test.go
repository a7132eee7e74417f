package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkConformanceApps renders every KubeVela conformance case that
// renders (with KubeVela's definitions), one pipeline run per case.
func BenchmarkConformanceApps(b *testing.B) {
	root := "../../shared/conformance/kubevela"
	entries, err := os.ReadDir(filepath.Join(root, "cases"))
	if err != nil {
		b.Skipf("corpus not found: %v", err)
	}
	var inputs []string
	for _, e := range entries {
		dir := filepath.Join(root, "cases", e.Name())
		if _, err := os.Stat(filepath.Join(dir, "expected-error")); err == nil {
			continue
		}
		inputs = append(inputs, filepath.Join(dir, "input"))
	}
	defs := filepath.Join(root, "definitions")
	b.ResetTimer()
	for b.Loop() {
		for _, in := range inputs {
			if _, err := Run(context.Background(), Inputs{Paths: []string{in}, DefinitionPaths: []string{defs}, ClustersFromInputs: true}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(inputs)*b.N)/b.Elapsed().Seconds(), "apps/s")
}

// BenchmarkMultiCluster renders 100 applications, each deployed to 3
// clusters in 2 environments (staging, prod with an override): 6
// placements per application.
func BenchmarkMultiCluster(b *testing.B) {
	dir := b.TempDir()
	var inv strings.Builder
	for _, c := range []string{"c1", "c2", "c3"} {
		fmt.Fprintf(&inv, "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: %s\n  labels: {fleet: web}\nstatus:\n  kubernetesVersion: v1.29.4\n", c)
	}
	var apps strings.Builder
	for i := range 100 {
		fmt.Fprintf(&apps, `---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: shop-%d
spec:
  components:
    - name: web-%d
      type: webservice
      properties:
        image: registry.example.com/shop:%d
        ports: [{port: 8080, expose: true}]
      traits:
        - type: scaler
          properties: {replicas: 1}
  policies:
    - {name: staging, type: topology, properties: {clusterLabelSelector: {fleet: web}, namespace: staging}}
    - {name: prod, type: topology, properties: {clusterLabelSelector: {fleet: web}, namespace: prod}}
    - name: ha
      type: override
      properties:
        components:
          - type: webservice
            traits: [{type: scaler, properties: {replicas: 3}}]
  workflow:
    steps:
      - {name: to-staging, type: deploy, properties: {policies: [staging]}}
      - {name: approve, type: suspend}
      - {name: to-prod, type: deploy, properties: {policies: [prod, ha]}}
`, i, i, i)
	}
	invPath, appsPath := filepath.Join(dir, "clusters.yaml"), filepath.Join(dir, "apps.yaml")
	if err := os.WriteFile(invPath, []byte(inv.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(appsPath, []byte(apps.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(context.Background(), Inputs{Paths: []string{appsPath}, ClusterPaths: []string{invPath}})
		if err != nil {
			b.Fatal(err)
		}
		if n := len(res.Clusters.List("c3")); n != 400 {
			b.Fatalf("c3 holds %d objects, want 400", n)
		}
	}
	b.ReportMetric(float64(100*b.N)/b.Elapsed().Seconds(), "apps/s")
	b.ReportMetric(float64(600*b.N)/b.Elapsed().Seconds(), "placements/s")
}

// BenchmarkProvenance: 1,000 webservice+scaler applications rendered in
// memory without and with provenance (Inputs.Record.Provenance): its cost.
func BenchmarkProvenance(b *testing.B) {
	var apps strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&apps, `---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: app-%d, namespace: team-%d}
spec:
  components:
    - name: web-%d
      type: webservice
      properties:
        image: registry.example.com/web:%d
        ports: [{port: 8080, expose: true}]
        env: [{name: INDEX, value: "%d"}]
      traits:
        - {type: scaler, properties: {replicas: %d}}
`, i, i%10, i, i, i, 1+i%5)
	}
	path := filepath.Join(b.TempDir(), "apps.yaml")
	if err := os.WriteFile(path, []byte(apps.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		b.Run(fmt.Sprintf("provenance=%v", on), func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(context.Background(), Inputs{Paths: []string{path}, Record: Record{Provenance: on}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
