package addon

import (
	"encoding/base64"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

const (
	yamlTrait = "apiVersion: core.oam.dev/v1beta1\nkind: TraitDefinition\nmetadata:\n  name: %s\n  namespace: default\n%s"
	bindTo    = "  annotations:\n    addon.oam.dev/bind-component: %s\n"
)

// TestBondComponent follows KubeVela's TestCheckObjectBindingComponent
// (pkg/addon utils_test.go) for checkBondComponentExist: an object bound
// by addon.oam.dev/bind-component, or the legacy
// addon.oam.dev/ignore-without-component, to a component needs it in the
// Application; an unbound object always passes.
func TestBondComponent(t *testing.T) {
	bound := func(key, comp string) map[string]any {
		return map[string]any{"metadata": map[string]any{"annotations": map[string]any{key: comp}}}
	}
	app := func(names ...string) *application {
		a := &application{}
		for _, n := range names {
			a.Spec.Components = append(a.Spec.Components, appComponent{Name: n})
		}
		return a
	}
	tests := []struct {
		name string
		obj  map[string]any
		app  *application
		want bool
	}{
		{"binding exists", bound(annotationBindComp, "kustomize"), app("kustomize"), true},
		{"not existing", bound(annotationBindComp, "kustomize"), app("helm"), false},
		{"no binding annotation", bound("test", "onlyForTest"), app("kustomize"), true},
		{"no annotations at all", map[string]any{}, app(), true},
		{"empty app", bound(annotationBindComp, "kustomize"), app(), false},
		{"legacy annotation", bound(annotationIgnoreOld, "kustomize"), app("kustomize"), true},
		{"legacy annotation without the component", bound(annotationIgnoreOld, "kustomize"), app(""), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.app.bondComponentExists(&manifest.Object{Data: tt.obj}); got != tt.want {
				t.Errorf("bondComponentExists() = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestDispatchBinding checks what enable applies around bound objects
// (Installer.dispatchAddonResource and passDefInAppAnnotation): objects
// bound to a component the Application lacks are not applied, and such
// definitions are left out of the Application's definition annotations,
// which list YAML definitions first, then CUE ones, each in walk order.
func TestDispatchBinding(t *testing.T) {
	files := withMeta(map[string]string{
		"template.yaml":           "kind: Application\nspec:\n  components:\n  - name: present\n    type: webservice\n",
		"definitions/a.yaml":      fmt.Sprintf(yamlTrait, "a", ""),
		"definitions/b.yaml":      fmt.Sprintf(yamlTrait, "b", fmt.Sprintf(bindTo, "missing")),
		"definitions/c.yaml":      fmt.Sprintf(yamlTrait, "c", fmt.Sprintf(bindTo, "present")),
		"definitions/d.yaml":      fmt.Sprintf(yamlTrait, "d", "  annotations:\n    addon.oam.dev/ignore-without-component: missing\n"),
		"definitions/z/comp.yaml": "apiVersion: core.oam.dev/v1beta1\nkind: ComponentDefinition\nmetadata:\n  name: comp\n",
		"definitions/w.cue":       "w: {\n\ttype: \"workflow-step\"\n}\ntemplate: {\n\tparameter: {}\n}\n",
		"definitions/p.cue":       "p: {\n\ttype: \"policy\"\n\tannotations: \"addon.oam.dev/bind-component\": \"missing\"\n}\ntemplate: {\n\tparameter: {}\n}\n",
		"definitions/k.cue":       "k: {\n\ttype: \"policy\"\n}\ntemplate: {\n\tparameter: {}\n}\n",
		// WorkloadDefinitions are refused, but only when applied
		"definitions/wl.yaml": "apiVersion: core.oam.dev/v1beta1\nkind: WorkloadDefinition\nmetadata:\n  name: wl\n" + fmt.Sprintf(bindTo, "missing"),
		"views/bound.yaml":    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bound\n" + fmt.Sprintf(bindTo, "missing"),
	})
	res := mustRender(t, files, Options{})
	wantObjects := []string{
		"Application/addon-demo",
		"TraitDefinition/a",
		"TraitDefinition/c",
		"ComponentDefinition/comp",
		"PolicyDefinition/k",
		"WorkflowStepDefinition/w",
	}
	if diff := cmp.Diff(wantObjects, objectNames(res.Objects)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	wantAnnotations := map[string]string{
		"addon.oam.dev/componentDefinitions":    "comp",
		"addon.oam.dev/traitDefinitions":        "a,c",
		"addon.oam.dev/policyDefinitions":       "k",
		"addon.oam.dev/workflowStepDefinitions": "w",
	}
	if diff := cmp.Diff(wantAnnotations, res.Objects[0].Annotations()); diff != "" {
		t.Errorf("Application annotations (-want +got):\n%s", diff)
	}
	// RenderDefinitions forces every definition into vela-system.
	for _, o := range res.Objects[1:] {
		if o.Namespace() != "vela-system" {
			t.Errorf("%s/%s namespace = %q, want vela-system", o.Kind(), o.Name(), o.Namespace())
		}
	}
}

// TestDispatchWorkloadDefinition: passDefInAppAnnotation refuses a
// definition kind it has no annotation for.
func TestDispatchWorkloadDefinition(t *testing.T) {
	files := withMeta(map[string]string{
		"definitions/wl.cue": "wl: {\n\ttype: \"workload\"\n}\ntemplate: {\n\tparameter: {}\n}\n",
	})
	_, err := Render(addonFS(files), Options{})
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("Render() = %v, want an ErrInvalid", err)
	}
	want := "definitions/wl.cue: addon demo: cannot handle definition types WorkloadDefinition, name wl"
	if diff := cmp.Diff(want, manifest.Format(err, nil)); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
}

// TestTemplateOutputs checks the auxiliary objects of template.cue's
// `outputs` (addonCueTemplateRender.renderApp and generateAppFramework):
// every entry that is a struct is applied with the auxiliary-name label
// and the addon name and version labels overriding the template's, no
// namespace added; entries that are not structs are skipped, and a bound
// entry needs its component.
func TestTemplateOutputs(t *testing.T) {
	files := withMeta(map[string]string{
		"template.cue": `output: {
	apiVersion: "core.oam.dev/v1beta1"
	kind:       "Application"
	spec: components: [{name: "web", type: "webservice"}]
}
outputs: {
	role: {
		apiVersion: "rbac.authorization.k8s.io/v1"
		kind:       "ClusterRole"
		metadata: {
			name: "r"
			labels: {"addons.oam.dev/version": "0.0.0", keep: "yes"}
		}
	}
	cm: {
		apiVersion: "v1"
		kind:       "ConfigMap"
		metadata: {name: "cm", namespace: "ns"}
	}
	bound: {
		apiVersion: "v1"
		kind:       "ConfigMap"
		metadata: {name: "bound", annotations: "addon.oam.dev/bind-component": "gone"}
	}
	text:  "not an object"
	count: 3
}
`,
	})
	res := mustRender(t, files, Options{})
	want := []any{
		map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "cm", "namespace": "ns", "labels": map[string]any{
				"addons.oam.dev/auxiliary-name": "cm", "addons.oam.dev/name": "demo", "addons.oam.dev/version": "1.0.0",
			}},
		},
		map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
			"metadata": map[string]any{"name": "r", "labels": map[string]any{
				"keep": "yes", "addons.oam.dev/auxiliary-name": "role", "addons.oam.dev/name": "demo", "addons.oam.dev/version": "1.0.0",
			}},
		},
	}
	var got []any
	for _, o := range res.Objects[1:] {
		got = append(got, o.Data)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
}

// TestTemplateOutputsErrors: `outputs` must decode into a map of objects
// (renderApp's value.UnmarshalTo into map[string]interface{}).
func TestTemplateOutputsErrors(t *testing.T) {
	const app = "output: {kind: \"Application\"}\n"
	tests := []struct {
		name, template, want string
	}{
		{"outputs a list", app + "outputs: [1]\n", "template.cue:2:1: addon demo: outputs must be a struct"},
		{"outputs not concrete", app + "outputs: x: string\n", `template.cue:2:13: addon demo: decode outputs from CUE: cue: marshal error: outputs.x: cannot convert incomplete value "string" to JSON`},
		{"no output", "outputs: {}\n", "template.cue: addon demo: template.cue has no `output` field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(addonFS(withMeta(map[string]string{"template.cue": tt.template})), Options{})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSchemas checks the ui-schema ConfigMaps of schemas/ files
// (RenderDefinitionSchema, renderSchemaConfigmap): any file under
// schemas, named before the first dot of its file name, its YAML turned
// into compact JSON with sorted keys (sigs.k8s.io/yaml.YAMLToJSON).
func TestSchemas(t *testing.T) {
	files := withMeta(map[string]string{
		"schemas/component-uischema-web.v2.yaml": "- jsonKey: image\n  uiType: ImageInput\n  validate:\n    required: true\n  sort: 1\n",
		"schemas/nested/trait.json":              "{\"z\": 1, \"a\": [true, null, \"x\"]}",
		"schemas/plain.txt":                      "just: text\n",
	})
	res := mustRender(t, files, Options{})
	got := map[string]any{}
	for _, o := range res.Objects[1:] {
		if diff := cmp.Diff("vela-system", o.Namespace()); diff != "" {
			t.Errorf("%s namespace (-want +got):\n%s", o.Name(), diff)
		}
		got[o.Name()] = o.Data["data"]
	}
	want := map[string]any{
		"component-uischema-web": map[string]any{"ui-schema": `[{"jsonKey":"image","sort":1,"uiType":"ImageInput","validate":{"required":true}}]`},
		"trait":                  map[string]any{"ui-schema": `{"a":[true,null,"x"],"z":1}`},
		"plain":                  map[string]any{"ui-schema": `{"just":"text"}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("schema ConfigMaps (-want +got):\n%s", diff)
	}
}

// TestViews checks views/ (RenderViews): YAML views are applied as
// written (the namespace not forced), CUE views become a ConfigMap named
// after the file less its last extension holding the text
// (renderCUEView; velaql.ParseViewIntoConfigMap wants a `status` or an
// `export` field); other files are ignored.
func TestViews(t *testing.T) {
	view := "import \"vela/ql\"\n\nparameter: name: string\nstatus: ql.#Read & {value: parameter}\n"
	files := withMeta(map[string]string{
		"views/a.view.cue": view,
		"views/b.yml":      "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  k: v\n",
		"views/c.cue":      "export: \"x\"\n",
		"views/notes.txt":  "ignored",
	})
	res := mustRender(t, files, Options{})
	var got []any
	for _, o := range res.Objects[1:] {
		got = append(got, o.Data)
	}
	want := []any{
		map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "b"}, "data": map[string]any{"k": "v"}},
		map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "a.view", "namespace": "vela-system"},
			"data":     map[string]any{"template": view},
		},
		map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "c", "namespace": "vela-system"},
			"data":     map[string]any{"template": "export: \"x\"\n"},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("views (-want +got):\n%s", diff)
	}
}

// TestViewErrors: a view that does not parse is an error (renderCUEView,
// velaql.ParseViewIntoConfigMap), located in its file.
func TestViewErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{
			name:  "CUE syntax error",
			files: map[string]string{"views/v.cue": "status: {\n"},
			want:  "views/v.cue:1:11: addon demo: expected '}', found 'EOF'",
		},
		{
			// velaql.ValidateView: "no `status` or `export` field found in view"
			name:  "CUE view without status or export",
			files: map[string]string{"views/v.cue": "import \"vela/ql\"\n\nparameter: name: string\nresult: ql.#Read & {value: parameter}\n"},
			want:  "views/v.cue: addon demo: no `status` or `export` field found in view",
		},
		{
			name:  "YAML view without kind",
			files: map[string]string{"views/v.yaml": "apiVersion: v1\nmetadata:\n  name: v\n"},
			want:  "views/v.yaml:1:1: addon demo: kind: Required value: a Kubernetes object must name its kind",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(addonFS(withMeta(tt.files)), Options{})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestArgsSecret checks the parameter Secret (RenderArgsSecret): applied
// last, only when parameters were given, holding Go's json.Marshal of
// them (sorted keys, <>& escaped) under addonParameterDataKey; defaults
// from parameter.cue are not stored.
func TestArgsSecret(t *testing.T) {
	files := withMeta(map[string]string{"parameter.cue": "parameter: {\n\tn: *1 | int\n\ts: *\"x\" | string\n\tl?: [...]\n\tm?: {...}\n}\n"})
	tests := []struct {
		name   string
		params map[string]any
		want   string // the JSON stored, "" for no Secret
	}{
		{name: "no parameters"},
		{name: "empty parameters", params: map[string]any{}},
		{name: "sorted and escaped", params: map[string]any{"s": "<a&b>", "l": []any{"x", int64(2)}, "m": map[string]any{"b": true, "a": nil}},
			want: `{"l":["x",2],"m":{"a":null,"b":true},"s":"\u003ca\u0026b\u003e"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRender(t, files, Options{Params: valuesOf(tt.params)})
			last := res.Objects[len(res.Objects)-1]
			if tt.want == "" {
				if last.Kind() == "Secret" {
					t.Errorf("got a Secret for no parameters")
				}
				return
			}
			want := map[string]any{
				"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
				"metadata": map[string]any{"name": "addon-secret-demo", "namespace": "vela-system"},
				"data":     map[string]any{"addonParameterDataKey": base64.StdEncoding.EncodeToString([]byte(tt.want))},
			}
			if diff := cmp.Diff(want, last.Data); diff != "" {
				t.Errorf("Secret (-want +got):\n%s", diff)
			}
		})
	}
}
