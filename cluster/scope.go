package cluster

import "github.com/drydock-dev/drydock/manifest"

// clusterScoped lists the built-in cluster-scoped kinds by group/kind.
var clusterScoped = map[string]bool{
	"/Namespace": true, "/Node": true, "/PersistentVolume": true, "/ComponentStatus": true,
	"rbac.authorization.k8s.io/ClusterRole": true, "rbac.authorization.k8s.io/ClusterRoleBinding": true,
	"apiextensions.k8s.io/CustomResourceDefinition": true, "apiregistration.k8s.io/APIService": true,
	"storage.k8s.io/StorageClass": true, "storage.k8s.io/CSIDriver": true, "storage.k8s.io/CSINode": true,
	"storage.k8s.io/VolumeAttachment": true, "scheduling.k8s.io/PriorityClass": true,
	"networking.k8s.io/IngressClass": true, "node.k8s.io/RuntimeClass": true,
	"admissionregistration.k8s.io/MutatingWebhookConfiguration":     true,
	"admissionregistration.k8s.io/ValidatingWebhookConfiguration":   true,
	"admissionregistration.k8s.io/ValidatingAdmissionPolicy":        true,
	"admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding": true,
	"certificates.k8s.io/CertificateSigningRequest":                 true,
	"flowcontrol.apiserver.k8s.io/FlowSchema":                       true,
	"flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration":       true,
	"policy/PodSecurityPolicy":                                      true,
	"core.oam.dev/ResourceTracker":                                  true,
	"cluster.karmada.io/Cluster":                                    true,
	"policy.karmada.io/ClusterPropagationPolicy":                    true,
	"policy.karmada.io/ClusterOverridePolicy":                       true,
}

// IsClusterScoped reports whether apiVersion/kind is a cluster-scoped kind
// the hub's API server knows. Unknown kinds count as namespaced.
func IsClusterScoped(apiVersion, kind string) bool {
	return IsClusterScopedKind(manifest.Group(apiVersion), kind)
}

// IsClusterScopedKind is IsClusterScoped for a kind of an API group ("" for
// the core group).
func IsClusterScopedKind(group, kind string) bool {
	return clusterScoped[group+"/"+kind]
}
