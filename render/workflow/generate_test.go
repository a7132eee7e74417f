package workflow

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// step is a generated step as KubeVela's generator tests write it.
type step struct {
	Name, Type string
	Properties map[string]any
	DependsOn  []string
}

// TestGenerateSteps is KubeVela's TestWorkflowStepGenerator and
// TestApplyComponentWorkflowStepGeneratorWithDependsOn
// (pkg/workflow/step/generator_test.go), row by row, for the generators
// after the ref one: existing steps are kept; one deploy per topology
// with every override first; a deploy for ref-objects alone; deploy2env
// per env of an env-binding policy; else an apply-component step per
// component with its dependsOn.
func TestGenerateSteps(t *testing.T) {
	tests := []struct {
		name, spec string
		want       []step
		wantErr    string
	}{
		{name: "apply-component-with-existing-steps",
			spec: "  components: [{name: example-comp-1, type: webservice}, {name: example-comp-2, type: webservice}]\n  workflow:\n    steps: [{name: example-comp-1, type: apply-component, properties: {component: example-comp-1}}]",
			want: []step{{Name: "example-comp-1", Type: "apply-component", Properties: map[string]any{"component": "example-comp-1"}}}},
		{name: "apply-component-with-no-steps",
			spec: "  components: [{name: example-comp-1, type: webservice}, {name: example-comp-2, type: webservice}]",
			want: []step{{Name: "example-comp-1", Type: "apply-component", Properties: map[string]any{"component": "example-comp-1"}},
				{Name: "example-comp-2", Type: "apply-component", Properties: map[string]any{"component": "example-comp-2"}}}},
		{name: "env-binding-bad",
			spec:    "  components: [{name: example-comp-1, type: webservice}]\n  policies: [{name: example-policy, type: env-binding, properties: {envs: bad}}]",
			wantErr: `app.yaml:6:75: invalid application: application "a": policy "example-policy": spec.policies[0].properties.envs: failed to parseWorkflowSteps: generate step failed in WorkflowStepGenerator : json: cannot unmarshal string into Go struct field EnvBindingSpec.envs of type []v1alpha1.EnvConfig`},
		{name: "env-binding-correct",
			spec: "  components: [{name: example-comp-1, type: webservice}]\n  policies: [{name: example-policy, type: env-binding, properties: {envs: [{name: env-1}, {name: env-2}]}}]",
			want: []step{{Name: "deploy-example-policy-env-1", Type: "deploy2env", Properties: map[string]any{"env": "env-1", "policy": "example-policy"}},
				{Name: "deploy-example-policy-env-2", Type: "deploy2env", Properties: map[string]any{"env": "env-2", "policy": "example-policy"}}}},
		{name: "deploy-workflow",
			spec: "  components: [{name: example-comp-1, type: webservice}]\n  policies:\n  - {name: example-topology-policy-1, type: topology}\n  - {name: example-topology-policy-2, type: topology}\n  - {name: example-override-policy-1, type: override}\n  - {name: example-override-policy-2, type: override}",
			want: []step{
				{Name: "deploy-example-topology-policy-1", Type: "deploy", Properties: map[string]any{"policies": []any{"example-override-policy-1", "example-override-policy-2", "example-topology-policy-1"}}},
				{Name: "deploy-example-topology-policy-2", Type: "deploy", Properties: map[string]any{"policies": []any{"example-override-policy-1", "example-override-policy-2", "example-topology-policy-2"}}},
			}},
		{name: "deploy-with-ref-without-po-workflow",
			spec: "  components: [{name: example-comp, type: ref-objects}]",
			want: []step{{Name: "deploy", Type: "deploy", Properties: map[string]any{"policies": []any(nil)}}}},
		{name: "component-with-single-dependency",
			spec: "  components: [{name: database, type: webservice}, {name: backend, type: webservice, dependsOn: [database]}]",
			want: []step{{Name: "database", Type: "apply-component", Properties: map[string]any{"component": "database"}},
				{Name: "backend", Type: "apply-component", Properties: map[string]any{"component": "backend"}, DependsOn: []string{"database"}}}},
		{name: "component-with-chained-dependencies",
			spec: "  components: [{name: database, type: webservice}, {name: backend, type: webservice, dependsOn: [database]}, {name: frontend, type: webservice, dependsOn: [backend]}]",
			want: []step{{Name: "database", Type: "apply-component", Properties: map[string]any{"component": "database"}},
				{Name: "backend", Type: "apply-component", Properties: map[string]any{"component": "backend"}, DependsOn: []string{"database"}},
				{Name: "frontend", Type: "apply-component", Properties: map[string]any{"component": "frontend"}, DependsOn: []string{"backend"}}}},
		// kubevela/workflow runs a step once the variables its inputs
		// read exist: the generated step waits for their producer.
		{name: "inputs wait for their producer",
			spec: "  components: [{name: web, type: webservice, inputs: [{from: db-host.ip, parameterKey: env}]}, {name: db, type: webservice, outputs: [{name: db-host, valueFrom: output}]}]",
			want: []step{{Name: "web", Type: "apply-component", Properties: map[string]any{"component": "web"}, DependsOn: []string{"db"}},
				{Name: "db", Type: "apply-component", Properties: map[string]any{"component": "db"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := manifest.Decode("app.yaml", []byte(app(tt.spec)), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			a, err := render.ParseApplication(objs[0])
			if err != nil {
				t.Fatal(err)
			}
			w := &workflowRun{app: a, res: &AppResult{App: a}}
			steps, err := w.generateSteps(a.Workflow)
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			var got []step
			for _, s := range steps {
				got = append(got, step{Name: s.Name, Type: s.Type, Properties: s.Properties, DependsOn: s.DependsOn})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("steps (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWorkflowErrors: what the emulation refuses while the workflow
// runs. KubeVela generates deploy2env steps for env-binding policies
// (Deploy2EnvWorkflowStepGenerator), run from the built-in definition:
// an env without a placement fails as KubeVela's provider fails
// (pkg/workflow/providers/legacy/multicluster). An error inside a deploy names the step and its override
// policies.
func TestWorkflowErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"env-binding", app("  components: [{name: web, type: webservice, properties: {image: nginx}}]\n  policies: [{name: eb, type: env-binding, properties: {envs: [{name: staging}]}}]"),
			`app.yaml:6:31: application "a": step "deploy-eb-staging": WorkflowStepDefinition "deploy2env": function call error for app.prepare.placementDecisions: empty placement for policy eb in env staging`},
		// The property an override wrote is located in the policy.
		{"deploy names its overrides", app(`  components: [{name: web, type: webservice, properties: {image: nginx}}]
  policies:
  - {name: o, type: override, properties: {components: [{name: web, properties: {image: 5}}]}}
  - {name: t, type: topology, properties: {clusters: [m1]}}`),
			`app.yaml:7:89: application "a" component "web": output.spec.template.spec.containers.0.image: conflicting values 5 and string (mismatched types int and string); parameter.image: conflicting values 5 and string (mismatched types int and string) (template builtin/webservice.cue:69:14) (deploy step "deploy-t", override policies o)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := renderResult(t, tt.doc)
			if diff := cmp.Diff(tt.want, errText(t, err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPolicyWrites: outputs of a policy defined by a PolicyDefinition go
// to the hub before the workflow runs (the corpus's dryrun-testing-4);
// built-in policies render nothing.
func TestPolicyWrites(t *testing.T) {
	const def = `apiVersion: core.oam.dev/v1beta1
kind: PolicyDefinition
metadata: {name: mypolicy}
spec:
  schematic:
    cue:
      template: |
        output: {apiVersion: "testing/v1", kind: "Policy", policy: name: parameter.name}
        parameter: name: string
---
`
	res, err := renderResult(t, def+app(`  components: [{name: testing-dryrun, type: webservice, properties: {image: "oamdev/hello-world:v1"}}]
  policies:
  - {name: mypolicy, type: mypolicy, properties: {name: my-policy}}
  - {name: gc, type: garbage-collect, properties: {keepLegacyResource: true}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []written{{At: "local/default/Policy/mypolicy", Policies: "mypolicy"}, {At: "local/default/Deployment/testing-dryrun", Step: "testing-dryrun"}}
	if diff := cmp.Diff(want, writes(res)); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	_, err = renderResult(t, app("  components: []\n  policies: [{name: p, type: nodef, properties: {}}]"))
	if diff := cmp.Diff(`app.yaml:6:30: application "a": policy "p": unknown type: no PolicyDefinition "nodef"`, errText(t, err)); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
}
