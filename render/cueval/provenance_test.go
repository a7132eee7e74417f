package cueval_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/cueval"
)

// TestProvenance: with RecordProvenance, each leaf of a rendered object
// names the stage that set it last — the template, a parameter's default,
// the Application's property, the render context, a trait's patch, the
// contract labels — and where that is written.
func TestProvenance(t *testing.T) {
	web := cueDef(t, "web", "component", "", `
	output: {
		apiVersion: "apps/v1"
		kind:       "Deployment"
		metadata: name: context.name
		spec: {
			replicas: parameter.replicas
			template: spec: containers: [{image: parameter.image, name: "main"}]
		}
	}
	parameter: {
		image:    string
		replicas: *2 | int
	}`)
	team := cueDef(t, "team", "trait", "", `
	patch: metadata: labels: team: parameter.name
	parameter: name: string`)
	app := parseApp(t, `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: shop, namespace: default}
spec:
  components:
  - name: api
    type: web
    properties:
      image: nginx:1.27
    traits:
    - type: team
      properties: {name: payments}
`)
	e := cueval.New(withDefs(t, web, team))
	e.RecordProvenance(true)
	m, err := e.RenderComponent(app, &app.Components[0], cueval.Placement{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Workload == nil || m.Workload.Provenance == nil {
		t.Fatalf("no provenance on the workload: %+v", m.Workload)
	}
	prov := m.Workload.Provenance
	type last struct {
		Stage manifest.Stage
		Value any
		File  string
		Line  int
	}
	got := map[string]last{}
	for _, p := range []string{"kind", "metadata.name", "spec.replicas", "spec.template.spec.containers[0].image", "spec.template.spec.containers[0].name", "metadata.labels.team"} {
		o, ok := prov.Last(fieldpath.MustParse(p))
		if !ok {
			t.Errorf("%s has no provenance", p)
			continue
		}
		got[p] = last{o.Stage, o.Value, o.Pos.File, o.Pos.Line}
	}
	want := map[string]last{
		"kind":                                   {manifest.StageTemplate, "Deployment", "web.cue", 10},
		"metadata.name":                          {manifest.StageContext, "api", "web.cue", 11},
		"spec.replicas":                          {manifest.StageDefault, int64(2), "web.cue", 19},
		"spec.template.spec.containers[0].image": {manifest.StageProperty, "nginx:1.27", "app.yaml", 9},
		"spec.template.spec.containers[0].name":  {manifest.StageTemplate, "main", "web.cue", 14},
		"metadata.labels.team":                   {manifest.StageTrait, "payments", "app.yaml", 12},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("last stage per leaf (-want +got):\n%s", d)
	}

	// Off, nothing is recorded.
	e.RecordProvenance(false)
	m, err = e.RenderComponent(app, &app.Components[0], cueval.Placement{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Workload.Provenance != nil {
		t.Errorf("provenance recorded while off: %v", m.Workload.Provenance)
	}
}

// TestProvenanceComprehension: a leaf a template builds in a
// comprehension over a parameter is credited to the property that fed
// it — the key variable to the entry of that key, the value variable to
// the entry holding the value (when two hold it, the one whose key a
// sibling or the leaf's own label names) — and a comprehension over
// something else stays the template's.
func TestProvenanceComprehension(t *testing.T) {
	web := cueDef(t, "web", "component", "", `
	output: {
		apiVersion: "v1"
		kind:       "ConfigMap"
		metadata: annotations: {for k, v in parameter.env {"\(k)": v}}
		data: {
			for i, p in parameter.ports {"port\(i)": "\(p)"}
			for k, v in {fixed: "x"} {"\(k)": v}
		}
		env: [for k, v in parameter.env {name: k, value: v}]
		idx: [for i, p in parameter.ports {i}]
	}
	parameter: {
		env: [string]: string
		ports: [...int]
	}`)
	app := parseApp(t, `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: shop, namespace: default}
spec:
  components:
  - name: api
    type: web
    properties:
      env:
        A: same
        B: same
        C: other
      ports: [80, 443]
`)
	e := cueval.New(withDefs(t, web))
	e.RecordProvenance(true)
	m, err := e.RenderComponent(app, &app.Components[0], cueval.Placement{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range []string{"env[0].name", "env[0].value", "env[1].value", "env[2].value", "metadata.annotations.B", "idx[1]", "data.fixed"} {
		o, ok := m.Workload.Provenance.Last(fieldpath.MustParse(p))
		if !ok {
			t.Errorf("%s has no provenance", p)
			continue
		}
		got[p] = string(o.Stage) + " " + o.Detail
	}
	want := map[string]string{
		"env[0].name":            "property properties.env.A",
		"env[0].value":           "property properties.env.A",
		"env[1].value":           "property properties.env.B",
		"env[2].value":           "property properties.env.C",
		"metadata.annotations.B": "property properties.env.B",
		"idx[1]":                 "property properties.ports[1]",
		"data.fixed":             "template ",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("stage and detail per leaf (-want +got):\n%s", d)
	}
}
