package pipeline

import (
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/builtin"
)

// TestRevisionKey: the key follows the Application's spec and the
// definitions of the types it names, and nothing else.
func TestRevisionKey(t *testing.T) {
	parse := func(image string) *render.Application {
		t.Helper()
		objs, err := manifest.Decode("app.yaml", []byte(`apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: a}
spec:
  components:
    - name: web
      type: webservice
      properties: {image: `+image+`}
      traits: [{type: scaler, properties: {replicas: 2}}]
  policies: [{name: t, type: topology, properties: {clusters: [local]}}]
  workflow:
    steps: [{name: s, type: step-group, subSteps: [{name: d, type: deploy, properties: {policies: [t]}}]}]
`), manifest.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		app, err := render.ParseApplication(objs[0])
		if err != nil {
			t.Fatal(err)
		}
		return app
	}
	defs := builtin.Definitions()
	base := revisionKey(parse("nginx"), defs)
	if again := revisionKey(parse("nginx"), defs); again != base {
		t.Errorf("the same inputs: %s, then %s", base, again)
	}
	if other := revisionKey(parse("httpd"), defs); other == base {
		t.Errorf("another spec: the same key %s", base)
	}
	changed := builtin.Merge(false, []*render.Definition{{Name: "scaler", Kind: render.KindTrait, Template: "patch: {}"}})
	if other := revisionKey(parse("nginx"), changed); other == base {
		t.Errorf("a changed trait definition: the same key %s", base)
	}
	unrelated := builtin.Merge(false, []*render.Definition{{Name: "unused", Kind: render.KindTrait, Template: "patch: {}"}})
	if other := revisionKey(parse("nginx"), unrelated); other != base {
		t.Errorf("an unrelated definition: %s, want %s", other, base)
	}
}
