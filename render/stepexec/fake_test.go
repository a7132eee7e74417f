package stepexec

import (
	"errors"
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// fakeHost records what the providers ask of it.
type fakeHost struct {
	calls []string
	objs  map[string]map[string]any
	vars  map[string]any
}

func objName(cluster string, obj map[string]any) string {
	return fmt.Sprintf("%s:%s/%s/%s", cluster, manifest.String(obj, "kind"), manifest.String(obj, "metadata", "namespace"), manifest.String(obj, "metadata", "name"))
}

func (h *fakeHost) Apply(cluster string, obj map[string]any) error {
	if manifest.String(obj, "metadata", "name") == "refused" {
		return errors.New("refused")
	}
	h.calls = append(h.calls, "apply "+objName(cluster, obj))
	if h.objs == nil {
		h.objs = map[string]map[string]any{}
	}
	h.objs[objName(cluster, obj)] = obj
	return nil
}

func (h *fakeHost) Get(cluster string, obj map[string]any) (map[string]any, error) {
	if o, ok := h.objs[objName(cluster, obj)]; ok {
		return o, nil
	}
	return nil, fmt.Errorf("%s %q not found", strings.ToLower(manifest.String(obj, "kind"))+"s", manifest.String(obj, "metadata", "name"))
}

func (h *fakeHost) List(cluster, apiVersion, kind, namespace string, labels map[string]string) ([]map[string]any, error) {
	h.calls = append(h.calls, fmt.Sprintf("list %s %s %s %v", cluster, kind, namespace, labels))
	var out []map[string]any
	for _, o := range h.objs {
		if manifest.String(o, "kind") == kind {
			out = append(out, o)
		}
	}
	if kind == "Broken" {
		return nil, errors.New("no such kind")
	}
	return out, nil
}

func (h *fakeHost) Delete(cluster string, obj map[string]any, f *Filter) error {
	h.calls = append(h.calls, "delete "+objName(cluster, obj))
	delete(h.objs, objName(cluster, obj))
	if f != nil && f.Namespace == "bad" {
		return errors.New("forbidden")
	}
	return nil
}

func (h *fakeHost) Components() ([]map[string]any, error) {
	return []map[string]any{
		{"name": "c1", "type": "webservice", "properties": map[string]any{"image": "nginx", "env": map[string]any{"a": "1"}},
			"traits": []any{map[string]any{"type": "scaler", "properties": map[string]any{"replicas": int64(1)}}, map[string]any{"type": "gone"}}},
		{"name": "c2", "type": "worker", "properties": map[string]any{"image": "busybox"}},
	}, nil
}

func (h *fakeHost) Policies() []map[string]any {
	return []map[string]any{{"name": "eb", "type": "env-binding", "properties": map[string]any{"envs": []any{
		map[string]any{"name": "prod", "placement": map[string]any{"clusterSelector": map[string]any{"name": "m1"}, "namespaceSelector": map[string]any{"name": "prod"}},
			"patch":    map[string]any{"components": []any{map[string]any{"name": "c1", "type": "webservice", "properties": map[string]any{"image": "nginx:2", "env": map[string]any{"b": "2"}}, "traits": []any{map[string]any{"type": "scaler", "properties": map[string]any{"replicas": int64(3)}}, map[string]any{"type": "gone", "disable": true}, map[string]any{"type": "new"}}}}},
			"selector": map[string]any{"components": []any{"c1"}}},
	}}}}
}

func (h *fakeHost) component(verb string, comp map[string]any, cluster, ns string) (map[string]any, map[string]any, error) {
	if manifest.String(comp, "name") == "bad" {
		return nil, nil, errors.New("component bad not found")
	}
	h.calls = append(h.calls, fmt.Sprintf("%s %s %v to %s/%s", verb, manifest.String(comp, "name"), comp["properties"], cluster, ns))
	return map[string]any{"kind": "Deployment"}, map[string]any{"svc": map[string]any{"kind": "Service"}}, nil
}

func (h *fakeHost) ApplyComponent(comp map[string]any, cluster, ns string) (map[string]any, map[string]any, error) {
	return h.component("apply-component", comp, cluster, ns)
}

func (h *fakeHost) RenderComponent(comp map[string]any, cluster, ns string) (map[string]any, map[string]any, error) {
	return h.component("render-component", comp, cluster, ns)
}

func (h *fakeHost) Deploy(policies []string, parallelism int64, inline []map[string]any) error {
	h.calls = append(h.calls, fmt.Sprintf("deploy %v %d %v", policies, parallelism, inline))
	return nil
}

func (h *fakeHost) Clusters() []string { return []string{"local", "m1"} }

func (h *fakeHost) Placements(policies []string) ([]map[string]any, error) {
	if len(policies) == 0 {
		return nil, errors.New("no policies")
	}
	return []map[string]any{{"cluster": "m1", "namespace": ""}}, nil
}

func (h *fakeHost) ServiceEndpoints(app, ns string, comps []string) ([]any, error) {
	if app == "other" {
		return nil, errors.New("unknown application")
	}
	return []any{map[string]any{"endpoint": map[string]any{"host": "web." + ns, "port": int64(80)}}}, nil
}

func (h *fakeHost) GetVar(path string) (any, error) {
	v, ok := h.vars[path]
	if !ok {
		return nil, fmt.Errorf("var %s not found", path)
	}
	return v, nil
}

func (h *fakeHost) PutVar(path string, v any) error {
	if h.vars == nil {
		h.vars = map[string]any{}
	}
	h.vars[path] = v
	return nil
}
