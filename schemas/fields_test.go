package schemas

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// decodeDoc decodes the one object of src as the pipeline reads inputs:
// from a stream, so that it can be decoded again alone.
func decodeDoc(t *testing.T, src string) *manifest.Object {
	t.Helper()
	objs, err := manifest.NewDecoder("in.yaml", []byte(src), manifest.DecodeOptions{}).Next()
	if err != nil || len(objs) != 1 {
		t.Fatalf("decode: %v (%d objects)", err, len(objs))
	}
	return objs[0]
}

// formatted is errs written as the CLI writes them, one a line.
func formatted(errs []*manifest.Error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, manifest.Format(e, nil))
	}
	return out
}

// stepFields are every field of a workflow step but mode and subSteps.
const stepFields = "name: s\ntype: deploy\ndependsOn: [x]\nif: status.x.timeout\ntimeout: 1m\nmeta: {alias: S}\n" +
	"inputs: [{from: o, parameterKey: p.q}]\noutputs: [{name: o, valueFrom: output.x}]\nproperties: {anything: {goes: [1]}}"

// stepAt is a list item of stepFields whose fields are indented by indent.
func stepAt(indent string) string { return strings.ReplaceAll(stepFields, "\n", "\n"+indent) }

// Every field of KubeVela 5a44b5f's CRDs, and of ObjectMeta.
var (
	fullMeta = `metadata:
  name: a
  generateName: a-
  namespace: ns
  selfLink: /x
  uid: "1"
  resourceVersion: "2"
  generation: 3
  creationTimestamp: "2024-01-01T00:00:00Z"
  deletionTimestamp: "2024-01-02T00:00:00Z"
  deletionGracePeriodSeconds: 30
  labels: {a: b}
  annotations: {c: d}
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: o, uid: "4", controller: true, blockOwnerDeletion: true}]
  finalizers: [f]
  managedFields: [{manager: m, operation: Apply, apiVersion: v1, time: "2024-01-01T00:00:00Z", fieldsType: FieldsV1, fieldsV1: {"f:spec": {any: thing}}, subresource: status}]
`
	fullApp = "apiVersion: core.oam.dev/v1beta1\nkind: Application\n" + fullMeta + `spec:
  components:
    - name: c
      type: webservice
      externalRevision: c-v1
      dependsOn: [d]
      scopes: {healthscopes.core.oam.dev: h}
      inputs: [{from: o, parameterKey: image}]
      outputs: [{name: o, valueFrom: output.metadata.name}]
      properties: {image: nginx, replica: 3, nested: {anything: goes}}
      traits:
        - type: scaler
          properties: {replicas: 2}
  policies:
    - name: p
      type: topology
      properties: {clusters: [local]}
  workflow:
    ref: w
    mode: {steps: DAG, subSteps: StepByStep}
    steps:
      - ` + stepAt("        ") + `
        mode: DAG
        subSteps:
          - ` + stepAt("            ") + `
status:
  status: running
  services: [{name: c, healthy: true, message: ok}]
  workflow: {appRevision: a-v1, finished: true}
  latestRevision: {name: a-v1, revision: 1, revisionHash: h}
`
	fullWorkflow = "apiVersion: core.oam.dev/v1alpha1\nkind: Workflow\n" + fullMeta + `mode: {steps: DAG, subSteps: StepByStep}
steps:
  - ` + stepAt("    ") + `
    mode: DAG
    subSteps:
      - ` + stepAt("        ") + "\n"
	fullPolicy     = "apiVersion: core.oam.dev/v1alpha1\nkind: Policy\n" + fullMeta + "type: topology\nproperties: {clusters: [local], any: {thing: 1}}\n"
	fullSchematic  = "  schematic:\n    cue: {template: 'output: {}'}\n    terraform: {configuration: c, customRegion: r, deleteResource: true, path: p, type: hcl, gitCredentialsSecretReference: {name: n, namespace: ns}, providerRef: {name: n, namespace: ns}, writeConnectionSecretToRef: {name: n, namespace: ns}}\n"
	fullDefinition = "apiVersion: core.oam.dev/v1beta1\n" + fullMeta + "spec:\n" + fullSchematic + "  definitionRef: {name: d, version: v1}\n  version: 1.0.0\n"
)

func TestUnknownFields(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"every field of the Application CRD and ObjectMeta", fullApp, nil},
		{"every field of the Workflow CRD", fullWorkflow, nil},
		{"every field of the Policy CRD", fullPolicy, nil},
		{"every field of the ComponentDefinition CRD", "apiVersion: core.oam.dev/v1beta1\nkind: ComponentDefinition\n" + fullMeta + "spec:\n" + fullSchematic +
			"  childResourceKinds: [{apiVersion: v1, kind: Service, selector: {a: b}}]\n  extension: {any: thing}\n  podSpecPath: spec.template.spec\n  revisionLabel: r\n" +
			"  status: {customStatus: c, details: d, healthPolicy: h}\n  version: 1.0.0\n  workload: {type: deployments.apps, definition: {apiVersion: apps/v1, kind: Deployment}}\n", nil},
		{"every field of the TraitDefinition CRD", strings.Replace(fullDefinition, "\n", "\nkind: TraitDefinition\n", 1) +
			"  appliesToWorkloads: [deployments.apps]\n  conflictsWith: [x]\n  controlPlaneOnly: true\n  extension: {any: thing}\n  manageWorkload: true\n  podDisruptive: true\n" +
			"  revisionEnabled: true\n  stage: PostDispatch\n  status: {customStatus: c, details: d, healthPolicy: h}\n  workloadRefPath: spec.workloadRef\n", nil},
		{"every field of the PolicyDefinition CRD", strings.Replace(fullDefinition, "\n", "\nkind: PolicyDefinition\n", 1) +
			"  global: true\n  manageHealthCheck: true\n  priority: 1\n  scope: Application\n", nil},
		{"every field of the WorkflowStepDefinition CRD", strings.Replace(fullDefinition, "\n", "\nkind: WorkflowStepDefinition\n", 1), nil},
		{"WorkloadDefinition v1alpha2 is served", "apiVersion: core.oam.dev/v1alpha2\nkind: WorkloadDefinition\nmetadata: {name: w}\nspec:\n  definitionRef: {name: d}\n  schematic: {kube: {template: {any: thing}, parameters: [{name: p, fieldPaths: [a], required: true, type: string, description: d}]}}\n  extenson: {}\n",
			[]string{`in.yaml:7:3: WorkloadDefinition "w": strict decoding error: unknown field "spec.extenson" (did you mean "extension"?)`}},

		{"polices", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: []\n  polices:\n    - {type: topology}\n",
			[]string{`in.yaml:6:3: application "a": strict decoding error: unknown field "spec.polices" (did you mean "policies"?)`}},
		{"propertes", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n    - name: c\n      type: webservice\n      propertes:\n        image: nginx\n",
			[]string{`in.yaml:8:7: application "a": strict decoding error: unknown field "spec.components[0].propertes" (did you mean "properties"?)`}},
		{"a dedented property", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n    - name: c\n      type: webservice\n      properties:\n        image: nginx\n      replica: 3\n",
			[]string{`in.yaml:10:7: application "a": strict decoding error: unknown field "spec.components[0].replica" (did you mean "properties.replica"?)`}},
		{"a dedented trait property", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n    - name: c\n      type: webservice\n      traits:\n        - type: scaler\n          replicas: 2\n",
			[]string{`in.yaml:10:11: application "a": strict decoding error: unknown field "spec.components[0].traits[0].replicas" (did you mean "properties.replicas"?)`}},
		{"nothing close", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: []\n  workflow: {zzz: 1}\n",
			[]string{`in.yaml:6:14: application "a": strict decoding error: unknown field "spec.workflow.zzz"`}},
		{"several, in document order, metadata and the root too", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata:\n  name: a\n  lables: {}\nspecs: {}\nspec:\n  components: []\n  workflow:\n    steps:\n      - name: s\n        type: deploy\n        meta: {alis: x}\n",
			[]string{
				`in.yaml:5:3: application "a": strict decoding error: unknown field "metadata.lables" (did you mean "labels"?)`,
				`in.yaml:6:1: application "a": strict decoding error: unknown field "specs" (did you mean "spec"?)`,
				`in.yaml:13:16: application "a": strict decoding error: unknown field "spec.workflow.steps[0].meta.alis" (did you mean "alias"?)`,
			}},
		{"an unknown field of an owner reference", "apiVersion: core.oam.dev/v1alpha1\nkind: Policy\nmetadata:\n  name: p\n  ownerReferences: [{name: o, uid: u, kind: K, apiVersion: v1, controler: true}]\ntype: topology\n",
			[]string{`in.yaml:5:64: policy "p": strict decoding error: unknown field "metadata.ownerReferences[0].controler" (did you mean "controller"?)`}},
		{"a value of the wrong type is the schema check's", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: [{name: c, type: t, inputs: {from: x}, scopes: [x]}]\n", nil},
		{"a nameless object is named by its kind", "apiVersion: core.oam.dev/v1alpha1\nkind: Workflow\nstep: []\n",
			[]string{`in.yaml:3:1: Workflow: strict decoding error: unknown field "step" (did you mean "steps"?)`}},
		{"a version KubeVela does not serve is not checked here", "apiVersion: core.oam.dev/v1alpha2\nkind: Application\nmetadata: {name: a}\nspec: {polices: []}\n", nil},
		{"another group is not checked here", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec: {replica: 1}\n", nil},
		{"an unknown core.oam.dev kind is not checked here", "apiVersion: core.oam.dev/v1beta1\nkind: ResourceTracker\nmetadata: {name: a}\nspec: {x: 1}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []*manifest.Error
			for _, e := range UnknownFields(decodeDoc(t, tt.src)) {
				got = append(got, e.(*manifest.Error))
				if !errors.Is(e, ErrUnknownField) {
					t.Errorf("%v does not wrap ErrUnknownField", e)
				}
			}
			if diff := cmp.Diff(tt.want, formatted(got)); diff != "" {
				t.Errorf("UnknownFields (-want +got):\n%s", diff)
			}
		})
	}
}

// An object that cannot be decoded alone again (an item of a List) has
// no key positions: its unknown field is at its value.
func TestUnknownFieldsInList(t *testing.T) {
	src := "apiVersion: v1\nkind: List\nitems:\n  - apiVersion: core.oam.dev/v1alpha1\n    kind: Policy\n    metadata: {name: p}\n    type: topology\n    propreties:\n      clusters: [local]\n"
	objs, err := manifest.NewDecoder("in.yaml", []byte(src), manifest.DecodeOptions{}).Next()
	if err != nil || len(objs) != 1 {
		t.Fatalf("decode: %v", err)
	}
	var got []*manifest.Error
	for _, e := range UnknownFields(objs[0]) {
		got = append(got, e.(*manifest.Error))
	}
	want := []string{`in.yaml:9:7: policy "p": strict decoding error: unknown field "propreties" (did you mean "properties"?)`}
	if diff := cmp.Diff(want, formatted(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCheckFields(t *testing.T) {
	src := "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n    - name: c\n      type: webservice\n      properties: {image: nginx}\n      replica: 3\n  polices: []\n"
	pruned := map[string]any{"apiVersion": "core.oam.dev/v1beta1", "kind": "Application", "metadata": map[string]any{"name": "a"},
		"spec": map[string]any{"components": []any{map[string]any{"name": "c", "type": "webservice", "properties": map[string]any{"image": "nginx"}}}}}
	tests := []struct {
		v        FieldValidation
		dropped  []string
		errs     []string
		wantData bool // the fields are dropped
	}{
		{FieldStrict, nil, []string{
			`in.yaml:9:7: application "a": strict decoding error: unknown field "spec.components[0].replica" (did you mean "properties.replica"?)`,
			`in.yaml:10:3: application "a": strict decoding error: unknown field "spec.polices" (did you mean "policies"?)`}, false},
		{FieldWarn, []string{
			`in.yaml:9:7: application "a": unknown field "spec.components[0].replica" (did you mean "properties.replica"?)`,
			`in.yaml:10:3: application "a": unknown field "spec.polices" (did you mean "policies"?)`}, nil, true},
		{FieldIgnore, []string{
			`in.yaml:9:7: application "a": unknown field "spec.components[0].replica" (did you mean "properties.replica"?)`,
			`in.yaml:10:3: application "a": unknown field "spec.polices" (did you mean "policies"?)`}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.v.String(), func(t *testing.T) {
			obj := decodeDoc(t, src)
			before := manifest.DeepCopy(obj.Data)
			dropped, err := CheckFields(obj, tt.v)
			if diff := cmp.Diff(tt.dropped, formatted(dropped)); diff != "" {
				t.Errorf("dropped (-want +got):\n%s", diff)
			}
			var errs []string
			var list manifest.Errors
			if errors.As(err, &list) {
				for _, e := range list {
					errs = append(errs, manifest.Format(e, nil))
				}
			} else if err != nil {
				t.Fatalf("error %v is not a manifest.Errors", err)
			}
			if diff := cmp.Diff(tt.errs, errs); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			want := before
			if tt.wantData {
				want = pruned
			}
			if diff := cmp.Diff(want, any(obj.Data)); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
		})
	}
	if dropped, err := CheckFields(decodeDoc(t, fullApp), FieldStrict); dropped != nil || err != nil {
		t.Errorf("an object without unknown fields: %v, %v", dropped, err)
	}
}

func TestParseFieldValidation(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want FieldValidation
		err  string
	}{
		{"", FieldStrict, ""},
		{"strict", FieldStrict, ""},
		{"true", FieldStrict, ""},
		{"warn", FieldWarn, ""},
		{"Warn", FieldWarn, ""},
		{"ignore", FieldIgnore, ""},
		{"false", FieldIgnore, ""},
		{"warm", FieldStrict, `"warm": want strict, warn or ignore (did you mean "warn"?)`},
		{"x", FieldStrict, `"x": want strict, warn or ignore`},
	} {
		got, err := ParseFieldValidation(tt.in)
		var msg string
		if err != nil {
			msg = err.Error()
		}
		if got != tt.want || msg != tt.err {
			t.Errorf("ParseFieldValidation(%q) = %v, %q; want %v, %q", tt.in, got, msg, tt.want, tt.err)
		}
	}
	for v, want := range map[FieldValidation]string{FieldStrict: "strict", FieldWarn: "warn", FieldIgnore: "ignore", 7: "FieldValidation(7)"} {
		if got := v.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(v), got, want)
		}
	}
}

// meant is the "did you mean" of an unknown field: the closest sibling
// within manifest.Closest's threshold, else the property of a dedented key.
func TestMeant(t *testing.T) {
	component := KubeVela("Application", "v1beta1").Properties["spec"].Properties["components"].Items
	policy := KubeVela("Application", "v1beta1").Properties["spec"].Properties["policies"].Items
	mode := KubeVela("Application", "v1beta1").Properties["spec"].Properties["workflow"].Properties["mode"]
	schematic := KubeVela("ComponentDefinition", "v1beta1").Properties["spec"].Properties["schematic"]
	for _, tt := range []struct {
		s    *Structural
		key  string
		want string
		at   fieldpath.Path
	}{
		{component, "propertes", ` (did you mean "properties"?)`, nil},
		{component, "trait", ` (did you mean "traits"?)`, nil},
		{component, "dependOn", ` (did you mean "dependsOn"?)`, nil},
		{component, "externalrevision", ` (did you mean "externalRevision"?)`, nil},
		{component, "replica", ` (did you mean "properties.replica"?)`, nil},
		{component, "image", ` (did you mean "properties.image"?)`, nil},
		{policy, "typ", ` (did you mean "type"?)`, nil},
		{policy, "clusters", ` (did you mean "properties.clusters"?)`, nil},
		{mode, "step", ` (did you mean "steps"?)`, nil},
		{mode, "parallel", "", nil},
		{schematic, "kube", " (KubeVela removed the kube schematic in v1.9; use a CUE template)", fieldpath.New("spec", "schematic")},
		{schematic, "helm", " (KubeVela removed the helm schematic in v1.9; use a CUE template)", fieldpath.New("spec", "schematic")},
		{schematic, "kub", ` (did you mean "cue"?)`, fieldpath.New("spec", "schematic")},
	} {
		if got := meant(tt.s, tt.at, tt.key); got != tt.want {
			t.Errorf("meant(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

// UnknownFields finds outside metadata exactly what the API server's
// pruning (k8s.io/apiextensions-apiserver) drops with the CRDs' own
// schemas, and in metadata what it drops with ObjectMeta's.
func TestUnknownFieldsAgreeWithPruningKubeVela(t *testing.T) {
	structural := func(props *apiextensionsv1.JSONSchemaProps) *structuralschema.Structural {
		v := newObjectValidatorProps(props, false)
		if v.err != nil {
			t.Fatal(v.err)
		}
		return v.structural
	}
	read := func(file string, into any) {
		data, err := kubevelaFS.ReadFile("kubevela/" + file + ".json")
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, into); err != nil {
			t.Fatal(err)
		}
	}
	crd := func(file, version string) *structuralschema.Structural {
		var versions map[string]apiextensionsv1.JSONSchemaProps
		read(file, &versions)
		props := versions[version]
		return structural(&props)
	}
	var metaProps apiextensionsv1.JSONSchemaProps
	read("objectmeta", &metaProps)
	meta := structural(&metaProps)
	for _, tt := range []struct{ file, version, src string }{
		{"applications", "v1beta1", fullApp},
		{"applications", "v1beta1", strings.ReplaceAll(strings.ReplaceAll(fullApp, "externalRevision", "externalRevison"), "alias", "alias: x, aliass") + "extra: 1\n"},
		{"applications", "v1beta1", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a, lables: {}, ownerReferences: [{x: 1}]}\nspec:\n  components: [{name: c, type: t, replica: 1, traits: [{type: s, replicas: 1, properties: {a: 1}}]}]\n  polices: []\n  workflow: {steps: [{name: s, type: t, subSteps: [{name: u, type: t, mode: DAG}]}]}\n"},
		{"workflows", "v1alpha1", fullWorkflow + "stepz: []\n"},
		{"policies", "v1alpha1", fullPolicy + "propreties: {}\n"},
		{"componentdefinitions", "v1beta1", "apiVersion: core.oam.dev/v1beta1\nkind: ComponentDefinition\nmetadata: {name: c}\nspec: {workload: {type: x, typ: y}, schematic: {kube: {template: {}}, helm: {}}, status: {details: d, detail: e}}\n"},
		{"traitdefinitions", "v1beta1", "apiVersion: core.oam.dev/v1beta1\nkind: TraitDefinition\nmetadata: {name: t}\nspec: {appliesToWorkload: [], extension: {x: 1}, schematic: {cue: {template: x, templates: y}}}\n"},
	} {
		o := decodeDoc(t, tt.src)
		var got []string
		for _, e := range UnknownFields(o) {
			got = append(got, e.(*manifest.Error).Field.String())
		}
		slices.Sort(got)
		copied := manifest.DeepCopy(o.Data).(map[string]any)
		opts := structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}
		want := pruning.PruneWithOptions(copied, crd(tt.file, tt.version), true, opts)
		want = append(want, pruning.PruneWithOptions(copied["metadata"], meta, false, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true, ParentPath: []string{"metadata"}})...)
		slices.Sort(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: UnknownFields (-pruning +got):\n%s", tt.file, diff)
		}
	}
}

// BenchmarkUnknownFields is the cost strict field validation adds to
// each Application read (one without unknown fields).
func BenchmarkUnknownFields(b *testing.B) {
	objs, err := manifest.NewDecoder("in.yaml", []byte(fullApp), manifest.DecodeOptions{}).Next()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if UnknownFields(objs[0]) != nil {
			b.Fatal("unknown fields")
		}
	}
}
