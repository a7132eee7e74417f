package cueval_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render/cueval"
)

// TestPostDispatch: traits of the PostDispatch stage (the built-in
// expose) are left out of a component's render until it is healthy
// (KubeVela's generator: "not including PostDispatch type traits in the
// workload if the component service is not healthy"), then rendered on
// their own. The Service of the corpus's ex-advanced-cue-app2 carries
// the app's name and namespace labels but no resourceType: it does not
// go through SetOAMContract.
func TestPostDispatch(t *testing.T) {
	const doc = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: testapp}\nspec:\n  components:\n  - name: express-server\n    type: webservice\n" +
		"    properties: {cmd: [node, server.js], image: \"oamdev/testapp:v1\", port: 8080}\n" +
		"    traits: [{type: expose, properties: {http: {myservice1: 8080, myservice2: 8081}}}, {type: scaler, properties: {replicas: 2}}]\n"
	app := parseApp(t, doc)
	e := cueval.New(withDefs(t))
	comp := &app.Components[0]
	if !e.HasPostDispatch(comp) {
		t.Fatal("HasPostDispatch is false for a component with expose")
	}
	m, err := e.RenderComponent(app, comp, cueval.Placement{})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, r := range m.Objects() {
		types = append(types, r.Trait)
	}
	if diff := cmp.Diff([]string{""}, types); diff != "" {
		t.Errorf("dispatched before the workload is healthy (-want +got):\n%s", diff)
	}
	if got := m.Workload.Object["spec"].(map[string]any)["replicas"]; got != int64(2) {
		t.Errorf("replicas %v, want 2 (the scaler is not PostDispatch)", got)
	}
	rs, err := e.RenderPostDispatch(app, comp, cueval.Placement{})
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	for _, r := range rs {
		got = append(got, masked(t, comp.Name, r, false))
	}
	want := []map[string]any{obj(t, `
apiVersion: v1
kind: Service
metadata:
  annotations: {}
  labels:
    app.oam.dev/app-revision-hash: <hash>
    app.oam.dev/appRevision: testapp-v1
    app.oam.dev/cluster: ""
    app.oam.dev/component: express-server
    app.oam.dev/name: testapp
    app.oam.dev/namespace: default
    app.oam.dev/revision: ""
    trait.oam.dev/resource: service
    trait.oam.dev/type: expose
  name: express-server
  namespace: default
spec:
  selector:
    app.oam.dev/component: express-server
  type: ClusterIP
`)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PostDispatch objects (-want +got):\n%s", diff)
	}
	if e.HasPostDispatch(&parseApp(t, appWith("webservice", "{image: x}", "[{type: scaler}]")).Components[0]) {
		t.Error("HasPostDispatch is true without a PostDispatch trait")
	}
}

// TestDuplicateOutputs: two dispatch-stage traits outputting one name is
// what KubeVela's validating webhook refuses (ValidateCUESchematicAppfile:
// "outputs item name must be unique") and its controller renders (the
// corpus's ex-advanced-cue-mysql-pvc: both pvc claims): a warning, both
// objects.
func TestDuplicateOutputs(t *testing.T) {
	const doc = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n  - name: web\n    type: webservice\n    properties: {image: nginx}\n" +
		"    traits: [{type: hpa, properties: {max: 5}}, {type: hpa, properties: {max: 8}}]\n"
	m, err := renderFirst(t, withDefs(t), parseApp(t, doc), cueval.Placement{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`app.yaml:9:49: application "a" component "web" trait "hpa": spec.components[0].traits[1]: KubeVela's validating webhook refuses this Application: cannot evaluate trait "hpa": cannot append auxiliaries into context: outputs item name must be unique: auxiliary "hpa" already exits (its controller renders it, as drydock does)`}
	if diff := cmp.Diff(want, m.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if len(m.Auxiliaries) != 2 {
		t.Errorf("%d auxiliaries, want 2", len(m.Auxiliaries))
	}
}
