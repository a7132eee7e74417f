package stepexec

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHostActions: the providers the Host answers (kube, config, oam,
// multicluster, query) and the network ones, never sent.
func TestHostActions(t *testing.T) {
	secret := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "db", "namespace": "ns",
		"labels": map[string]any{"config.oam.dev/catalog": "velacore-config"}}, "data": map[string]any{"input-properties": "eyJob3N0IjoiaCJ9"}}
	sensitive := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s", "namespace": "ns",
		"annotations": map[string]any{"config.oam.dev/sensitive": "true"}}}
	plain := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "p", "namespace": "ns"}}
	tmpl := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "config-template-mysql", "namespace": "vela-system"}}
	cm := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "default"}, "data": map[string]any{"a": "b"}}
	objs := map[string]map[string]any{objName("", secret): secret, objName("", sensitive): sensitive, objName("", plain): plain, objName("", tmpl): tmpl, objName("", cm): cm}
	tests := []struct {
		name, tmpl string
		field      string
		want       outcome
	}{
		{"kube apply, read, patch, list, delete", `import "vela/kube"
a: kube.#Apply & {$params: value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "new"}}
ns: kube.#Apply & {$params: {cluster: "m1", value: {apiVersion: "v1", kind: "Namespace", metadata: name: "n"}}}
par: kube.#ApplyInParallel & {$params: value: [{apiVersion: "v1", kind: "Secret", metadata: name: "x"}]}
r: kube.#Read & {$params: value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "cm"}}
miss: kube.#Read & {$params: value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "none"}}
p: kube.#Patch & {$params: {value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "cm"}, patch: data: c: "d"}}
l: kube.#List & {$params: {resource: {apiVersion: "v1", kind: "ConfigMap"}, filter: {namespace: "default", matchingLabels: {x: "y"}}}}
bad: kube.#List & {$params: resource: {apiVersion: "v1", kind: "Broken"}}
d: kube.#Delete & {$params: value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "new"}}
df: kube.#Delete & {$params: {value: {apiVersion: "v1", kind: "Job", metadata: name: "j"}, filter: {namespace: "bad", matchingLabels: {a: "b"}}}}
out: {read: r.$returns.value.data, err: miss.$returns.err, patched: p.$returns.result.data, n: len(l.$returns.values.items), listErr: bad.$returns.err, delErr: df.$returns.err}`, "out",
			outcome{Trace: []string{"kube.apply local/default ConfigMap new", "kube.apply m1/_cluster Namespace n", "kube.apply-in-parallel local/default Secret x",
				"kube.read local/default ConfigMap cm", `kube.read local/default ConfigMap none: configmaps "none" not found`, "kube.patch local/default ConfigMap cm",
				`kube.list v1 ConfigMap in "default": 3`, `kube.list v1 Broken in "": 0`, "kube.delete local/default ConfigMap new",
				`kube.delete local/default Job j (all in "bad" with labels a=b)`},
				Calls: []string{"apply :ConfigMap/default/new", "apply m1:Namespace//n", "apply :Secret/default/x", "apply :ConfigMap/default/cm",
					"list  ConfigMap default map[x:y]", "list  Broken  map[]", "delete :ConfigMap/default/new", "delete :Job/default/j"},
				Value: `{"delErr":"forbidden","err":"configmaps \"none\" not found","listErr":"no such kind","n":3,"patched":{"a":"b","c":"d"},"read":{"a":"b"}}`}},
		// KubeVela labels what kube.#Apply and #Patch write with the
		// Application, and its dispatcher adds the cluster when the object
		// has none; #ApplyInParallel gets the cluster only.
		{"kube writes carry KubeVela's labels", `import "vela/kube"
import "vela/op"
a: kube.#Apply & {$params: value: {apiVersion: "v1", kind: "ConfigMap", metadata: {name: "new", labels: x: "y"}}}
m: kube.#Apply & {$params: {cluster: "m1", value: {apiVersion: "v1", kind: "ConfigMap", metadata: {name: "n", labels: "app.oam.dev/cluster": "m2"}}}}
par: kube.#ApplyInParallel & {$params: {cluster: "m1", value: [{apiVersion: "v1", kind: "Secret", metadata: name: "x"}]}}
p: kube.#Patch & {$params: {value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "cm"}, patch: data: c: "d"}}
l: op.#Apply & {value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "old"}}
out: {apply: a.$returns.value.metadata.labels, other: m.$returns.value.metadata.labels, parallel: par.$returns.value, patched: p.$returns.result.metadata.labels, legacy: l.value.metadata.labels}`, "out",
			outcome{Trace: []string{"kube.apply local/default ConfigMap new", "kube.apply m1/default ConfigMap n", "kube.apply-in-parallel m1/default Secret x",
				"kube.patch local/default ConfigMap cm", "kube.apply local/default ConfigMap old"},
				Calls: []string{"apply :ConfigMap/default/new", "apply m1:ConfigMap/default/n", "apply m1:Secret/default/x", "apply :ConfigMap/default/cm", "apply :ConfigMap/default/old"},
				Value: `{"apply":{"app.oam.dev/cluster":"","app.oam.dev/name":"app","app.oam.dev/namespace":"ns","x":"y"},` +
					`"legacy":{"app.oam.dev/cluster":"","app.oam.dev/name":"app","app.oam.dev/namespace":"ns"},` +
					`"other":{"app.oam.dev/cluster":"m2","app.oam.dev/name":"app","app.oam.dev/namespace":"ns"},` +
					`"parallel":[{"apiVersion":"v1","kind":"Secret","metadata":{"labels":{"app.oam.dev/cluster":"m1"},"name":"x","namespace":"default"}}],` +
					`"patched":{"app.oam.dev/cluster":"","app.oam.dev/name":"app","app.oam.dev/namespace":"ns"}}`}},
		{"legacy kube", `import "vela/op"
a: op.#Apply & {value: {apiVersion: "v1", kind: "ConfigMap", metadata: {name: "new", namespace: "ns"}}}
l: op.#List & {resource: {apiVersion: "v1", kind: "ConfigMap"}}
out: len(l.list.items)`, "out",
			outcome{Trace: []string{"kube.apply local/ns ConfigMap new", `kube.list v1 ConfigMap in "": 3`},
				Calls: []string{"apply :ConfigMap/ns/new", "list  ConfigMap  map[]"}, Value: "3"}},
		{"apply refused", `import "vela/kube"
a: kube.#Apply & {$params: value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "refused"}}`, "",
			outcome{Trace: []string{"kube.apply local/default ConfigMap refused"}, Err: "function call error for a: refused"}},
		{"patch of a missing object", `import "vela/kube"
p: kube.#Patch & {$params: {value: {apiVersion: "v1", kind: "ConfigMap", metadata: name: "none"}, patch: data: c: "d"}}`, "",
			outcome{Err: `function call error for p: configmaps "none" not found`}},
		{"config", `import "vela/config"
c: config.#CreateConfig & {$params: {name: "n", namespace: "ns", config: {k: "v"}}}
r: config.#ReadConfig & {$params: {name: "db", namespace: "ns"}}
l: config.#ListConfig & {$params: {template: "x/mysql", namespace: "ns"}}
d: config.#DeleteConfig & {$params: {name: "db", namespace: "ns"}}
out: {read: r.$returns.config, listed: len(l.$returns.configs)}`, "out",
			outcome{Trace: []string{"config.create local/ns Secret n", "config.read ns/db", "config.list mysql in ns: 4", "config.delete ns/db"},
				Calls: []string{"apply :Secret/ns/n", "list  Secret ns map[config.oam.dev/catalog:velacore-config config.oam.dev/type:mysql]", "delete :Secret/ns/db"},
				Value: `{"listed":4,"read":{"host":"h"}}`}},
		{"config with its template", `import "vela/config"
c: config.#CreateConfig & {$params: {name: "n", namespace: "ns", template: "mysql", config: {}}}`, "",
			outcome{Err: "function call error for c: config template vela-system/mysql: drydock does not render config templates"}},
		{"config template missing", `import "vela/op"
c: op.#CreateConfig & {name: "n", namespace: "ns", template: "ns2/pg", config: {}}`, "",
			outcome{Trace: []string{"config.create ns/n: template ns2/pg: the template does not exist"}, Err: "function call error for c: the template does not exist"}},
		{"config read missing", `import "vela/config"
r: config.#ReadConfig & {$params: {name: "none", namespace: "ns"}}`, "",
			outcome{Trace: []string{"config.read ns/none"}, Err: `function call error for r: secrets "none" not found`}},
		{"config read sensitive", `import "vela/config"
r: config.#ReadConfig & {$params: {name: "s", namespace: "ns"}}`, "",
			outcome{Trace: []string{"config.read ns/s"}, Err: "function call error for r: the config is sensitive"}},
		{"config list without template", `import "vela/config"
l: config.#ListConfig & {$params: {template: "", namespace: "ns"}}`, "",
			outcome{Err: "function call error for l: the request is in valid"}},
		{"config delete missing", `import "vela/config"
d: config.#DeleteConfig & {$params: {name: "none", namespace: "ns"}}`, "",
			outcome{Trace: []string{"config.delete ns/none"}, Err: "function call error for d: the config none not found"}},
		{"config delete not a config", `import "vela/config"
d: config.#DeleteConfig & {$params: {name: "p", namespace: "ns"}}`, "",
			outcome{Trace: []string{"config.delete ns/p"}, Err: "function call error for d: found a secret but is not a config"}},
		{"oam", `import "vela/oam"
l: oam.#LoadComponets & {}
p: oam.#LoadPolicies & {}
a: oam.#ApplyComponent & {$params: {value: l.$returns.value.c2, cluster: "m1"}}
r: oam.#RenderComponent & {$params: {value: l.$returns.value.c1, namespace: "x"}}
out: {policy: p.$returns.value.eb.type, applied: a.$returns.output.kind, rendered: r.$returns.outputs.svc.kind}`, "out",
			outcome{Trace: []string{"oam.load: 2 components", "oam.component-apply c2 to m1", "oam.component-render c1 to local/x"},
				Calls: []string{"apply-component c2 map[image:busybox] to m1/", "render-component c1 map[env:map[a:1] image:nginx] to /x"},
				Value: `{"applied":"Deployment","policy":"env-binding","rendered":"Service"}`}},
		{"legacy apply-application-in-parallel", `import "vela/op"
app: op.#ApplyApplicationInParallel & {}`, "",
			outcome{Trace: []string{"oam.load: 2 components", "oam.component-apply c1 to local", "oam.component-apply c2 to local"},
				Calls: []string{"apply-component c1 map[env:map[a:1] image:nginx] to /", "apply-component c2 map[image:busybox] to /"}}},
		{"legacy apply-remaining", `import "vela/op"
app: op.#ApplyRemaining & {exceptions: ["c1"]}`, "",
			outcome{Trace: []string{"oam.load: 2 components", "oam.component-apply c2 to local"},
				Calls: []string{"apply-component c2 map[image:busybox] to /"}}},
		{"load of another Application", `import "vela/oam"
l: oam.#LoadComponets & {$params: app: "other"}`, "",
			outcome{Err: `function call error for l: loading the components of Application "other": drydock loads only the rendered Application's`}},
		{"apply of a missing component", `import "vela/oam"
a: oam.#ApplyComponent & {$params: value: name: "bad"}`, "",
			outcome{Trace: []string{"oam.component-apply bad to local"}, Err: "component bad not found"}},
		{"env-binding", `import "vela/op"
app: op.#ApplyEnvBindApp & {env: "prod", policy: "eb", app: "app", namespace: "ns", parallel: true}`, "",
			outcome{Trace: []string{`env-binding eb/prod: cluster m1 namespace "prod"`, "oam.component-apply c1 to m1/prod", "oam.component-apply c1 to m1/prod"},
				Calls: []string{"apply-component c1 map[env:map[a:1 b:2] image:nginx:2] to m1/prod", "apply-component c1 map[env:map[a:1 b:2] image:nginx:2] to m1/prod"}}},
		// The template's own CUE refuses an empty policy name (its
		// envBindingPolicies: [] does not take the list found).
		{"env-binding without a policy name", `import "vela/op"
app: op.#ApplyEnvBindApp & {env: "prod", policy: "", app: "app", namespace: "ns", parallel: false}`, "",
			outcome{Err: "function call error for app.prepare.placementDecisions: empty policy name"}},
		{"env-binding to a cluster not in the inventory", `import "vela/op"
d: op.#MakePlacementDecisions & {inputs: {policyName: "p", envName: "e", placement: clusterSelector: name: "m9"}}`, "",
			outcome{Err: `function call error for d: failed to get cluster m9 for env e: cluster "m9" is not in the inventory`}},
		{"env-binding by labels", `import "vela/op"
d: op.#MakePlacementDecisions & {inputs: {policyName: "p", envName: "e", placement: clusterSelector: labels: a: "b"}}`, "",
			outcome{Err: "function call error for d: invalid env e: cluster selector does not support label selector for now"}},
		{"env-binding patches by type and adds", `import "vela/op"
p: op.#PatchApplication & {inputs: {envName: "e", patch: components: [{type: "worker", properties: image: "b2"}, {name: "c3", type: "worker"}, {name: "c1", type: "worker"}]}}
out: [for c in p.outputs.spec.components {c.name + ":" + c.type}]`, "out",
			outcome{Value: `["c1:worker","c2:worker","c3:worker"]`}},
		{"multicluster", `import "vela/multicluster"
import "vela/op"
c: multicluster.#ListClusters & {}
p: op.#GetPlacementsFromTopologyPolicies & {policies: ["t"]}
d: multicluster.#Deploy & {$params: {policies: ["t"], parallelism: 2, ignoreTerraformComponent: true, inlinePolicies: [{type: "override", properties: {}}]}}
out: {clusters: c.$returns.outputs.clusters, placements: p.placements}`, "out",
			outcome{Trace: []string{"multicluster.list-clusters: 1", "multicluster.get-placements-from-topology-policies t: 1", `multicluster.deploy policies ["t"], 1 inline`},
				Calls: []string{"deploy [t] 2 [map[name:inline-override-policy-0 properties:map[] type:override]]"},
				Value: `{"clusters":["m1"],"placements":[{"cluster":"m1","namespace":""}]}`}},
		{"placements error", `import "vela/op"
p: op.#GetPlacementsFromTopologyPolicies & {policies: []}`, "",
			outcome{Err: "function call error for p: no policies"}},
		{"deploy parallelism", `import "vela/multicluster"
d: multicluster.#Deploy & {$params: {policies: [], parallelism: 0, ignoreTerraformComponent: true}}`, "",
			outcome{Err: "function call error for d: parallelism cannot be smaller than 1"}},
		{"query", `import "vela/query"
e: query.#CollectServiceEndpoints & {$params: app: {name: "app", namespace: "ns", filter: components: ["web"]}}
out: e.$returns.list[0].endpoint.host`, "out",
			outcome{Trace: []string{"query.collectServiceEndpoints ns/app: 1"}, Value: `"web.ns"`}},
		{"query of another Application", `import "vela/query"
e: query.#CollectServiceEndpoints & {$params: app: {name: "other", namespace: "ns"}}`, "",
			outcome{Err: "function call error for e: unknown application"}},
		// vela/terraform's upstream CUE refers to a #Component it does not
		// declare: the value is in error in KubeVela too, which fails the
		// step only on its first run (see check).
		{"vela/terraform", `import "vela/terraform"
t: terraform.#GetConnectionStatus & {$params: inputs: componentName: "db"}`, "",
			outcome{Trace: []string{`value in error: #LoadTerraformComponents.$returns.outputs.components: reference "#Component" not found: the step fails once and succeeds on its retry, as in KubeVela`}}},
		{"terraform", `import "vela/op"
t: op.#GetConnectionStatus & {inputs: componentName: "db"}`, "",
			outcome{Err: "function call error for t: terraform.get-connection-status: drydock does not render Terraform components (their state lives in the Terraform controller)"}},
		{"http and email are never sent", `import "vela/http"
import "vela/email"
import "vela/op"
h: http.#HTTPDo & {$params: url: "https://a.example"}
o: op.#HTTPPost & {url: "https://b.example"}
e: email.#SendEmail & {$params: {from: {address: "a@b", password: "p", host: "h", port: 25}, to: ["c@d"], content: {subject: "s", body: "b"}}}
out: {code: h.$returns.statusCode, legacy: o.response.statusCode}`, "out",
			outcome{Trace: []string{"http GET https://a.example: not sent (drydock never reaches the network); answered 200 with an empty body",
				"http POST https://b.example: not sent (drydock never reaches the network); answered 200 with an empty body",
				`email from a@b to c@d "s": not sent (drydock never reaches the network)`}, Value: `{"code":200,"legacy":200}`}},
		{"a response body needed", `import "vela/http"
import "encoding/json"
h: http.#HTTPDo & {$params: url: "https://a.example"}
body: json.Unmarshal(h.$returns.body)`, "",
			outcome{Trace: []string{"http GET https://a.example: not sent (drydock never reaches the network); answered 200 with an empty body"},
				Err: "the template needs the response of https://a.example, which drydock does not have (it never reaches the network): body: error in call to encoding/json.Unmarshal: json: invalid JSON"}},
		{"prometheus", `import "vela/metrics"
m: metrics.#PromCheck & {$params: {query: "up", metricEndpoint: "http://prom", condition: ">0"}}`, "",
			outcome{Err: "function call error for m: metrics.promCheck queries Prometheus at http://prom, which drydock does not reach (it never uses the network)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &fakeHost{objs: map[string]map[string]any{}}
			for k, v := range objs {
				h.objs[k] = v
			}
			got := runCase(t, h, tt.tmpl, nil, false, tt.field)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
