package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/overrides/kubevela"
	"github.com/drydock-dev/drydock/render"
)

// TestPolicyTypes: the types KubeVela's parser knows without a
// PolicyDefinition (pkg/appfile/parser.go parsePolicies: every case of its
// switch; any other type is rendered from its definition), the ones the
// deploy step applies (multicluster deploy.go: topology, override,
// replication) and those that only steer the live controller.
func TestPolicyTypes(t *testing.T) {
	type kinds struct{ Builtin, AppliedByDeploy, RuntimeOnly bool }
	got := map[string]kinds{}
	for _, typ := range []string{"garbage-collect", "apply-once", "shared-resource", "take-over", "read-only", "resource-update",
		"env-binding", "topology", "replication", "debug", "override", "my-policy", "health"} {
		got[typ] = kinds{Builtin(typ), AppliedByDeploy(typ), RuntimeOnly(typ)}
	}
	runtime := kinds{Builtin: true, RuntimeOnly: true}
	deploy := kinds{Builtin: true, AppliedByDeploy: true}
	want := map[string]kinds{
		// Read by the resource keeper (parseApplicationResourcePolicy).
		"garbage-collect": runtime, "apply-once": runtime, "shared-resource": runtime, "take-over": runtime,
		"read-only": runtime, "resource-update": runtime,
		// env-binding's deploy2env steps are the workflow's
		// (docs/divergences.md, "env-binding"); debug sets af.Debug.
		"env-binding": runtime, "debug": runtime,
		"topology": deploy, "replication": deploy, "override": deploy,
		"my-policy": {}, "health": {},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("policy types (-want +got):\n%s", diff)
	}
}

// TestEnvBindingSpec: KubeVela's Deploy2EnvWorkflowStepGenerator decodes
// an env-binding policy with json.Unmarshal into v1alpha1.EnvBindingSpec,
// one deploy2env step per env; a decoding error fails the generator.
func TestEnvBindingSpec(t *testing.T) {
	app := parseApp(t, `  components: []
  policies:
  - type: env-binding
    properties:
      envs:
      - name: staging
        placement:
          clusterSelector: {name: cluster-a, labels: {env: staging}}
          namespaceSelector: {name: ns}
        selector: {components: [web]}
        patch:
          components:
          - name: web
            type: webservice
            traits: [{type: scaler, disable: true}]
      - name: prod
`)
	var got EnvBindingSpec
	if err := render.DecodeLoose(app.Policies[0].Properties, &got); err != nil {
		t.Fatal(err)
	}
	want := EnvBindingSpec{Envs: []EnvConfig{{
		Name: "staging",
		Placement: EnvPlacement{ClusterSelector: &ClusterSelector{Name: "cluster-a", Labels: map[string]string{"env": "staging"}},
			NamespaceSelector: &NamespaceSelector{Name: "ns"}},
		Selector: &EnvSelector{Components: []string{"web"}},
		Patch:    EnvPatch{Components: []kubevela.EnvComponentPatch{{Name: "web", Type: "webservice", Traits: []kubevela.EnvTraitPatch{{Type: "scaler", Disable: true}}}}},
	}, {Name: "prod"}}}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(kubevela.EnvComponentPatch{})); diff != "" {
		t.Errorf("spec (-want +got):\n%s", diff)
	}

	refusals := []struct {
		name     string
		props    map[string]any
		want     string
		wantPath string
	}{
		{"envs not a list", map[string]any{"envs": map[string]any{"name": "x"}},
			"json: cannot unmarshal object into Go struct field EnvBindingSpec.envs of type []v1alpha1.EnvConfig", "envs"},
		{"env name not a string", map[string]any{"envs": []any{map[string]any{"name": int64(1)}}},
			"json: cannot unmarshal number into Go struct field EnvConfig.envs.name of type string", "envs[0].name"},
		{"namespace selector labels", map[string]any{"envs": []any{map[string]any{"name": "a", "placement": map[string]any{"namespaceSelector": map[string]any{"labels": map[string]any{"a": true}}}}}},
			"json: cannot unmarshal bool into Go struct field NamespaceSelector.envs.placement.namespaceSelector.labels of type string", "envs[0].placement.namespaceSelector.labels.a"},
		{"selector components", map[string]any{"envs": []any{map[string]any{"name": "a", "selector": map[string]any{"components": "web"}}}},
			"json: cannot unmarshal string into Go struct field EnvSelector.envs.selector.components of type []string", "envs[0].selector.components"},
		{"patch components", map[string]any{"envs": []any{map[string]any{"name": "a", "patch": map[string]any{"components": []any{"web"}}}}},
			"json: cannot unmarshal string into Go struct field EnvPatch.envs.patch.components of type v1alpha1.EnvComponentPatch", "envs[0].patch.components[0]"},
		// json.Unmarshal: unknown fields are ignored.
		{"unknown field", map[string]any{"envs": []any{}, "env": "x"}, "", ""},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			err := render.DecodeLoose(tt.props, &EnvBindingSpec{})
			path := ""
			if err != nil {
				path = render.ErrorPath(tt.props, err).String()
			}
			if diff := cmp.Diff(tt.want, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantPath, path); diff != "" {
				t.Errorf("path (-want +got):\n%s", diff)
			}
		})
	}
}
