package charts

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/charts/helm"
	"github.com/drydock-dev/drydock/manifest"
)

func rendered() []helm.Object {
	obj := func(apiVersion, kind, name string, annotations map[string]any) *manifest.Object {
		md := map[string]any{"name": name}
		if annotations != nil {
			md["annotations"] = annotations
		}
		return manifest.New(map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md})
	}
	crd := obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", "widgets.example.com", nil)
	crd.Data["spec"] = map[string]any{"group": "example.com", "scope": "Cluster", "names": map[string]any{"kind": "Widget"}}
	return []helm.Object{
		{Object: crd, Template: "c/crds/widgets.yaml", CRD: true},
		{Object: obj("v1", "ConfigMap", "in-crds", nil), Template: "c/crds/cm.yaml", CRD: true},
		{Object: obj("apps/v1", "Deployment", "web", nil), Template: "c/templates/deployment.yaml"},
		{Object: obj("rbac.authorization.k8s.io/v1", "ClusterRole", "web", nil), Template: "c/templates/rbac.yaml"},
		{Object: obj("example.com/v1", "Widget", "w", nil), Template: "c/templates/widget.yaml"},
		{Object: obj("batch/v1", "Job", "post", map[string]any{"helm.sh/hook": "post-install"}), Template: "c/templates/job.yaml", Hooks: []string{"post-install"}},
		{Object: obj("batch/v1", "Job", "pre", map[string]any{"helm.sh/hook": "pre-install", "helm.sh/hook-delete-policy": "hook-succeeded"}), Template: "c/templates/job.yaml", Hooks: []string{"pre-install"}},
		{Object: obj("v1", "Pod", "test", map[string]any{"helm.sh/hook": "test"}), Template: "c/templates/tests/t.yaml", Hooks: []string{"test"}},
	}
}

// TestFinish: what stays of a render after helm-controller's install, and
// what it adds (see finish's comment), per API version and post-render
// strategy.
func TestFinish(t *testing.T) {
	origin := map[string]any{"helm.toolkit.fluxcd.io/name": "web", "helm.toolkit.fluxcd.io/namespace": "flux-system"}
	common := map[string]any{"team": "a", "helm.toolkit.fluxcd.io/name": "web", "helm.toolkit.fluxcd.io/namespace": "flux-system"}
	type obj struct {
		Name, Namespace     string
		Labels, Annotations map[string]any
	}
	tests := []struct {
		name       string
		apiVersion string
		strategy   string
		want       []obj
	}{
		{"v2 combined", "helm.toolkit.fluxcd.io/v2", "", []obj{
			{"widgets.example.com", "", origin, nil},
			{"web", "apps", common, map[string]any{"note": "x"}},
			{"web", "", common, map[string]any{"note": "x"}},
			{"w", "", common, map[string]any{"note": "x"}},
			{"post", "apps", common, map[string]any{"helm.sh/hook": "post-install", "note": "x"}},
		}},
		{"v2 nohooks", "helm.toolkit.fluxcd.io/v2", "nohooks", []obj{
			{"widgets.example.com", "", origin, nil},
			{"web", "apps", common, map[string]any{"note": "x"}},
			{"web", "", common, map[string]any{"note": "x"}},
			{"w", "", common, map[string]any{"note": "x"}},
			{"post", "apps", nil, map[string]any{"helm.sh/hook": "post-install"}},
		}},
		{"v2beta2 has no commonMetadata", "helm.toolkit.fluxcd.io/v2beta2", "", []obj{
			{"widgets.example.com", "", origin, nil},
			{"web", "apps", origin, nil},
			{"web", "", origin, nil},
			{"w", "", origin, nil},
			{"post", "apps", origin, map[string]any{"helm.sh/hook": "post-install"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hr := manifest.New(map[string]any{"apiVersion": tt.apiVersion, "kind": "HelmRelease", "metadata": map[string]any{"name": "web", "namespace": "flux-system"}})
			s := hrSpec{PostRenderStrategy: tt.strategy, CommonMetadata: &commonMetadata{Labels: map[string]string{"team": "a"}, Annotations: map[string]string{"note": "x"}}}
			r := &run{}
			out, err := r.finish(hr, s, "apps", rendered())
			if err != nil {
				t.Fatal(err)
			}
			var got []obj
			for _, o := range out {
				l, _ := manifest.Lookup(o.Object.Data, "metadata", "labels")
				a, _ := manifest.Lookup(o.Object.Data, "metadata", "annotations")
				lm, _ := l.(map[string]any)
				am, _ := a.(map[string]any)
				got = append(got, obj{o.Object.Name(), o.Object.Namespace(), lm, am})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			want := []string{"HelmRelease flux-system/web: ignoring ConfigMap in-crds in the chart's crds/ directory (c/crds/cm.yaml): it is reserved for CustomResourceDefinitions"}
			if diff := cmp.Diff(want, r.warnings); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// TestPostRenderers: spec.postRenderers' kustomize images and patches run
// before commonMetadata and the origin labels, which win a collision (as
// helm-controller's BuildPostRenderers orders them); objects keep their
// template.
func TestPostRenderers(t *testing.T) {
	hr := manifest.New(map[string]any{"apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease", "metadata": map[string]any{"name": "web", "namespace": "flux-system"},
		"spec": map[string]any{"postRenderers": []any{map[string]any{"kustomize": map[string]any{
			"images": []any{map[string]any{"name": "nginx", "newTag": "1.27"}},
			"patches": []any{map[string]any{"target": map[string]any{"kind": "Deployment"},
				"patch": "- op: add\n  path: /metadata/labels\n  value: {helm.toolkit.fluxcd.io/name: patched, tier: front}\n"}},
		}}}}})
	dep := manifest.New(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web"},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.25"}}}}}})
	r := &run{}
	out, err := r.finish(hr, hrSpec{}, "apps", []helm.Object{{Object: dep, Template: "c/templates/deployment.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Template != "c/templates/deployment.yaml" {
		t.Fatalf("out = %+v", out)
	}
	got := out[0].Object
	if diff := cmp.Diff(map[string]string{"helm.toolkit.fluxcd.io/name": "web", "helm.toolkit.fluxcd.io/namespace": "flux-system", "tier": "front"}, got.Labels()); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if img := manifest.String(got.Data["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any), "image"); img != "nginx:1.27" {
		t.Errorf("image = %s", img)
	}
	if got.Namespace() != "apps" {
		t.Errorf("namespace = %q", got.Namespace())
	}
}
