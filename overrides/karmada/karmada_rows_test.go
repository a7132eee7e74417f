package karmada

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// TestValidateOverrideSpecKarmadaRows are the rows of Karmada's
// TestValidateOverrideSpec (pkg/util/validation at f8fdd02), written as
// ClusterOverridePolicies: whether Karmada's webhook refuses the spec.
func TestValidateOverrideSpecKarmadaRows(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: p}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n"
	const plaintext = "{plaintext: [{path: /spec/replicas, operator: replace, value: 1}]}"
	tests := []struct {
		name, spec string
		wantErr    bool
	}{
		{"overrideRules is set, overriders and targetCluster aren't set", "  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: " + plaintext + "}]\n", false},
		{"overriders and targetCluster are set, overrideRules isn't set", "  targetCluster: {clusterNames: [c1]}\n  overriders: " + plaintext + "\n", false},
		{"overrideRules and targetCluster can't co-exist", "  targetCluster: {clusterNames: [c1]}\n  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: " + plaintext + "}]\n", true},
		{"overrideRules and overriders can't co-exist", "  overriders: " + plaintext + "\n  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: " + plaintext + "}]\n", true},
		{"overrideRules, targetCluster and overriders can't co-exist", "  targetCluster: {clusterNames: [c1]}\n  overriders: " + plaintext + "\n  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: " + plaintext + "}]\n", true},
		{"invalid annotation should not be allowed", "  overrideRules: [{targetCluster: {clusterNames: [cluster-name]}, overriders: {annotationsOverrider: [{operator: add, value: {'testannotation~projectId': c-m-lfx9lk92p-v86cf}}]}}]\n", true},
		{"invalid label should not be allowed", "  overrideRules: [{targetCluster: {clusterNames: [cluster-name]}, overriders: {labelsOverrider: [{operator: add, value: {'testannotation~projectId': c-m-lfx9lk92p-v86cf}}]}}]\n", true},
		{"overrideSpec.targetCluster.fieldSelector has unsupported key", "  targetCluster: {fieldSelector: {matchExpressions: [{key: foo, operator: In, values: [fooCloud]}]}}\n  overriders: " + plaintext + "\n", true},
		{"overrideSpec.targetCluster.fieldSelector has unsupported operator", "  targetCluster: {fieldSelector: {matchExpressions: [{key: provider, operator: Exists, values: [fooCloud]}]}}\n  overriders: " + plaintext + "\n", true},
		{"overrideRules.[index].targetCluster.fieldSelector has unsupported key", "  overrideRules: [{targetCluster: {fieldSelector: {matchExpressions: [{key: foo, operator: In, values: [fooCloud]}]}}, overriders: " + plaintext + "}]\n", true},
		{"overrideRules.[index].targetCluster.fieldSelector has unsupported operator", "  overrideRules: [{targetCluster: {fieldSelector: {matchExpressions: [{key: provider, operator: Exists, values: [fooCloud]}]}}, overriders: " + plaintext + "}]\n", true},
		{"fieldOverrider with neither YAML nor JSON should be rejected", "  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: {fieldOverrider: [{fieldPath: /data/config}]}}]\n", true},
		{"fieldOverrider with both YAML and JSON set should be rejected", "  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: {fieldOverrider: [{fieldPath: /data/config, json: [{subPath: /a, operator: add, value: x}], yaml: [{subPath: /b, operator: add, value: y}]}]}}]\n", true},
		{"fieldOverrider with only YAML set should be allowed", "  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: {fieldOverrider: [{fieldPath: /data/config, yaml: [{subPath: /b, operator: add, value: y}]}]}}]\n", false},
		{"fieldOverrider with only JSON set should be allowed", "  overrideRules: [{targetCluster: {clusterNames: [c1]}, overriders: {fieldOverrider: [{fieldPath: /data/config, json: [{subPath: /a, operator: add, value: x}]}]}}]\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseOne(t, head+tt.spec)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want an error: %t", err, tt.wantErr)
			}
		})
	}
}

// TestImageParserKarmadaRows are the rows of Karmada's imageparser
// TestParse and TestSplitHostname (pkg/util/imageparser at f8fdd02).
func TestImageParserKarmadaRows(t *testing.T) {
	parse := []struct{ name, image, host, repo, tag, digest string }{
		{"simple", "pause", "", "pause", "", ""},
		{"repository", "subpath/imagename:v1.0.0", "", "subpath/imagename", "v1.0.0", ""},
		{"normal", "fictional.registry.example/imagename:v1.0.0", "fictional.registry.example", "imagename", "v1.0.0", ""},
		{"hostname with port", "fictional.registry.example:10443/subpath/imagename:v1.0.0", "fictional.registry.example:10443", "subpath/imagename", "v1.0.0", ""},
		{"digest", "fictional.registry.example:10443/subpath/imagename@sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c",
			"fictional.registry.example:10443", "subpath/imagename", "", "sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c"},
	}
	for _, tt := range parse {
		t.Run("Parse/"+tt.name, func(t *testing.T) {
			img, err := parseImage(tt.image)
			if err != nil {
				t.Fatal(err)
			}
			got := [5]string{img.String(), img.host, img.repository, img.tag, img.digest}
			if want := [5]string{tt.image, tt.host, tt.repo, tt.tag, tt.digest}; got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
	split := []struct{ name, input, host, repo string }{
		{"empty image got nothing", "", "", ""},
		{"simple repository", "imagename", "", "imagename"},
		{"repository with sub-path", "subpath/imagename", "", "subpath/imagename"},
		{"canonical image", "fictional.registry.example/subpath/imagename", "fictional.registry.example", "subpath/imagename"},
		{"hostname with port", "fictional.registry.example:10443/subpath/imagename", "fictional.registry.example:10443", "subpath/imagename"},
		{"hostname with IP", "10.10.10.10:10443/subpath/imagename", "10.10.10.10:10443", "subpath/imagename"},
	}
	for _, tt := range split {
		t.Run("SplitHostname/"+tt.name, func(t *testing.T) {
			if h, r := splitHostname(tt.input); h != tt.host || r != tt.repo {
				t.Errorf("splitHostname(%q) = %q, %q; want %q, %q", tt.input, h, r, tt.host, tt.repo)
			}
		})
	}
}

// TestMatchingOverridePoliciesKarmadaRows are the rows of Karmada's
// TestGetMatchingOverridePolicies (pkg/util/overridemanager at f8fdd02):
// which rules apply to Deployment default/test on a cluster, in order
// (lower implicit priority first, then rule order).
func TestMatchingOverridePoliciesKarmadaRows(t *testing.T) {
	const plain = "{plaintext: [{path: /metadata/annotations/x, operator: add, value: v}]}"
	policy := func(kind, name, spec string) *Policy {
		t.Helper()
		meta := "{name: " + name + ", namespace: default}"
		if kind == KindClusterOverridePolicy {
			meta = "{name: " + name + "}"
		}
		p, err := parseOne(t, "apiVersion: policy.karmada.io/v1alpha1\nkind: "+kind+"\nmetadata: "+meta+"\nspec:\n"+spec)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p1 := policy(KindOverridePolicy, "overridePolicy1", "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: test}]\n"+
		"  overrideRules:\n    - {targetCluster: {clusterNames: [cluster1, cluster2]}, overriders: "+plain+"}\n    - {targetCluster: {clusterNames: [cluster2]}, overriders: "+plain+"}\n")
	p2 := policy(KindOverridePolicy, "overridePolicy2", "  overrideRules:\n    - {targetCluster: {clusterNames: [cluster1, cluster2]}, overriders: "+plain+"}\n")
	p3 := policy(KindOverridePolicy, "overridePolicy3", "  resourceSelectors: []\n  overrideRules:\n    - {targetCluster: {clusterNames: [cluster1, cluster2]}, overriders: "+plain+"}\n")
	old := policy(KindClusterOverridePolicy, "oldOverridePolicy", "  targetCluster: {clusterNames: [cluster1]}\n  overriders: "+plain+"\n")
	deployment, err := manifest.Decode("d.yaml", []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: test, namespace: default, annotations: {a: b}}\nspec: {replicas: 1}\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		policies []*Policy
		cluster  string
		want     []string
	}{
		{"OverrideRules test 1", []*Policy{p1, p2}, "cluster1", []string{"OverridePolicy default/overridePolicy2 rule 0", "OverridePolicy default/overridePolicy1 rule 0"}},
		{"OverrideRules test 2", []*Policy{p1, p2}, "cluster2", []string{"OverridePolicy default/overridePolicy2 rule 0", "OverridePolicy default/overridePolicy1 rule 0", "OverridePolicy default/overridePolicy1 rule 1"}},
		{"OverrideRules test 3", []*Policy{p3}, "cluster2", []string{"OverridePolicy default/overridePolicy3 rule 0"}},
		{"TargetCluster and Overriders test", []*Policy{old}, "cluster1", []string{"ClusterOverridePolicy oldOverridePolicy rule 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, applied, err := Apply(deployment[0], &cluster.Cluster{Name: tt.cluster}, tt.policies)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range applied {
				got = append(got, a.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("applied rules (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFieldOverriderPoliciesKarmadaRows are Karmada's
// Test_overrideManagerImpl_ApplyFieldOverriderPolicies_YAML and
// ..._ApplyJSONOverridePolicies_JSON (pkg/util/overridemanager at
// f8fdd02): a field overrider rewrites a YAML or JSON document inside a
// ConfigMap value.
func TestFieldOverriderPoliciesKarmadaRows(t *testing.T) {
	tests := []struct{ name, key, data, patch, want string }{
		{"test yaml overridePolicies", "test.yaml", "\nkey: \n  key1: value\n", "yaml", "key:\n  key1: updated_value\n"},
		{"test json overridePolicies", "test.json", `{"key":{"key1":"value"}}`, "json", `{"key":{"key1":"updated_value"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parseOne(t, "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: test1, namespace: default}\nspec:\n"+
				"  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, namespace: default, name: test1}]\n"+
				"  overrideRules:\n    - targetCluster: {clusterNames: [test1]}\n      overriders:\n        fieldOverrider:\n"+
				"          - fieldPath: /data/"+tt.key+"\n            "+tt.patch+": [{subPath: /key/key1, operator: replace, value: updated_value}]\n")
			if err != nil {
				t.Fatal(err)
			}
			cm := manifest.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "test1", "namespace": "default"}, "data": map[string]any{tt.key: tt.data}})
			out, applied, err := Apply(cm, &cluster.Cluster{Name: "test1"}, []*Policy{p})
			if err != nil {
				t.Fatal(err)
			}
			if len(applied) != 1 || applied[0].String() != "OverridePolicy default/test1 rule 0" {
				t.Errorf("applied %v", applied)
			}
			if diff := cmp.Diff(map[string]any{tt.key: tt.want}, out.Data["data"]); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLabelAnnotationPoliciesKarmadaRows are Karmada's
// Test_overrideManagerImpl_ApplyLabelAnnotationOverriderPolicies (pkg/util/
// overridemanager at f8fdd02): an OverridePolicy on a Deployment and a
// ClusterOverridePolicy on a ClusterRole add a label and an annotation.
func TestLabelAnnotationPoliciesKarmadaRows(t *testing.T) {
	const overriders = "      overriders:\n        labelsOverrider: [{operator: add, value: {testAddLabel: testAddLabel}}]\n        annotationsOverrider: [{operator: add, value: {testAddAnnotation: testAddAnnotation}}]\n"
	tests := []struct{ name, policy, object, cluster, applied string }{
		{"test overridePolicies",
			"kind: OverridePolicy\nmetadata: {name: test1, namespace: default}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, namespace: default, name: test1}]\n  overrideRules:\n    - targetCluster: {clusterNames: [test1]}\n" + overriders,
			"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: test1, namespace: default, labels: {testLabel: testLabel}, annotations: {testAnnotation: testAnnotation}}\n",
			"test1", "OverridePolicy default/test1 rule 0"},
		{"test clusterOverridePolicy",
			"kind: ClusterOverridePolicy\nmetadata: {name: test2}\nspec:\n  resourceSelectors: [{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, name: test2}]\n  overrideRules:\n    - targetCluster: {clusterNames: [test2]}\n" + overriders,
			"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: test2, labels: {testLabel: testLabel}, annotations: {testAnnotation: testAnnotation}}\n",
			"test2", "ClusterOverridePolicy test2 rule 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parseOne(t, "apiVersion: policy.karmada.io/v1alpha1\n"+tt.policy)
			if err != nil {
				t.Fatal(err)
			}
			objs, err := manifest.Decode("o.yaml", []byte(tt.object), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			out, applied, err := Apply(objs[0], &cluster.Cluster{Name: tt.cluster}, []*Policy{p})
			if err != nil {
				t.Fatal(err)
			}
			if len(applied) != 1 || applied[0].String() != tt.applied {
				t.Errorf("applied %v, want %s", applied, tt.applied)
			}
			if diff := cmp.Diff(map[string]string{"testLabel": "testLabel", "testAddLabel": "testAddLabel"}, out.Labels()); diff != "" {
				t.Errorf("labels (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(map[string]string{"testAnnotation": "testAnnotation", "testAddAnnotation": "testAddAnnotation"}, out.Annotations()); diff != "" {
				t.Errorf("annotations (-want +got):\n%s", diff)
			}
		})
	}
}
