package workflow

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stepDef is a WorkflowStepDefinition of that name and CUE template.
func stepDef(name, tmpl string) string {
	var b strings.Builder
	b.WriteString("apiVersion: core.oam.dev/v1beta1\nkind: WorkflowStepDefinition\nmetadata: {name: " + name + "}\nspec:\n  schematic:\n    cue:\n      template: |\n")
	for _, l := range strings.Split(strings.TrimSpace(tmpl), "\n") {
		b.WriteString("        " + l + "\n")
	}
	return b.String() + "---\n"
}

// observedCM is a ConfigMap the hub holds before the render.
const observedCM = `apiVersion: v1
kind: ConfigMap
metadata: {name: seen, namespace: default, labels: {app: x}}
data: {k: v}
---
`

// TestDefinitionSteps runs steps from their definitions with the
// workflow as the providers' host: writes, reads of earlier writes and
// of observed objects, lists, deletes, components, deploys, endpoints,
// variables, and the steps' outputs over the template's value.
func TestDefinitionSteps(t *testing.T) {
	const comps = "  components:\n  - {name: web, type: webservice, properties: {image: nginx, ports: [{port: 80, expose: true}]}}\n  - {name: c, type: cm, properties: {data: {a: b}}}\n"
	tests := []struct {
		name, doc string
		set       func(*Options)
		want      []written
		wantTrace []string
		wantErr   string
		// wantRes is "suspended" or "terminated" when the result says so
		wantRes string
	}{
		{name: "kube apply, read, list and delete", doc: observedCM + stepDef("kube", `
import "vela/kube"
a: kube.#Apply & {$params: value: {apiVersion: "v1", kind: "ConfigMap", metadata: {name: "new", labels: app: "x"}, data: k: "w"}}
m1: kube.#Apply & {$params: {cluster: "m1", value: {apiVersion: "v1", kind: "Namespace", metadata: name: "n"}}}
r: kube.#Read & {$params: value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "seen"}}
l: kube.#List & {$params: {resource: {apiVersion: "v1", kind: "ConfigMap"}, filter: matchingLabels: app: "x"}}
d: kube.#Delete & {$params: {value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "x"}, filter: {namespace: "default", matchingLabels: app: "x"}}}
miss: kube.#Read & {$params: value: {apiVersion: "apps/v1", kind: "Deployment", metadata: name: "none"}}
`) + app("  components: []\n  workflow:\n    steps:\n    - name: s\n      type: kube\n      outputs:\n      - {name: read, valueFrom: r.$returns.value.data.k}\n      - {name: listed, valueFrom: 'len(l.$returns.values.items)'}\n      - {name: err, valueFrom: miss.$returns.err}\n"),
			want: []written{{At: "m1/_cluster/Namespace/n", Step: "s"}},
			wantTrace: []string{"step s (kube)", "  kube.apply local/default ConfigMap new", "  write local/default ConfigMap new",
				"  kube.apply m1/_cluster Namespace n", "  write m1/_cluster Namespace n", "  kube.read local/default ConfigMap seen",
				`  kube.list v1 ConfigMap in "": 2`, `  kube.delete local/default ConfigMap x (all in "default" with labels app=x)`,
				"  deleted ConfigMap default/new (written by step s)", "  deletes observed ConfigMap default/seen (the observed state is not changed)",
				`  kube.read local/default Deployment none: deployments.apps "none" not found`,
				`  output read = "v"`, "  output listed = 2", `  output err = "deployments.apps \"none\" not found"`}},
		{name: "apply to a cluster not in the inventory", doc: stepDef("kube", `
import "vela/kube"
a: kube.#Apply & {$params: {cluster: "m9", value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "new"}}}
`) + app("  components: []\n  workflow:\n    steps: [{name: s, type: kube}]"),
			wantErr: `app.yaml:17:29: application "a": step "s": WorkflowStepDefinition "kube": function call error for a: cluster "m9" is not in the inventory`},
		{name: "apply of an object without a name", doc: stepDef("kube", `
import "vela/kube"
a: kube.#Apply & {$params: value: {apiVersion: "v1", kind: "ConfigMap"}}
`) + app("  components: []\n  workflow:\n    steps: [{name: s, type: kube}]"),
			wantErr: `app.yaml:17:29: application "a": step "s": WorkflowStepDefinition "kube": function call error for a: the object to apply needs kind and metadata.name`},
		{name: "components: load, apply, render; endpoints", doc: cmDef + stepDef("comps", `
import "vela/oam"
import "vela/query"
l: oam.#LoadComponets & {}
a: oam.#ApplyComponent & {$params: {value: l.$returns.value.web, cluster: "m1"}}
r: oam.#RenderComponent & {$params: {value: l.$returns.value.c & {properties: data: x: "patched"}, namespace: "other"}}
e: query.#CollectServiceEndpoints & {$params: app: {name: "a", namespace: "default", filter: components: ["web"]}}
`) + app(comps+"  workflow:\n    steps:\n    - name: s\n      type: comps\n      outputs:\n      - {name: rendered, valueFrom: r.$returns.output.data.x}\n      - {name: ep, valueFrom: 'e.$returns.list[0].endpoint.host'}\n"),
			want: []written{{At: "m1/default/Deployment/web", Step: "s"}, {At: "m1/default/Service/web", Step: "s"}},
			wantTrace: []string{"step s (comps)", "  oam.load: 2 components", "  oam.component-apply web to m1", "  write m1/default Deployment web",
				"  write m1/default Service web", "  oam.component-render c to local/other", "  query.collectServiceEndpoints default/a: 1",
				`  output rendered = "patched"`, `  output ep = "web.default"`}},
		{name: "a component the Application does not have", doc: stepDef("comps", `
import "vela/oam"
a: oam.#ApplyComponent & {$params: value: {name: "nope", type: "webservice"}}
`) + app("  components: []\n  workflow:\n    steps: [{name: s, type: comps}]"),
			wantErr: `app.yaml:17:29: application "a": step "s": WorkflowStepDefinition "comps": component nope not found`},
		{name: "endpoints of another Application", doc: stepDef("eps", `
import "vela/query"
e: query.#CollectServiceEndpoints & {$params: app: {name: "b", namespace: "default"}}
`) + app("  components: []\n  workflow:\n    steps: [{name: s, type: eps}]"),
			wantErr: `app.yaml:17:29: application "a": step "s": WorkflowStepDefinition "eps": function call error for e: the endpoints of Application default/b: drydock knows only the rendered Application's`},
		{name: "deploy with inline policies; placements and clusters", doc: cmDef + stepDef("dep", `
import "vela/multicluster"
import "vela/op"
c: multicluster.#ListClusters & {}
p: op.#GetPlacementsFromTopologyPolicies & {policies: ["t"]}
d: multicluster.#Deploy & {$params: {policies: ["t"], parallelism: 1, ignoreTerraformComponent: true, inlinePolicies: [{type: "override", properties: components: [{name: "c", properties: data: a: "over"}]}]}}
`) + app("  components:\n  - {name: c, type: cm, properties: {data: {a: b}}}\n  policies: [{name: t, type: topology, properties: {clusters: [m1]}}]\n  workflow:\n    steps:\n    - name: s\n      type: dep\n      outputs:\n      - {name: clusters, valueFrom: c.$returns.outputs.clusters}\n      - {name: pl, valueFrom: 'p.placements[0].cluster'}\n"),
			want: []written{{At: "m1/default/ConfigMap/c", Step: "s", Policies: "t,inline-override-policy-0", Data: map[string]any{"a": "over"}}},
			wantTrace: []string{"step s (dep)", "  multicluster.list-clusters: 1", "  multicluster.get-placements-from-topology-policies t: 1",
				`  multicluster.deploy policies ["t"], 1 inline`, "  write m1/default ConfigMap c", `  output clusters = ["m1"]`, `  output pl = "m1"`}},
		{name: "placements of a missing policy", doc: stepDef("dep", `
import "vela/op"
p: op.#GetPlacementsFromTopologyPolicies & {policies: ["nope"]}
`) + app("  components: []\n  workflow:\n    steps: [{name: s, type: dep}]"),
			wantErr: `app.yaml:17:29: application "a": step "s": WorkflowStepDefinition "dep": function call error for p: policy nope not found`},
		{name: "variables between steps", doc: stepDef("vars", `
import "vela/builtin"
parameter: {put?: string, get?: string}
if parameter.put != _|_ {
	p: builtin.#DoVar & {$params: {method: "Put", path: "v", value: parameter.put}}
}
if parameter.get != _|_ {
	g: builtin.#DoVar & {$params: path: parameter.get}
	out: g.$returns.value
}
`) + app("  components: []\n  workflow:\n    steps:\n    - {name: a, type: vars, properties: {put: hello}}\n    - {name: b, type: vars, properties: {get: v}, outputs: [{name: got, valueFrom: out}]}\n    - {name: c, type: vars, properties: {get: nope}}\n"),
			wantErr: `app.yaml:27:23: application "a": step "c": WorkflowStepDefinition "vars": function call error for g: var nope not found`},
		{name: "a wait stops the workflow with StopAtSuspend", doc: stepDef("w", `
import "vela/builtin"
w: builtin.#ConditionalWait & {$params: continue: false}
`) + cmDef + app("  components: [{name: c, type: cm, properties: {data: {a: b}}}]\n  workflow:\n    steps: [{name: s, type: w}, {name: later, type: apply-component, properties: {component: c}}]"),
			set:       func(o *Options) { o.StopAtSuspend = true },
			wantTrace: []string{"step s (w)", "  wait at w: condition false: stopping (--stop-at-suspend)"}, wantRes: "suspended"},
		{name: "a break terminates the workflow", doc: stepDef("b", `
import "vela/builtin"
b: builtin.#Break & {$params: message: "enough"}
`) + cmDef + app("  components: [{name: c, type: cm, properties: {data: {a: b}}}]\n  workflow:\n    steps: [{name: s, type: b}, {name: later, type: apply-component, properties: {component: c}}]"),
			wantTrace: []string{"step s (b)", "  break at b: the workflow terminates"}, wantRes: "terminated"},
		{name: "a fail fails the step", doc: stepDef("f", `
import "vela/builtin"
f: builtin.#Fail & {$params: message: "broken"}
`) + app("  components: []\n  workflow:\n    steps: [{name: s, type: f}]"),
			wantErr: `app.yaml:17:29: application "a": step "s": WorkflowStepDefinition "f": step failed: broken`},
		{name: "a definition without a template", doc: "apiVersion: core.oam.dev/v1beta1\nkind: WorkflowStepDefinition\nmetadata: {name: empty}\nspec: {}\n---\n" +
			app("  components: []\n  workflow:\n    steps: [{name: s, type: empty}]"),
			wantErr: `app.yaml:12:29: application "a": step "s": WorkflowStepDefinition "empty" has no CUE template (spec.schematic.cue.template)`},
	}
	// v1.11's deploy2env, for the steps an env-binding policy generates
	deploy2env, err := os.ReadFile("../../cmd/drydock-engine/testdata/stepdefs/deploy2env.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tests = append(tests, struct {
		name, doc string
		set       func(*Options)
		want      []written
		wantTrace []string
		wantErr   string
		wantRes   string
	}{name: "env-binding's deploy2env", doc: string(deploy2env) + "---\n" + cmDef + app(`  components: [{name: c, type: cm, properties: {data: {a: b}}}]
  policies:
  - name: eb
    type: env-binding
    properties:
      envs:
      - {name: prod, placement: {clusterSelector: {name: m1}, namespaceSelector: {name: prod}}, patch: {components: [{name: c, type: cm, properties: {data: {a: prod}}}]}}
`),
		want: []written{{At: "m1/prod/ConfigMap/c", Step: "deploy-eb-prod", Data: map[string]any{"a": "prod"}}},
		wantTrace: []string{"step deploy-eb-prod (deploy2env)", `  env-binding eb/prod: cluster m1 namespace "prod"`, "  oam.component-apply c to m1/prod",
			"  write m1/prod ConfigMap c"}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := renderWith(t, tt.doc, tt.set)
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.want, writes(res)); diff != "" {
				t.Errorf("writes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantTrace, res.Trace); diff != "" {
				t.Errorf("trace (-want +got):\n%s", diff)
			}
			got := ""
			if res.Suspended {
				got = "suspended"
			}
			if res.Terminated {
				got = "terminated"
			}
			if got != tt.wantRes {
				t.Errorf("result %q, want %q", got, tt.wantRes)
			}
		})
	}
}
