package kustomize

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

// Cases of helm-controller's internal/postrender/kustomize_test.go
// (Test_postRendererKustomize_Run), Apache-2.0: rendered manifests,
// patches and images in, the post-renderer's output expected.
func TestPostRender(t *testing.T) {
	const replaceImageMock = `apiVersion: v1
kind: Pod
metadata:
  name: image
spec:
  containers:
  - image: repository/image:tag
`
	const json6902Mock = `apiVersion: v1
kind: Pod
metadata:
  annotations:
    c: foo
  name: json6902
`
	const strategicMergeMock = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
spec:
  template:
    spec:
      containers:
        - name: nginx
          image: nignx:v1.0.0
`
	const json6902Patches = `
- target:
    version: v1
    kind: Pod
    name: json6902
  patch: |
    - op: test
      path: /metadata/annotations/c
      value: foo
    - op: remove
      path: /metadata/annotations/c
    - op: add
      path: /metadata/annotations/c
      value: [ "foo", "bar" ]
    - op: replace
      path: /metadata/annotations/c
      value: 42
    - op: move
      from: /metadata/annotations/c
      path: /metadata/annotations/d
    - op: copy
      from: /metadata/annotations/d
      path: /metadata/annotations/e
`
	tests := []struct {
		name, rendered, patches, images, want string
	}{
		{name: "image tag", rendered: replaceImageMock, images: `
- name: repository/image
  newTag: 0.1.0
`, want: `apiVersion: v1
kind: Pod
metadata:
  name: image
spec:
  containers:
  - image: repository/image:0.1.0
`},
		{name: "image name", rendered: replaceImageMock, images: `
- name: repository/image
  newName: repository/new-image
`, want: `apiVersion: v1
kind: Pod
metadata:
  name: image
spec:
  containers:
  - image: repository/new-image:tag
`},
		{name: "image digest", rendered: replaceImageMock, images: `
- name: repository/image
  digest: sha256:24a0c4b4a4c0eb97a1aabb8e29f18e917d05abfe1b7a7c07857230879ce7d3d3
`, want: `apiVersion: v1
kind: Pod
metadata:
  name: image
spec:
  containers:
  - image: repository/image@sha256:24a0c4b4a4c0eb97a1aabb8e29f18e917d05abfe1b7a7c07857230879ce7d3d3
`},
		{name: "json 6902", rendered: json6902Mock, patches: json6902Patches, want: `apiVersion: v1
kind: Pod
metadata:
  annotations:
    d: "42"
    e: "42"
  name: json6902
`},
		{name: "targeted strategic merge test", rendered: strategicMergeMock, patches: `
- target:
    group: apps
    version: v1
    kind: Deployment
    name: nginx
  patch: |
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: nginx
    spec:
      template:
        spec:
          containers:
            - name: nginx
              image: nignx:latest
`, want: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
spec:
  template:
    spec:
      containers:
      - image: nignx:latest
        name: nginx
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kz := map[string]any{}
			for key, src := range map[string]string{"patches": tt.patches, "images": tt.images} {
				var v []any
				if err := yaml.Unmarshal([]byte(src), &v); err != nil {
					t.Fatal(err)
				}
				if v != nil {
					kz[key] = v
				}
			}
			spec := map[string]any{"postRenderers": []any{map[string]any{"kustomize": kz}}}
			in, err := manifest.Decode("rendered", []byte(tt.rendered), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := PostRender(in, spec)
			if err != nil {
				t.Fatal(err)
			}
			want, err := manifest.Decode("want", []byte(tt.want), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(datas(want), datas(got)); diff != "" {
				t.Errorf("(-helm-controller +drydock):\n%s", diff)
			}
		})
	}
}

// Post-renderers run in order, each over the previous one's output; a
// spec without any leaves the objects alone; a failing patch names its
// post-renderer.
func TestPostRenderChain(t *testing.T) {
	in, err := manifest.Decode("rendered", []byte("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - image: a:1\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same, err := PostRender(in, map[string]any{})
	if err != nil || len(same) != 1 || same[0] != in[0] {
		t.Fatalf("no post-renderers: %v %v", same, err)
	}
	spec := map[string]any{"postRenderers": []any{
		map[string]any{"kustomize": map[string]any{"images": []any{map[string]any{"name": "a", "newName": "b"}}}},
		map[string]any{"kustomize": map[string]any{"images": []any{map[string]any{"name": "b", "newTag": "2"}}}},
	}}
	got, err := PostRender(in, spec)
	if err != nil {
		t.Fatal(err)
	}
	if img := manifest.String(got[0].Data["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any), "image"); img != "b:2" {
		t.Errorf("image = %q, want b:2", img)
	}
	bad := map[string]any{"postRenderers": []any{map[string]any{}, map[string]any{"kustomize": map[string]any{"patches": []any{
		map[string]any{"patch": "- op: test\n  path: /metadata/name\n  value: other\n", "target": map[string]any{"kind": "Pod"}},
	}}}}}
	if _, err := PostRender(in, bad); err == nil || !strings.Contains(err.Error(), "spec.postRenderers[1].kustomize") {
		t.Errorf("err = %v, want it to name spec.postRenderers[1].kustomize", err)
	}
}
