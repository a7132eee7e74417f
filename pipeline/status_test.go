package pipeline

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/workflow"
)

// TestStatuses: each component's status in each cluster it went to, from
// the live object when the cluster has one, its traits' from their own
// outputs.
func TestStatuses(t *testing.T) {
	objs, err := manifest.Decode("app.yaml", []byte(`apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: a, namespace: default}
spec:
  components:
    - name: web
      type: svc
      traits: [{type: gate}, {type: plain}]
    - name: other
      type: unknown
`), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	app, err := render.ParseApplication(objs[0])
	if err != nil {
		t.Fatal(err)
	}
	defs := render.NewDefinitions()
	defs.Add(&render.Definition{Name: "svc", Kind: render.KindComponent, Status: render.StatusSpec{
		HealthPolicy: "isHealth: context.output.status.ready == true",
		CustomStatus: `message: "aux \(len(context.outputs))"`}})
	defs.Add(&render.Definition{Name: "gate", Kind: render.KindTrait, Status: render.StatusSpec{CustomStatus: `message: "gate \(len(context.outputs))"`}})
	defs.Add(&render.Definition{Name: "plain", Kind: render.KindTrait})
	obj := func(kind string, ready bool) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"name": "web", "namespace": "default"}, "status": map[string]any{"ready": ready}}
	}
	res := func(kind, trait, output string) *cueval.Resource {
		return &cueval.Resource{Object: obj(kind, false), Component: "web", Trait: trait, Output: output}
	}
	r := &workflow.AppResult{App: app, Writes: []workflow.Write{
		{Cluster: "west", Resource: res("Deployment", "", "")},
		{Cluster: "west", Resource: res("Service", cueval.AuxiliaryWorkload, "svc")},
		{Cluster: "west", Resource: res("Ingress", "gate", "ing")},
		{Cluster: "east", Resource: res("Deployment", "", "")},
		{Cluster: "east", Resource: &cueval.Resource{Object: obj("ConfigMap", false), Policy: "p"}},
		{Cluster: "east", Resource: &cueval.Resource{Object: obj("ConfigMap", false), Component: "gone"}},
	}}
	observed := cluster.NewStore()
	if err := observed.Apply("east", cluster.Entry{Object: manifest.New(obj("Deployment", true))}); err != nil {
		t.Fatal(err)
	}
	type summary struct {
		Component, Cluster, Message string
		Healthy                     bool
		Traits                      []string
	}
	var got []summary
	for _, cs := range statuses(defs, r, observed) {
		s := summary{Component: cs.Component, Cluster: cs.Cluster, Message: cs.Message, Healthy: cs.Healthy}
		for _, ts := range cs.Traits {
			s.Traits = append(s.Traits, ts.Type+": "+ts.Message)
		}
		got = append(got, s)
	}
	want := []summary{
		{Component: "web", Cluster: "east", Message: "aux 0", Healthy: true, Traits: []string{"gate: gate 0"}},
		{Component: "web", Cluster: "west", Message: "aux 2", Healthy: false, Traits: []string{"gate: gate 1"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}
