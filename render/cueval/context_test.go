package cueval_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render/cueval"
)

// contextTemplate outputs a ConfigMap showing the `context` fields a
// component's template sees.
const contextTemplate = `output: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	data: {
		name:           context.name
		namespace:      context.namespace
		appName:        context.appName
		appRevision:    context.appRevision
		appRevisionNum: "\(context.appRevisionNum)"
		workflowName:   context.workflowName
		publishVersion: context.publishVersion
		cluster:        context.cluster
		replicaKey:     context.replicaKey
		major:          context.clusterVersion.major
		minor:          "\(context.clusterVersion.minor)"
		gitVersion:     context.clusterVersion.gitVersion
		appLabels:      "\(len(context.appLabels))"
		appAnnotations: "\(len(context.appAnnotations))"
		components:     strings.Join([for c in context.components {c.name + ":" + c.type}], ",")
	}
}`

// TestContext checks the `context` a component template sees: KubeVela's
// TestContext, TestParseClusterVersion and
// TestNewContextNilLabelsAndAnnotations (pkg/cue/process/handle_test.go),
// GenerateContextDataFromAppFile (pkg/appfile/appfile.go: workflowName
// and publishVersion from the app's annotations), and the generator's
// ContextData (pkg/controller/.../application/generator.go: the
// placement's namespace and replicaKey, cluster "local" without one, the
// cluster's version). The mapping of a cluster's gitVersion to
// context.clusterVersion, and an unknown version's zero values, are the
// conformance corpus's (README, clusters.yaml).
func TestContext(t *testing.T) {
	const app = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata:\n  name: myapp\n  namespace: myns\n  annotations: {app.oam.dev/workflowName: myworkflow, app.oam.dev/publishVersion: mypublishversion}\n" +
		"spec:\n  components:\n  - {name: mycomp, type: ctx}\n  - {name: other, type: webservice, properties: {image: nginx}}\n"
	const bare = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: myapp}\nspec:\n  components: [{name: mycomp, type: ctx}]\n"
	tests := []struct {
		name, doc string
		pl        cueval.Placement
		want      map[string]any
	}{
		{"TestContext", app, cueval.Placement{}, map[string]any{"name": "mycomp", "namespace": "myns", "appName": "myapp", "appRevision": "myapp-v1", "appRevisionNum": "1",
			"workflowName": "myworkflow", "publishVersion": "mypublishversion", "cluster": "local", "replicaKey": "", "major": "", "minor": "0", "gitVersion": "",
			"appLabels": "0", "appAnnotations": "2", "components": "mycomp:ctx,other:webservice"}},
		{"placement", bare, cueval.Placement{Cluster: "m1", Namespace: "prod", ReplicaKey: "beijing", ClusterVersion: cueval.ParseClusterVersion("v1.29.4")},
			map[string]any{"name": "mycomp", "namespace": "prod", "appName": "myapp", "appRevision": "myapp-v1", "appRevisionNum": "1",
				"workflowName": "", "publishVersion": "", "cluster": "m1", "replicaKey": "beijing", "major": "1", "minor": "29", "gitVersion": "v1.29.4",
				"appLabels": "0", "appAnnotations": "0", "components": "mycomp:ctx"}},
		{"TestParseClusterVersion 18+", bare, cueval.Placement{ClusterVersion: cueval.ClusterVersion{Minor: "18+"}},
			map[string]any{"name": "mycomp", "namespace": "default", "appName": "myapp", "appRevision": "myapp-v1", "appRevisionNum": "1",
				"workflowName": "", "publishVersion": "", "cluster": "local", "replicaKey": "", "major": "", "minor": "18", "gitVersion": "",
				"appLabels": "0", "appAnnotations": "0", "components": "mycomp:ctx"}},
		{"TestParseClusterVersion 22-", strings.Replace(bare, "{name: myapp}", "{name: myapp, labels: {team: a}}", 1), cueval.Placement{ClusterVersion: cueval.ClusterVersion{Minor: "22-"}},
			map[string]any{"name": "mycomp", "namespace": "default", "appName": "myapp", "appRevision": "myapp-v1", "appRevisionNum": "1",
				"workflowName": "", "publishVersion": "", "cluster": "local", "replicaKey": "", "major": "", "minor": "22", "gitVersion": "",
				"appLabels": "1", "appAnnotations": "0", "components": "mycomp:ctx"}},
	}
	def := cueDef(t, "ctx", "component", "", contextTemplate)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := renderFirst(t, withDefs(t, def), parseApp(t, tt.doc), tt.pl)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, m.Workload.Object["data"]); diff != "" {
				t.Errorf("context (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTraitContext: traits see context.componentType, which KubeVela
// pushes after the workload is evaluated (baseGenerateComponent), and
// context.output and context.outputs as the workload and outputs stand
// after the earlier traits (the trait's BaseContextFile).
func TestTraitContext(t *testing.T) {
	const doc = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: myapp}\nspec:\n  components:\n  - name: test\n    type: webservice\n    properties: {image: nginx}\n" +
		"    traits:\n    - {type: scaler, properties: {replicas: 3}}\n    - {type: show}\n    - {type: show2}\n"
	show := cueDef(t, "show", "trait", "", `outputs: seen: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	metadata: name: "seen"
	data: {
		componentType: context.componentType
		replicas:      "\(context.output.spec.replicas)"
		image:         context.output.spec.template.spec.containers[0].image
	}
}`)
	show2 := cueDef(t, "show2", "trait", "", `outputs: seen2: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	metadata: name: "seen2"
	data: earlier: context.outputs.seen.data.replicas
}`)
	m, err := renderFirst(t, withDefs(t, show, show2), parseApp(t, doc), cueval.Placement{})
	if err != nil {
		t.Fatal(err)
	}
	var got []any
	for _, a := range m.Auxiliaries {
		got = append(got, a.Object["data"])
	}
	want := []any{map[string]any{"componentType": "webservice", "replicas": "3", "image": "nginx"}, map[string]any{"earlier": "3"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

// TestParameters: KubeVela compiles the template, then `parameter:` with
// the properties as JSON (json.Marshal: keys sorted, whole numbers
// without a fraction), in one file (workloadDef.Complete in
// pkg/cue/definition/template.go). So a struct's fields come in the
// order the template declares them, the others sorted after them, and a
// whole number written 2.0 in YAML is an int.
func TestParameters(t *testing.T) {
	tests := []struct {
		name, tmpl, props string
		want              map[string]any
		wantErr           string
	}{
		{"declared order", "parameter: {zeta: string, alpha: string, mid: string}\noutput: {apiVersion: \"v1\", kind: \"ConfigMap\", data: keys: strings.Join([for k, _ in parameter {k}], \",\")}",
			"{alpha: a, mid: m, zeta: z}", map[string]any{"keys": "zeta,alpha,mid"}, ""},
		{"undeclared fields sorted", "parameter: [string]: string\noutput: {apiVersion: \"v1\", kind: \"ConfigMap\", data: keys: strings.Join([for k, _ in parameter {k}], \",\")}",
			"{z: \"1\", a: \"2\", m: \"3\"}", map[string]any{"keys": "a,m,z"}, ""},
		{"declared then undeclared", "parameter: {b: string, ...}\noutput: {apiVersion: \"v1\", kind: \"ConfigMap\", data: keys: strings.Join([for k, _ in parameter {k}], \",\")}",
			"{a: \"1\", c: \"2\", b: \"3\"}", map[string]any{"keys": "b,a,c"}, ""},
		{"nested struct in a list", "parameter: env: [...{value: string, name: string}]\noutput: {apiVersion: \"v1\", kind: \"ConfigMap\", data: keys: strings.Join([for k, _ in parameter.env[0] {k}], \",\")}",
			"{env: [{name: a, value: b}]}", map[string]any{"keys": "value,name"}, ""},
		{"whole float is an int", "parameter: replicas: int\noutput: {apiVersion: \"v1\", kind: \"ConfigMap\", data: r: \"\\(parameter.replicas)\"}",
			"{replicas: 2.0}", map[string]any{"r": "2"}, ""},
		{"fraction is not an int", "parameter: replicas: int\noutput: {apiVersion: \"v1\", kind: \"ConfigMap\", data: r: \"\\(parameter.replicas)\"}",
			"{replicas: 2.5}", nil, `app.yaml:8:28: application "myapp" component "test": parameter.replicas: conflicting values int and 2.5 (mismatched types int and float); parameter.replicas: invalid interpolation: conflicting values int and 2.5 (mismatched types int and float) (template w.cue:7:22)`},
		{"null property", "parameter: {x: *\"d\" | string | null}\noutput: {apiVersion: \"v1\", kind: \"ConfigMap\", data: isNull: \"\\(parameter.x == null)\"}",
			"{x: null}", map[string]any{"isNull": "true"}, ""},
		{"bool property", "parameter: {on: bool}\noutput: {apiVersion: \"v1\", kind: \"ConfigMap\", data: on: \"\\(parameter.on)\"}",
			"{\"on\": true}", map[string]any{"on": "true"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := renderFirst(t, withDefs(t, cueDef(t, "w", "component", "", tt.tmpl)), parseApp(t, appWith("w", tt.props, "")), cueval.Placement{})
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.want, m.Workload.Object["data"]); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// TestUserErrors: a template's `errs`, for components and traits alike
// (workloadDef.Complete and traitDef.Complete in pkg/cue/definition/
// template.go): a non-empty list of strings fails the render with every
// message; an empty list passes; an `errs` that does not decode as a list
// of strings is only logged (klog.Warningf), so the render goes on.
func TestUserErrors(t *testing.T) {
	const output = "output: {apiVersion: \"v1\", kind: \"ConfigMap\"}\n"
	tests := []struct {
		name, errs, props, traitErrs, wantErr string
	}{
		{name: "if guard true", errs: "errs: [if parameter.replicas < 1 {\"replicas must be at least 1\"}]", props: "{replicas: 0, names: []}",
			wantErr: `app.yaml:6:5: application "myapp" component "test": validation failed for workload test: User Errors: replicas must be at least 1`},
		{name: "if guard false", errs: "errs: [if parameter.replicas < 1 {\"replicas must be at least 1\"}]", props: "{replicas: 1, names: []}"},
		{name: "comprehension", errs: "errs: [for i, n in parameter.names if n == \"\" {\"names[\\(i)] is empty\"}]", props: "{replicas: 1, names: [a, \"\", b, \"\"]}",
			wantErr: `app.yaml:6:5: application "myapp" component "test": validation failed for workload test: User Errors: names[1] is empty; names[3] is empty`},
		{name: "comprehension without errors", errs: "errs: [for i, n in parameter.names if n == \"\" {\"names[\\(i)] is empty\"}]", props: "{replicas: 1, names: [a]}"},
		{name: "not a list of strings is ignored", errs: "errs: {bad: \"x\"}", props: "{replicas: 0, names: []}"},
		{name: "list of numbers is ignored", errs: "errs: [1, 2]", props: "{replicas: 0, names: []}"},
		{name: "trait errs", errs: "errs: []", props: "{replicas: 1, names: []}", traitErrs: "errs: [\"one\", \"two\"]",
			wantErr: `app.yaml:9:14: application "myapp" component "test" trait "t": validation failed for trait t: User Errors: one; two`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defs := withDefs(t, cueDef(t, "w", "component", "", output+tt.errs+"\nparameter: {replicas: int, names: [...string]}"),
				cueDef(t, "t", "trait", "", tt.traitErrs))
			traits := ""
			if tt.traitErrs != "" {
				traits = "[{type: t}]"
			}
			_, err := renderFirst(t, defs, parseApp(t, appWith("w", tt.props, traits)), cueval.Placement{})
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWorkflowContext: the process context KubeVela's controller gives
// workflow steps (generateContextDataFromApp): the Application's name,
// no component or cluster, the hub's version.
func TestWorkflowContext(t *testing.T) {
	app := parseApp(t, "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata:\n  name: shop\n  namespace: prod\n"+
		"  labels: {team: a}\n  annotations: {app.oam.dev/publishVersion: v3}\nspec:\n  components: []\n")
	got := cueval.WorkflowContext(app, cueval.ParseClusterVersion("v1.29.4"))
	want := map[string]any{
		"name": "shop", "namespace": "prod", "workflowName": "", "publishVersion": "v3", "appName": "shop",
		"appRevision": "shop-v1", "appRevisionNum": int64(1), "revision": "", "components": nil,
		"appLabels": map[string]any{"team": "a"}, "appAnnotations": map[string]any{"app.oam.dev/publishVersion": "v3"},
		"replicaKey": "", "cluster": "",
		"clusterVersion": map[string]any{"major": "1", "minor": int64(29), "gitVersion": "v1.29.4", "platform": ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("context (-want +got):\n%s", diff)
	}
}
