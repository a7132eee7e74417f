package karmada

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

// decodeValue decodes a YAML mapping for tests.
func decodeValue(t *testing.T, src string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(src), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestResourceSelectorPriority(t *testing.T) {
	obj := &manifest.Object{Data: decodeValue(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: ns, labels: {app: web}}")}
	tests := []struct {
		src  string
		want int
	}{
		{"{apiVersion: apps/v1, kind: Deployment}", PriorityMatchAll},
		{"{apiVersion: apps/v1, kind: Deployment, namespace: ns}", PriorityMatchAll},
		{"{apiVersion: apps/v1, kind: Deployment, namespace: other}", PriorityMismatch},
		{"{apiVersion: apps/v1beta1, kind: Deployment}", PriorityMismatch},
		{"{apiVersion: apps/v1, kind: deployment}", PriorityMismatch},
		{"{apiVersion: apps/v1, kind: Deployment, labelSelector: {}}", PriorityLabelSelector},
		{"{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: web}}}", PriorityLabelSelector},
		{"{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: api}}}", PriorityMismatch},
		{"{apiVersion: apps/v1, kind: Deployment, name: web, labelSelector: {matchLabels: {app: api}}}", PriorityName},
		{"{apiVersion: apps/v1, kind: Deployment, name: api, labelSelector: {}}", PriorityMismatch},
	}
	for _, tt := range tests {
		s, err := DecodeResourceSelector(decodeValue(t, "s: "+tt.src)["s"].(map[string]any))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, s.Priority(obj)); diff != "" {
			t.Errorf("%s: -want +got:\n%s", tt.src, diff)
		}
	}
	// unstructured.GetLabels reads a label map with a non-string value as no labels.
	odd := &manifest.Object{Data: decodeValue(t, "apiVersion: v1\nkind: K\nmetadata: {labels: {app: web, n: 1}}")}
	s := ResourceSelector{APIVersion: "v1", Kind: "K", LabelSelector: &manifest.LabelSelector{MatchExpressions: []manifest.LabelSelectorRequirement{{Key: "app", Operator: manifest.OpDoesNotExist}}}}
	if diff := cmp.Diff(PriorityLabelSelector, s.Priority(odd)); diff != "" {
		t.Errorf("non-string labels: -want +got:\n%s", diff)
	}
	if _, err := DecodeResourceSelector(map[string]any{"kind": "K"}); err == nil || err.Error() != "apiVersion: Required value" {
		t.Errorf("missing apiVersion: %v", err)
	}
}
