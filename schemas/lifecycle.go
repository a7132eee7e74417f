package schemas

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/drydock-dev/drydock/manifest"
)

// removedBefore are the APIs Kubernetes removed before the oldest embedded
// version (the deprecation guide, kubernetes.io/docs/reference/using-api/
// deprecation-guide): group/version/Kind -> the release that removed it
// and what replaces it.
var removedBefore = map[string][2]string{}

func init() {
	for _, r := range []struct {
		release, from, to string
		kinds             []string
	}{
		{"1.16", "extensions/v1beta1", "apps/v1", []string{"DaemonSet", "Deployment", "ReplicaSet"}},
		{"1.16", "apps/v1beta1", "apps/v1", []string{"Deployment", "StatefulSet", "ControllerRevision"}},
		{"1.16", "apps/v1beta2", "apps/v1", []string{"DaemonSet", "Deployment", "ReplicaSet", "StatefulSet", "ControllerRevision"}},
		{"1.16", "extensions/v1beta1", "networking.k8s.io/v1", []string{"NetworkPolicy"}},
		{"1.22", "extensions/v1beta1", "networking.k8s.io/v1", []string{"Ingress"}},
		{"1.22", "networking.k8s.io/v1beta1", "networking.k8s.io/v1", []string{"Ingress", "IngressClass"}},
		{"1.22", "admissionregistration.k8s.io/v1beta1", "admissionregistration.k8s.io/v1", []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"}},
		{"1.22", "apiextensions.k8s.io/v1beta1", "apiextensions.k8s.io/v1", []string{"CustomResourceDefinition"}},
		{"1.22", "apiregistration.k8s.io/v1beta1", "apiregistration.k8s.io/v1", []string{"APIService"}},
		{"1.22", "authentication.k8s.io/v1beta1", "authentication.k8s.io/v1", []string{"TokenReview"}},
		{"1.22", "authorization.k8s.io/v1beta1", "authorization.k8s.io/v1", []string{"SubjectAccessReview", "LocalSubjectAccessReview", "SelfSubjectAccessReview"}},
		{"1.22", "certificates.k8s.io/v1beta1", "certificates.k8s.io/v1", []string{"CertificateSigningRequest"}},
		{"1.22", "coordination.k8s.io/v1beta1", "coordination.k8s.io/v1", []string{"Lease"}},
		{"1.22", "rbac.authorization.k8s.io/v1beta1", "rbac.authorization.k8s.io/v1", []string{"ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"}},
		{"1.22", "scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1", []string{"PriorityClass"}},
		{"1.22", "storage.k8s.io/v1beta1", "storage.k8s.io/v1", []string{"CSIDriver", "CSINode", "StorageClass", "VolumeAttachment"}},
	} {
		for _, k := range r.kinds {
			removedBefore[gvkKey(r.from, k)] = [2]string{r.release, r.to + " " + k}
		}
	}
}

// Lifecycle is what the Kubernetes version's API server says of kind in
// apiVersion beyond its schema: an error finding when it no longer serves
// it (removed, with the release that removed it and the replacement), a
// warning when it serves it but a later release removes it (deprecated).
// known is false for an API no embedded version serves and no release
// removed: a custom resource.
func Lifecycle(version, apiVersion, kind string) (f *Finding, known bool) {
	versions := KubeVersions()
	at := slices.Index(versions, version)
	if at < 0 {
		return nil, false
	}
	// Each version's API is decoded only when asked: a kind the newest
	// version serves asks none but its own.
	served := func(i int) bool {
		api, err := LoadKubeAPI(versions[i])
		if err != nil {
			return false
		}
		ok, _ := api.Serves(apiVersion, kind)
		return ok
	}
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		group = ""
	}
	name := apiVersion + " " + kind
	if served(at) {
		for i := at + 1; i < len(versions); i++ {
			if !served(i) {
				return &Finding{Warning: true, Message: fmt.Sprintf("%s is deprecated: Kubernetes %s no longer serves it; %s", name, versions[i], replacement(versions[i], group, kind))}, true
			}
		}
		return nil, true
	}
	for i := at - 1; i >= 0; i-- {
		if served(i) {
			return &Finding{Message: fmt.Sprintf("%s is not served by Kubernetes %s: removed in %s; %s", name, version, versions[i+1], replacement(version, group, kind))}, true
		}
	}
	for i := at + 1; i < len(versions); i++ {
		if served(i) {
			return &Finding{Message: fmt.Sprintf("%s is not served by Kubernetes %s: Kubernetes serves it from %s on", name, version, versions[i])}, true
		}
	}
	if r, ok := removedBefore[gvkKey(apiVersion, kind)]; ok {
		return &Finding{Message: fmt.Sprintf("%s is not served by Kubernetes %s: removed in %s; use %s", name, version, r[0], r[1])}, true
	}
	return nil, false
}

// replacement names what serves group's kind in version.
func replacement(version, group, kind string) string {
	if api, err := LoadKubeAPI(version); err == nil {
		if vs := api.servesGroupKind(group, kind); len(vs) > 0 {
			return "use " + vs[0] + " " + kind
		}
	}
	return "it has no replacement"
}

// builtinGroups are the API groups of the built-in kinds: those some
// embedded version serves or that Kubernetes removed before the oldest.
var builtinGroups = sync.OnceValue(func() map[string]bool {
	groups := map[string]bool{}
	for _, v := range KubeVersions() {
		api, err := LoadKubeAPI(v)
		if err != nil {
			continue
		}
		for key := range api.kinds {
			g, _, _ := strings.Cut(key, "/")
			groups[g] = true
		}
	}
	for key := range removedBefore {
		g, _, _ := strings.Cut(key, "/")
		groups[g] = true
	}
	return groups
})

// NotServed is what the API server of version says of a kind in a
// built-in API group (the core group, apps, batch, networking.k8s.io...)
// that no Kubernetes release serves in apiVersion, a misspelt kind or a
// version that never existed: the REST mapping's refusal, with the kind
// or versions the version serves. nil for another group: a custom
// resource's.
func NotServed(version, apiVersion, kind string) *Finding {
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		group = ""
	}
	if !builtinGroups()[group] {
		return nil
	}
	msg := fmt.Sprintf("no matches for kind %q in version %q", kind, apiVersion)
	api, err := LoadKubeAPI(version)
	if err != nil {
		return &Finding{Message: msg}
	}
	if vs := api.servesGroupKind(group, kind); len(vs) > 0 {
		return &Finding{Message: fmt.Sprintf("%s: Kubernetes %s serves %s %s", msg, version, vs[0], kind)}
	}
	var kinds []string
	for key := range api.kinds {
		g, rest, _ := strings.Cut(key, "/")
		if _, k, _ := strings.Cut(rest, "/"); g == group {
			kinds = append(kinds, k)
		}
	}
	return &Finding{Message: msg + manifest.DidYouMean(kind, kinds)}
}
