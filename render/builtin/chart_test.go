package builtin_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/builtin"
	"github.com/drydock-dev/drydock/render/cueval"
)

// renderComponent renders the first component of the Application in doc
// with the built-ins, on a cluster of version pl.
func renderComponent(t *testing.T, doc string, pl cueval.Placement) *cueval.ComponentManifest {
	t.Helper()
	objs, err := manifest.Decode("app.yaml", []byte(doc), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	app, err := render.ParseApplication(objs[0])
	if err != nil {
		t.Fatal(err)
	}
	m, err := cueval.New(builtin.Definitions()).RenderComponent(app, &app.Components[0], pl)
	if err != nil {
		t.Fatal(manifest.Format(err, nil))
	}
	return m
}

// yamlObj reads one YAML document.
func yamlObj(t *testing.T, doc string) any {
	t.Helper()
	objs, err := manifest.Decode("want.yaml", []byte("v: "+doc), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return objs[0].Data["v"]
}

const appHead = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: shop, namespace: prod}\nspec:\n  components:\n"

// TestServiceBinding: the chart's service-binding trait
// (charts/vela-core/templates/defwithtemplate/service-binding.yaml, from
// vela-templates/definitions/internal/service-binding.cue) patches the
// container named after the component with one env entry per mapping,
// in the order of the env names (KubeVela's parameters reach CUE as JSON
// the API server stored: keys sorted), each from the secret's key, else
// from the key named like the variable; +patchKey=name merges them with
// the container's own env by name.
func TestServiceBinding(t *testing.T) {
	tests := []struct {
		name, comp, want string
	}{
		{"env from secrets", `  - name: api
    type: webservice
    properties: {image: "nginx:1.25"}
    traits:
    - type: service-binding
      properties: {envMappings: {DB_PASSWORD: {secret: db-conn, key: password}, DB_HOST: {secret: db-conn}}}
`, `[{name: api, image: "nginx:1.25", env: [
  {name: DB_HOST, valueFrom: {secretKeyRef: {name: db-conn, key: DB_HOST}}},
  {name: DB_PASSWORD, valueFrom: {secretKeyRef: {name: db-conn, key: password}}}]}]`},
		{"merged with the component's env by name", `  - name: api
    type: worker
    properties: {image: busybox, env: [{name: MODE, value: prod}, {name: DB_HOST, value: localhost}]}
    traits:
    - type: service-binding
      properties: {envMappings: {DB_HOST: {secret: db-conn, key: host}}}
`, `[{name: api, image: busybox, env: [
  {name: MODE, value: prod},
  {name: DB_HOST, value: localhost, valueFrom: {secretKeyRef: {name: db-conn, key: host}}}]}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := renderComponent(t, appHead+tt.comp, cueval.Placement{})
			got, _ := manifest.Lookup(m.Workload.Object, "spec", "template", "spec", "containers")
			if diff := cmp.Diff(yamlObj(t, tt.want), got); diff != "" {
				t.Errorf("containers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPureIngress: the chart's pure-ingress trait (charts/vela-core/
// templates/defwithtemplate/pure-ingress.yaml) outputs one
// networking.k8s.io/v1beta1 Ingress named after the component, whatever
// the cluster's version (its template reads no context.clusterVersion),
// with one path per http entry (sorted, as parameters reach CUE) to the
// Service named after the component; the dispatcher labels it as the
// trait's `ingress` output.
func TestPureIngress(t *testing.T) {
	comp := `  - name: api
    type: webservice
    properties: {image: "nginx:1.25"}
    traits:
    - type: pure-ingress
      properties: {domain: shop.example.com, http: {"/": 80, "/api": 8080}}
`
	want := `{apiVersion: networking.k8s.io/v1beta1, kind: Ingress, metadata: {name: api}, spec: {rules: [{host: shop.example.com, http: {paths: [
  {path: /, backend: {serviceName: api, servicePort: 80}},
  {path: /api, backend: {serviceName: api, servicePort: 8080}}]}}]}}`
	for _, pl := range []cueval.Placement{{}, {ClusterVersion: cueval.ParseClusterVersion("v1.30.2")}} {
		m := renderComponent(t, appHead+comp, pl)
		if len(m.Auxiliaries) != 1 {
			t.Fatalf("%d outputs, want the ingress", len(m.Auxiliaries))
		}
		a := m.Auxiliaries[0]
		obj := manifest.DeepCopy(a.Object).(map[string]any)
		md := obj["metadata"].(map[string]any)
		labels := md["labels"].(map[string]any)
		delete(md, "labels")
		delete(md, "namespace")
		if diff := cmp.Diff(yamlObj(t, want), any(obj)); diff != "" {
			t.Errorf("%s: ingress (-want +got):\n%s", pl.ClusterVersion.GitVersion, diff)
		}
		if a.Trait != "pure-ingress" || a.Output != "ingress" || labels["trait.oam.dev/type"] != "pure-ingress" || labels["trait.oam.dev/resource"] != "ingress" {
			t.Errorf("trait %q output %q labels %v", a.Trait, a.Output, labels)
		}
	}
}
