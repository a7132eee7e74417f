package cueval

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/davecgh/go-spew/spew"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// Keys of the Application's annotations that filter what passes to its
// objects.
const (
	annotationFilterLabel = "filter.oam.dev/label-keys"
	annotationFilterAnno  = "filter.oam.dev/annotation-keys"
)

// defaultFilterAnnotations never pass from the Application to its objects
// (KubeVela's types.DefaultFilterAnnots). KubeVela v1.11 passes
// app.oam.dev/rollout-template and app.oam.dev/rolling-components through.
var defaultFilterAnnotations = []string{
	"app.oam.dev/inplace-upgrade",
	annotationFilterLabel,
	annotationFilterAnno,
	"kubectl.kubernetes.io/last-applied-configuration",
}

// setContract applies, in KubeVela's order, the render labels, the OAM
// contract (names, namespaces, app labels and annotations) and the
// dispatch-time labels to a rendered component.
func setContract(app *render.Application, comp *render.Component, m *ComponentManifest, pl Placement) {
	renderLabels := map[string]string{
		render.LabelAppName:      app.Name,
		render.LabelAppComponent: comp.Name,
		render.LabelAppRevision:  app.RevisionName(),
	}
	wl := m.Workload.Object
	addLabels(wl, renderLabels)
	addLabels(wl, map[string]string{render.LabelWorkloadType: comp.Type})
	for _, a := range m.Auxiliaries {
		addLabels(a.Object, renderLabels)
		l := map[string]string{render.LabelTraitType: a.Trait}
		if a.Output != "" {
			l[render.LabelTraitResource] = a.Output
		}
		addLabels(a.Object, l)
	}
	common := commonLabels(app, comp.Name)
	if name, _ := manifest.Lookup(wl, "metadata", "name"); name == nil || name == "" {
		manifest.SetNested(wl, comp.Name, "metadata", "name")
	}
	setNamespace(wl, app.Namespace)
	addLabels(wl, map[string]string{render.LabelResourceType: "WORKLOAD"})
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
		addLabels(obj, map[string]string{render.LabelResourceType: "TRAIT"})
		addLabels(obj, common)
		setAnnotations(obj, app)
		setNamespace(obj, app.Namespace)
	}
	for _, r := range m.Objects() {
		dispatchLabels(app, r, pl)
	}
}

// dispatchLabels adds what the controller adds when it applies an object.
func dispatchLabels(app *render.Application, r *Resource, pl Placement) {
	obj := r.Object
	addLabels(obj, map[string]string{render.LabelComponentRev: "", render.LabelAppRevisionHash: app.RevisionHash()})
	labels := manifest.StringMap(obj, "metadata", "labels")
	if labels[render.LabelAppCluster] == "" {
		addLabels(obj, map[string]string{render.LabelAppCluster: pl.Cluster})
	}
	ns := pl.Namespace
	if r.PostDispatch {
		if ns == "" {
			ns = app.Namespace
		}
		addLabels(obj, map[string]string{render.LabelAppName: app.Name, render.LabelAppNamespace: app.Namespace})
	}
	if ns != "" {
		manifest.SetNested(obj, ns, "metadata", "namespace")
	}
	if cluster.IsClusterScoped(manifest.String(obj, "apiVersion"), manifest.String(obj, "kind")) {
		if meta := manifest.Map(obj, "metadata"); meta != nil {
			delete(meta, "namespace")
		}
	}
}

// commonLabels are the app labels overlaid with the OAM identity labels,
// less the keys the app filters out.
func commonLabels(app *render.Application, comp string) map[string]string {
	out := map[string]string{}
	for k, v := range app.Labels {
		out[k] = v
	}
	out[render.LabelAppName] = app.Name
	out[render.LabelAppNamespace] = app.Namespace
	out[render.LabelAppRevision] = app.RevisionName()
	out[render.LabelAppComponent] = comp
	if f, ok := app.Annotations[annotationFilterLabel]; ok {
		for _, k := range strings.Split(f, ",") {
			delete(out, strings.TrimSpace(k))
		}
	}
	return out
}

func setAnnotations(obj map[string]any, app *render.Application) {
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
		delete(l, render.LabelAppRevision)
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
