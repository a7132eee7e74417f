package workflow

import (
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/builtin"
	"github.com/drydock-dev/drydock/render/cueval"
)

var (
	builtinOnce sync.Once
	builtinSet  *render.Definitions
	builtinErr  error
)

// builtinDefinitions parses drydock's embedded definitions once.
func builtinDefinitions(t *testing.T) *render.Definitions {
	t.Helper()
	builtinOnce.Do(func() {
		builtinSet = render.NewDefinitions()
		for _, name := range builtin.Names() {
			d, err := builtin.Parse(name)
			if err != nil {
				builtinErr = err
				return
			}
			builtinSet.Add(d)
		}
	})
	if builtinErr != nil {
		t.Fatal(builtinErr)
	}
	return builtinSet
}

// renderDoc renders the first Application in doc (app.yaml) with the
// built-in definitions, the definitions in doc, and a member cluster m1;
// the Workflow and Policy objects in doc are on the hub, and any other
// object is observed there.
// It returns the error ("" for none) and the warnings.
func renderDoc(t *testing.T, doc string) (string, []string) {
	t.Helper()
	res, err := renderResult(t, doc)
	if err != nil {
		return manifest.Format(err, nil), nil
	}
	return "", res.Warnings
}

// renderResult is renderDoc's render.
func renderResult(t *testing.T, doc string) (*AppResult, error) {
	t.Helper()
	return renderWith(t, doc, nil)
}

// renderWith is renderResult with the options set changes.
func renderWith(t *testing.T, doc string, set func(*Options)) (*AppResult, error) {
	t.Helper()
	objs, err := manifest.Decode("app.yaml", []byte(doc), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inv := cluster.NewInventory()
	m1, err := manifest.Decode("clusters.yaml", []byte("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m1, labels: {region: east}}\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := inv.Add(m1[0]); err != nil {
		t.Fatal(err)
	}
	store := cluster.NewStore()
	opts := Options{Observed: store, Workflows: map[string]*render.Workflow{}, Policies: map[string]*render.Policy{}}
	defs := builtinDefinitions(t)
	var app *render.Application
	for _, o := range objs {
		switch o.Kind() {
		case "ComponentDefinition", "TraitDefinition", "PolicyDefinition", "WorkflowStepDefinition":
			var d *render.Definition
			if d, err = render.DefinitionFromObject(o); err == nil {
				if defs == builtinSet {
					defs = defs.Clone()
				}
				defs.Add(d)
			}
		case "Application":
			if app == nil {
				app, err = render.ParseApplication(o)
			}
		case "Workflow":
			var wf *render.Workflow
			if wf, err = render.ParseWorkflow(o); err == nil {
				opts.Workflows["default/"+wf.Name] = wf
			}
		case "Policy":
			var p *render.Policy
			if p, err = render.ParsePolicy(o); err == nil {
				opts.Policies["default/"+p.Name] = p
			}
		default:
			err = store.Apply(cluster.Local, cluster.Entry{Object: o})
		}
		if err != nil {
			return nil, err
		}
	}
	if set != nil {
		set(&opts)
	}
	return Run(cueval.New(defs), app, inv, opts)
}

// appDoc is an Application named a with one webservice component web,
// followed by spec (indented under spec:).
func appDoc(spec string) string {
	return "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n" +
		"  components: [{name: web, type: webservice, properties: {image: nginx}}]\n" + strings.TrimRight(spec, "\n") + "\n"
}

// wfDoc is a Workflow wf deploying web with an apply-component step.
const wfDoc = "apiVersion: core.oam.dev/v1alpha1\nkind: Workflow\nmetadata: {name: wf}\nsteps:\n- {name: w, type: apply-component, properties: {component: web}}\n---\n"

// policyDoc is a Policy ext: a topology to m1.
const policyDoc = "apiVersion: core.oam.dev/v1alpha1\nkind: Policy\nmetadata: {name: ext}\ntype: topology\nproperties: {clusters: [m1]}\n---\n"

// traitDoc is an Application with web scaled by a scaler trait;
// traitDoc2 adds a labels trait.
const (
	traitDoc  = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: [{name: web, type: webservice, properties: {image: nginx}, traits: [{type: scaler, properties: {replicas: 2}}]}]\n"
	traitDoc2 = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: [{name: web, type: webservice, properties: {image: nginx}, traits: [{type: scaler, properties: {replicas: 2}}, {type: labels, properties: {x: y}}]}]\n"
)

// refDoc is a ConfigMap cm and a CustomResourceDefinition of widgets on the
// hub, and an Application with a ref-objects component ref of properties.
func refDoc(properties string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: default}\n---\n" +
		"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\n" +
		"spec: {group: example.com, scope: Namespaced, names: {kind: Widget, plural: widgets, singular: widget}}\n---\n" +
		"apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\n---\n" +
		"apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n" +
		"  components: [{name: ref, type: ref-objects, properties: " + properties + "}]\n"
}

// TestRefusals lists what KubeVela refuses and drydock must refuse in
// KubeVela's words, located in the Application; and what KubeVela
// accepts that looks as if it might not be.
func TestRefusals(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		// The API server's ValidateObjectMeta checks the Application's own
		// name and namespace.
		{"application name not a DNS-1123 subdomain", strings.Replace(appDoc(""), "{name: a}", "{name: My_App}", 1),
			`app.yaml:3:18: invalid application: application "My_App": metadata.name: Invalid value: "My_App": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"application name too long", strings.Replace(appDoc(""), "{name: a}", "{name: "+strings.Repeat("a", 254)+"}", 1),
			`app.yaml:3:18: invalid application: application "` + strings.Repeat("a", 254) + `": metadata.name: Invalid value: "` + strings.Repeat("a", 254) + `": must be no more than 253 characters`},
		{"application namespace not a DNS-1123 label", strings.Replace(appDoc(""), "{name: a}", "{name: a, namespace: x.y}", 1),
			`app.yaml:3:32: invalid application: application "a": metadata.namespace: Invalid value: "x.y": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		// Step errors point at the step's field.
		{"apply-component of an unknown component", appDoc("  workflow:\n    steps: [{name: ac, type: apply-component, properties: {component: nothere}}]"),
			`app.yaml:7:71: application "a": step "ac": component "nothere" not found`},
		{"apply-object value not an object", appDoc("  workflow:\n    steps: [{name: ao, type: apply-object, properties: {value: x}}]"),
			`app.yaml:7:64: application "a": step "ao": apply-object needs properties.value (an object)`},
		{"apply-object value without kind", appDoc("  workflow:\n    steps: [{name: ao, type: apply-object, properties: {value: {metadata: {name: x}}}}]"),
			`app.yaml:7:64: application "a": step "ao": apply-object: properties.value needs kind and metadata.name`},
		{"if with a syntax error", appDoc("  workflow:\n    steps: [{name: s, type: suspend, if: \"status.x ==== \"}]"),
			`app.yaml:7:42: application "a": step "s": if "status.x ==== ": expected operand, found '=='`},
		// KubeVela's suspend provider parses the duration (time.ParseDuration)
		// and fails the step on a bad one.
		{"suspend duration", appDoc("  workflow:\n    steps: [{name: s, type: suspend, properties: {duration: 1m30s}}]"), ""},
		{"suspend duration not a duration", appDoc("  workflow:\n    steps: [{name: s, type: suspend, properties: {duration: forever}}]"),
			`app.yaml:7:61: application "a": step "s": failed to parse duration forever: time: invalid duration "forever"`},
		{"suspend duration not a string", appDoc("  workflow:\n    steps: [{name: s, type: suspend, properties: {duration: 5}}]"),
			`app.yaml:7:61: application "a": step "s": parameter.duration: conflicting values 5 and string (mismatched types int and string)`},
		// A component's dependsOn is the component's (KubeVela generates
		// a step per component).
		{"component dependsOn an unknown component", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n" +
			"  components: [{name: web, type: webservice, properties: {image: nginx}, dependsOn: [ghost]}]\n",
			`app.yaml:5:86: application "a" component "web": dependsOn names unknown component "ghost"`},
		{"component dependsOn cycle", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n" +
			"  - {name: a, type: webservice, properties: {image: nginx}, dependsOn: [b]}\n  - {name: b, type: webservice, properties: {image: nginx}, dependsOn: [a]}\n",
			`app.yaml:6:72: application "a" component "a": dependsOn forms a cycle`},
		{"step dependsOn an unknown step", appDoc("  workflow:\n    steps: [{name: s, type: suspend, dependsOn: [x, zzz]}]"),
			`app.yaml:7:50: application "a": step "s": dependsOn names unknown step "x"`},
		// The mutating webhook names unnamed steps step-<i> and
		// sub-steps step-<i>-<j> before the validating one checks them.
		{"unnamed steps are named", appDoc("  workflow:\n    steps: [{type: suspend}, {type: suspend}]"), ""},
		{"unnamed sub-steps are named", appDoc("  workflow:\n    steps: [{name: g, type: step-group, subSteps: [{type: suspend}, {type: suspend}]}]"), ""},
		{"a generated name is a duplicate", appDoc("  workflow:\n    steps:\n    - {name: step-1, type: suspend}\n    - {type: suspend}"),
			`app.yaml:9:7: invalid application: application "a": spec.workflow.steps: Invalid value: "step-1": duplicated step name (first at app.yaml:8:14; KubeVela's mutating webhook gave this unnamed step that name)`},
		{"an authored name duplicates a generated one", appDoc("  workflow:\n    steps:\n    - {type: suspend}\n    - {name: step-0, type: suspend}"),
			`app.yaml:9:14: invalid application: application "a": spec.workflow.steps: Invalid value: "step-0": duplicated step name (first at app.yaml:8:7, an unnamed step KubeVela's mutating webhook gave that name)`},
		// The parser names a nameless policy <type>-auto-gen-<index>.
		{"auto-generated policy name", appDoc("  policies: [{type: garbage-collect}]"),
			`app.yaml:6:14: invalid application: application "a": policy "garbage-collect-auto-gen-0": spec.policies[0]: failed to parsePolicies: policy garbage-collect named garbage-collect-auto-gen-0 must not have empty properties`},
		// The parser needs a definition for every step type (parseWorkflowSteps).
		{"unknown step type", appDoc("  workflow:\n    steps: [{name: s, type: nope}]"),
			`app.yaml:7:29: invalid application: application "a": step "s": spec.workflow.steps[0].type: failed to parseWorkflowSteps: failed to get workflow step definition nope: workflowstepdefinitions.core.oam.dev "nope" not found`},
		{"unknown sub-step type", appDoc("  workflow:\n    steps: [{name: g, type: step-group, subSteps: [{name: x, type: nope}]}]"),
			`app.yaml:7:68: invalid application: application "a": step "x": spec.workflow.steps[0].subSteps[0].type: failed to parseWorkflowSteps: failed to get workflow step definition nope: workflowstepdefinitions.core.oam.dev "nope" not found`},
		{"empty step type", appDoc("  workflow:\n    steps: [{name: s, type: \"\"}]"),
			`app.yaml:7:29: invalid application: application "a": step "s": spec.workflow.steps[0].type: failed to parseWorkflowSteps: failed to get workflow step definition : workflowstepdefinitions.core.oam.dev "" not found`},
		// An installed type runs from its definition: without it loaded,
		// KubeVela's words for a missing WorkflowStepDefinition.
		{"step type without a definition", appDoc("  workflow:\n    steps: [{name: s, type: my-notification}]"),
			`app.yaml:7:29: invalid application: application "a": step "s": spec.workflow.steps[0].type: failed to parseWorkflowSteps: failed to get workflow step definition my-notification: workflowstepdefinitions.core.oam.dev "my-notification" not found (did you mean "notification"?)`},
		// spec.workflow.ref names a Workflow object in the namespace.
		{"ref to a missing Workflow", appDoc("  workflow: {ref: wf}"),
			`app.yaml:6:19: invalid application: application "a": workflow: spec.workflow.ref: failed to parseWorkflowSteps: workflows.core.oam.dev "wf" not found`},
		{"ref with steps to a missing Workflow", appDoc("  workflow: {ref: wf, steps: [{name: s, type: suspend}]}"),
			`app.yaml:6:19: invalid application: application "a": workflow: spec.workflow.ref: failed to parseWorkflowSteps: workflows.core.oam.dev "wf" not found`},
		{"ref with mode to a missing Workflow", appDoc("  workflow: {ref: wf, mode: {steps: DAG}}"),
			`app.yaml:6:19: invalid application: application "a": workflow: spec.workflow.ref: failed to parseWorkflowSteps: generate step failed in WorkflowStepGenerator : workflows.core.oam.dev "wf" not found`},
		{"ref with steps", wfDoc + appDoc("  workflow: {ref: wf, mode: {steps: DAG}, steps: [{name: s, type: suspend}]}"),
			`app.yaml:12:50: invalid application: application "a": workflow: spec.workflow.steps: failed to parseWorkflowSteps: generate step failed in WorkflowStepGenerator : cannot set steps and ref in workflow at the same time`},
		{"ref with empty steps", wfDoc + appDoc("  workflow: {ref: wf, steps: []}"),
			`app.yaml:12:30: invalid application: application "a": workflow: spec.workflow.steps: failed to parseWorkflowSteps: generate step failed in WorkflowStepGenerator : cannot set steps and ref in workflow at the same time`},
		{"ref to a Workflow", wfDoc + appDoc("  workflow: {ref: wf}"), ""},
		{"ref to a Workflow with an unknown step type", strings.Replace(wfDoc, "apply-component", "nope", 1) + appDoc("  workflow: {ref: wf}"),
			`app.yaml:5:19: invalid application: application "a": step "w": Workflow wf: steps[0].type: failed to parseWorkflowSteps: failed to get workflow step definition nope: workflowstepdefinitions.core.oam.dev "nope" not found`},
		// A top-level deploy step's properties decode strictly when the parser loads external policies.
		{"deploy unknown field", appDoc("  workflow:\n    steps: [{name: d, type: deploy, properties: {policies: [], foo: bar}}]"),
			`app.yaml:7:69: invalid application: application "a": step "d": spec.workflow.steps[0].properties.foo: failed to parsePolicies: invalid WorkflowStep d: json: unknown field "foo"`},
		{"deploy policies not a list", appDoc("  workflow:\n    steps: [{name: d, type: deploy, properties: {policies: t}}]"),
			`app.yaml:7:60: invalid application: application "a": step "d": spec.workflow.steps[0].properties.policies: failed to parsePolicies: invalid WorkflowStep d: json: cannot unmarshal string into Go struct field DeployWorkflowStepSpec.policies of type []string`},
		{"deploy policy not a string", appDoc("  workflow:\n    steps: [{name: d, type: deploy, properties: {policies: [1]}}]"),
			`app.yaml:7:61: invalid application: application "a": step "d": spec.workflow.steps[0].properties.policies[0]: failed to parsePolicies: invalid WorkflowStep d: json: cannot unmarshal number into Go struct field DeployWorkflowStepSpec.policies of type string`},
		{"deploy parallelism not an int", appDoc("  workflow:\n    steps: [{name: d, type: deploy, properties: {parallelism: \"5\"}}]"),
			`app.yaml:7:63: invalid application: application "a": step "d": spec.workflow.steps[0].properties.parallelism: failed to parsePolicies: invalid WorkflowStep d: json: cannot unmarshal string into Go struct field DeployWorkflowStepSpec.parallelism of type int`},
		{"deploy auto not a bool", appDoc("  workflow:\n    steps: [{name: d, type: deploy, properties: {auto: \"yes\"}}]"),
			`app.yaml:7:56: invalid application: application "a": step "d": spec.workflow.steps[0].properties.auto: failed to parsePolicies: invalid WorkflowStep d: json: cannot unmarshal string into Go struct field DeployWorkflowStepSpec.auto of type bool`},
		{"deploy ignoreTerraformComponent not a bool", appDoc("  workflow:\n    steps: [{name: d, type: deploy, properties: {ignoreTerraformComponent: \"no\"}}]"),
			`app.yaml:7:76: invalid application: application "a": step "d": spec.workflow.steps[0].properties.ignoreTerraformComponent: failed to parsePolicies: invalid WorkflowStep d: json: cannot unmarshal string into Go struct field DeployWorkflowStepSpec.ignoreTerraformComponent of type bool`},
		{"external policy missing", appDoc("  workflow:\n    steps: [{name: d, type: deploy, properties: {policies: [ext]}}]"),
			`app.yaml:7:61: invalid application: application "a": step "d": spec.workflow.steps[0].properties.policies[0]: failed to parsePolicies: external policy ext not found`},
		{"external policy", policyDoc + appDoc("  workflow:\n    steps: [{name: d, type: deploy, properties: {policies: [ext]}}]"), ""},
		{"external policy without properties", strings.Replace(policyDoc, "properties: {clusters: [m1]}\n", "", 1) + appDoc("  workflow:\n    steps: [{name: d, type: deploy, properties: {policies: [ext]}}]"),
			`app.yaml:1:1: invalid application: application "a": policy "ext": Policy ext: failed to parsePolicies: policy topology named ext must not have empty properties`},
		{"a sub-step does not load external policies", policyDoc + appDoc("  workflow:\n    steps: [{name: g, type: step-group, subSteps: [{name: d, type: deploy, properties: {policies: [ext]}}]}]"),
			`app.yaml:13:100: application "a": step "d": policy "ext" not found`},
		// Override policies decode (unknown fields allowed) and name defined types.
		{"override components not a list", appDoc("  policies: [{name: o, type: override, properties: {components: web}}]"),
			`app.yaml:6:65: invalid application: application "a": policy "o": spec.policies[0].properties.components: failed to parsePolicies: invalid override policy spec: json: cannot unmarshal string into Go struct field OverridePolicySpec.components of type []v1alpha1.EnvComponentPatch`},
		{"override selector not a list", appDoc("  policies: [{name: o, type: override, properties: {selector: web}}]"),
			`app.yaml:6:63: invalid application: application "a": policy "o": spec.policies[0].properties.selector: failed to parsePolicies: invalid override policy spec: json: cannot unmarshal string into Go struct field OverridePolicySpec.selector of type []string`},
		{"override traits not a list", appDoc("  policies: [{name: o, type: override, properties: {components: [{name: web, traits: {}}]}}]"),
			`app.yaml:6:86: invalid application: application "a": policy "o": spec.policies[0].properties.components[0].traits: failed to parsePolicies: invalid override policy spec: json: cannot unmarshal object into Go struct field EnvComponentPatch.components.traits of type []v1alpha1.EnvTraitPatch`},
		{"override disable not a bool", appDoc("  policies: [{name: o, type: override, properties: {components: [{name: web, traits: [{type: scaler, disable: \"yes\"}]}]}}]"),
			`app.yaml:6:111: invalid application: application "a": policy "o": spec.policies[0].properties.components[0].traits[0].disable: failed to parsePolicies: invalid override policy spec: json: cannot unmarshal string into Go struct field EnvTraitPatch.components.traits.disable of type bool`},
		{"override unknown component type", appDoc("  policies: [{name: o, type: override, properties: {components: [{type: nope}]}}]"),
			`app.yaml:6:73: invalid application: application "a": policy "o": spec.policies[0].properties.components[0].type: failed to parsePolicies: failed to get component definition nope for override policy o: componentdefinitions.core.oam.dev "nope" not found`},
		{"override unknown trait type", appDoc("  policies: [{name: o, type: override, properties: {components: [{name: other, type: worker, traits: [{type: nope}]}]}}]"),
			`app.yaml:6:110: invalid application: application "a": policy "o": spec.policies[0].properties.components[0].traits[0].type: failed to parsePolicies: failed to get trait definition nope for override policy o: traitdefinitions.core.oam.dev "nope" not found`},
		// env-binding: KubeVela generates deploy2env steps, which run from their definition.
		{"env-binding envs not a list", appDoc("  policies: [{name: eb, type: env-binding, properties: {envs: prod}}]"),
			`app.yaml:6:63: invalid application: application "a": policy "eb": spec.policies[0].properties.envs: failed to parseWorkflowSteps: generate step failed in WorkflowStepGenerator : json: cannot unmarshal string into Go struct field EnvBindingSpec.envs of type []v1alpha1.EnvConfig`},
		{"env-binding", appDoc("  policies: [{name: eb, type: env-binding, properties: {envs: [{name: prod}]}}]"),
			`app.yaml:6:31: application "a": step "deploy-eb-prod": WorkflowStepDefinition "deploy2env": function call error for app.prepare.placementDecisions: empty placement for policy eb in env prod`},
		{"unused env-binding", appDoc("  policies: [{name: eb, type: env-binding, properties: {envs: [{name: prod}]}}]\n  workflow:\n    steps: [{name: s, type: apply-component, properties: {component: web}}]"), ""},
		// ref-objects properties decode strictly when the parser refers to the objects.
		{"ref-objects unknown field", refDoc("{objects: [{resource: configmaps, name: cm}], foo: bar}"),
			`app.yaml:18:110: application "a" component "ref": spec.components[0].properties.foo: failed to parseReferredObjects: invalid properties for ref-objects in component ref: json: unknown field "foo"`},
		{"ref-objects objects not a list", refDoc("{objects: {resource: configmaps}}"),
			`app.yaml:18:69: application "a" component "ref": spec.components[0].properties.objects: failed to parseReferredObjects: invalid properties for ref-objects in component ref: json: cannot unmarshal object into Go struct field RefObjectsComponentSpec.objects of type []v1alpha1.ObjectReferrer`},
		{"ref-objects without properties", strings.Replace(refDoc("{}"), ", properties: {}", "", 1),
			`app.yaml:18:16: application "a" component "ref": spec.components[0]: failed to parseReferredObjects: invalid properties for ref-objects in component ref: EOF`},
		{"ref-objects apiVersion and kind", refDoc("{objects: [{apiVersion: v1, kind: ConfigMap, name: cm}]}"),
			`app.yaml:18:70: application "a" component "ref": resource is not set and legacy object type identifier is disabled for referring objects`},
		{"ref-objects deprecated selector", refDoc("{objects: [{resource: configmaps, selector: {app: x}}]}"),
			`app.yaml:18:70: application "a" component "ref": failed to load ref object ConfigMap default/ref: not found in cluster "local" (give the clusters' objects with --observed)`},
		{"ref-objects", refDoc("{objects: [{resource: configmaps, name: cm}]}"), ""},
		{"ref-objects custom resource", refDoc("{objects: [{resource: widgets, name: w}]}"), ""},
		// Definition revisions (type@vN) are not available offline.
		{"definition revision", strings.Replace(appDoc(""), "type: webservice", "type: webservice@v1", 1),
			`app.yaml:5:34: application "a" component "web": unknown type: "webservice@v1" names a revision of ComponentDefinition "webservice": DefinitionRevision objects are not available offline (drydock renders with the definitions it is given; use "webservice")`},
		{"invalid definition revision name", strings.Replace(appDoc(""), "type: webservice", "type: \"webservice@vX_Y!\"", 1),
			`app.yaml:5:34: application "a" component "web": invalid definitionRevision name webservice:name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		// When the workflow runs: the deploy step's policies decode strictly.
		{"topology unknown field", appDoc("  policies: [{name: t, type: topology, properties: {clusters: [m1], foo: bar}}]"),
			`app.yaml:6:74: application "a": policy "t": spec.policies[0].properties.foo: failed to parse topology policy t: json: unknown field "foo"`},
		{"topology clusters not a list", appDoc("  policies: [{name: t, type: topology, properties: {clusters: m1}}]"),
			`app.yaml:6:63: application "a": policy "t": spec.policies[0].properties.clusters: failed to parse topology policy t: json: cannot unmarshal string into Go struct field TopologyPolicySpec.Placement.clusters of type []string`},
		{"topology namespace not a string", appDoc("  policies: [{name: t, type: topology, properties: {clusters: [m1], namespace: 5}}]"),
			`app.yaml:6:80: application "a": policy "t": spec.policies[0].properties.namespace: failed to parse topology policy t: json: cannot unmarshal number into Go struct field TopologyPolicySpec.namespace of type string`},
		{"topology label not a string", appDoc("  policies: [{name: t, type: topology, properties: {clusterLabelSelector: {region: 5}}}]"),
			`app.yaml:6:84: application "a": policy "t": spec.policies[0].properties.clusterLabelSelector.region: failed to parse topology policy t: json: cannot unmarshal number into Go struct field TopologyPolicySpec.Placement.clusterLabelSelector of type string`},
		{"topology clusterSelector is deprecated", appDoc("  policies: [{name: t, type: topology, properties: {clusterSelector: {region: west}}}]"), ""},
		{"override unknown field at deploy", appDoc("  policies: [{name: o, type: override, properties: {components: [], foo: bar}}]"),
			`app.yaml:6:74: application "a": policy "o": spec.policies[0].properties.foo: failed to parse override policy o: json: unknown field "foo"`},
		{"nameless override patch properties not an object", appDoc("  policies: [{name: o, type: override, properties: {components: [{properties: x}]}}]"),
			`app.yaml:6:65: application "a": policy "o": spec.policies[0].properties.components: failed to apply override policy o: failed to merge application components: failed to merge component properties: failed to convert patch parameters to map: json: cannot unmarshal string into Go value of type map[string]interface {}`},
		{"nameless override trait properties not an object", traitDoc + "  policies: [{name: o, type: override, properties: {components: [{traits: [{type: scaler, properties: x}]}]}}]\n",
			`app.yaml:6:65: application "a": policy "o": spec.policies[0].properties.components: failed to apply override policy o: failed to merge application components: failed to merge component traits: failed to convert patch parameters to map: json: cannot unmarshal string into Go value of type map[string]interface {}`},
		{"lost component", traitDoc2 + "  policies: [{name: o, type: override, properties: {components: [{name: web, traits: [{type: scaler, properties: x}, {type: labels, properties: {a: b}}]}]}}]\n",
			`app.yaml:6:65: application "a": policy "o": spec.policies[0].properties.components: failed to apply override policy o: KubeVela's merge loses component web (a trait patch whose properties are not an object, then one that merges) and dereferences it: the deploy fails`},
		{"replication unknown field", appDoc("  policies: [{name: r, type: replication, properties: {keys: [a], selector: [web], foo: bar}}]\n  workflow:\n    steps: [{name: d, type: deploy, properties: {policies: [r]}}]"),
			`app.yaml:6:89: application "a": policy "r": spec.policies[0].properties.foo: failed to parse replicate policy r: json: unknown field "foo"`},
		{"replication keys not a list", appDoc("  policies: [{name: r, type: replication, properties: {keys: a, selector: [web]}}]\n  workflow:\n    steps: [{name: d, type: deploy, properties: {policies: [r]}}]"),
			`app.yaml:6:62: application "a": policy "r": spec.policies[0].properties.keys: failed to parse replicate policy r: json: cannot unmarshal string into Go struct field ReplicationPolicySpec.keys of type []string`},
		{"deploy parallelism 0", appDoc("  workflow:\n    steps: [{name: d, type: deploy, properties: {parallelism: 0}}]"),
			`app.yaml:7:63: application "a": step "d": spec.workflow.steps[0].properties.parallelism: parallelism cannot be smaller than 1`},
		{"deploy sub-step parallelism not an int", appDoc("  workflow:\n    steps: [{name: g, type: step-group, subSteps: [{name: d, type: deploy, properties: {parallelism: \"5\"}}]}]"),
			`app.yaml:7:102: application "a": step "d": spec.workflow.steps[0].subSteps[0].properties.parallelism: parameter.parallelism: conflicting values "5" and 5 (mismatched types string and int); parameter.parallelism: conflicting values "5" and int (mismatched types string and int)`},
		{"deploy sub-step policy missing", appDoc("  workflow:\n    steps: [{name: g, type: step-group, subSteps: [{name: d, type: deploy, properties: {policies: [nope]}}]}]"),
			`app.yaml:7:100: application "a": step "d": policy "nope" not found`},
		// The resource keeper decodes the resource policies before the workflow starts.
		{"apply-once enable not a bool", appDoc("  policies: [{name: ao, type: apply-once, properties: {enable: \"yes\"}}]"),
			`app.yaml:6:64: application "a": policy "ao": spec.policies[0].properties.enable: failed to parse apply-once policy: failed to unmarshal *v1alpha1.ApplyOncePolicySpec: json: cannot unmarshal string into Go struct field ApplyOncePolicySpec.enable of type bool`},
		{"garbage-collect rules not a list", appDoc("  policies: [{name: gc, type: garbage-collect, properties: {rules: x}}]"),
			`app.yaml:6:68: application "a": policy "gc": spec.policies[0].properties.rules: failed to parse garbage-collect policy: failed to unmarshal *v1alpha1.GarbageCollectPolicySpec: json: cannot unmarshal string into Go struct field GarbageCollectPolicySpec.rules of type []v1alpha1.GarbageCollectPolicyRule`},
		{"garbage-collect strategy not a string", appDoc("  policies: [{name: gc, type: garbage-collect, properties: {rules: [{selector: {componentNames: [web]}, strategy: 1}]}}]"),
			`app.yaml:6:115: application "a": policy "gc": spec.policies[0].properties.rules[0].strategy: failed to parse garbage-collect policy: failed to unmarshal *v1alpha1.GarbageCollectPolicySpec: json: cannot unmarshal number into Go struct field GarbageCollectPolicyRule.rules.strategy of type v1alpha1.GarbageCollectStrategy`},
		{"shared-resource rules not a list", appDoc("  policies: [{name: sr, type: shared-resource, properties: {rules: x}}]"),
			`app.yaml:6:68: application "a": policy "sr": spec.policies[0].properties.rules: failed to parse shared-resource policy: failed to unmarshal *v1alpha1.SharedResourcePolicySpec: json: cannot unmarshal string into Go struct field SharedResourcePolicySpec.rules of type []v1alpha1.SharedResourcePolicyRule`},
		{"take-over rules not a list", appDoc("  policies: [{name: to, type: take-over, properties: {rules: x}}]"),
			`app.yaml:6:62: application "a": policy "to": spec.policies[0].properties.rules: failed to parse take-over policy: failed to unmarshal *v1alpha1.TakeOverPolicySpec: json: cannot unmarshal string into Go struct field TakeOverPolicySpec.rules of type []v1alpha1.TakeOverPolicyRule`},
		{"read-only rules not a list", appDoc("  policies: [{name: ro, type: read-only, properties: {rules: x}}]"),
			`app.yaml:6:62: application "a": policy "ro": spec.policies[0].properties.rules: failed to parse read-only policy: failed to unmarshal *v1alpha1.ReadOnlyPolicySpec: json: cannot unmarshal string into Go struct field ReadOnlyPolicySpec.rules of type []v1alpha1.ReadOnlyPolicyRule`},
		{"resource-update rules not a list", appDoc("  policies: [{name: ru, type: resource-update, properties: {rules: x}}]"),
			`app.yaml:6:68: application "a": policy "ru": spec.policies[0].properties.rules: failed to parse resource-update policy: failed to unmarshal *v1alpha1.ResourceUpdatePolicySpec: json: cannot unmarshal string into Go struct field ResourceUpdatePolicySpec.rules of type []v1alpha1.ResourceUpdatePolicyRule`},
		// PatchComponents adds a component no patch name matches; without
		// a type, the deploy cannot load its definition (makeComponent).
		{"an override names a missing component", appDoc("  policies: [{name: o, type: override, properties: {components: [{name: wbe, properties: {image: x}}]}}]"),
			`app.yaml:6:73: application "a" component "wbe": fetch component/policy type of wbe: load template from component definition [] : workloaddefinitions.core.oam.dev "" not found (an override policy names component "wbe", which the Application does not have: KubeVela adds it, of type "") (deploy step "deploy", override policies o)`},
		{"resource policies of one type merge", appDoc("  policies:\n  - {name: a, type: apply-once, properties: {enable: true}}\n  - {name: b, type: apply-once, properties: {enable: \"yes\", rules: x}}"),
			`app.yaml:8:68: application "a": policy "b": spec.policies[1].properties.rules: failed to parse apply-once policy: failed to unmarshal *v1alpha1.ApplyOncePolicySpec: json: cannot unmarshal string into Go struct field ApplyOncePolicySpec.rules of type []v1alpha1.ApplyOncePolicyRule`},
		{"unknown fields in resource policies are fine", appDoc("  policies: [{name: gc, type: garbage-collect, properties: {foo: bar}}]"), ""},
		// parsePolicies never evaluates the chart's PolicyDefinition of a type it handles.
		{"a resource policy's definition template is not evaluated", appDoc("  policies: [{name: gc, type: garbage-collect, properties: {rules: [{selector: {componentNames: [web]}, strategy: bogus}]}}]"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := renderDoc(t, tt.doc)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAcceptedWithWarnings lists what KubeVela accepts, and does in a way
// a user would not expect, with drydock's warning.
func TestAcceptedWithWarnings(t *testing.T) {
	tests := []struct {
		name, doc string
		writes    int
		want      []string
	}{
		{"a named patch that does not merge drops every component", appDoc("  policies: [{name: o, type: override, properties: {components: [{name: web, properties: x}]}}]"),
			0, []string{`app.yaml:6:65: application "a" policy "o": a component patch does not merge (its properties are not an object); KubeVela then drops every component of deploy step "deploy", which dispatches nothing`}},
		{"so does a named trait patch", traitDoc + "  policies: [{name: o, type: override, properties: {components: [{name: web, traits: [{type: scaler, properties: x}]}]}}]\n",
			0, []string{`app.yaml:6:65: application "a" policy "o": a component patch does not merge (its properties are not an object); KubeVela then drops every component of deploy step "deploy", which dispatches nothing`}},
		{"two traits output one name", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n  - name: web\n    type: webservice\n    properties: {image: nginx}\n    traits: [{type: hpa, properties: {max: 5}}, {type: hpa, properties: {max: 8}}]\n",
			3, []string{`app.yaml:9:49: application "a" component "web" trait "hpa": spec.components[0].traits[1]: KubeVela's validating webhook refuses this Application: cannot evaluate trait "hpa": cannot append auxiliaries into context: outputs item name must be unique: auxiliary "hpa" already exits (its controller renders it, as drydock does)`}},
		// FilterComponents: the deploy dispatches only what the selector names.
		{"an override selector drops components", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n  - {name: web, type: webservice, properties: {image: nginx}}\n  - {name: api, type: webservice, properties: {image: nginx}}\n  policies: [{name: o, type: override, properties: {selector: [api]}}]\n",
			1, []string{`app.yaml:8:63: application "a" policy "o": the selector ["api"] keeps only those components in deploy step "deploy": KubeVela leaves out ["web"] there`}},
		// The resource keeper dispatches both; the later wins.
		{"two outputs write one object", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n" +
			"  - {name: web, type: webservice, properties: {image: nginx, ports: [{port: 80, expose: true}]}}\n" +
			"  - {name: svc, type: k8s-objects, properties: {objects: [{apiVersion: v1, kind: Service, metadata: {name: web}, spec: {ports: [{port: 81}]}}]}}\n",
			3, []string{`app.yaml:7:5: application "a": component "web" output "webserviceExpose" and component "svc" workload render the same object Service default/web in cluster "local": KubeVela applies both in turn, and the cluster keeps the later`}},
		{"a component deployed twice is an update", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n" +
			"  - {name: web, type: webservice, properties: {image: nginx}}\n  workflow:\n    steps: [{name: a, type: apply-component, properties: {component: web}}, {name: b, type: apply-component, properties: {component: web}}]\n",
			2, nil},
		// The Application CRD does not require spec.
		{"no spec", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\n", 0,
			[]string{`app.yaml:1:1: application "a" has no spec: KubeVela admits it and renders nothing for it`}},
		{"spec: null", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec: null\n", 0,
			[]string{`app.yaml:4:7: application "a" has spec: null (the API server drops it): KubeVela admits it and renders nothing for it`}},
		{"PostDispatch traits are not checked", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n  - name: web\n    type: webservice\n    properties: {image: nginx}\n    traits: [{type: expose, properties: {port: [80]}}, {type: expose, properties: {port: [81]}}]\n",
			3, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := renderResult(t, tt.doc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, res.Warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if len(res.Writes) != tt.writes {
				t.Errorf("%d writes, want %d", len(res.Writes), tt.writes)
			}
		})
	}
}
