package workflow

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// written is one write of a workflow, as the tests compare it: where the
// object goes, which step wrote it under which policies, and its
// spec.replicas or data (when it has them).
type written struct {
	At       string // cluster/namespace/Kind/name
	Step     string
	Policies string
	Replicas any
	Data     any
}

// writes summarizes a result's writes in order.
func writes(res *AppResult) []written {
	var out []written
	for _, w := range res.Writes {
		o := w.Resource.Object
		ns := manifest.String(o, "metadata", "namespace")
		if ns == "" {
			ns = "_cluster"
		}
		r, _ := manifest.Lookup(o, "spec", "replicas")
		out = append(out, written{
			At:   fmt.Sprintf("%s/%s/%s/%s", w.Cluster, ns, manifest.String(o, "kind"), manifest.String(o, "metadata", "name")),
			Step: w.Step, Policies: strings.Join(w.Policies, ","), Replicas: r, Data: o["data"],
		})
	}
	return out
}

// cmDef is a ComponentDefinition cm: a ConfigMap named after the
// component and its replicaKey (when it has one), whose data are the
// properties' `data`.
const cmDef = `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: cm}
spec:
  workload: {type: autodetects.core.oam.dev}
  schematic:
    cue:
      template: |
        output: {
          apiVersion: "v1"
          kind:       "ConfigMap"
          metadata: name: context.name + {if context.replicaKey != "" {"-" + context.replicaKey}, if context.replicaKey == "" {""}}
          data: parameter.data
        }
        parameter: data: [string]: string
---
`

// app is an Application a with the given spec (indented under spec:).
func app(spec string) string {
	return "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n" + strings.TrimRight(spec, "\n") + "\n"
}

// TestDeploy runs deploy steps: placements from topology policies,
// components patched by override policies and copied by replication
// policies (pkg/workflow/providers/multicluster/deploy.go,
// pkg/policy/topology.go, pkg/policy/override.go,
// pkg/policy/replication.go).
func TestDeploy(t *testing.T) {
	const webScaler = "  components:\n  - name: express-server\n    type: webservice\n    properties: {image: oamdev/hello-world, ports: [{port: 8000, expose: true}]}\n    traits: [{type: scaler, properties: {replicas: 1}}]\n"
	tests := []struct {
		name, doc string
		want      []written
	}{
		// The corpus's first-vela-app: two topologies into two
		// namespaces of the hub, the second deploy with an override
		// (replicas 2); the suspend between them counts as resumed.
		{"first-vela-app", app(webScaler + `  policies:
  - {name: target-default, type: topology, properties: {clusters: [local], namespace: default}}
  - {name: target-prod, type: topology, properties: {clusters: [local], namespace: prod}}
  - {name: deploy-ha, type: override, properties: {components: [{type: webservice, traits: [{type: scaler, properties: {replicas: 2}}]}]}}
  workflow:
    steps:
    - {name: deploy2default, type: deploy, properties: {policies: [target-default]}}
    - {name: manual-approval, type: suspend}
    - {name: deploy2prod, type: deploy, properties: {policies: [target-prod, deploy-ha]}}`),
			[]written{
				{At: "local/default/Deployment/express-server", Step: "deploy2default", Policies: "target-default", Replicas: int64(1)},
				{At: "local/default/Service/express-server", Step: "deploy2default", Policies: "target-default"},
				{At: "local/prod/Deployment/express-server", Step: "deploy2prod", Policies: "target-prod,deploy-ha", Replicas: int64(2)},
				{At: "local/prod/Service/express-server", Step: "deploy2prod", Policies: "target-prod,deploy-ha"},
			}},
		// The corpus's mc-anonymous-policies: nameless policies are named
		// <type>-auto-gen-<index>; the generated deploy step takes the
		// overrides, then its topology (DeployWorkflowStepGenerator); an
		// override trait the component lacks is added.
		{"mc-anonymous-policies", app(`  components: [{type: webservice, name: test, properties: {image: nginx}}]
  policies:
  - {type: topology, properties: {clusters: [m1]}}
  - {type: override, properties: {components: [{traits: [{type: scaler, properties: {replicas: 0}}]}]}}`),
			[]written{{At: "m1/default/Deployment/test", Step: "deploy-topology-auto-gen-0", Policies: "override-auto-gen-1,topology-auto-gen-0", Replicas: int64(0)}}},
		// The corpus's dryrun-testing-2: an override policy alone makes
		// one deploy step to the hub.
		{"dryrun-testing-2", app(webScaler + "  policies:\n  - {name: deploy-ha, type: override, properties: {components: [{type: webservice, traits: [{type: scaler, properties: {replicas: 3}}]}]}}"),
			[]written{
				{At: "local/default/Deployment/express-server", Step: "deploy", Policies: "deploy-ha", Replicas: int64(3)},
				{At: "local/default/Service/express-server", Step: "deploy", Policies: "deploy-ha"},
			}},
		// KubeVela's TestOverrideConfiguration "normal": a named patch
		// merges into the component's properties.
		{"override properties", cmDef + app(`  components: [{name: comp, type: cm, properties: {data: {x: "1", z: "2"}}}]
  policies:
  - {name: t, type: topology, properties: {clusterLabelSelector: {region: east}}}
  - {name: o, type: override, properties: {components: [{name: comp, properties: {data: {x: "5"}}}]}}`),
			[]written{{At: "m1/default/ConfigMap/comp", Step: "deploy-t", Policies: "o,t", Data: map[string]any{"x": "5", "z": "2"}}}},
		// ReplicateComponents: the selected components are copied once
		// per key, after the others, each rendered with its
		// context.replicaKey.
		{"replication", cmDef + app(`  components:
  - {name: web, type: cm, properties: {data: {k: v}}}
  - {name: db, type: cm, properties: {data: {k: v}}}
  policies:
  - {name: t, type: topology, properties: {clusters: [m1]}}
  - {name: r, type: replication, properties: {keys: [beijing, shanghai], selector: [web]}}
  workflow:
    steps: [{name: d, type: deploy, properties: {policies: [t, r]}}]`),
			[]written{
				{At: "m1/default/ConfigMap/db", Step: "d", Policies: "t,r", Data: map[string]any{"k": "v"}},
				{At: "m1/default/ConfigMap/web-beijing", Step: "d", Policies: "t,r", Data: map[string]any{"k": "v"}},
				{At: "m1/default/ConfigMap/web-shanghai", Step: "d", Policies: "t,r", Data: map[string]any{"k": "v"}},
			}},
		// TestApplyComponentsDepends: a component is dispatched after the
		// components it depends on, whatever the parallelism.
		{"dependsOn and parallelism", cmDef + app(`  components:
  - {name: a, type: cm, properties: {data: {}}, dependsOn: [b]}
  - {name: b, type: cm, properties: {data: {}}, dependsOn: [c]}
  - {name: c, type: cm, properties: {data: {}}}
  workflow:
    steps: [{name: d, type: deploy, properties: {parallelism: 1}}]`),
			[]written{
				{At: "local/default/ConfigMap/c", Step: "d", Data: map[string]any{}},
				{At: "local/default/ConfigMap/b", Step: "d", Data: map[string]any{}},
				{At: "local/default/ConfigMap/a", Step: "d", Data: map[string]any{}},
			}},
		// deploy.cue suspends first when auto is false; the corpus
		// counts that suspend as resumed.
		{"auto false", cmDef + app(`  components: [{name: a, type: cm, properties: {data: {}}}]
  workflow:
    steps: [{name: d, type: deploy, properties: {auto: false}}]`),
			[]written{{At: "local/default/ConfigMap/a", Step: "d", Data: map[string]any{}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := renderResult(t, tt.doc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, writes(res)); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSteps runs each step type drydock emulates: step-group (the
// corpus's ex-step-group), suspend (dryrun-testing-3: nothing is
// dispatched past it when the workflow stops there), apply-component
// with its cluster and namespace (the apply-component definition's
// parameters), apply-object and read-object (their definitions:
// kube.#Apply of parameter.value to parameter.cluster, kube.#Read of
// apiVersion/kind/name/namespace, defaults core.oam.dev/v1beta1
// Application in default), step dependsOn, and PostDispatch traits once
// the workflow is done (the corpus's ex-advanced-cue-app2).
func TestSteps(t *testing.T) {
	const twoComps = "  components:\n  - {name: express-server, type: cm, properties: {data: {num: \"1\"}}}\n  - {name: express-server2, type: cm, properties: {data: {num: \"2\"}}}\n"
	tests := []struct {
		name, doc string
		stop      bool
		want      []written
		wantErr   string
	}{
		{name: "ex-step-group", doc: cmDef + app(twoComps+`  workflow:
    steps:
    - name: step
      type: step-group
      subSteps:
      - {name: apply-sub-step1, type: apply-component, properties: {component: express-server}}
      - {name: apply-sub-step2, type: apply-component, properties: {component: express-server2}}`),
			want: []written{
				{At: "local/default/ConfigMap/express-server", Step: "apply-sub-step1", Data: map[string]any{"num": "1"}},
				{At: "local/default/ConfigMap/express-server2", Step: "apply-sub-step2", Data: map[string]any{"num": "2"}},
			}},
		{name: "dryrun-testing-3", stop: true, doc: cmDef + app(twoComps+"  workflow:\n    steps: [{name: suspend, type: suspend}]")},
		{name: "suspend with a duration stops there", stop: true, doc: cmDef + app(twoComps+`  workflow:
    steps:
    - {name: s1, type: apply-component, properties: {component: express-server}}
    - {name: wait, type: suspend, properties: {duration: 30s}}
    - {name: s2, type: apply-component, properties: {component: express-server2}}`),
			want: []written{{At: "local/default/ConfigMap/express-server", Step: "s1", Data: map[string]any{"num": "1"}}}},
		{name: "suspend with a duration taken as resumed", doc: cmDef + app(twoComps+`  workflow:
    steps:
    - {name: wait, type: suspend, properties: {duration: 2m15s}}
    - {name: s2, type: apply-component, properties: {component: express-server2}}`),
			want: []written{{At: "local/default/ConfigMap/express-server2", Step: "s2", Data: map[string]any{"num": "2"}}}},
		{name: "deploy auto false stops", stop: true, doc: cmDef + app(twoComps+"  workflow:\n    steps: [{name: d, type: deploy, properties: {auto: false}}]")},
		{name: "apply-component to a cluster and namespace", doc: cmDef + app(twoComps+`  workflow:
    steps: [{name: s, type: apply-component, properties: {component: express-server, cluster: m1, namespace: ns1}}]`),
			want: []written{{At: "m1/ns1/ConfigMap/express-server", Step: "s", Data: map[string]any{"num": "1"}}}},
		// The corpus's README: a cluster not in the inventory is an error.
		{name: "apply-component to an unknown cluster", doc: cmDef + app(twoComps+`  workflow:
    steps: [{name: s, type: apply-component, properties: {component: express-server, cluster: nowhere}}]`),
			wantErr: `app.yaml:25:95: application "a": step "s": cluster "nowhere" is not in the inventory`},
		{name: "apply-object and read-object", doc: cmDef + app(`  components: []
  workflow:
    steps:
    - {name: w, type: apply-object, properties: {value: {apiVersion: v1, kind: ConfigMap, metadata: {name: cfg}, data: {key: v1}}, cluster: m1}}
    - {name: ns, type: apply-object, properties: {value: {apiVersion: v1, kind: Namespace, metadata: {name: team}}}}
    - name: r
      type: read-object
      properties: {apiVersion: v1, kind: ConfigMap, name: cfg, cluster: m1}
      outputs: [{name: key, valueFrom: output.$returns.value.data.key}]
    - name: copy
      type: apply-object
      inputs: [{from: key, parameterKey: value.data.copied}]
      properties: {value: {apiVersion: v1, kind: ConfigMap, metadata: {name: copy, namespace: other}}}`),
			want: []written{
				{At: "m1/default/ConfigMap/cfg", Step: "w", Data: map[string]any{"key": "v1"}},
				{At: "local/_cluster/Namespace/team", Step: "ns"},
				{At: "local/other/ConfigMap/copy", Step: "copy", Data: map[string]any{"copied": "v1"}},
			}},
		{name: "read-object of an observed object", doc: "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: default}\ndata: {k: dg==}\n---\n" + cmDef + app(`  components: []
  workflow:
    steps:
    - {name: r, type: read-object, properties: {apiVersion: v1, kind: Secret, name: s}, outputs: [{name: k, valueFrom: output.$returns.value.data.k}]}
    - {name: w, type: apply-object, inputs: [{from: k, parameterKey: value.data.k}], properties: {value: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}}}`),
			want: []written{{At: "local/default/ConfigMap/c", Step: "w", Data: map[string]any{"k": "dg=="}}}},
		{name: "read-object of a missing object", doc: cmDef + app(`  components: []
  workflow:
    steps: [{name: r, type: read-object, properties: {kind: ConfigMap, apiVersion: v1, name: nothere}}]`),
			wantErr: `app.yaml:23:94: application "a": step "r": read-object: ConfigMap default/nothere not found in cluster "local" (objects that exist before the workflow come from --observed)`},
		{name: "read-object without a name", doc: cmDef + app(`  components: []
  workflow:
    steps: [{name: r, type: read-object, properties: {kind: ConfigMap}}]`),
			wantErr: `app.yaml:23:54: application "a": step "r": read-object needs properties.name`},
		{name: "apply-object to an unknown cluster", doc: cmDef + app(`  components: []
  workflow:
    steps: [{name: w, type: apply-object, properties: {value: {apiVersion: v1, kind: ConfigMap, metadata: {name: c}}, cluster: nowhere}}]`),
			wantErr: `app.yaml:23:128: application "a": step "w": cluster "nowhere" is not in the inventory`},
		{name: "step dependsOn", doc: cmDef + app(twoComps+`  workflow:
    steps:
    - {name: second, type: apply-component, properties: {component: express-server2}, dependsOn: [first]}
    - {name: first, type: apply-component, properties: {component: express-server}}`),
			want: []written{
				{At: "local/default/ConfigMap/express-server", Step: "first", Data: map[string]any{"num": "1"}},
				{At: "local/default/ConfigMap/express-server2", Step: "second", Data: map[string]any{"num": "2"}},
			}},
		{name: "ex-advanced-cue-app2: PostDispatch after the workflow", doc: app(`  components:
  - name: express-server
    type: webservice
    properties: {cmd: [node, server.js], image: "oamdev/testapp:v1", port: 8080}
    traits: [{type: expose, properties: {http: {myservice1: 8080, myservice2: 8081}}}]`),
			want: []written{
				{At: "local/default/Deployment/express-server", Step: "express-server"},
				{At: "local/default/Service/express-server"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := renderWith(t, tt.doc, func(o *Options) { o.StopAtSuspend = tt.stop })
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.want, writes(res)); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestApplyObjectLabels: what apply-object writes carries the
// Application's name and namespace (kubevela/workflow kube.go Apply with
// the controller's app labels) and the step's cluster unless the object
// names one (the controller's Dispatch, ResourcesWithClusterName), as
// KubeVela's controller writes the realworld ex-workflow-apply-object-app.
func TestApplyObjectLabels(t *testing.T) {
	doc := app(`  components: []
  workflow:
    steps:
    - {name: hub, type: apply-object, properties: {value: {apiVersion: v1, kind: ConfigMap, metadata: {name: a, labels: {x: z}}}}}
    - {name: member, type: apply-object, properties: {cluster: m1, value: {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}}}
    - {name: own, type: apply-object, properties: {value: {apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {app.oam.dev/cluster: m1, app.oam.dev/name: other}}}}}`)
	res, err := renderWith(t, doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	for _, w := range res.Writes {
		got = append(got, manifest.Map(w.Resource.Object, "metadata", "labels"))
	}
	want := []map[string]any{
		{"x": "z", "app.oam.dev/name": "a", "app.oam.dev/namespace": "default", "app.oam.dev/cluster": ""},
		{"app.oam.dev/name": "a", "app.oam.dev/namespace": "default", "app.oam.dev/cluster": "m1"},
		{"app.oam.dev/name": "a", "app.oam.dev/namespace": "default", "app.oam.dev/cluster": "m1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
}

// TestStepOutputs: a step's outputs as kubevela/workflow's hooks.Output
// gives them. apply-component's scope is builtin-apply-component.cue's
// (`output` is the workload as rendered); `output.<rest>` is tried again
// as `output.$returns.<rest>`; a valueFrom that still does not resolve
// (status, which a rendered workload lacks) leaves the output null with
// a warning and the workflow goes on (the realworld
// ex-workflow-export2config-app); state keeping then deletes the null
// entry from the object (TestStateKeep).
func TestStepOutputs(t *testing.T) {
	doc := cmDef + app(`  components: [{name: c, type: cm, properties: {data: {a: b}}}]
  workflow:
    steps:
    - name: s
      type: apply-component
      properties: {component: c}
      outputs: [{name: name, valueFrom: output.metadata.name}, {name: status, valueFrom: 'output.status.conditions[0].message'}]
    - name: o
      type: read-object
      properties: {apiVersion: v1, kind: ConfigMap, name: c}
      outputs: [{name: returned, valueFrom: output.value.metadata.name}]
    - name: w
      type: apply-object
      inputs: [{from: name, parameterKey: value.data.name}, {from: status, parameterKey: value.data.status}, {from: returned, parameterKey: value.data.returned}]
      properties: {value: {apiVersion: v1, kind: ConfigMap, metadata: {name: w}}}`)
	res, err := renderWith(t, doc, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []written{
		{At: "local/default/ConfigMap/c", Step: "s", Data: map[string]any{"a": "b"}},
		{At: "local/default/ConfigMap/w", Step: "w", Data: map[string]any{"name": "c", "returned": "c"}},
	}
	if diff := cmp.Diff(want, writes(res)); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
	wantWarn := []string{`app.yaml:27:90: application "a": step "s": output "status": valueFrom "output.status.conditions[0].message" does not resolve offline: undefined field: status; KubeVela sets the output to null (the step succeeds with the lookup error as its message)`}
	if diff := cmp.Diff(wantWarn, res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestReturnsPath: hooks.Output's second path.
func TestReturnsPath(t *testing.T) {
	for in, want := range map[string]string{"output.a.b": "output.$returns.a.b", "x.output.a": "x.output.$returns.a", "value": "value.$returns", "output.$returns.a": ""} {
		if got, _ := returnsPath(in); got != want {
			t.Errorf("returnsPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// errText is err's message ("" for nil). Positions are part of the
// message; when err carries a manifest.Error, its position must be the
// one the message starts with.
func errText(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	msg := manifest.Format(err, nil)
	if p, ok := manifest.PosOf(err); ok && !strings.HasPrefix(msg, p.String()+": ") {
		t.Errorf("error %q: manifest.PosOf gives %s", msg, p)
	}
	return msg
}

// cmStep is an apply-object step named name writing ConfigMap name,
// with extra YAML flow fields (", if: ...").
func cmStep(name, extra string) string {
	return "    - {name: " + name + ", type: apply-object, properties: {value: {apiVersion: v1, kind: ConfigMap, metadata: {name: " + name + "}}}" + extra + "}\n"
}

// TestIf evaluates steps' `if` as kubevela/workflow v0.6.4's
// TestExecuteRunners (pkg/executor/workflow_test.go) does: status.<step>
// .succeeded/.failed/.skipped and .phase of earlier steps, inputs.<from>,
// and "always".
func TestIf(t *testing.T) {
	tests := []struct {
		name, steps string
		want        []string
		wantErr     string
	}{
		{name: "TestExecuteRunners", steps: cmStep("s1", "") +
			cmStep("s2", ", if: status.s1.failed") +
			cmStep("s3", ", if: status.s1.succeeded, outputs: [{name: test, valueFrom: parameter.value.metadata.name}]") +
			cmStep("s4", ", inputs: [{from: test}], if: 'inputs.test == \"s3\"'") +
			cmStep("s5", ", if: status.s2.skipped") +
			cmStep("s6", ", if: 'status.s2.phase == \"skipped\" && status.s5.phase == \"succeeded\"'") +
			cmStep("s7", ", if: always"),
			want: []string{"s1", "s3", "s4", "s5", "s6", "s7"}},
		// Every status field KubeVela gives a finished step
		// (buildValueForStatus); reason only where set (omitempty).
		{name: "status fields", steps: cmStep("s1", "") + cmStep("s2", ", if: status.s1.failed") +
			cmStep("s3", ", if: 'status.s1.timeout == false && !status.s1.failedAfterRetries && !status.s1.terminate && status.s1.type == \"apply-object\" && status.s1.name == \"s1\" && len(status.s1.id) == 10'") +
			cmStep("s4", ", if: 'status.s2.reason == \"Skip\" && !status.s2.timeout'") +
			cmStep("s5", ", if: 'status.s1.reason == _|_'"),
			want: []string{"s1", "s3", "s4", "s5"}},
		// The step's process context and parameter (MakeBasicValue).
		{name: "context and parameter", steps: cmStep("s1", ", if: 'context.stepName == \"s1\" && context.name == \"a\" && context.appRevision == \"a-v1\" && parameter.value.kind == \"ConfigMap\"'"),
			want: []string{"s1"}},
		// Outputs evaluate over the step's value, its context included.
		{name: "outputs from context", steps: cmStep("s1", ", outputs: [{name: who, valueFrom: context.stepName}, {name: app, valueFrom: context.appName}, {name: ns, valueFrom: context.namespace}, {name: rev, valueFrom: context.appRevisionNum}]") +
			cmStep("s2", ", inputs: [{from: who}, {from: app}, {from: ns}, {from: rev}], if: 'inputs.who == \"s1\" && inputs.app == \"a\" && inputs.ns == \"default\" && inputs.rev == 1'"),
			want: []string{"s1", "s2"}},
		{name: "if is not a bool", steps: cmStep("s1", ", if: '\"yes\"'"),
			wantErr: `app.yaml:24:120: application "a": step "s1": if "\"yes\"": result: cannot use value "yes" (type string) as bool`},
		{name: "if names a step that has not run", steps: cmStep("s1", ", if: status.later.succeeded") + cmStep("later", ""),
			wantErr: `app.yaml:24:120: application "a": step "s1": if "status.later.succeeded": result: undefined field: later`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := renderResult(t, cmDef+app("  components: []\n  workflow:\n    steps:\n"+tt.steps))
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			var got []string
			for _, w := range res.Writes {
				got = append(got, w.Step)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("steps that wrote (-want +got):\n%s", diff)
			}
		})
	}
}

// echoDef is a ComponentDefinition echo: a ConfigMap whose spec is the
// properties, and an auxiliary output obj whose spec.path names the
// component.
const echoDef = `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: echo}
spec:
  workload: {type: autodetects.core.oam.dev}
  schematic:
    cue:
      template: |
        output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: context.name, spec: parameter}
        outputs: obj: {apiVersion: "v1", kind: "Secret", metadata: name: context.name + "-obj", spec: path: "obj/" + context.name}
        parameter: {...}
---
`

// TestDataFlow passes values between components and steps: KubeVela's
// TestApplyComponentsIO (pkg/workflow/providers/multicluster/
// deploy_test.go: an output's valueFrom over `output` and
// `outputs.<name>` of the component, an input writing it at its
// parameterKey, a component waiting for the inputs it needs, an output
// that does not resolve failing) and the dependency of generated
// apply-component steps on the producers of their inputs.
func TestDataFlow(t *testing.T) {
	const comps = `  components:
  - name: comp-1
    type: echo
    properties: {placeholder: 1, items: [x, z]}
    inputs: [{from: var-output-0, parameterKey: input_slot_1}, {from: var-outputs-0, parameterKey: slot.nested}, {from: whole.metadata.name, parameterKey: 'items[1]'}]
  - name: comp-0
    type: echo
    properties: {placeholder: 0, items: [a, b]}
    outputs: [{name: var-output-0, valueFrom: 'output.spec.items[0]'}, {name: var-outputs-0, valueFrom: outputs.obj.spec.path}, {name: whole, valueFrom: output}]
`
	tests := []struct {
		name, doc string
		want      []any
		wantErr   string
	}{
		{name: "apply components with io successfully", doc: echoDef + app(comps),
			want: []any{map[string]any{"placeholder": int64(0), "items": []any{"a", "b"}}, nil,
				map[string]any{"placeholder": int64(1), "input_slot_1": "a", "slot": map[string]any{"nested": "obj/comp-0"}, "items": []any{"x", "comp-0"}}, nil}},
		{name: "in a deploy step", doc: echoDef + app(comps+"  workflow:\n    steps: [{name: d, type: deploy}]"),
			want: []any{map[string]any{"placeholder": int64(0), "items": []any{"a", "b"}}, nil,
				map[string]any{"placeholder": int64(1), "input_slot_1": "a", "slot": map[string]any{"nested": "obj/comp-0"}, "items": []any{"x", "comp-0"}}, nil}},
		{name: "apply components with io failed", doc: echoDef + app(`  components:
  - {name: comp-0, type: echo, properties: {}, outputs: [{name: var1, valueFrom: output.spec.error_path}]}
  - {name: comp-1, type: echo, properties: {}, inputs: [{from: var1, parameterKey: input_slot_1}]}`),
			wantErr: `app.yaml:18:82: application "a": component "comp-0": output "var1": valueFrom "output.spec.error_path" does not resolve offline: undefined field: error_path`},
		{name: "input never produced", doc: echoDef + app(`  components:
  - {name: comp-1, type: echo, properties: {}, inputs: [{from: nothing, parameterKey: x}]}`),
			wantErr: `app.yaml:18:64: application "a": component "comp-1": input from "nothing": no step or component output of that name has been produced`},
		{name: "parameterKey into a missing list element", doc: echoDef + app(`  components:
  - {name: comp-0, type: echo, properties: {}, outputs: [{name: v, valueFrom: '"x"'}]}
  - {name: comp-1, type: echo, properties: {items: []}, inputs: [{from: v, parameterKey: 'items[2]'}]}`),
			wantErr: `app.yaml:19:90: application "a": component "comp-1": input parameterKey "items[2]": items has no element 2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := renderResult(t, tt.doc)
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			var got []any
			for _, w := range res.Writes {
				got = append(got, w.Resource.Object["spec"])
			}
			// Secrets (outputs.obj) carry their path; only the
			// ConfigMaps' specs are compared.
			for i, w := range res.Writes {
				if w.Resource.Object["kind"] == "Secret" {
					got[i] = nil
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("specs written (-want +got):\n%s", diff)
			}
		})
	}
}
