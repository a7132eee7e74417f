package stepexec

import (
	"fmt"
)

type fakeHost struct {
	objs []map[string]any
}

func (h *fakeHost) Apply(cluster string, obj map[string]any) error { h.objs = append(h.objs, obj); return nil }
func (h *fakeHost) Get(cluster string, obj map[string]any) (map[string]any, error) {
	return nil, fmt.Errorf("not found")
}
func (h *fakeHost) List(cluster, apiVersion, kind, namespace string, labels map[string]string) ([]map[string]any, error) {
	return nil, nil
}
func (h *fakeHost) Delete(cluster string, obj map[string]any, filter *Filter) error { return nil }
func (h *fakeHost) Components() ([]map[string]any, error) {
	return []map[string]any{{"name": "c1", "type": "webservice", "properties": map[string]any{"image": "nginx"}}}, nil
}
func (h *fakeHost) Policies() []map[string]any { return nil }
func (h *fakeHost) ApplyComponent(comp map[string]any, cluster, namespace string) (map[string]any, map[string]any, error) {
	return map[string]any{"kind": "Deployment"}, nil, nil
}
func (h *fakeHost) RenderComponent(comp map[string]any, cluster, namespace string) (map[string]any, map[string]any, error) {
	return map[string]any{"kind": "Deployment"}, nil, nil
}
func (h *fakeHost) Deploy(policies []string, parallelism int64, inline []map[string]any) error {
	return nil
}
func (h *fakeHost) Clusters() []string                                { return []string{"local"} }
func (h *fakeHost) Placements(policies []string) ([]map[string]any, error) { return nil, nil }
func (h *fakeHost) ServiceEndpoints(app, namespace string, components []string) ([]any, error) {
	return nil, nil
}
func (h *fakeHost) GetVar(path string) (any, error) { return nil, fmt.Errorf("no var") }
func (h *fakeHost) PutVar(path string, v any) error  { return nil }
