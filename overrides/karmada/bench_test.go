package karmada

import (
	"testing"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

const benchPolicies = `
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: registry}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment}
  overrideRules:
  - targetCluster: {labelSelector: {matchLabels: {location: eu}}}
    overriders:
      imageOverrider:
      - {component: Registry, operator: replace, value: eu.registry.example.com}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: team-labels}
spec:
  overrideRules:
  - overriders:
      labelsOverrider:
      - operator: add
        value: {team: payments, tier: backend}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: by-name, namespace: default}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment, name: web}
  overrideRules:
  - targetCluster: {clusterNames: [member1, member2]}
    overriders:
      annotationsOverrider:
      - operator: add
        value: {example.com/owner: web-team}
      plaintext:
      - {path: /spec/replicas, operator: replace, value: 3}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: by-label, namespace: default}
spec:
  resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment
    labelSelector: {matchExpressions: [{key: app, operator: In, values: [web, api]}]}
  overrideRules:
  - targetCluster:
      fieldSelector:
        matchExpressions: [{key: provider, operator: In, values: [aws]}]
    overriders:
      commandOverrider:
      - {containerName: web, operator: add, value: [--region=us]}
      argsOverrider:
      - {containerName: sidecar, operator: remove, value: [--verbose]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: tag, namespace: default}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment}
  overrideRules:
  - overriders:
      imageOverrider:
      - component: Tag
        operator: replace
        value: v2.0.0
        predicate: {path: /spec/template/spec/containers/0/image}
`

const benchObject = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: default
  labels: {app: web, propagationpolicy.karmada.io/permanent-id: x}
  annotations: {propagationpolicy.karmada.io/name: x}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: registry.example.com/team/web:v1.0.0
        command: [/web, --port=8080]
        resources: {requests: {cpu: 100m, memory: 128Mi}}
        ports: [{containerPort: 8080}]
      - name: sidecar
        image: registry.example.com/team/proxy:v3
        args: [--verbose, --upstream=127.0.0.1:8080]
`

const benchClusters = `
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member1, labels: {location: us}}
spec: {provider: aws, region: us-east-1, zones: [us-east-1a]}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member2, labels: {location: eu}}
spec: {provider: gcp, region: europe-west1}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member3, labels: {location: eu}}
spec: {provider: aws, region: eu-west-1}
`

func decodeAll(tb testing.TB, src string) []*manifest.Object {
	tb.Helper()
	objs, err := manifest.Decode("bench.yaml", []byte(src), manifest.DecodeOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return objs
}

func parseAll(tb testing.TB, src string) []*Policy {
	tb.Helper()
	var out []*Policy
	for _, o := range decodeAll(tb, src) {
		p, err := Parse(o)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func clustersOf(tb testing.TB, src string) []*cluster.Cluster {
	tb.Helper()
	inv := cluster.NewInventory()
	for _, o := range decodeAll(tb, src) {
		if err := inv.Add(o); err != nil {
			tb.Fatal(err)
		}
	}
	return inv.Clusters()[1:]
}

// BenchmarkApply measures object-cluster pairs per second, five policies
// each, on GOMAXPROCS goroutines.
func BenchmarkApply(b *testing.B) {
	policies := parseAll(b, benchPolicies)
	obj := decodeAll(b, benchObject)[0]
	clusters := clustersOf(b, benchClusters)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, _, err := Apply(obj, clusters[i%len(clusters)], policies); err != nil {
				b.Error(err)
				return
			}
			i++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
}
