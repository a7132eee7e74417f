package workflow

import (
	"errors"
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
)

// Objects the workflow reads and writes directly: the apply-object and
// read-object steps, and the objects a ref-objects component refers to.

// applyObject emulates the apply-object step: parameter.value is written
// to parameter.cluster (the hub when empty) as given. A namespaced object
// without a namespace lands in the application's namespace.
func (w *workflowRun) applyObject(s *render.WorkflowStep) (map[string]any, error) {
	value, _ := s.Properties["value"].(map[string]any)
	if value == nil {
		return nil, w.stepErr(s, fieldpath.New("properties", "value"), "apply-object needs properties.value (an object)")
	}
	obj, _ := manifest.DeepCopy(value).(map[string]any)
	target := manifest.String(s.Properties, "cluster")
	if target == "" {
		target = cluster.Local
	} else if err := w.checkCluster(target, s.Path.Child("properties").Child("cluster"), fmt.Sprintf("step %q", s.Name)); err != nil {
		return nil, err
	}
	if manifest.String(obj, "kind") == "" || manifest.String(obj, "metadata", "name") == "" {
		return nil, w.stepErr(s, fieldpath.New("properties", "value"), "apply-object: properties.value needs kind and metadata.name")
	}
	if manifest.String(obj, "metadata", "namespace") == "" && !cluster.IsClusterScoped(manifest.String(obj, "apiVersion"), manifest.String(obj, "kind")) {
		manifest.SetNested(obj, w.app.Namespace, "metadata", "namespace")
	}
	dispatchLabels(obj, w.app, manifest.String(s.Properties, "cluster"))
	w.writeTo(target, &cueval.Resource{Object: obj}, s.Name, nil)
	returns := map[string]any{"value": obj}
	return map[string]any{"apply": map[string]any{"$params": s.Properties, "$returns": returns}}, nil
}

// dispatchLabels labels what apply-object writes as KubeVela's controller
// does: its kube.#Apply adds the Application's labels (kubevela/workflow
// pkg/providers/kube/kube.go Apply; the controller gives them in
// application/generator.go GenerateApplicationSteps), and the dispatcher
// (application/apply.go Dispatch, multicluster.ResourcesWithClusterName)
// sets app.oam.dev/cluster to the step's cluster when the object has none.
func dispatchLabels(obj map[string]any, app *render.Application, clusterName string) {
	labels := manifest.Map(obj, "metadata", "labels")
	if labels == nil {
		labels = map[string]any{}
		manifest.SetNested(obj, labels, "metadata", "labels")
	}
	labels[render.LabelAppName] = app.Name
	labels[render.LabelAppNamespace] = app.Namespace
	if s, _ := labels[render.LabelAppCluster].(string); s == "" {
		labels[render.LabelAppCluster] = clusterName
	}
}

// readObject emulates the read-object step: the object as the workflow
// has left it so far, else as observed (--observed); a missing object is
// an error, as the real step fails.
func (w *workflowRun) readObject(s *render.WorkflowStep) (map[string]any, error) {
	p := s.Properties
	apiVersion := stringOr(p, "apiVersion", "core.oam.dev/v1beta1")
	kind := stringOr(p, "kind", "Application")
	name := manifest.String(p, "name")
	if name == "" {
		return nil, w.stepErr(s, fieldpath.New("properties", "name"), "read-object needs properties.name")
	}
	ns := stringOr(p, "namespace", "default")
	if cluster.IsClusterScoped(apiVersion, kind) {
		ns = ""
	}
	target := manifest.String(p, "cluster")
	if target == "" {
		target = cluster.Local
	}
	key := manifest.Key{Group: manifest.Group(apiVersion), Kind: kind, Namespace: ns, Name: name}
	obj, ok := w.current(target, key)
	if !ok {
		return nil, w.stepErr(s, fieldpath.New("properties", "name"), fmt.Sprintf("read-object: %s not found in cluster %q (objects that exist before the workflow come from --observed)", key, target))
	}
	params := map[string]any{"cluster": manifest.String(p, "cluster"), "value": map[string]any{
		"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": name, "namespace": stringOr(p, "namespace", "default")}}}
	return map[string]any{"output": map[string]any{"$params": params, "$returns": map[string]any{"value": obj}}}, nil
}

// current is the object of key in a cluster as the workflow sees it now:
// its own latest write, else the observed state.
func (w *workflowRun) current(target string, key manifest.Key) (map[string]any, bool) {
	for i := len(w.res.Writes) - 1; i >= 0; i-- {
		wr := w.res.Writes[i]
		if wr.Cluster == target && manifest.New(wr.Resource.Object).Key() == key {
			return wr.Resource.Object, true
		}
	}
	if w.opts.Observed == nil {
		return nil, false
	}
	e, ok := w.opts.Observed.Get(target, key)
	if !ok {
		return nil, false
	}
	return e.Object.Data, true
}

func stringOr(m map[string]any, key, def string) string {
	if s := manifest.String(m, key); s != "" {
		return s
	}
	return def
}

// refObjects replaces a ref-objects component's properties with the
// objects it refers to, as KubeVela's parser (parseReferredObjects) and
// LoadDynamicComponent do: the properties decode strictly, and each
// selector picks objects from the observed hub (or its cluster) by name or
// labels, cleared of server-populated fields.
func (w *workflowRun) refObjects(comp *render.Component) (*render.Component, error) {
	var spec kvRefObjectsComponentSpec
	err := errors.New("EOF") // KubeVela decodes the absent properties' empty bytes
	if comp.Properties != nil {
		err = render.DecodeStrict(comp.Properties, &spec)
	}
	if err != nil {
		path := comp.Path.Child("properties").Join(render.ErrorPath(comp.Properties, err))
		if comp.Properties == nil {
			path = comp.Path
		}
		return nil, render.Locate(&render.Error{Pos: w.pos(path), App: w.app.Name, Component: comp.Name,
			Err: fmt.Errorf("%s: failed to parseReferredObjects: invalid properties for ref-objects in component %s: %v", path, comp.Name, err)})
	}
	var found []map[string]any
	for i, sel := range spec.Objects {
		objs, err := w.selectRefObjects(comp, sel, fieldpath.New("properties", "objects", i))
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			found = appendObject(found, o)
		}
	}
	if len(spec.URLs) > 0 {
		return nil, w.compErr(comp, fieldpath.New("properties", "urls"), "ref-objects urls are not supported offline (drydock never reaches the network); list the objects with --observed and refer to them by name or labels")
	}
	list := make([]any, len(found))
	for i, o := range found {
		list[i] = o
	}
	out := *comp
	// KubeVela marshals the objects as a ReferredObjectList, whose
	// objects are omitempty (LoadDynamicComponent, pkg/appfile/appfile.go).
	out.Properties = map[string]any{}
	if len(list) > 0 {
		out.Properties["objects"] = list
	}
	return &out, nil
}

// selectRefObjects is KubeVela's SelectRefObjectsForDispatch. The
// deprecated `selector` spelling of labelSelector only counts behind
// KubeVela's DeprecatedObjectLabelSelector feature gate, which is off.
func (w *workflowRun) selectRefObjects(comp *render.Component, sel kvObjectReferrer, path fieldpath.Path) ([]map[string]any, error) {
	name, labels := sel.Name, sel.LabelSelector
	if labels != nil && name != "" {
		return nil, w.compErr(comp, path, "invalid object selector for ref-objects, name and labelSelector cannot be both set")
	}
	group, kind, err := w.refObjectKind(sel)
	if err != nil {
		return nil, w.compErr(comp, path, err.Error())
	}
	ns := sel.Namespace
	if ns == "" {
		ns = w.app.Namespace
	}
	if cluster.IsClusterScopedKind(group, kind) {
		ns = ""
	}
	target := sel.Cluster
	if target == "" {
		target = cluster.Local
	}
	if target != cluster.Local {
		if err := w.checkCluster(target, comp.Path.Join(path).Child("cluster"), fmt.Sprintf("component %q", comp.Name)); err != nil {
			return nil, err
		}
	}
	var out []map[string]any
	if name == "" && labels != nil {
		if w.opts.Observed != nil {
			for _, e := range w.opts.Observed.List(target) {
				k := e.Object.Key()
				if k.Group == group && k.Kind == kind && k.Namespace == ns && hasLabels(e.Object.Labels(), labels) {
					out = append(out, clearForDispatch(e.Object.Data))
				}
			}
		}
		// KubeVela's List selects nothing, silently; a component left
		// without objects then fails to render (its output needs one).
		if len(out) == 0 {
			w.warnf("%s: application %q component %q: %s", w.pos(comp.Path.Join(path)), w.app.Name, comp.Name, emptySelection(path, labels, kind, target))
		}
		return out, nil
	}
	if name == "" {
		name = comp.Name
	}
	key := manifest.Key{Group: group, Kind: kind, Namespace: ns, Name: name}
	var e cluster.Entry
	ok := false
	if w.opts.Observed != nil {
		e, ok = w.opts.Observed.Get(target, key)
	}
	if !ok {
		return nil, w.compErr(comp, path, fmt.Sprintf("failed to load ref object %s %s/%s: not found in cluster %q (give the clusters' objects with --observed)", kind, ns, name, target))
	}
	return []map[string]any{clearForDispatch(e.Object.Data)}, nil
}

func (w *workflowRun) compErr(comp *render.Component, path fieldpath.Path, msg string) error {
	return render.Locate(&render.Error{Pos: w.pos(comp.Path.Join(path)), App: w.app.Name, Component: comp.Name, Err: fmt.Errorf("%s", msg)})
}

// emptySelection says that a label selector selected nothing.
func emptySelection(path fieldpath.Path, labels map[string]string, kind, target string) string {
	return fmt.Sprintf("%s: label selector %s selects no %s in cluster %q: KubeVela selects nothing (the objects a selector sees come from --observed)",
		path, selectorString(labels), kind, target)
}

// refHint adds to the render error of a ref-objects component that
// selected no object why it has none.
func (w *workflowRun) refHint(comp *render.Component, err error) error {
	var re *render.Error
	if comp.Type != "ref-objects" || len(comp.Properties) > 0 || !errors.As(err, &re) {
		return err
	}
	re.Err = fmt.Errorf("%w (no object was selected: every selector came back empty)", re.Err)
	return err
}

// selectorString writes labels as a label selector: k=v, sorted.
func selectorString(labels map[string]string) string {
	parts := make([]string, 0, len(labels))
	for _, k := range manifest.SortedKeys(labels) {
		parts = append(parts, k+"="+labels[k])
	}
	return strings.Join(parts, ",")
}

func hasLabels(have, want map[string]string) bool {
	for k, v := range want {
		if hv, ok := have[k]; !ok || hv != v {
			return false
		}
	}
	return true
}

// appendObject adds o, replacing an object of the same key.
func appendObject(list []map[string]any, o map[string]any) []map[string]any {
	k := manifest.New(o).Key()
	for i, e := range list {
		if manifest.New(e).Key() == k {
			list[i] = o
			return list
		}
	}
	return append(list, o)
}

// clearForDispatch drops what the API server populated, as KubeVela's
// ClearRefObjectForDispatch does.
func clearForDispatch(obj map[string]any) map[string]any {
	out, _ := manifest.DeepCopy(obj).(map[string]any)
	if md, ok := out["metadata"].(map[string]any); ok {
		for _, k := range []string{"resourceVersion", "generation", "ownerReferences", "deletionTimestamp", "managedFields", "uid", "creationTimestamp"} {
			delete(md, k)
		}
	}
	delete(out, "status")
	if manifest.String(out, "apiVersion") == "v1" && manifest.String(out, "kind") == "Service" {
		if spec, ok := out["spec"].(map[string]any); ok {
			if ip, ok := spec["clusterIP"].(string); ok && ip != "None" {
				delete(spec, "clusterIP")
				delete(spec, "clusterIPs")
			}
		}
	}
	return out
}

// refObjectKind resolves a selector's resource (and group) to a kind, as
// an API server's REST mapper would: the built-in resources, and those of
// the CustomResourceDefinitions among the observed hub objects. The legacy
// apiVersion/kind pair only counts behind KubeVela's
// LegacyObjectTypeIdentifier feature gate, which is off.
func (w *workflowRun) refObjectKind(sel kvObjectReferrer) (group, kind string, err error) {
	res := sel.Resource
	if res == "" {
		return "", "", errors.New("resource is not set and legacy object type identifier is disabled for referring objects")
	}
	// builtinResources is shared by concurrent runs: never append to it.
	for _, known := range [][]resourceKind{builtinResources, w.observedResources()} {
		for _, r := range known {
			if (res == r.plural || res == r.singular) && (sel.Group == "" || sel.Group == r.group) {
				return r.group, r.kind, nil
			}
		}
	}
	return "", "", fmt.Errorf("no kind found for resource %s (drydock knows the built-in Kubernetes resources and those of the CustomResourceDefinitions given with --observed)", res)
}

// observedResources are the resources of the CustomResourceDefinitions
// the hub holds, listed once per run.
func (w *workflowRun) observedResources() []resourceKind {
	if w.opts.Observed == nil || w.crds != nil {
		return w.crds
	}
	out := []resourceKind{}
	for _, e := range w.opts.Observed.List(cluster.Local) {
		d := e.Object.Data
		if e.Object.Kind() != "CustomResourceDefinition" || manifest.Group(e.Object.APIVersion()) != "apiextensions.k8s.io" {
			continue
		}
		out = append(out, resourceKind{group: manifest.String(d, "spec", "group"), plural: manifest.String(d, "spec", "names", "plural"),
			singular: manifest.String(d, "spec", "names", "singular"), kind: manifest.String(d, "spec", "names", "kind")})
	}
	w.crds = out
	return out
}

type resourceKind struct{ group, plural, singular, kind string }

// builtinResources maps the built-in resource names to kinds.
var builtinResources = func() []resourceKind {
	var out []resourceKind
	add := func(group string, kinds ...string) {
		for _, k := range kinds {
			singular := strings.ToLower(k)
			plural := singular + "s"
			switch {
			case k == "Endpoints":
				plural = singular
			case strings.HasSuffix(singular, "s"):
				plural = singular + "es"
			case strings.HasSuffix(singular, "y"):
				plural = strings.TrimSuffix(singular, "y") + "ies"
			}
			out = append(out, resourceKind{group, plural, singular, k})
		}
	}
	add("", "ConfigMap", "Secret", "Service", "ServiceAccount", "Pod", "PersistentVolumeClaim", "PersistentVolume",
		"Namespace", "Endpoints", "Event", "LimitRange", "ResourceQuota", "Node", "ReplicationController", "PodTemplate")
	add("apps", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ControllerRevision")
	add("batch", "Job", "CronJob")
	add("networking.k8s.io", "Ingress", "NetworkPolicy", "IngressClass")
	add("rbac.authorization.k8s.io", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding")
	add("policy", "PodDisruptionBudget")
	add("autoscaling", "HorizontalPodAutoscaler")
	add("storage.k8s.io", "StorageClass")
	add("apiextensions.k8s.io", "CustomResourceDefinition")
	add("core.oam.dev", "Application", "ComponentDefinition", "TraitDefinition", "PolicyDefinition", "WorkflowStepDefinition")
	return out
}()
