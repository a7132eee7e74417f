package cueval_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render/cueval"
)

// appWith is an Application myapp whose component test has type typ and
// the given properties (a YAML flow mapping, "" for none) and traits (a
// YAML flow sequence, "" for none).
func appWith(typ, props, traits string) string {
	doc := "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: myapp}\nspec:\n  components:\n  - name: test\n    type: " + typ + "\n"
	if props != "" {
		doc += "    properties: " + props + "\n"
	}
	if traits != "" {
		doc += "    traits: " + traits + "\n"
	}
	return doc
}

// TestWorkloadTemplate is KubeVela's TestWorkloadTemplateComplete and
// TestWorkloadTemplateCompleteRenderOrder (pkg/cue/definition/
// template_test.go): a component definition's output and outputs
// (auxiliary workloads, in template order), the context, parameters and
// errs. KubeVela names the context's component test and app myapp (rev
// myapp-v1) with cluster minor version 19+, as here.
func TestWorkloadTemplate(t *testing.T) {
	const params = "parameter: {\n\treplicas: *1 | int\n\ttype: string\n\thost: string\n}\n"
	const deploy = "output: {\n\tapiVersion: \"apps/v1\"\n\tkind: \"Deployment\"\n\tmetadata: name: context.name\n\tspec: replicas: parameter.replicas\n}\n"
	tests := []struct {
		name, tmpl, props string
		want              []out
		wantErr           string
	}{
		{name: "only contain an output", tmpl: deploy + params, props: "{replicas: 2, type: ClusterIP, host: example.com}",
			want: []out{{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "test"}, "spec": map[string]any{"replicas": int64(2)}}}}},
		{name: "contain output and outputs", props: "{replicas: 2, type: ClusterIP, host: example.com}",
			tmpl: deploy + "outputs: service: {\n\tapiVersion: \"v1\"\n\tkind: \"Service\"\n\tmetadata: name: context.name\n\tspec: type: parameter.type\n}\n" +
				"outputs: ingress: {\n\tapiVersion: \"extensions/v1beta1\"\n\tkind: \"Ingress\"\n\tmetadata: name: context.name\n\tspec: rules: [{host: parameter.host}]\n}\n" + params,
			want: []out{
				{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "test"}, "spec": map[string]any{"replicas": int64(2)}}},
				{Trait: cueval.AuxiliaryWorkload, Output: "service", Object: map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "test"}, "spec": map[string]any{"type": "ClusterIP"}}},
				{Trait: cueval.AuxiliaryWorkload, Output: "ingress", Object: map[string]any{"apiVersion": "extensions/v1beta1", "kind": "Ingress", "metadata": map[string]any{"name": "test"},
					"spec": map[string]any{"rules": []any{map[string]any{"host": "example.com"}}}}},
			}},
		{name: "output needs context appRevision", props: "{replicas: 2, type: ClusterIP, host: example.com}",
			tmpl: "output: {\n\tapiVersion: \"apps/v1\"\n\tkind: \"Deployment\"\n\tmetadata: {\n\t\tname: context.name\n\t\tannotations: \"revision.oam.dev\": context.appRevision\n\t}\n\tspec: replicas: parameter.replicas\n}\n" + params,
			want: []out{{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
				"metadata": map[string]any{"name": "test", "annotations": map[string]any{"revision.oam.dev": "myapp-v1"}}, "spec": map[string]any{"replicas": int64(2)}}}}},
		{name: "output needs context replicas", tmpl: deploy + "parameter: replicas: *1 | int\n",
			want: []out{{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "test"}, "spec": map[string]any{"replicas": int64(1)}}}}},
		{name: "parameter type doesn't match will raise error", tmpl: deploy + params, props: "{replicas: \"2\", type: ClusterIP, host: example.com}",
			wantErr: `app.yaml:8:28: application "myapp" component "test": output.spec.replicas: conflicting values "2" and 1 (mismatched types string and int); output.spec.replicas: conflicting values "2" and int (mismatched types string and int); parameter.replicas: conflicting values "2" and 1 (mismatched types string and int); parameter.replicas: conflicting values "2" and int (mismatched types string and int) (template w.cue:11:18)`},
		{name: "cluster version info",
			tmpl: "output: {\n\tif context.clusterVersion.minor < 19 {\n\t\tapiVersion: \"networking.k8s.io/v1beta1\"\n\t}\n\tif context.clusterVersion.minor >= 19 {\n\t\tapiVersion: \"networking.k8s.io/v1\"\n\t}\n\t\"kind\": \"Ingress\"\n}\n",
			want: []out{{Object: map[string]any{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": map[string]any{"name": "test"}}}}},
		{name: "using errs field in workload", props: "{errs: [custom workload error]}",
			tmpl:    "output: {\n\tapiVersion: \"apps/v1\"\n\tkind: \"Deployment\"\n\tmetadata: name: context.name\n}\nerrs: parameter.errs\nparameter: {errs: [...string]}\n",
			wantErr: `app.yaml:6:5: application "myapp" component "test": validation failed for workload test: User Errors: custom workload error`},
		{name: "user errors and validation errors together", props: "{replicas: 0}",
			tmpl:    "output: {\n\tapiVersion: \"apps/v1\"\n\tkind: \"Deployment\"\n\tmetadata: name: context.name\n\tspec: replicas: parameter.replicas\n}\nerrs: [if parameter.replicas < 1 {\"replicas must be at least 1\"}]\nparameter: {\n\treplicas: int\n\trequired: string\n}\n",
			wantErr: `app.yaml:6:5: application "myapp" component "test": validation failed for workload test: User Errors: replicas must be at least 1`},
		// CUE reports a structural cycle without a position: it is named
		// after the definition and placed at the cycle's field.
		{name: "structural cycle in the template", tmpl: deploy + "x: {\n\ty: x\n}\n" + params,
			props:   "{replicas: 2, type: ClusterIP, host: example.com}",
			wantErr: `w.cue:14:2: application "myapp" component "test": ComponentDefinition "w": x.y: structural cycle`},
		// TestWorkloadTemplateCompleteRenderOrder: outputs come in the
		// order the template writes them, not sorted.
		{name: "non-dict-order outputs",
			tmpl: "output: {apiVersion: \"v1\", kind: \"ConfigMap\"}\noutputs: route: {apiVersion: \"v1\", kind: \"ConfigMap\", metadata: name: \"test-route\"}\noutputs: service: {apiVersion: \"v1\", kind: \"ConfigMap\", metadata: name: \"test-service\"}\noutputs: abc: {apiVersion: \"v1\", kind: \"ConfigMap\", metadata: name: \"test-abc\"}\n",
			want: []out{
				{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "test"}}},
				{Trait: cueval.AuxiliaryWorkload, Output: "route", Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "test-route"}}},
				{Trait: cueval.AuxiliaryWorkload, Output: "service", Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "test-service"}}},
				{Trait: cueval.AuxiliaryWorkload, Output: "abc", Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "test-abc"}}},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := parseApp(t, appWith("w", tt.props, ""))
			m, err := renderFirst(t, withDefs(t, cueDef(t, "w", "component", "", tt.tmpl)), app, cueval.Placement{ClusterVersion: cueval.ClusterVersion{Minor: "19+"}})
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.want, bareAll(m)); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
		})
	}
}

// gameBase is the component template of KubeVela's
// TestTraitTemplateComplete: a Deployment and a gameconfig ConfigMap.
const gameBase = `output: {
	apiVersion: "apps/v1"
	kind:       "Deployment"
	spec: {
		selector: matchLabels: "app.oam.dev/component": context.name
		replicas: parameter.replicas
		template: {
			metadata: labels: "app.oam.dev/component": context.name
			spec: containers: [{
				name:  "main"
				image: parameter.image
				ports: [{containerPort: parameter.port}]
				envFrom: [{configMapRef: name: context.name + "game-config"}]
				if parameter["cmd"] != _|_ {
					command: parameter.cmd
				}
			}]
		}
	}
}
outputs: gameconfig: {
	apiVersion: "v1"
	kind:       "ConfigMap"
	metadata: name: context.name + "game-config"
	data: {
		enemies: parameter.enemies
		lives:   parameter.lives
	}
}
parameter: {
	image: *"website:0.1" | string
	cmd?: [...string]
	replicas: *1 | int
	lives:   string
	enemies: string
	port: int
}`

// gameProps are the properties KubeVela's test gives gameBase.
const gameProps = "{replicas: 2, enemies: enemies-data, lives: lives-data, port: 443}"

// gameDeployment is gameBase's Deployment with the containers given.
func gameDeployment(t *testing.T, containers string) out {
	return out{Object: obj(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: test}
spec:
  replicas: 2
  selector: {matchLabels: {app.oam.dev/component: test}}
  template:
    metadata: {labels: {app.oam.dev/component: test}}
    spec:
      containers: `+containers)}
}

// gameContainer is gameBase's container as rendered from gameProps.
const gameContainer = "{name: main, image: \"website:0.1\", ports: [{containerPort: 443}], envFrom: [{configMapRef: {name: testgame-config}}]}"

// gameConfig is gameBase's ConfigMap with the annotations given.
func gameConfig(t *testing.T, annotations string) out {
	md := "{name: testgame-config}"
	if annotations != "" {
		md = "{name: testgame-config, annotations: " + annotations + "}"
	}
	return out{Trait: cueval.AuxiliaryWorkload, Output: "gameconfig", Object: obj(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: "+md+"\ndata: {enemies: enemies-data, lives: lives-data}\n")}
}

// TestTraitTemplate is KubeVela's TestTraitTemplateComplete,
// TestTraitPatchSingleOutput and TestTraitTemplateCompleteRenderOrder
// (pkg/cue/definition/template_test.go): a trait of type t on gameBase
// patches the workload (patch: +patchKey, retainKeys, jsonMergePatch,
// jsonPatch, replace), outputs objects that see the workload and the
// outputs so far (context.output, context.outputs), patches earlier
// outputs (patchOutputs), and fails on errs or invalid templates.
func TestTraitTemplate(t *testing.T) {
	tests := []struct {
		name, tmpl, props string
		want              func(t *testing.T) []out
		wantErr           string
	}{
		{name: "patch trait", props: "{name: sidecar, image: \"metrics-agent:0.2\"}",
			tmpl: "patch: {\n\t// +patchKey=name\n\tspec: template: spec: containers: [parameter]\n}\nparameter: {\n\tname: string\n\timage: string\n\tcommand?: [...string]\n}",
			want: func(t *testing.T) []out {
				return []out{gameDeployment(t, "["+gameContainer+", {name: sidecar, image: \"metrics-agent:0.2\"}]"), gameConfig(t, "")}
			}},
		{name: "patch trait with strategic merge", props: "{image: \"website:0.2\", port: 8080, command: [server, start]}",
			tmpl: "patch: {\n\t// +patchKey=name\n\tspec: template: spec: {\n\t\t// +patchStrategy=retainKeys\n\t\tcontainers: [{\n\t\t\tname: \"main\"\n\t\t\timage: parameter.image\n\t\t\tports: [{containerPort: parameter.port}]\n\t\t\tenvFrom: [{configMapRef: name: context.name + \"game-config\"}]\n\t\t\tif parameter[\"command\"] != _|_ {\n\t\t\t\tcommand: parameter.command\n\t\t\t}\n\t\t}]\n\t}\n}\nparameter: {\n\timage: string\n\tport: int\n\tcommand?: [...string]\n}",
			want: func(t *testing.T) []out {
				return []out{gameDeployment(t, "[{name: main, image: \"website:0.2\", command: [server, start], ports: [{containerPort: 8080}], envFrom: [{configMapRef: {name: testgame-config}}]}]"), gameConfig(t, "")}
			}},
		{name: "patch trait with json merge patch", props: "{spec: {replicas: 5, template: {spec: null}}}",
			tmpl: "parameter: {...}\n// +patchStrategy=jsonMergePatch\npatch: parameter",
			want: func(t *testing.T) []out {
				d := gameDeployment(t, "[]")
				d.Object["spec"].(map[string]any)["replicas"] = int64(5)
				delete(d.Object["spec"].(map[string]any)["template"].(map[string]any), "spec")
				return []out{d, gameConfig(t, "")}
			}},
		{name: "patch trait with json patch", props: "{operations: [{op: replace, path: /spec/replicas, value: 5}, {op: remove, path: /spec/template/spec}]}",
			tmpl: "parameter: {operations: [...{...}]}\n// +patchStrategy=jsonPatch\npatch: parameter",
			want: func(t *testing.T) []out {
				d := gameDeployment(t, "[]")
				d.Object["spec"].(map[string]any)["replicas"] = int64(5)
				delete(d.Object["spec"].(map[string]any)["template"].(map[string]any), "spec")
				return []out{d, gameConfig(t, "")}
			}},
		{name: "patch trait with invalid json patch", props: "{patch: [{op: what, path: /spec/replicas, value: 5}]}",
			tmpl:    "parameter: {patch: [...{...}]}\n// +patchStrategy=jsonPatch\npatch: parameter",
			wantErr: `app.yaml:9:14: application "myapp" component "test" trait "t": cue: marshal error: patch: field not found: operations`},
		{name: "patch trait with replace", props: "{name: main, ports: [80, 8443]}",
			tmpl: "parameter: {\n\tname: string\n\tports: [...int]\n}\npatch: spec: template: spec: {\n\t// +patchKey=name\n\tcontainers: [{\n\t\tname: parameter.name\n\t\t// +patchStrategy=replace\n\t\tports: [for k in parameter.ports {containerPort: k}]\n\t}]\n}",
			want: func(t *testing.T) []out {
				return []out{gameDeployment(t, "[{name: main, image: \"website:0.1\", ports: [{containerPort: 80}, {containerPort: 8443}], envFrom: [{configMapRef: {name: testgame-config}}]}]"), gameConfig(t, "")}
			}},
		{name: "output trait", props: "{type: ClusterIP}",
			tmpl: "outputs: service: {\n\tapiVersion: \"v1\"\n\tkind: \"Service\"\n\tmetadata: name: context.name\n\tspec: type: parameter.type\n}\nparameter: type: string",
			want: func(t *testing.T) []out {
				return []out{gameDeployment(t, "["+gameContainer+"]"), gameConfig(t, ""),
					{Trait: "t", Output: "service", Object: obj(t, "{apiVersion: v1, kind: Service, metadata: {name: test}, spec: {type: ClusterIP}}")}}
			}},
		{name: "outputs trait with context appRevision", props: "{type: ClusterIP, host: example.com}",
			tmpl: "outputs: service: {\n\tapiVersion: \"v1\"\n\tkind: \"Service\"\n\tmetadata: {\n\t\tname: context.name\n\t\tannotations: \"revision.oam.dev\": context.appRevision\n\t}\n\tspec: type: parameter.type\n}\n" +
				"outputs: ingress: {\n\tapiVersion: \"extensions/v1beta1\"\n\tkind: \"Ingress\"\n\tmetadata: name: context.name\n\tspec: rules: [{host: parameter.host}]\n}\nparameter: {\n\ttype: string\n\thost: string\n}",
			want: func(t *testing.T) []out {
				return []out{gameDeployment(t, "["+gameContainer+"]"), gameConfig(t, ""),
					{Trait: "t", Output: "service", Object: obj(t, "{apiVersion: v1, kind: Service, metadata: {name: test, annotations: {revision.oam.dev: myapp-v1}}, spec: {type: ClusterIP}}")},
					{Trait: "t", Output: "ingress", Object: obj(t, "{apiVersion: extensions/v1beta1, kind: Ingress, metadata: {name: test}, spec: {rules: [{host: example.com}]}}")}}
			}},
		// The Service has no name: KubeVela names it (assembleTrait).
		{name: "simple data passing", props: "{domain: example.com, path: ping, exposePort: 1080}",
			tmpl: "parameter: {\n\tdomain: string\n\tpath: string\n\texposePort: int\n}\n" +
				"outputs: service: {\n\tapiVersion: \"v1\"\n\tkind: \"Service\"\n\tspec: {\n\t\tselector: app: context.name\n\t\tports: [{\n\t\t\tport: parameter.exposePort\n\t\t\ttargetPort: context.output.spec.template.spec.containers[0].ports[0].containerPort\n\t\t}]\n\t}\n}\n" +
				"outputs: ingress: {\n\tapiVersion: \"networking.k8s.io/v1\"\n\tkind: \"Ingress\"\n\tmetadata: name: context.name\n\tlabels: config: context.outputs.gameconfig.data.enemies\n\tspec: rules: [{\n\t\thost: parameter.domain\n\t\thttp: paths: [{\n\t\t\tpath: parameter.path\n\t\t\tpathType: \"Prefix\"\n\t\t\tbackend: service: {\n\t\t\t\tname: context.name\n\t\t\t\tport: number: parameter.exposePort\n\t\t\t}\n\t\t}]\n\t}]\n}",
			want: func(t *testing.T) []out {
				return []out{gameDeployment(t, "["+gameContainer+"]"), gameConfig(t, ""),
					{Trait: "t", Output: "service", Object: obj(t, "{apiVersion: v1, kind: Service, metadata: {name: test-t-*}, spec: {ports: [{port: 1080, targetPort: 443}], selector: {app: test}}}")},
					{Trait: "t", Output: "ingress", Object: obj(t, "{apiVersion: networking.k8s.io/v1, kind: Ingress, labels: {config: enemies-data}, metadata: {name: test}, spec: {rules: [{host: example.com, http: {paths: [{path: ping, pathType: Prefix, backend: {service: {name: test, port: {number: 1080}}}}]}}]}}")}}
			}},
		{name: "outputs trait with schema", props: "{type: ClusterIP, host: example.com}",
			tmpl: "#Service: {\n\tapiVersion: string\n\tkind: string\n}\n#Ingress: {\n\tapiVersion: string\n\tkind: string\n}\noutputs: {\n\tservice: #Service\n\tingress: #Ingress\n}\n" +
				"outputs: service: {\n\tapiVersion: \"v1\"\n\tkind: \"Service\"\n}\noutputs: ingress: {\n\tapiVersion: \"extensions/v1beta1\"\n\tkind: \"Ingress\"\n}\nparameter: {\n\ttype: string\n\thost: string\n}",
			want: func(t *testing.T) []out {
				return []out{gameDeployment(t, "["+gameContainer+"]"), gameConfig(t, ""),
					{Trait: "t", Output: "service", Object: obj(t, "{apiVersion: v1, kind: Service, metadata: {name: test-t-*}}")},
					{Trait: "t", Output: "ingress", Object: obj(t, "{apiVersion: extensions/v1beta1, kind: Ingress, metadata: {name: test-t-*}}")}}
			}},
		{name: "outputs trait with no params",
			tmpl: "outputs: hpa: {\n\tapiVersion: \"autoscaling/v2beta2\"\n\tkind: \"HorizontalPodAutoscaler\"\n\tmetadata: name: context.name\n\tspec: {\n\t\tminReplicas: parameter.min\n\t\tmaxReplicas: parameter.max\n\t}\n}\nparameter: {\n\tmin: *1 | int\n\tmax: *10 | int\n}",
			want: func(t *testing.T) []out {
				return []out{gameDeployment(t, "["+gameContainer+"]"), gameConfig(t, ""),
					{Trait: "t", Output: "hpa", Object: obj(t, "{apiVersion: autoscaling/v2beta2, kind: HorizontalPodAutoscaler, metadata: {name: test}, spec: {minReplicas: 1, maxReplicas: 10}}")}}
			}},
		{name: "parameter type doesn't match will raise error", props: "{exposePort: \"1080\"}",
			tmpl:    "parameter: exposePort: int\noutputs: service: {\n\tapiVersion: \"v1\"\n\tkind: \"Service\"\n\tspec: {\n\t\tselector: app: context.name\n\t\tports: [{\n\t\t\tport: parameter.exposePort\n\t\t\ttargetPort: parameter.exposePort\n\t\t}]\n\t}\n}",
			wantErr: `app.yaml:9:49: application "myapp" component "test" trait "t": parameter.exposePort: conflicting values int and "1080" (mismatched types int and string) (template t.cue:7:24)`},
		{name: "trait patch trait", props: "{patch-by: trait}",
			tmpl: "patchOutputs: gameconfig: metadata: annotations: parameter\nparameter: [string]: string",
			want: func(t *testing.T) []out {
				return []out{gameDeployment(t, "["+gameContainer+"]"), gameConfig(t, "{patch-by: trait}")}
			}},
		// errors
		{name: "invalid template(space-separated labels) will raise error", props: "{}",
			tmpl:    "a b: c",
			wantErr: `t.cue:1:3: application "myapp" component "test" trait "t": expected label or ':', found 'IDENT' b`},
		{name: "reference a non-existent variable will raise error", props: "{}",
			tmpl:    "patch: metadata: name: none\nparameter: [string]: string",
			wantErr: `t.cue:7:24: application "myapp" component "test" trait "t": patch.metadata.name: reference "none" not found`},
		{name: "out-of-scope variables in patch will raise error", props: "{}",
			tmpl:    "patchOutputs: {\n\tx: \"out of scope\"\n\tgameconfig: metadata: name: x\n}\nparameter: [string]: string",
			wantErr: `app.yaml:9:14: application "myapp" component "test" trait "t": metadata.name: conflicting values "out of scope" and "testgame-config"`},
		{name: "using the wrong keyword in the parameter will raise error", props: "{wrong-keyword: 5}",
			tmpl:    "patch: metadata: annotations: parameter\nparameter: [string]: string",
			wantErr: `app.yaml:9:36: application "myapp" component "test" trait "t": patch.metadata.annotations."wrong-keyword": conflicting values 5 and string (mismatched types int and string); parameter."wrong-keyword": conflicting values 5 and string (mismatched types int and string) (template t.cue:7:31)`},
		{name: "structural cycle in the template", props: "{}",
			tmpl:    "patch: metadata: labels: parameter\nloop: a: b: loop\nparameter: [string]: string",
			wantErr: `t.cue:8:10: application "myapp" component "test" trait "t": TraitDefinition "t": loop.a.b: structural cycle`},
		{name: "using errs", props: "{errs: [has error]}",
			tmpl:    "errs: parameter.errs\nparameter: {errs: [...string]}",
			wantErr: `app.yaml:9:14: application "myapp" component "test" trait "t": validation failed for trait t: User Errors: has error`},
		// TestTraitPatchSingleOutput: patchOutputs patches only the
		// outputs it names.
		{name: "patch a single output", props: "{}",
			tmpl: "patchOutputs: gameconfig: data: key: \"val\"\nparameter: {}",
			want: func(t *testing.T) []out {
				c := gameConfig(t, "")
				c.Object["data"].(map[string]any)["key"] = "val"
				return []out{gameDeployment(t, "["+gameContainer+"]"), c}
			}},
		// TestTraitTemplateCompleteRenderOrder: a trait's outputs come in
		// template order.
		{name: "non-dict-order outputs", props: "{}",
			tmpl: "outputs: zyx: {apiVersion: \"v1\", kind: \"ConfigMap\", metadata: name: \"test-zyx\"}\noutputs: lmn: {apiVersion: \"v1\", kind: \"ConfigMap\", metadata: name: \"test-lmn\"}\noutputs: abc: {apiVersion: \"v1\", kind: \"ConfigMap\", metadata: name: \"test-abc\"}",
			want: func(t *testing.T) []out {
				cm := func(n string) out {
					return out{Trait: "t", Output: n, Object: obj(t, "{apiVersion: v1, kind: ConfigMap, metadata: {name: test-"+n+"}}")}
				}
				return []out{gameDeployment(t, "["+gameContainer+"]"), gameConfig(t, ""), cm("zyx"), cm("lmn"), cm("abc")}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := parseApp(t, appWith("base", gameProps, "[{type: t, properties: "+tt.props+"}]"))
			trait := cueDef(t, "t", "trait", "", "")
			// A template that does not compile fails the render, not
			// before (a `vela def` file would not parse).
			trait.Template, trait.TemplateFile = tt.tmpl, "t.cue"
			if tt.tmpl != "a b: c" {
				trait = cueDef(t, "t", "trait", "", tt.tmpl)
			}
			defs := withDefs(t, cueDef(t, "base", "component", "", gameBase), trait)
			m, err := renderFirst(t, defs, app, cueval.Placement{})
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.want(t), bareAll(m)); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
		})
	}
}
