package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/schemas"
)

// TestRunValidate: a render with Validate reports the API server's
// findings about what it writes, by cluster and key, and the properties
// no definition declares; --crds must hold only CRDs, and --kube-version
// must be a version.
func TestRunValidate(t *testing.T) {
	dir := t.TempDir()
	write := func(name, doc string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	app := write("app.yaml", `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: shop, namespace: default}
spec:
  components:
    - name: web
      type: webservice
      properties: {image: nginx, imagee: x}
    - name: objs
      type: k8s-objects
      properties:
        objects:
          - {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}, spec: {size: big}}
          - {apiVersion: example.com/v1, kind: Gadget, metadata: {name: g}}
`)
	crd := write("crd.yaml", `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: {type: integer}
`)
	res, err := Run(context.Background(), Inputs{Paths: []string{app}, Record: Record{Validate: &Validation{CRDPaths: []string{crd}, KubeVersion: "1.2"}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Validation.Findings {
		got = append(got, strings.ReplaceAll(f.String(), dir+string(filepath.Separator), ""))
	}
	want := []string{
		`app.yaml:8:42: application "shop" component "web": warning: spec.components[0].properties.imagee: property "imagee" is not declared by ComponentDefinition "webservice" (did you mean "image"?); KubeVela ignores it`,
		`app.yaml:14:13: application "shop" component "objs": cluster local: Gadget.example.com default/g: warning: no schema for example.com/v1 Gadget: not validated (give its CustomResourceDefinition with --crds)`,
		`app.yaml:13:90: application "shop" component "objs": cluster local: Widget.example.com default/w: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"--kube-version: Kubernetes 1.2 is older than the oldest embedded API schemas; validated as " + schemas.KubeVersions()[0]}, res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		v    Validation
		want string
	}{
		{Validation{KubeVersion: "banana"}, "--kube-version: "},
		{Validation{CRDPaths: []string{app}}, "is not an apiextensions.k8s.io/v1 CustomResourceDefinition"},
	} {
		if _, err := Run(context.Background(), Inputs{Paths: []string{app}, Record: Record{Validate: &tc.v}}); err == nil || !strings.Contains(manifest.Format(err, nil), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.v, err, tc.want)
		}
	}
}
