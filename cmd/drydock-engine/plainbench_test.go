package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/rules"
)

// The plain-manifest benchmarks (BenchmarkCLIPlainFiles*) check a
// directory of generated manifests, like a real manifests repository:
// files of several documents of a few KB each, of varied kinds, some
// that conftest's examples/kubernetes policy (testdata/plainbench/policy)
// denies or warns about and some it accepts.
//
// To measure another tool on the same files, write them with
//
//	go test ./cmd/drydock-engine -run TestPlainBenchFiles -plain-files-out DIR -plain-files-n 2580
var (
	plainFilesOut = flag.String("plain-files-out", "", "write the plain benchmark's manifests into this directory")
	plainFilesN   = flag.Int("plain-files-n", 2580, "how many files -plain-files-out writes")
)

// plainKinds are the documents a generated file draws from, by index.
var plainKinds = []func(i int) string{plainDeployment, plainService, plainConfigMap, plainIngress,
	plainServiceAccount, plainHPA, plainNetworkPolicy}

// writePlainFiles writes n manifest files under dir, spread over
// subdirectories of 100 files: file i holds 2 to 5 documents.
func writePlainFiles(dir string, n int) error {
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("team-%02d", i/100))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		docs := make([]string, 2+i%4)
		for j := range docs {
			docs[j] = plainKinds[(i+j*3)%len(plainKinds)](i*7 + j)
		}
		name := filepath.Join(sub, fmt.Sprintf("app-%04d.yaml", i))
		if err := os.WriteFile(name, []byte(strings.Join(docs, "---\n")), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestPlainBenchFiles checks the generated files are what the benchmarks
// say: several documents a file, a few KB each, every kind present. With
// -plain-files-out it also writes them there.
func TestPlainBenchFiles(t *testing.T) {
	dir := t.TempDir()
	if err := writePlainFiles(dir, 20); err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "team-00", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	var docs, size int
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		size += len(src)
		vals, err := rules.Documents(f, src)
		if err != nil {
			t.Fatal(err)
		}
		docs += len(vals)
		for _, v := range vals {
			obj, ok := v.Object()
			if !ok {
				t.Fatalf("%s: a document is not an object", v.Pos)
			}
			kinds[obj.Kind()]++
		}
	}
	got := map[string]any{"files": len(files), "docs": docs, "kinds": len(kinds), "KB per file": size / len(files) / 1024}
	want := map[string]any{"files": 20, "docs": 70, "kinds": len(plainKinds), "KB per file": 3}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("generated files (-want +got):\n%s", diff)
	}
	if *plainFilesOut != "" {
		if err := writePlainFiles(*plainFilesOut, *plainFilesN); err != nil {
			t.Fatal(err)
		}
	}
}

func plainDeployment(i int) string {
	// Every third one runs as non-root with the recommended labels and
	// selectors: the policy accepts it but for its violation rule.
	var env strings.Builder
	for k := range 10 {
		fmt.Fprintf(&env, "            - {name: FEATURE_%02d, value: \"enabled for service %d\"}\n", k, i)
	}
	extra, sc := "", ""
	if i%3 == 0 {
		extra = fmt.Sprintf(`    app.kubernetes.io/name: web-%[1]d
    app.kubernetes.io/instance: web-%[1]d-prod
    app.kubernetes.io/version: "1.%[1]d.0"
    app.kubernetes.io/component: frontend
    app.kubernetes.io/part-of: shop
    app.kubernetes.io/managed-by: drydock
`, i)
		sc = "      securityContext:\n        runAsNonRoot: true\n"
	}
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-%[1]d
  namespace: team-%[2]d
  labels:
    app: web-%[1]d
%[3]s  annotations:
    description: "The web front end of service %[1]d, generated for the plain-manifest benchmark."
spec:
  replicas: %[4]d
  selector:
    matchLabels:
      app: web-%[1]d
      release: r%[2]d
  template:
    metadata:
      labels:
        app: web-%[1]d
        release: r%[2]d
    spec:
%[5]s      containers:
        - name: web
          image: registry.example.com/team-%[2]d/web:1.%[1]d.0
          args: ["--port=8080", "--log-level=info", "--metrics"]
          ports:
            - {name: http, containerPort: 8080}
            - {name: metrics, containerPort: 9090}
          env:
            - {name: INDEX, value: "%[1]d"}
            - {name: REGION, value: eu-west-%[2]d}
%[6]s          volumeMounts:
            - {name: config, mountPath: /etc/web}
            - {name: cache, mountPath: /var/cache/web}
          resources:
            requests: {cpu: 100m, memory: 128Mi}
            limits: {cpu: "1", memory: 512Mi}
          readinessProbe:
            httpGet: {path: /healthz, port: http}
            periodSeconds: 10
        - name: sidecar
          image: registry.example.com/proxy:2.%[2]d
          ports:
            - {name: proxy, containerPort: 15001}
      volumes:
        - name: config
          configMap: {name: web-%[1]d-config}
        - name: cache
          emptyDir: {sizeLimit: 1Gi}
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 100
              podAffinityTerm:
                topologyKey: kubernetes.io/hostname
                labelSelector:
                  matchLabels: {app: web-%[1]d}
`, i, i%10, extra, 1+i%5, sc, env.String())
}

func plainService(i int) string {
	return fmt.Sprintf(`apiVersion: v1
kind: Service
metadata:
  name: web-%[1]d
  namespace: team-%[2]d
  labels: {app: web-%[1]d}
spec:
  type: ClusterIP
  selector: {app: web-%[1]d}
  ports:
    - {name: http, port: 80, targetPort: http}
    - {name: metrics, port: 9090, targetPort: metrics}
`, i, i%10)
}

func plainConfigMap(i int) string {
	var data strings.Builder
	for k := range 40 {
		fmt.Fprintf(&data, "  setting_%02d: \"value %d of service %d, a line of configuration\"\n", k, k, i)
	}
	return fmt.Sprintf(`apiVersion: v1
kind: ConfigMap
metadata:
  name: web-%[1]d-config
  namespace: team-%[2]d
data:
%[3]s`, i, i%10, data.String())
}

func plainIngress(i int) string {
	return fmt.Sprintf(`apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web-%[1]d
  namespace: team-%[2]d
  annotations:
    nginx.ingress.kubernetes.io/rewrite-target: /
spec:
  ingressClassName: nginx
  tls:
    - hosts: [web-%[1]d.example.com]
      secretName: web-%[1]d-tls
  rules:
    - host: web-%[1]d.example.com
      http:
        paths:
          - path: /
            pathType: Prefix
            backend:
              service: {name: web-%[1]d, port: {number: 80}}
`, i, i%10)
}

func plainServiceAccount(i int) string {
	return fmt.Sprintf(`apiVersion: v1
kind: ServiceAccount
metadata:
  name: web-%[1]d
  namespace: team-%[2]d
automountServiceAccountToken: false
`, i, i%10)
}

func plainHPA(i int) string {
	return fmt.Sprintf(`apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web-%[1]d
  namespace: team-%[2]d
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web-%[1]d}
  minReplicas: 2
  maxReplicas: %[3]d
  metrics:
    - type: Resource
      resource:
        name: cpu
        target: {type: Utilization, averageUtilization: 70}
`, i, i%10, 5+i%20)
}

func plainNetworkPolicy(i int) string {
	return fmt.Sprintf(`apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: web-%[1]d
  namespace: team-%[2]d
spec:
  podSelector:
    matchLabels: {app: web-%[1]d}
  policyTypes: [Ingress, Egress]
  ingress:
    - from:
        - namespaceSelector:
            matchLabels: {kubernetes.io/metadata.name: ingress-nginx}
      ports:
        - {protocol: TCP, port: 8080}
  egress:
    - to:
        - ipBlock: {cidr: 10.0.0.0/8}
`, i, i%10)
}
