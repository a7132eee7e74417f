package render

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drydock-dev/drydock/manifest"
)

// decodeOne decodes the single object of a YAML document named file.
func decodeOne(t *testing.T, file, doc string) *manifest.Object {
	t.Helper()
	objs, err := manifest.Decode(file, []byte(doc), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 {
		t.Fatalf("%d objects in %s", len(objs), file)
	}
	return objs[0]
}

// errText is err's full message, "" for no error.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return manifest.Format(err, nil)
}

// errPos is where err says it arose (manifest.PosOf), "" for nowhere.
func errPos(err error) string {
	if err == nil {
		return ""
	}
	if p, ok := manifest.PosOf(err); ok {
		return p.String()
	}
	return ""
}

// appHead starts an Application named a.
const appHead = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n"

// ignoreModel leaves out of comparisons what refers back to the authored
// objects (Raw, Object) and the cached hash.
var ignoreModel = cmp.Options{
	cmpopts.IgnoreUnexported(Application{}),
	cmpopts.IgnoreFields(Application{}, "Object"),
	cmpopts.IgnoreFields(Component{}, "Raw"),
	cmpopts.IgnoreFields(Policy{}, "Object"),
	cmpopts.EquateEmpty(),
}

// TestParseApplication: what drydock reads from an Application's spec.
func TestParseApplication(t *testing.T) {
	doc := `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: shop
  labels: {team: a}
  annotations: {note: x}
spec:
  components:
  - name: db
    type: worker
    properties: {image: db, port: 5432}
    outputs:
    - {name: addr, valueFrom: output.status.podIP}
  - name: web
    type: webservice
    dependsOn: [db]
    inputs:
    - {from: addr, parameterKey: env.DB}
    traits:
    - type: scaler
      properties: {replicas: 2}
    - type: expose
  policies:
  - name: where
    type: topology
    properties: {clusters: [local]}
  - type: override
    properties: {components: []}
  - type: garbage-collect
  workflow:
    steps:
    - type: deploy
      properties: {policies: [where]}
      outputs:
      - {name: done, valueFrom: output.ok}
    - name: later
      type: step-group
      if: context.ok
      timeout: 1m
      dependsOn: [step-0]
      subSteps:
      - type: suspend
      - name: notify
        type: notification
        inputs:
        - {from: done, parameterKey: msg}
`
	app, err := ParseApplication(decodeOne(t, "shop.yaml", doc))
	if err != nil {
		t.Fatal(err)
	}
	want := &Application{
		Name: "shop",
		// A namespaced object without a namespace is applied to
		// `default` (kubectl / the API server).
		Namespace:   "default",
		Labels:      map[string]string{"team": "a"},
		Annotations: map[string]string{"note": "x"},
		Components: []Component{{
			Name: "db", Type: "worker", Properties: map[string]any{"image": "db", "port": int64(5432)},
			Outputs: []Output{{Name: "addr", ValueFrom: "output.status.podIP", Path: ref("spec.components[0].outputs[0]")}},
			Path:    ref("spec.components[0]"),
		}, {
			Name: "web", Type: "webservice", DependsOn: []string{"db"},
			Inputs: []Input{{From: "addr", ParameterKey: "env.DB"}},
			Traits: []Trait{
				{Type: "scaler", Properties: map[string]any{"replicas": int64(2)}, Path: ref("spec.components[1].traits[0]")},
				{Type: "expose", Path: ref("spec.components[1].traits[1]")},
			},
			Path: ref("spec.components[1]"),
		}},
		// KubeVela's parser (GenerateAppFileFromApp) names a nameless
		// policy <type>-auto-gen-<index>.
		Policies: []Policy{
			{Name: "where", Type: "topology", Properties: map[string]any{"clusters": []any{"local"}}, Path: ref("spec.policies[0]")},
			{Name: "override-auto-gen-1", Type: "override", Properties: map[string]any{"components": []any{}}, Path: ref("spec.policies[1]")},
			{Name: "garbage-collect-auto-gen-2", Type: "garbage-collect", Path: ref("spec.policies[2]")},
		},
		// KubeVela's mutating webhook (handleWorkflow) names an unnamed
		// step step-<i> and an unnamed sub-step step-<i>-<j>.
		Workflow: []WorkflowStep{{
			Name: "step-0", Type: "deploy", Properties: map[string]any{"policies": []any{"where"}},
			Outputs: []Output{{Name: "done", ValueFrom: "output.ok", Path: ref("spec.workflow.steps[0].outputs[0]")}},
			Path:    ref("spec.workflow.steps[0]"), Unnamed: true,
		}, {
			Name: "later", Type: "step-group", If: "context.ok", Timeout: "1m", DependsOn: []string{"step-0"},
			Path: ref("spec.workflow.steps[1]"),
			SubSteps: []WorkflowStep{
				{Name: "step-1-0", Type: "suspend", Path: ref("spec.workflow.steps[1].subSteps[0]"), Unnamed: true},
				{Name: "notify", Type: "notification", Inputs: []Input{{From: "done", ParameterKey: "msg"}},
					Path: ref("spec.workflow.steps[1].subSteps[1]")},
			},
		}},
		HasWorkflow: true,
	}
	if diff := cmp.Diff(want, app, ignoreModel); diff != "" {
		t.Errorf("application (-want +got):\n%s", diff)
	}
	if app.Object == nil || app.Components[0].Raw["name"] != "db" {
		t.Errorf("the authored object and entries are not kept")
	}
	if c := app.Component("web"); c == nil || !c.Path.Equal(ref("spec.components[1]")) {
		t.Errorf("Component(web) = %+v", c)
	}
	if c := app.Component("nope"); c != nil {
		t.Errorf("Component(nope) = %+v, want nil", c)
	}
}

// TestParseApplicationWorkflow: spec.workflow's ref, mode and steps.
func TestParseApplicationWorkflow(t *testing.T) {
	tests := []struct {
		name, workflow string
		want           *Application
	}{
		{"none", "", &Application{}},
		{"empty steps", "  workflow: {steps: []}\n", &Application{HasWorkflow: true}},
		{"ref", "  workflow: {ref: wf}\n", &Application{WorkflowRef: "wf"}},
		{"mode", "  workflow: {mode: {steps: DAG}, steps: [{name: s, type: suspend}]}\n", &Application{HasWorkflow: true, HasWorkflowMode: true,
			Workflow: []WorkflowStep{{Name: "s", Type: "suspend", Path: ref("spec.workflow.steps[0]")}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app, err := ParseApplication(decodeOne(t, "a.yaml", appHead+"  components: []\n"+tt.workflow))
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Name, tt.want.Namespace = "a", "default"
			if diff := cmp.Diff(tt.want, app, ignoreModel); diff != "" {
				t.Errorf("application (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseApplicationRefusals: what KubeVela's webhooks, its parser and
// the API server refuse, first problem first, located at the field.
func TestParseApplicationRefusals(t *testing.T) {
	tests := []struct{ name, doc, want, wantPos string }{
		// KubeVela's parser, ValidateComponentNames: "duplicated component name %s".
		{"duplicated component name", appHead + "  components:\n  - {name: c, type: worker}\n  - {name: c, type: webservice}\n",
			`a.yaml:7:5: invalid application: application "a": duplicated component name c (first at a.yaml:6:5)`, "a.yaml:7:5"},
		// The webhook's ValidateWorkflow: field.Invalid(spec.workflow.steps, name, "duplicated step name").
		{"duplicated step name", appHead + "  components: []\n  workflow:\n    steps:\n    - {name: s, type: suspend}\n    - {name: s, type: suspend}\n",
			`a.yaml:9:14: invalid application: application "a": spec.workflow.steps: Invalid value: "s": duplicated step name (first at a.yaml:8:14)`, "a.yaml:9:14"},
		// The mutating webhook names an unnamed step before ValidateWorkflow
		// sees it (handleWorkflow): step-0 then collides.
		{"named step takes an unnamed step's name", appHead + "  components: []\n  workflow:\n    steps:\n    - {type: suspend}\n    - {name: step-0, type: suspend}\n",
			`a.yaml:9:14: invalid application: application "a": spec.workflow.steps: Invalid value: "step-0": duplicated step name (first at a.yaml:8:7, an unnamed step KubeVela's mutating webhook gave that name)`, "a.yaml:9:14"},
		{"unnamed step gets a taken name", appHead + "  components: []\n  workflow:\n    steps:\n    - {name: step-1, type: suspend}\n    - {type: suspend}\n",
			`a.yaml:9:7: invalid application: application "a": spec.workflow.steps: Invalid value: "step-1": duplicated step name (first at a.yaml:8:14; KubeVela's mutating webhook gave this unnamed step that name)`, "a.yaml:9:7"},
		// ValidateWorkflow shares one name set between steps and sub-steps
		// (validating_handler_test: "duplicated sub and parent step name").
		{"sub-step takes its group's name", appHead + "  components: []\n  workflow:\n    steps:\n    - name: group\n      type: step-group\n      subSteps: [{name: group, type: suspend}, {name: sub, type: suspend}]\n",
			`a.yaml:10:25: invalid application: application "a": spec.workflow.steps.subSteps: Invalid value: "group": duplicated step name (first at a.yaml:8:13)`, "a.yaml:10:25"},
		{"duplicated sub-step name", appHead + "  components: []\n  workflow:\n    steps:\n    - name: group\n      type: step-group\n      subSteps: [{name: sub, type: suspend}, {name: sub, type: suspend}]\n",
			`a.yaml:10:53: invalid application: application "a": spec.workflow.steps.subSteps: Invalid value: "sub": duplicated step name (first at a.yaml:10:25)`, "a.yaml:10:53"},
		// ValidateTimeout: time.ParseDuration (validating_handler_test:
		// "invalid timeout [error]" with timeout "test").
		{"invalid timeout", appHead + "  components: []\n  workflow:\n    steps:\n    - {name: group, type: suspend, timeout: test}\n",
			`a.yaml:8:45: invalid application: application "a": spec.workflow.steps.timeout: Invalid value: "group": invalid timeout, please use the format of timeout like 1s, 1m, 1h or 1d`, "a.yaml:8:45"},
		// ValidateWorkflow checks a step's timeout before its sub-steps' names.
		{"timeout before sub-step names", appHead + "  components: []\n  workflow:\n    steps:\n    - {name: g, type: step-group, timeout: 1x, subSteps: [{name: g, type: suspend}]}\n",
			`a.yaml:8:44: invalid application: application "a": spec.workflow.steps.timeout: Invalid value: "g": invalid timeout, please use the format of timeout like 1s, 1m, 1h or 1d`, "a.yaml:8:44"},
		// ValidateWorkflow validates step.Timeout for each sub-step, never
		// the sub-step's own.
		{"a sub-step's own timeout is not checked", appHead + "  components: []\n  workflow:\n    steps:\n    - {name: g, type: step-group, subSteps: [{name: s, type: suspend, timeout: never}]}\n",
			"", ""},
		// validating_handler_test: "invalid timeout [allow]" with 1s.
		{"valid timeout", appHead + "  components: []\n  workflow:\n    steps:\n    - {name: group, type: suspend, timeout: 1s}\n", "", ""},
		// ValidateAnnotations.
		{"autoUpdate with publishVersion", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata:\n  name: a\n  annotations:\n    app.oam.dev/autoUpdate: \"true\"\n    app.oam.dev/publishVersion: v1\nspec:\n  components: []\n",
			`a.yaml:6:5: invalid application: application "a": metadata.annotations: Invalid value: Application has both autoUpdate and publishVersion annotations. Only one can be present`, "a.yaml:6:5"},
		{"autoUpdate false with publishVersion", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata:\n  name: a\n  annotations: {app.oam.dev/autoUpdate: \"false\", app.oam.dev/publishVersion: v1}\nspec:\n  components: []\n",
			"", ""},
		// The API server's ValidateObjectMeta: a DNS-1123 subdomain name
		// and a DNS-1123 label namespace.
		{"name not a DNS-1123 subdomain", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: A_b}\nspec:\n  components: []\n",
			`a.yaml:3:18: invalid application: application "A_b": metadata.name: Invalid value: "A_b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`, "a.yaml:3:18"},
		{"namespace not a DNS-1123 label", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a, namespace: Foo}\nspec:\n  components: []\n",
			`a.yaml:3:32: invalid application: application "a": metadata.namespace: Invalid value: "Foo": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`, "a.yaml:3:32"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseApplication(decodeOne(t, "a.yaml", tt.doc))
			if diff := cmp.Diff(tt.want, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantPos, errPos(err)); diff != "" {
				t.Errorf("position (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseWorkflowAndPolicy: the external Workflow and Policy objects an
// Application's workflow refers to; their field paths name the object.
func TestParseWorkflowAndPolicy(t *testing.T) {
	wf, err := ParseWorkflow(decodeOne(t, "wf.yaml", `apiVersion: core.oam.dev/v1alpha1
kind: Workflow
metadata: {name: rollout}
steps:
- name: first
  type: deploy
  properties: {policies: [p]}
- name: g
  type: step-group
  subSteps:
  - {name: inner, type: suspend}
`))
	if err != nil {
		t.Fatal(err)
	}
	wantWF := &Workflow{Name: "rollout", Namespace: "default", Steps: []WorkflowStep{
		{Name: "first", Type: "deploy", Properties: map[string]any{"policies": []any{"p"}}, Path: ext("Workflow", "rollout", "steps[0]")},
		{Name: "g", Type: "step-group", Path: ext("Workflow", "rollout", "steps[1]"), SubSteps: []WorkflowStep{
			{Name: "inner", Type: "suspend", Path: ext("Workflow", "rollout", "steps[1].subSteps[0]")},
		}},
	}}
	if diff := cmp.Diff(wantWF, wf, cmpopts.IgnoreFields(Workflow{}, "Object"), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("workflow (-want +got):\n%s", diff)
	}

	polObj := decodeOne(t, "pol.yaml", "apiVersion: core.oam.dev/v1alpha1\nkind: Policy\nmetadata: {name: p, namespace: prod}\ntype: topology\nproperties:\n  clusters: [local]\n")
	pol, err := ParsePolicy(polObj)
	if err != nil {
		t.Fatal(err)
	}
	wantPol := &Policy{Name: "p", Type: "topology", Properties: map[string]any{"clusters": []any{"local"}}, Path: ext("Policy", "p", ""), Object: polObj}
	if diff := cmp.Diff(wantPol, pol, cmpopts.IgnoreUnexported(manifest.Object{})); diff != "" {
		t.Errorf("policy (-want +got):\n%s", diff)
	}

	// Positions: an external policy's fields are in its own object, an
	// Application's policy's in the Application.
	app, err := ParseApplication(decodeOne(t, "a.yaml", appHead+"  components: []\n  policies:\n  - name: own\n    type: topology\n    properties: {clusters: [x]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	orphan := &Policy{Name: "p", Path: ext("Policy", "p", "")}
	got := []string{
		pol.FieldPos(app, ext("Policy", "p", "properties.clusters")).String(),
		app.Policies[0].FieldPos(app, ref("spec.policies[0].properties.clusters")).String(),
		orphan.FieldPos(app, ext("Policy", "p", "properties")).String(),
	}
	want := []string{"pol.yaml:6:13", "a.yaml:9:28", "a.yaml:1:1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
}

// TestComponentClone: a deploy step patches copies of the components
// (KubeVela's PatchComponents deep-copies them); the Application's stay
// as authored.
func TestComponentClone(t *testing.T) {
	orig := Component{Name: "web", Properties: map[string]any{"env": map[string]any{"A": "1"}},
		Traits: []Trait{{Type: "scaler", Properties: map[string]any{"replicas": int64(1)}}, {Type: "expose"}}}
	c := orig.Clone()
	c.Properties["env"].(map[string]any)["A"] = "2"
	c.Traits[0].Properties["replicas"] = int64(3)
	c.Traits[1].Type = "gateway"
	c.AddOverlay(ref("spec.policies[0].properties.components[0]"))
	d := orig
	d.Overlays = []FieldRef{ref("x")}
	d.AddOverlay(ref("y"))
	e := d
	e.AddOverlay(ref("z"))
	want := Component{Name: "web", Properties: map[string]any{"env": map[string]any{"A": "1"}},
		Traits: []Trait{{Type: "scaler", Properties: map[string]any{"replicas": int64(1)}}, {Type: "expose"}}}
	if diff := cmp.Diff(want, orig); diff != "" {
		t.Errorf("original (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]FieldRef{ref("spec.policies[0].properties.components[0]")}, c.Overlays); diff != "" {
		t.Errorf("clone's overlays (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][]FieldRef{{ref("x"), ref("y")}, {ref("x"), ref("y"), ref("z")}}, [][]FieldRef{d.Overlays, e.Overlays}); diff != "" {
		t.Errorf("AddOverlay shares overlays between copies (-want +got):\n%s", diff)
	}
	if got := (Component{}).Clone(); got.Properties != nil || len(got.Traits) != 0 {
		t.Errorf("Clone of an empty component = %+v", got)
	}
}

// TestDuplicateNamesRelated: a duplicated name's first definition is a
// Related place of the error ("first at"), and an object built in memory,
// without positions, names no place at all.
func TestDuplicateNamesRelated(t *testing.T) {
	const steps = appHead + "  components: []\n  workflow:\n    steps:\n    - {name: s, type: suspend}\n    - {name: s, type: suspend}\n"
	tests := []struct {
		name, doc string
		memory    bool
		want      string
		related   []manifest.Related
	}{
		{"component", appHead + "  components:\n  - {name: c, type: worker}\n  - {name: c, type: webservice}\n", false,
			`a.yaml:7:5: invalid application: application "a": duplicated component name c (first at a.yaml:6:5)`,
			[]manifest.Related{{Pos: manifest.Pos{File: "a.yaml", Line: 6, Col: 5}, What: "first at"}}},
		{"component in memory", appHead + "  components:\n  - {name: c, type: worker}\n  - {name: c, type: webservice}\n", true,
			`invalid application: application "a": duplicated component name c`, nil},
		{"step", steps, false,
			`a.yaml:9:14: invalid application: application "a": spec.workflow.steps: Invalid value: "s": duplicated step name (first at a.yaml:8:14)`,
			[]manifest.Related{{Pos: manifest.Pos{File: "a.yaml", Line: 8, Col: 14}, What: "first at"}}},
		{"step in memory", steps, true,
			`invalid application: application "a": spec.workflow.steps: Invalid value: "s": duplicated step name`, nil},
		{"unnamed step in memory", appHead + "  components: []\n  workflow:\n    steps:\n    - {type: suspend}\n    - {name: step-0, type: suspend}\n", true,
			`invalid application: application "a": spec.workflow.steps: Invalid value: "step-0": duplicated step name (the first is an unnamed step KubeVela's mutating webhook gave that name)`,
			[]manifest.Related{{What: "the first is an unnamed step KubeVela's mutating webhook gave that name"}}},
		{"step renamed in memory", appHead + "  components: []\n  workflow:\n    steps:\n    - {name: step-1, type: suspend}\n    - {type: suspend}\n", true,
			`invalid application: application "a": spec.workflow.steps: Invalid value: "step-1": duplicated step name (KubeVela's mutating webhook gave this unnamed step that name)`,
			[]manifest.Related{{What: "KubeVela's mutating webhook gave this unnamed step that name"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := decodeOne(t, "a.yaml", tt.doc)
			if tt.memory {
				obj = &manifest.Object{Data: obj.Data}
			}
			_, err := ParseApplication(obj)
			if diff := cmp.Diff(tt.want, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			var me *manifest.Error
			if !errors.As(err, &me) {
				t.Fatalf("%v is no manifest.Error", err)
			}
			if diff := cmp.Diff(tt.related, me.Related); diff != "" {
				t.Errorf("related (-want +got):\n%s", diff)
			}
		})
	}
}
