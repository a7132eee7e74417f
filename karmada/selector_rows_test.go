package karmada

import (
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// TestSelectorPriorityKarmadaRows are the rows of Karmada's
// TestResourceMatches and TestResourceSelectorPriority (pkg/util at
// f8fdd02): a Pod default/test labelled foo=bar against selectors.
func TestSelectorPriorityKarmadaRows(t *testing.T) {
	pod := manifest.New(map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "test", "namespace": "default", "labels": map[string]any{"foo": "bar"}}})
	labels := func(v string) map[string]any {
		return map[string]any{"matchLabels": map[string]any{"foo": v}}
	}
	tests := []struct {
		name     string
		selector map[string]any
		want     int
	}{
		{"miss match", map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "unmatched"}, PriorityMismatch},
		{"match all", map[string]any{"apiVersion": "v1", "kind": "Pod"}, PriorityMatchAll},
		{"match labels", map[string]any{"apiVersion": "v1", "kind": "Pod", "labelSelector": labels("bar")}, PriorityLabelSelector},
		{"match name", map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "test"}, PriorityName},
		{"APIVersion not matched", map[string]any{"apiVersion": "unmatched", "kind": "Pod", "name": "foo", "namespace": "default"}, PriorityMismatch},
		{"Kind not matched", map[string]any{"apiVersion": "v1", "kind": "Unmatched", "name": "foo", "namespace": "default"}, PriorityMismatch},
		{"namespace not matched", map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "foo", "namespace": "Unmatched"}, PriorityMismatch},
		{"namespace unset and name matched", map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "test"}, PriorityName},
		{"[case 1] name not matched", map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "unmatched", "labelSelector": labels("bar")}, PriorityMismatch},
		{"[case 1] name matched, labels not matched and ignore", map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "test", "labelSelector": labels("unmatched")}, PriorityName},
		{"[case 2] name not matched, labels unset", map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "unmatched"}, PriorityMismatch},
		{"[case 2] name matched, labels unset", map[string]any{"apiVersion": "v1", "kind": "Pod", "name": "test"}, PriorityName},
		{"[case 3] name unset, labels not matched", map[string]any{"apiVersion": "v1", "kind": "Pod", "labelSelector": labels("unmatched")}, PriorityMismatch},
		{"[case 3] name unset, labels matched", map[string]any{"apiVersion": "v1", "kind": "Pod", "labelSelector": labels("bar")}, PriorityLabelSelector},
		{"[case 4] name and labels unset, match all", map[string]any{"apiVersion": "v1", "kind": "Pod"}, PriorityMatchAll},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := DecodeResourceSelector(tt.selector)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Priority(pod); got != tt.want {
				t.Errorf("Priority = %d, want %d", got, tt.want)
			}
		})
	}
}
