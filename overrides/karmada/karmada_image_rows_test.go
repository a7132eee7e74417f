package karmada

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// wantOp is one JSON patch operation of a Karmada test row.
type wantOp struct{ op, path, value string }

// workload builds the objects of Karmada's imageoverride_test generators:
// apiVersion/kind and the containers' images at the kind's pod spec.
func workload(kind string, images ...string) map[string]any {
	containers := make([]any, len(images))
	for i, img := range images {
		containers[i] = map[string]any{"name": "c", "image": img}
	}
	podSpec := map[string]any{"containers": containers}
	obj := map[string]any{"apiVersion": "apps/v1", "kind": kind, "metadata": map[string]any{"name": "w", "namespace": "default"}}
	switch kind {
	case "Pod":
		obj["apiVersion"] = "v1"
		obj["spec"] = podSpec
	case "Job":
		obj["apiVersion"] = "batch/v1"
		obj["spec"] = map[string]any{"template": map[string]any{"spec": podSpec}}
	default:
		obj["spec"] = map[string]any{"template": map[string]any{"spec": podSpec}}
	}
	return obj
}

// TestImageOverriderKarmadaRows are the 18 rows of Karmada's
// TestParseJSONPatchesByImageOverrider (pkg/util/overridemanager at
// f8fdd02), converted from its table: the patches an ImageOverrider makes.
func TestImageOverriderKarmadaRows(t *testing.T) {
	const image = "fictional.registry.example/imagename:v1.0.0"
	var (
		deployment    = workload("Deployment", image)
		pod           = workload("Pod", image)
		statefulset   = workload("StatefulSet", image)
		replicaset    = workload("ReplicaSet", image)
		daemonset     = workload("DaemonSet", image)
		twoContainers = workload("Deployment", image, "registry.k8s.io/nginx-slim:0.8")
		job           = workload("Job", "perl:5.34.0")
	)
	tests := []struct {
		name                 string
		obj                  map[string]any
		predicate, component string
		operator, value      string
		want                 []wantOp
		wantErr              bool
	}{
		{"imageOverrider with empty predicate, resource kind: Job, component: Registry, operator: add", job, "", "Registry", "add", "registry.k8s.io", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "registry.k8s.io/perl:5.34.0"}}, false},
		{"imageOverrider with predicate, resource kind: Job, component: Registry, operator: add", job, "/spec/template/spec/containers/0/image", "Registry", "add", "registry.k8s.io", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "registry.k8s.io/perl:5.34.0"}}, false},
		{"imageOverrider with empty predicate, resource kind: Deployment, component: Registry, operator: add", deployment, "", "Registry", "add", ".test", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example.test/imagename:v1.0.0"}}, false},
		{"imageOverrider with empty predicate, resource kind: Deployment, component: Registry, operator: replace", deployment, "", "Registry", "replace", "fictional.registry.us", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.us/imagename:v1.0.0"}}, false},
		{"imageOverrider with empty predicate, resource kind: Deployment, component: Registry, operator: remove", deployment, "", "Registry", "remove", "fictional.registry.us", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "imagename:v1.0.0"}}, false},
		{"imageOverrider with empty predicate, resource kind: Deployment, component: Repository, operator: add", deployment, "", "Repository", "add", "/nginx", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example/imagename/nginx:v1.0.0"}}, false},
		{"imageOverrider with empty predicate, resource kind: Deployment, component: Repository, operator: replace", deployment, "", "Repository", "replace", "nginx", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example/nginx:v1.0.0"}}, false},
		{"imageOverrider with empty predicate, resource kind: Deployment, component: Repository, operator: remove", deployment, "", "Repository", "remove", "nginx", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example/:v1.0.0"}}, false},
		{"imageOverrider with empty predicate, resource kind: Deployment, component: Tag, operator: add", deployment, "", "Tag", "add", "sha256:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example/imagename:v1.0.0"}}, false},
		{"imageOverrider with empty predicate, resource kind: Deployment, component: Tag, operator: replace", deployment, "", "Tag", "replace", "sha256:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example/imagename@sha256:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c"}}, false},
		{"imageOverrider with empty predicate, resource kind: Deployment, component: Tag, operator: remove", deployment, "", "Tag", "remove", "sha256:dbcc1c35ac38df41fd2f5e4130b32ffdb93ebae8b3dbe638c23575912276fc9c", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example/imagename"}}, false},
		{"imageOverrider with empty predicate, resource kind: Pod", pod, "", "Repository", "replace", "nginx", []wantOp{{"replace", "/spec/containers/0/image", "fictional.registry.example/nginx:v1.0.0"}}, false},
		{"imageOverrider with empty predicate, resource kind: StatefulSet", statefulset, "", "Repository", "replace", "nginx", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example/nginx:v1.0.0"}}, false},
		{"imageOverrider with empty predicate, resource kind: ReplicaSet", replicaset, "", "Repository", "replace", "nginx", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example/nginx:v1.0.0"}}, false},
		{"imageOverrider with empty predicate, resource kind: DaemonSet", daemonset, "", "Repository", "replace", "nginx", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example/nginx:v1.0.0"}}, false},
		{"imageOverrider with empty predicate, resource has more than one container", twoContainers, "", "Repository", "replace", "nginx", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example/nginx:v1.0.0"}, {"replace", "/spec/template/spec/containers/1/image", "registry.k8s.io/nginx:0.8"}}, false},
		{"imageOverrider with predicate, resource has one container", deployment, "/spec/template/spec/containers/0/image", "Repository", "replace", "nginx", []wantOp{{"replace", "/spec/template/spec/containers/0/image", "fictional.registry.example/nginx:v1.0.0"}}, false},
		{"imageOverrider with predicate, resource has more than one container", twoContainers, "/spec/template/spec/containers/1/image", "Repository", "replace", "nginx", []wantOp{{"replace", "/spec/template/spec/containers/1/image", "registry.k8s.io/nginx:0.8"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := &ImageOverrider{PredicatePath: tt.predicate, HasPredicate: tt.predicate != "", Component: tt.component, Operator: tt.operator, Value: tt.value}
			ops, err := imagePatches(tt.obj, o)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want an error: %t", err, tt.wantErr)
			}
			var got []wantOp
			for _, op := range ops {
				s, _ := op.value.(string)
				got = append(got, wantOp{op.op, op.path, s})
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(wantOp{})); diff != "" {
				t.Errorf("patches (-want +got):\n%s", diff)
			}
		})
	}
}
