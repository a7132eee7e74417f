package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// generateApps writes n Applications (one webservice with a scaler each)
// into one file and returns its path.
func generateApps(b *testing.B, n int) string {
	b.Helper()
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, `---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: app-%d
  namespace: team-%d
spec:
  components:
    - name: web-%d
      type: webservice
      properties:
        image: registry.example.com/web:%d
        ports:
          - port: 8080
            expose: true
        env:
          - name: INDEX
            value: "%d"
      traits:
        - type: scaler
          properties:
            replicas: %d
`, i, i%10, i, i, i, 1+i%5)
	}
	path := filepath.Join(b.TempDir(), "apps.yaml")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkRender1000Apps renders 1,000 generated applications with the
// built-in definitions; apps/s is the throughput figure of the render
// engine issue, peak-rss-MiB the process's high-water mark so far.
func BenchmarkRender1000Apps(b *testing.B) {
	path := generateApps(b, 1000)
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(context.Background(), Inputs{Paths: []string{path}})
		if err != nil {
			b.Fatal(err)
		}
		if got := res.Applications; got != 1000 {
			b.Fatalf("rendered %d apps", got)
		}
	}
	b.ReportMetric(float64(1000*b.N)/b.Elapsed().Seconds(), "apps/s")
	reportPeakRSS(b)
}

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
			if _, err := Run(context.Background(), Inputs{Paths: []string{in}, DefinitionPaths: []string{defs}}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(inputs)*b.N)/b.Elapsed().Seconds(), "apps/s")
}

// reportPeakRSS reports VmHWM from /proc (Linux only).
func reportPeakRSS(b *testing.B) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			b.ReportMetric(float64(kb)/1024, "peak-rss-MiB")
		}
	}
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

// BenchmarkKarmada propagates 1,000 Deployment templates to 10 member
// clusters through one PropagationPolicy and 5 override policies (image,
// labels, command, plaintext, annotations) per cluster: 10,000
// object-cluster pairs per run, the whole pipeline from YAML to the fake
// clusters.
func BenchmarkKarmada(b *testing.B) {
	var sb strings.Builder
	for i := range 10 {
		fmt.Fprintf(&sb, "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member%02d\n  labels: {env: prod, zone: z%d}\nspec: {provider: aws, region: r%d}\n", i, i%3, i%2)
	}
	sb.WriteString(`---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: all}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    clusterAffinity: {labelSelector: {matchLabels: {env: prod}}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: registry}
spec:
  overrideRules:
    - targetCluster: {fieldSelector: {matchExpressions: [{key: region, operator: In, values: [r1]}]}}
      overriders:
        imageOverrider: [{component: Registry, operator: replace, value: mirror.example.com}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: labels}
spec:
  overrideRules:
    - overriders:
        labelsOverrider: [{operator: add, value: {team: shop, tier: web}}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: command, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: web}}}]
  overrideRules:
    - targetCluster: {labelSelector: {matchLabels: {zone: z1}}}
      overriders:
        commandOverrider: [{containerName: web, operator: add, value: [--verbose]}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: replicas, namespace: default}
spec:
  overrideRules:
    - targetCluster: {clusterNames: [member00, member01]}
      overriders:
        plaintext: [{path: /spec/replicas, operator: replace, value: 5}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: annotations, namespace: default}
spec:
  overrideRules:
    - overriders:
        annotationsOverrider: [{operator: add, value: {owner: platform}}]
`)
	for i := range 1000 {
		fmt.Fprintf(&sb, `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-%d, namespace: default, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: registry.example.com/team/web:%d
          command: [/bin/web]
          env: [{name: INDEX, value: "%d"}]
`, i, i, i)
	}
	path := filepath.Join(b.TempDir(), "karmada.yaml")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(context.Background(), Inputs{Paths: []string{path}})
		if err != nil {
			b.Fatal(err)
		}
		if n := len(res.Clusters.List("member09")); n != 1000 {
			b.Fatalf("member09 holds %d objects, want 1000", n)
		}
	}
	b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "pairs/s")
	reportPeakRSS(b)
}
