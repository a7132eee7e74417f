package workflow

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClearForDispatch is KubeVela's TestClearRefObjectForDispatch
// (pkg/component/ref_objects_test.go): what the API server populated is
// dropped, and a Service's cluster IPs unless it is headless.
func TestClearForDispatch(t *testing.T) {
	tests := []struct {
		name      string
		obj, want map[string]any
	}{
		{"object", map[string]any{"metadata": map[string]any{"name": "test-obj", "namespace": "default", "resourceVersion": "12345", "generation": int64(1), "uid": "abc-def",
			"creationTimestamp": "2021-01-01T00:00:00Z", "managedFields": []any{}, "ownerReferences": []any{}, "deletionTimestamp": "2021-01-02T00:00:00Z"}, "status": map[string]any{"phase": "Available"}},
			map[string]any{"metadata": map[string]any{"name": "test-obj", "namespace": "default"}}},
		{"service", map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "test-svc"}, "spec": map[string]any{"clusterIP": "1.2.3.4", "clusterIPs": []any{"1.2.3.4"}}},
			map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "test-svc"}, "spec": map[string]any{}}},
		{"service with clusterIP None", map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "test-svc-none"}, "spec": map[string]any{"clusterIP": "None"}},
			map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "test-svc-none"}, "spec": map[string]any{"clusterIP": "None"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, clearForDispatch(tt.obj)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// TestRefObjects renders ref-objects components as
// SelectRefObjectsForDispatch (pkg/component/ref_objects.go) selects:
// by name (the component's when none), or by labels in the app's
// namespace; each object cleared for dispatch, the same object once. An
// Application with ref-objects and no workflow deploys them in one
// generated deploy step (TestWorkflowStepGenerator).
func TestRefObjects(t *testing.T) {
	const observed = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ref, namespace: default, labels: {app: x}, resourceVersion: \"7\"}\ndata: {k: a}\n---\n" +
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: default, labels: {app: x}}\ndata: {k: b}\n---\n" +
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: third, namespace: default, labels: {app: y}}\n---\n"
	tests := []struct {
		name, props string
		want        []written
	}{
		{"by the component's name", "{objects: [{resource: configmap}]}", []written{{At: "local/default/ConfigMap/ref", Step: "deploy", Data: map[string]any{"k": "a"}}}},
		// A list comes in the API server's order: by name.
		{"by labels", "{objects: [{resource: configmaps, labelSelector: {app: x}}]}", []written{
			{At: "local/default/ConfigMap/other", Step: "deploy", Data: map[string]any{"k": "b"}},
			{At: "local/default/ConfigMap/ref", Step: "deploy", Data: map[string]any{"k": "a"}}}},
		{"the same object twice", "{objects: [{resource: configmaps, name: other}, {resource: configmaps, labelSelector: {app: x}}]}", []written{
			{At: "local/default/ConfigMap/other", Step: "deploy", Data: map[string]any{"k": "b"}},
			{At: "local/default/ConfigMap/ref", Step: "deploy", Data: map[string]any{"k": "a"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := renderResult(t, observed+app("  components: [{name: ref, type: ref-objects, properties: "+tt.props+"}]"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, writes(res)); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
			for _, w := range res.Writes {
				if _, ok := w.Resource.Object["metadata"].(map[string]any)["resourceVersion"]; ok {
					t.Errorf("%v kept its resourceVersion", w.Resource.Object["metadata"])
				}
			}
		})
	}
}

// TestRefObjectsSelectNothing: a label selector nothing observed matches
// selects nothing, as KubeVela's List does (SelectRefObjectsForDispatch),
// with a warning; a component left without objects fails to render, as
// ref-objects' template needs one (KubeVela's LoadDynamicComponent
// leaves the omitempty objects out), where a name nothing observed
// matches is KubeVela's "not found".
func TestRefObjectsSelectNothing(t *testing.T) {
	const observed = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: default, labels: {app: x}}\ndata: {k: b}\n---\n"
	tests := []struct {
		name, props string
		writes      int
		warnings    []string
		wantErr     string
	}{
		{"a selector among others", "{objects: [{resource: configmaps, name: other}, {resource: configmaps, labelSelector: {app: z}}]}", 1,
			[]string{`app.yaml:10:107: application "a" component "ref": properties.objects[1]: label selector app=z selects no ConfigMap in cluster "local": KubeVela selects nothing (the objects a selector sees come from --observed)`}, ""},
		{"the only selector", "{objects: [{resource: configmaps, labelSelector: {app: z, tier: web}}]}", 0, nil,
			`app.yaml:10:16: application "a" component "ref": output: output: cannot reference optional field: objects (no object was selected: every selector came back empty) (deploy step "deploy")`},
		{"a name", "{objects: [{resource: configmaps, name: nope}]}", 0, nil,
			`app.yaml:10:70: application "a" component "ref": failed to load ref object ConfigMap default/nope: not found in cluster "local" (give the clusters' objects with --observed)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := renderResult(t, observed+app("  components: [{name: ref, type: ref-objects, properties: "+tt.props+"}]"))
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.warnings, res.Warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if len(res.Writes) != tt.writes {
				t.Errorf("%d writes, want %d", len(res.Writes), tt.writes)
			}
		})
	}
}
