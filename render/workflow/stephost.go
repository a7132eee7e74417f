package workflow

import (
	"fmt"
	"sort"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/policy"
	"github.com/drydock-dev/drydock/render/stepexec"
)

// stepHost answers a definition step's providers from the workflow: its
// writes and the observed clusters, its components and policies.
type stepHost struct {
	w *workflowRun
	s *render.WorkflowStep
}

var _ stepexec.Host = (*stepHost)(nil)

// target is the inventory name of a provider's cluster ("" and "local"
// are the hub).
func (h *stepHost) target(name string) (string, error) {
	if name == "" || name == cluster.Local {
		return cluster.Local, nil
	}
	if _, ok := h.w.inv.Get(name); !ok {
		return "", fmt.Errorf("cluster %q is not in the inventory", name)
	}
	return name, nil
}

// Apply writes obj as the step's write: it reaches the fake clusters,
// the `# Source:` and the trace as apply-object's writes do.
func (h *stepHost) Apply(clusterName string, obj map[string]any) error {
	target, err := h.target(clusterName)
	if err != nil {
		return err
	}
	if manifest.String(obj, "kind") == "" || manifest.String(obj, "metadata", "name") == "" {
		return fmt.Errorf("the object to apply needs kind and metadata.name")
	}
	h.w.writeTo(target, &cueval.Resource{Object: manifest.DeepCopy(obj).(map[string]any)}, h.s.Name, nil)
	return nil
}

func objectKey(obj map[string]any) manifest.Key {
	apiVersion, kind := manifest.String(obj, "apiVersion"), manifest.String(obj, "kind")
	ns := manifest.String(obj, "metadata", "namespace")
	if cluster.IsClusterScoped(apiVersion, kind) {
		ns = ""
	}
	return manifest.Key{Group: manifest.Group(apiVersion), Kind: kind, Namespace: ns, Name: manifest.String(obj, "metadata", "name")}
}

// Get reads an object as the workflow has left it, else as observed; a
// missing one is the API server's NotFound.
func (h *stepHost) Get(clusterName string, obj map[string]any) (map[string]any, error) {
	target, err := h.target(clusterName)
	if err != nil {
		return nil, err
	}
	key := objectKey(obj)
	if live, ok := h.w.current(target, key); ok {
		return manifest.DeepCopy(live).(map[string]any), nil
	}
	return nil, fmt.Errorf("%s %q not found", resourceName(key.Group, key.Kind), key.Name)
}

// resourceName is a kind's resource as the API server names it in
// errors: plural.group.
func resourceName(group, kind string) string {
	plural := strings.ToLower(kind) + "s"
	for _, r := range builtinResources {
		if r.kind == kind && r.group == group {
			plural = r.plural
		}
	}
	if group == "" {
		return plural
	}
	return plural + "." + group
}

// List returns the objects of a kind the workflow sees now: its writes
// over the observed state, by key.
func (h *stepHost) List(clusterName, apiVersion, kind, namespace string, labels map[string]string) ([]map[string]any, error) {
	target, err := h.target(clusterName)
	if err != nil {
		return nil, err
	}
	group := manifest.Group(apiVersion)
	found := map[manifest.Key]map[string]any{}
	match := func(k manifest.Key, obj map[string]any) {
		if k.Group == group && strings.EqualFold(k.Kind, kind) && (namespace == "" || k.Namespace == namespace) &&
			hasLabels(manifest.StringMap(obj, "metadata", "labels"), labels) {
			found[k] = obj
		}
	}
	if h.w.opts.Observed != nil {
		for _, e := range h.w.opts.Observed.List(target) {
			match(e.Object.Key(), e.Object.Data)
		}
	}
	for _, wr := range h.w.res.Writes {
		if wr.Cluster == target {
			match(manifest.New(wr.Resource.Object).Key(), wr.Resource.Object)
		}
	}
	keys := make([]manifest.Key, 0, len(found))
	for k := range found {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
	out := make([]map[string]any, len(keys))
	for i, k := range keys {
		out[i] = manifest.DeepCopy(found[k]).(map[string]any)
	}
	return out, nil
}

// Delete takes back the workflow's own writes of the objects deleted;
// the observed clusters' objects are not changed (the trace says which
// it would delete).
func (h *stepHost) Delete(clusterName string, obj map[string]any, f *stepexec.Filter) error {
	target, err := h.target(clusterName)
	if err != nil {
		return err
	}
	key := objectKey(obj)
	gone := func(k manifest.Key, o map[string]any) bool {
		if k.Group != key.Group || !strings.EqualFold(k.Kind, key.Kind) {
			return false
		}
		if f == nil {
			return k.Namespace == key.Namespace && k.Name == key.Name
		}
		return (f.Namespace == "" || k.Namespace == f.Namespace) && hasLabels(manifest.StringMap(o, "metadata", "labels"), f.Labels)
	}
	kept := h.w.res.Writes[:0:0]
	for _, wr := range h.w.res.Writes {
		if wr.Cluster == target && gone(manifest.New(wr.Resource.Object).Key(), wr.Resource.Object) {
			h.w.tracef("  deleted %s (written by step %s)", manifest.New(wr.Resource.Object).Key(), wr.Step)
			continue
		}
		kept = append(kept, wr)
	}
	h.w.res.Writes = kept
	if h.w.opts.Observed != nil {
		for _, e := range h.w.opts.Observed.List(target) {
			if gone(e.Object.Key(), e.Object.Data) {
				h.w.tracef("  deletes observed %s (the observed state is not changed)", e.Object.Key())
			}
		}
	}
	return nil
}

// Components are the Application's components as authored.
func (h *stepHost) Components() ([]map[string]any, error) {
	out := make([]map[string]any, len(h.w.app.Components))
	for i := range h.w.app.Components {
		out[i] = componentMap(&h.w.app.Components[i])
	}
	return out, nil
}

// Policies are the Application's policies.
func (h *stepHost) Policies() []map[string]any {
	var out []map[string]any
	for _, p := range h.w.app.Policies {
		m := map[string]any{"name": p.Name, "type": p.Type}
		if p.Properties != nil {
			m["properties"] = manifest.DeepCopy(p.Properties)
		}
		out = append(out, m)
	}
	return out
}

func (h *stepHost) placement(clusterName, ns string) (cueval.Placement, error) {
	target, err := h.target(clusterName)
	if err != nil {
		return cueval.Placement{}, err
	}
	pl := cueval.Placement{Namespace: ns}
	if target != cluster.Local {
		pl.Cluster = target
	}
	return pl, nil
}

// ApplyComponent renders and writes a component as apply-component does.
func (h *stepHost) ApplyComponent(m map[string]any, clusterName, ns string) (map[string]any, map[string]any, error) {
	comp, err := h.w.fromMap(m)
	if err != nil {
		return nil, nil, err
	}
	pl, err := h.placement(clusterName, ns)
	if err != nil {
		return nil, nil, err
	}
	cm, err := h.w.applyManifest(comp, pl, h.s.Name, nil)
	if err != nil || cm == nil {
		return nil, nil, err
	}
	out, outs := manifestOutputs(cm)
	return out, outs, nil
}

// RenderComponent renders a component without writing it.
func (h *stepHost) RenderComponent(m map[string]any, clusterName, ns string) (map[string]any, map[string]any, error) {
	comp, err := h.w.fromMap(m)
	if err != nil {
		return nil, nil, err
	}
	pl, err := h.placement(clusterName, ns)
	if err != nil {
		return nil, nil, err
	}
	target := pl.Cluster
	if target == "" {
		target = cluster.Local
	}
	pl.ClusterVersion = h.w.clusterVersion(target)
	cm, err := h.w.e.RenderComponent(h.w.app, comp, pl)
	if err != nil {
		return nil, nil, err
	}
	out, outs := manifestOutputs(cm)
	return out, outs, nil
}

func manifestOutputs(cm *cueval.ComponentManifest) (map[string]any, map[string]any) {
	outs := map[string]any{}
	for _, a := range cm.Auxiliaries {
		if a.Output != "" {
			outs[a.Output] = a.Object
		}
	}
	return cm.Workload.Object, outs
}

// Deploy runs the deploy step's emulation with these policies.
func (h *stepHost) Deploy(policies []string, parallelism int64, inline []map[string]any) error {
	list := make([]any, len(policies))
	for i, p := range policies {
		list[i] = p
	}
	s := *h.s
	s.Type = "deploy"
	s.Properties = map[string]any{"policies": list, "parallelism": parallelism}
	var pols []*render.Policy
	for _, m := range inline {
		p := &render.Policy{Name: manifest.String(m, "name"), Type: manifest.String(m, "type"), Path: h.s.Path}
		p.Properties, _ = m["properties"].(map[string]any)
		pols = append(pols, p)
	}
	return h.w.deployWith(&s, pols)
}

// Clusters are the inventory's clusters.
func (h *stepHost) Clusters() []string { return h.w.inv.Names() }

// Placements are the placements of the named topology policies.
func (h *stepHost) Placements(names []string) ([]map[string]any, error) {
	var pols []*render.Policy
	for _, n := range names {
		p := h.w.policy(n)
		if p == nil {
			return nil, fmt.Errorf("policy %s not found", n)
		}
		pols = append(pols, p)
	}
	pls, err := policy.Placements(h.w.app, pols, h.w.inv)
	if err != nil {
		return nil, err
	}
	out := make([]map[string]any, len(pls))
	for i, p := range pls {
		out[i] = map[string]any{"cluster": p.Cluster, "namespace": p.Namespace}
	}
	return out, nil
}

// ServiceEndpoints are the endpoints of the ClusterIP and ExternalName
// Services the Application has written so far (kubevela
// pkg/workflow/providers/query/endpoint.go generatorFromService); those
// of LoadBalancer and NodePort Services need the live cluster.
func (h *stepHost) ServiceEndpoints(app, ns string, comps []string) ([]any, error) {
	if app != h.w.app.Name || ns != h.w.app.Namespace {
		return nil, fmt.Errorf("the endpoints of Application %s/%s: drydock knows only the rendered Application's", ns, app)
	}
	out := []any{}
	for _, wr := range h.w.res.Writes {
		obj := wr.Resource.Object
		comp := manifest.String(obj, "metadata", "labels", render.LabelAppComponent)
		if manifest.String(obj, "apiVersion") != "v1" || manifest.String(obj, "kind") != "Service" || (len(comps) > 0 && !contains(comps, comp)) {
			continue
		}
		out = append(out, serviceEndpoints(obj, wr.Cluster, comp)...)
	}
	return out, nil
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func serviceEndpoints(svc map[string]any, clusterName, comp string) []any {
	typ := manifest.String(svc, "spec", "type")
	if typ != "" && typ != "ClusterIP" && typ != "ExternalName" {
		return nil
	}
	name, ns := manifest.String(svc, "metadata", "name"), manifest.String(svc, "metadata", "namespace")
	ref := map[string]any{"kind": "Service", "namespace": ns, "name": name, "apiVersion": "v1"}
	spec, _ := svc["spec"].(map[string]any)
	ports, _ := spec["ports"].([]any)
	var out []any
	for _, p := range ports {
		pm, _ := p.(map[string]any)
		port := toInt(pm["port"])
		proto := manifest.String(pm, "protocol")
		if proto == "" {
			proto = "TCP"
		}
		ep := map[string]any{"protocol": proto, "appProtocol": appProtocol(port), "host": name + "." + ns, "port": port, "inner": true}
		if pn := manifest.String(pm, "name"); pn != "" {
			ep["portName"] = pn
		}
		e := map[string]any{"endpoint": ep, "ref": ref, "component": comp}
		if clusterName != cluster.Local {
			e["cluster"] = clusterName
		}
		out = append(out, e)
	}
	return out
}

// appProtocol is endpoint.go's judgeAppProtocol.
func appProtocol(port int64) string {
	switch port {
	case 80, 8080:
		return "http"
	case 443:
		return "https"
	case 3306:
		return "mysql"
	case 6379:
		return "redis"
	}
	return ""
}

// GetVar reads a workflow variable (an output of an earlier step).
func (h *stepHost) GetVar(path string) (any, error) {
	v, ok := h.w.lookupVar(path)
	if !ok {
		return nil, fmt.Errorf("var %s not found", path)
	}
	return v, nil
}

// PutVar sets a workflow variable.
func (h *stepHost) PutVar(path string, v any) error {
	h.w.setVar(path, v)
	return nil
}

func toInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int:
		return int64(x)
	case float64:
		return int64(x)
	}
	return 0
}
