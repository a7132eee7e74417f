package render

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/davecgh/go-spew/spew"

	"github.com/drydock-dev/drydock/manifest"
)

// Label and annotation keys KubeVela puts on dispatched objects.
const (
	LabelAppName          = "app.oam.dev/name"
	LabelAppNamespace     = "app.oam.dev/namespace"
	LabelAppRevision      = "app.oam.dev/appRevision"
	LabelAppComponent     = "app.oam.dev/component"
	LabelComponentRev     = "app.oam.dev/revision"
	LabelAppRevisionHash  = "app.oam.dev/app-revision-hash"
	LabelAppCluster       = "app.oam.dev/cluster"
	LabelResourceType     = "app.oam.dev/resourceType"
	LabelWorkloadType     = "workload.oam.dev/type"
	LabelTraitType        = "trait.oam.dev/type"
	LabelTraitResource    = "trait.oam.dev/resource"
	annotationFilterLabel = "filter.oam.dev/label-keys"
	annotationFilterAnno  = "filter.oam.dev/annotation-keys"
)

// defaultFilterAnnotations never pass from the Application to its objects.
// (KubeVela v1.11 passes app.oam.dev/rollout-template through.)
var defaultFilterAnnotations = []string{
	"app.oam.dev/rolling-components",
	"app.oam.dev/inplace-upgrade",
	annotationFilterLabel,
	annotationFilterAnno,
	"kubectl.kubernetes.io/last-applied-configuration",
}

// setContract applies, in KubeVela's order, the render labels, the OAM
// contract (names, namespaces, app labels and annotations) and the
// dispatch-time labels to a rendered component.
func setContract(app *Application, comp *Component, m *ComponentManifest, pl Placement) {
	render := map[string]string{
		LabelAppName:      app.Name,
		LabelAppComponent: comp.Name,
		LabelAppRevision:  app.RevisionName(),
	}
	wl := m.Workload.Object
	addLabels(wl, render)
	addLabels(wl, map[string]string{LabelWorkloadType: comp.Type})
	for _, a := range m.Auxiliaries {
		addLabels(a.Object, render)
		l := map[string]string{LabelTraitType: a.Trait}
		if a.Output != "" {
			l[LabelTraitResource] = a.Output
		}
		addLabels(a.Object, l)
	}
	common := commonLabels(app, comp.Name)
	if name, _ := manifest.Lookup(wl, "metadata", "name"); name == nil || name == "" {
		manifest.SetNested(wl, comp.Name, "metadata", "name")
	}
	setNamespace(wl, app.Namespace)
	addLabels(wl, map[string]string{LabelResourceType: "WORKLOAD"})
	addLabels(wl, common)
	setAnnotations(wl, app)
	for _, a := range m.Auxiliaries {
		if a.PostDispatch {
			continue
		}
		obj := a.Object
		if name, _ := manifest.Lookup(obj, "metadata", "name"); name == nil || name == "" {
			manifest.SetNested(obj, traitName(comp.Name, obj, a.Trait), "metadata", "name")
		}
		addLabels(obj, map[string]string{LabelResourceType: "TRAIT"})
		addLabels(obj, common)
		setAnnotations(obj, app)
		setNamespace(obj, app.Namespace)
	}
	for _, r := range m.Objects() {
		dispatchLabels(app, r, pl)
	}
}

// dispatchLabels adds what the controller adds when it applies an object.
func dispatchLabels(app *Application, r *Resource, pl Placement) {
	obj := r.Object
	addLabels(obj, map[string]string{LabelComponentRev: "", LabelAppRevisionHash: app.RevisionHash()})
	labels := manifest.StringMap(obj, "metadata", "labels")
	if labels[LabelAppCluster] == "" {
		addLabels(obj, map[string]string{LabelAppCluster: pl.Cluster})
	}
	ns := pl.Namespace
	if r.PostDispatch {
		if ns == "" {
			ns = app.Namespace
		}
		addLabels(obj, map[string]string{LabelAppName: app.Name, LabelAppNamespace: app.Namespace})
	}
	if ns != "" {
		manifest.SetNested(obj, ns, "metadata", "namespace")
	}
	if IsClusterScoped(manifest.String(obj, "apiVersion"), manifest.String(obj, "kind")) {
		if meta := manifest.Map(obj, "metadata"); meta != nil {
			delete(meta, "namespace")
		}
	}
}

// commonLabels are the app labels overlaid with the OAM identity labels,
// less the keys the app filters out.
func commonLabels(app *Application, comp string) map[string]string {
	out := map[string]string{}
	for k, v := range app.Labels {
		out[k] = v
	}
	out[LabelAppName] = app.Name
	out[LabelAppNamespace] = app.Namespace
	out[LabelAppRevision] = app.RevisionName()
	out[LabelAppComponent] = comp
	if f, ok := app.Annotations[annotationFilterLabel]; ok {
		for _, k := range strings.Split(f, ",") {
			delete(out, strings.TrimSpace(k))
		}
	}
	return out
}

func setAnnotations(obj map[string]any, app *Application) {
	ann := manifest.Map(obj, "metadata", "annotations")
	if ann == nil && len(app.Annotations) == 0 {
		return
	}
	if ann == nil {
		ann = map[string]any{}
		manifest.SetNested(obj, ann, "metadata", "annotations")
	}
	for k, v := range app.Annotations {
		ann[k] = v
	}
	for _, k := range defaultFilterAnnotations {
		delete(ann, k)
	}
	if f, ok := app.Annotations[annotationFilterAnno]; ok {
		for _, k := range strings.Split(f, ",") {
			delete(ann, k)
		}
	}
}

func setNamespace(obj map[string]any, ns string) {
	if manifest.String(obj, "apiVersion") == "v1" && manifest.String(obj, "kind") == "Namespace" {
		return
	}
	if manifest.String(obj, "metadata", "namespace") == "" {
		manifest.SetNested(obj, ns, "metadata", "namespace")
	}
}

// addLabels sets labels on obj; the given values win over existing ones.
func addLabels(obj map[string]any, labels map[string]string) {
	l := manifest.Map(obj, "metadata", "labels")
	if l == nil {
		l = map[string]any{}
		manifest.SetNested(obj, l, "metadata", "labels")
	}
	for k, v := range labels {
		l[k] = v
	}
}

// RevisionHash is a stable hash of the application spec standing in for
// KubeVela's app-revision-hash label (1 to 16 lowercase hex digits).
func (a *Application) RevisionHash() string {
	if a.revisionHash == "" {
		h := fnv.New64a()
		spec, _ := json.Marshal(a.Object.Data["spec"])
		_, _ = h.Write(spec)
		a.revisionHash = fmt.Sprintf("%x", h.Sum64())
	}
	return a.revisionHash
}

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

// spewConfig is how Kubernetes' DeepHashObject prints an object.
var spewConfig = spew.ConfigState{Indent: " ", SortKeys: true, DisableMethods: true, SpewKeys: true}

// safeAlphabet is the alphabet of k8s.io/apimachinery's rand.SafeEncodeString.
const safeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// traitName is the name KubeVela gives a nameless trait output:
// <component>-<type>-<hash>, the hash taken over the object (without its
// appRevision label) as Kubernetes' DeepHashObject prints an
// unstructured.Unstructured.
func traitName(comp string, obj map[string]any, traitType string) string {
	cp := manifest.DeepCopy(obj).(map[string]any)
	if l := manifest.Map(cp, "metadata", "labels"); l != nil {
		delete(l, LabelAppRevision)
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte("(unstructured.Unstructured){Object:"))
	spewConfig.Fprintf(h, "%#v", cp)
	_, _ = h.Write([]byte("}"))
	digits := fmt.Sprint(h.Sum32())
	enc := make([]byte, len(digits))
	for i := 0; i < len(digits); i++ {
		enc[i] = safeAlphabet[int(digits[i])%len(safeAlphabet)]
	}
	mid := "trait"
	if traitType != "" && traitType != "dummy" {
		mid = strings.ToLower(traitType)
	}
	return fmt.Sprintf("%s-%s-%s", comp, mid, enc)
}
