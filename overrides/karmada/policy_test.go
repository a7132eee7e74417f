package karmada

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/karmada"
	"github.com/drydock-dev/drydock/manifest"
)

func parseOne(t *testing.T, src string) (*Policy, error) {
	t.Helper()
	objs, err := manifest.Decode("p.yaml", []byte(src), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 {
		t.Fatalf("got %d documents", len(objs))
	}
	return Parse(objs[0])
}

var ignorePos = cmp.Options{cmpopts.IgnoreUnexported(Operation{}), cmpopts.IgnoreTypes(manifest.Pos{})}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want *Policy
	}{
		{
			name: "deprecated form becomes one rule",
			src: `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: old, namespace: ignored}
spec:
  targetCluster: {clusterNames: [member1]}
  overriders:
    labelsOverrider: [{operator: add, value: {a: b}}]
    plaintext: [{path: /spec/replicas, operator: add}]`,
			want: &Policy{Kind: KindClusterOverridePolicy, Name: "old", Rules: []Rule{{
				TargetCluster: &karmada.Affinity{ClusterNames: []string{"member1"}},
				Overriders: Overriders{
					Labels:    []LabelAnnotationOverrider{{Operator: "add", Value: map[string]string{"a": "b"}}},
					Plaintext: []Operation{{Operator: "add", Path: "/spec/replicas"}},
				},
				Path: fieldpath.New("spec", "overriders"),
			}}},
		},
		{
			name: "rules, selectors get the policy namespace",
			src: `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: p, namespace: team}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: web}}}
  overrideRules:
  - targetCluster: {}
    overriders:
      imageOverrider: [{component: Tag, operator: replace, value: v2, predicate: {path: /spec/x}}]
      commandOverrider: [{containerName: c, operator: remove}]
      fieldOverrider:
      - fieldPath: /data/a
        json: [{subPath: /x, operator: add, value: {k: 1}}]
  - overriders: {}`,
			want: &Policy{Kind: KindOverridePolicy, Name: "p", Namespace: "team",
				ResourceSelectors: []karmada.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "team",
					LabelSelector: &manifest.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}},
				Rules: []Rule{
					{
						TargetCluster: &karmada.Affinity{},
						Overriders: Overriders{
							Image:   []ImageOverrider{{PredicatePath: "/spec/x", HasPredicate: true, Component: "Tag", Operator: "replace", Value: "v2"}},
							Command: []CommandArgsOverrider{{ContainerName: "c", Operator: "remove"}},
							Field: []FieldOverrider{{FieldPath: "/data/a", JSON: []Operation{
								{Operator: "add", Path: "/x", Value: map[string]any{"k": int64(1)}, HasValue: true},
							}}},
						},
						Path: fieldpath.New("spec", "overrideRules", 0, "overriders"),
					},
					{Path: fieldpath.New("spec", "overrideRules", 1, "overriders")},
				}},
		},
		{
			name: "namespace defaults like kubectl, empty spec is one empty rule",
			src:  "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: p}\nspec: {}",
			want: &Policy{Kind: KindOverridePolicy, Name: "p", Namespace: "default", Rules: []Rule{{Path: fieldpath.New("spec", "overriders")}}},
		},
		{
			name: "webhook ignores deprecated overriders and fieldOverrider-only overriders",
			src: `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: p}
spec:
  overriders:
    fieldOverrider: [{fieldPath: /data/a}]
  overrideRules:
  - overriders:
      annotationsOverrider: [{operator: add, value: {Example.COM/Key: x}}]`,
			want: &Policy{Kind: KindClusterOverridePolicy, Name: "p", Rules: []Rule{{
				Overriders: Overriders{Annotations: []LabelAnnotationOverrider{{Operator: "add", Value: map[string]string{"Example.COM/Key": "x"}}}},
				Path:       fieldpath.New("spec", "overrideRules", 0, "overriders"),
			}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseOne(t, tt.src)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, ignorePos); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nmetadata: {name: p}\n"
	const op = "apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: p, namespace: ns}\n"
	tests := []struct {
		name string
		src  string
		// want is a substring of the error, which starts with pos.
		want, pos string
	}{
		{"plaintext operator enum", head + "spec:\n  overrideRules:\n  - overriders:\n      plaintext:\n      - {path: /a, operator: update}",
			`spec.overrideRules[0].overriders.plaintext[0].operator: Unsupported value: "update": supported values: "add", "remove", "replace"`, "p.yaml:8:30:"},
		{"command operator enum", head + "spec:\n  overriders:\n    commandOverrider: [{containerName: c, operator: replace}]",
			`spec.overriders.commandOverrider[0].operator: Unsupported value: "replace": supported values: "add", "remove"`, "p.yaml:6:53:"},
		{"image component enum", head + "spec:\n  overriders:\n    imageOverrider: [{component: Digest, operator: add}]",
			`Unsupported value: "Digest": supported values: "Registry", "Repository", "Tag"`, "p.yaml:6:34:"},
		{"selector needs kind", head + "spec:\n  resourceSelectors: [{apiVersion: v1}]",
			"spec.resourceSelectors[0].kind: Required value", "p.yaml:5:23:"},
		{"selector expression needs operator", head + "spec:\n  resourceSelectors: [{apiVersion: v1, kind: K, labelSelector: {matchExpressions: [{key: a}]}}]",
			"spec.resourceSelectors[0].labelSelector.matchExpressions[0].operator: Required value", "p.yaml:5:"},
		{"plaintext needs path", head + "spec:\n  overriders:\n    plaintext: [{operator: add, value: 1}]",
			"spec.overriders.plaintext[0].path: Required value", "p.yaml:6:17:"},
		{"labels need value", head + "spec:\n  overriders:\n    labelsOverrider: [{operator: add}]",
			"spec.overriders.labelsOverrider[0].value: Required value", "p.yaml:6:23:"},
		{"rules need overriders", head + "spec:\n  overrideRules: [{targetCluster: {}}]",
			"spec.overrideRules[0].overriders: Required value", "p.yaml:5:19:"},
		{"overrideRules type", head + "spec:\n  overrideRules: {}",
			`spec.overrideRules: Invalid value: "object": spec.overrideRules in body must be of type array: "object"`, "p.yaml:5:18:"},
		{"label value type", head + "spec:\n  overriders:\n    labelsOverrider: [{operator: add, value: {a: 1}}]",
			`spec.overriders.labelsOverrider[0].value.a: Invalid value: "integer": spec.overriders.labelsOverrider[0].value.a in body must be of type string: "integer"`, "p.yaml:6:"},
		{"spec required", head, "spec: Required value", "p.yaml:1:1:"},
		{"name required", "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\nspec: {}",
			"metadata.name: Required value", "p.yaml:1:1:"},
		{"unknown version", "apiVersion: policy.karmada.io/v1beta1\nkind: ClusterOverridePolicy\nmetadata: {name: p}\nspec: {}",
			`no matches for kind "ClusterOverridePolicy" in version "policy.karmada.io/v1beta1"`, "p.yaml:1:13:"},
		{"label key prefix must be lowercase", head + "spec:\n  overrideRules:\n  - overriders:\n      labelsOverrider: [{operator: add, value: {Example.com/k: v}}]",
			`spec.overrideRules[0].overriders.labelsOverrider[0].value: Invalid value: "Example.com/k": prefix part a lowercase RFC 1123 subdomain`, "p.yaml:7:"},
		{"annotation key with two slashes", head + "spec:\n  overrideRules:\n  - overriders:\n      annotationsOverrider: [{operator: add, value: {a/b/c: v}}]",
			`Invalid value: "a/b/c": a qualified name must consist of`, "p.yaml:7:"},
		{"predicate path is a pointer", head + "spec:\n  overrideRules:\n  - overriders:\n      imageOverrider: [{component: Tag, operator: remove, predicate: {path: spec/x}}]",
			`spec.overrideRules[0].overriders.imageOverrider[0].predicate.path: Invalid value: "spec/x": JSON pointer must be empty or start with a "/"`, "p.yaml:7:"},
		{"fieldPath is a pointer", head + "spec:\n  overrideRules:\n  - overriders:\n      fieldOverrider: [{fieldPath: data/x, yaml: [{subPath: /a, operator: remove}]}]",
			`fieldOverrider[0].fieldPath: Invalid value: "data/x": JSON pointer must be empty`, "p.yaml:7:"},
		{"subPath is a pointer", head + "spec:\n  overrideRules:\n  - overriders:\n      fieldOverrider: [{fieldPath: /data/x, yaml: [{subPath: a, operator: remove}]}]",
			`fieldOverrider[0].yaml[0].subPath: Invalid value: "a": JSON pointer`, "p.yaml:7:"},
		{"add needs a value", head + "spec:\n  overrideRules:\n  - overriders:\n      fieldOverrider: [{fieldPath: /data/x, json: [{subPath: /a, operator: add}]}]",
			"fieldOverrider[0].json[0].value: Invalid value: null: value is required for add or replace operation", "p.yaml:7:"},
		{"remove takes no value", head + "spec:\n  overrideRules:\n  - overriders:\n      fieldOverrider: [{fieldPath: /data/x, json: [{subPath: /a, operator: remove, value: 1}]}]",
			"fieldOverrider[0].json[0].value: Invalid value: 1: value is not allowed for remove operation", "p.yaml:7:"},
		{"empty overrideRules still conflict", head + "spec:\n  targetCluster: {}\n  overrideRules: []",
			"spec.targetCluster: Invalid value: {}: overrideRules and targetCluster can't co-exist", "p.yaml:5:18:"},
		{"selector namespace of an OverridePolicy", op + "spec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, namespace: other}]",
			`OverridePolicy ns/p: spec.resourceSelectors[0].namespace: Invalid value: "other"`, "p.yaml:5:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseOne(t, tt.src)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%v does not wrap ErrInvalid", err)
			}
			if !strings.Contains(manifest.Format(err, nil), tt.want) || !strings.HasPrefix(manifest.Format(err, nil), tt.pos) {
				t.Errorf("error %q\nwant it to start with %q and contain %q", err, tt.pos, tt.want)
			}
		})
	}
}

func TestIsPolicy(t *testing.T) {
	tests := []struct {
		apiVersion, kind string
		want             bool
	}{
		{"policy.karmada.io/v1alpha1", "OverridePolicy", true},
		{"policy.karmada.io/v1alpha1", "ClusterOverridePolicy", true},
		{"policy.karmada.io/v1alpha1", "PropagationPolicy", false},
		{"core.oam.dev/v1beta1", "OverridePolicy", false},
	}
	for _, tt := range tests {
		obj := manifest.New(map[string]any{"apiVersion": tt.apiVersion, "kind": tt.kind})
		if diff := cmp.Diff(tt.want, IsPolicy(obj)); diff != "" {
			t.Errorf("%s %s: -want +got:\n%s", tt.apiVersion, tt.kind, diff)
		}
	}
}
