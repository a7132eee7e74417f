package cluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIsClusterScoped: docs/divergences.md, "Cluster-scoped kinds": a
// table of the built-in cluster-scoped kinds by group and kind (what the
// hub's REST mapper says for them); unknown kinds count as namespaced.
func TestIsClusterScoped(t *testing.T) {
	tests := []struct {
		apiVersion, kind string
		want             bool
	}{
		{"v1", "Namespace", true},
		{"v1", "PersistentVolume", true},
		{"v1", "ConfigMap", false},
		{"v1", "Service", false},
		{"rbac.authorization.k8s.io/v1", "ClusterRole", true},
		{"rbac.authorization.k8s.io/v1", "ClusterRoleBinding", true},
		{"rbac.authorization.k8s.io/v1", "Role", false},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", true},
		{"storage.k8s.io/v1", "StorageClass", true},
		{"networking.k8s.io/v1", "IngressClass", true},
		{"networking.k8s.io/v1", "Ingress", false},
		{"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", true},
		{"core.oam.dev/v1beta1", "ResourceTracker", true},
		{"core.oam.dev/v1beta1", "Application", false},
		{"cluster.karmada.io/v1alpha1", "Cluster", true},
		{"policy.karmada.io/v1alpha1", "ClusterPropagationPolicy", true},
		{"policy.karmada.io/v1alpha1", "PropagationPolicy", false},
		{"apps/v1", "Deployment", false},
		// The kind alone does not decide: the group is part of the key.
		{"example.com/v1", "Namespace", false},
		{"example.com/v1", "ClusterThing", false},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, IsClusterScoped(tt.apiVersion, tt.kind)); diff != "" {
			t.Errorf("IsClusterScoped(%s, %s) (-want +got):\n%s", tt.apiVersion, tt.kind, diff)
		}
	}
	if !IsClusterScopedKind("", "Node") || IsClusterScopedKind("apps", "Node") {
		t.Errorf("IsClusterScopedKind: the core group is \"\"")
	}
}
