package propagation

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// FuzzParseSchedule reads an inventory, propagation policies and templates
// from arbitrary YAML and schedules every template: nothing may panic, a
// refused policy wraps ErrInvalid, and every scheduling error is either
// Karmada's unschedulable verdict or positioned bad input. Seeded from the
// Karmada conformance corpus and the scheduling scenario.
func FuzzParseSchedule(f *testing.F) {
	for _, c := range fuzzCorpus(f) {
		f.Add(c[0], c[1], c[2])
	}
	f.Fuzz(func(t *testing.T, clustersSrc, policySrc, templateSrc string) {
		inv := cluster.NewInventory()
		if objs, err := manifest.Decode("c.yaml", []byte(clustersSrc), manifest.DecodeOptions{}); err == nil {
			for _, o := range objs {
				if cluster.IsClusterObject(o) {
					_ = inv.Add(o)
				}
			}
		}
		var policies []*Policy
		if objs, err := manifest.Decode("p.yaml", []byte(policySrc), manifest.DecodeOptions{}); err == nil {
			for _, o := range objs {
				if !IsPolicy(o) {
					continue
				}
				p, err := Parse(o)
				if err != nil {
					if !errors.Is(err, ErrInvalid) {
						t.Fatalf("Parse error %v does not wrap ErrInvalid", err)
					}
					continue
				}
				policies = append(policies, p)
			}
		}
		templates, err := manifest.Decode("t.yaml", []byte(templateSrc), manifest.DecodeOptions{})
		if err != nil {
			return
		}
		for _, tmpl := range templates {
			p := Select(tmpl, policies)
			if p == nil || CheckTemplate(tmpl) != nil {
				continue
			}
			d, err := Schedule(tmpl, p, inv.Members(""))
			if err != nil {
				if !errors.Is(err, ErrUnschedulable) && len(manifest.Format(err, nil)) < len("t.yaml:") {
					t.Fatalf("Schedule error %q is neither unschedulable nor positioned", err)
				}
				continue
			}
			for _, target := range d.Targets {
				Finish(Claim(tmpl, d, target))
			}
		}
	})
}

// fuzzCorpus is (clusters, policies, templates) from the Karmada corpus's
// propagate cases, plus one scheduling case of drydock's own.
func fuzzCorpus(f *testing.F) [][3]string {
	var out [][3]string
	dirs, _ := filepath.Glob("../../../shared/conformance/karmada/cases/divided-*/input")
	for _, d := range dirs {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(d, name))
			return string(b)
		}
		out = append(out, [3]string{read("clusters.yaml"), read("propagation.yaml"), read("resources.yaml")})
	}
	out = append(out, [3]string{
		"apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m1}\nspec: {region: eu, taints: [{key: k, effect: NoSchedule}]}\nstatus: {resourceSummary: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}, allocatableModelings: [{grade: 1, count: 3}]}}\n",
		"apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: p}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  placement:\n    clusterTolerations: [{key: k, operator: Exists}]\n    clusterAffinities: [{affinityName: a, clusterNames: [m1], overflowAffinities: [{affinityName: b, clusterNames: [m2]}]}]\n    spreadConstraints: [{spreadByField: region, minGroups: 1}, {spreadByField: cluster, maxGroups: 2}]\n    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w, namespace: default, uid: abc}\nspec: {replicas: 5, template: {spec: {containers: [{name: c, resources: {limits: {cpu: 500m}}}], initContainers: [{name: i, resources: {requests: {memory: 1Gi}}}]}}}\n",
	})
	if len(out) < 2 {
		f.Log("Karmada corpus not found beside the repository; seeding with drydock's own case only")
	}
	return out
}
