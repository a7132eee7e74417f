package cueval_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
)

// kubeDef is a ComponentDefinition kw with a kube schematic: a ConfigMap
// whose fields the parameters set (KubeVela's paramValueSetting: a value
// type and field paths).
func kubeDef() *render.Definition {
	return &render.Definition{Kind: render.KindComponent, Name: "kw", Kube: &render.KubeSchematic{
		Template: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"labels": map[string]any{"fixed": "yes"}},
			"spec": map[string]any{"list": []any{map[string]any{"a": "x"}}}},
		Parameters: []render.KubeParameter{
			{Name: "strParam", Type: "string", FieldPaths: []string{"spec.strField", "metadata.labels[\"copy\"]"}},
			{Name: "intParam", Type: "number", FieldPaths: []string{"spec.intField"}},
			{Name: "floatParam", Type: "number", FieldPaths: []string{"spec.floatField"}},
			{Name: "boolParam", Type: "boolean", FieldPaths: []string{"spec.boolField"}},
			{Name: "listParam", Type: "string", FieldPaths: []string{"spec.list[0].a"}},
			{Name: "badPath", Type: "string", FieldPaths: []string{"spec[.test"}},
			{Name: "outOfRange", Type: "string", FieldPaths: []string{"spec.list[3]"}},
			{Name: "required", Type: "string", Required: true, FieldPaths: []string{"data.required"}},
		},
	}}
}

// TestKubeSchematic renders components of a kube schematic: KubeVela's
// TestSetParameterValuesToKubeObj (pkg/appfile/appfile_test.go) for
// setParameterValuesToKubeObj: string, number (whole or not) and boolean
// parameters written to their field paths, and a value of the wrong type
// refused with `require "<type>" type parameter value`. Traits patch the
// result as they patch a CUE component's output.
func TestKubeSchematic(t *testing.T) {
	tests := []struct {
		name, props, traits string
		want                string
		wantErr             string
	}{
		{name: "Succeed", props: "{strParam: test, intParam: 10, floatParam: 10.01, boolParam: true, required: r}", want: `
apiVersion: v1
kind: ConfigMap
metadata: {name: test, labels: {fixed: "yes", copy: test}}
spec: {strField: test, intField: 10, floatField: 10.01, boolField: true, list: [{a: x}]}
data: {required: r}
`},
		{name: "list elements", props: "{listParam: z, required: r}", want: `
apiVersion: v1
kind: ConfigMap
metadata: {name: test, labels: {fixed: "yes"}}
spec: {list: [{a: z}]}
data: {required: r}
`},
		{name: "trait patch", props: "{required: r}", traits: "[{type: labels, properties: {extra: v}}]", want: `
apiVersion: v1
kind: ConfigMap
metadata: {name: test, labels: {fixed: "yes", extra: v}}
spec: {list: [{a: x}]}
data: {required: r}
`},
		{name: "InvalidStringType", props: "{strParam: 100, required: r}",
			wantErr: `app.yaml:6:5: application "myapp" component "test": parameter "strParam": require "string" type parameter value`},
		{name: "InvalidNumberType", props: "{intParam: test, required: r}",
			wantErr: `app.yaml:6:5: application "myapp" component "test": parameter "intParam": require "number" type parameter value`},
		{name: "InvalidBoolType", props: "{boolParam: test, required: r}",
			wantErr: `app.yaml:6:5: application "myapp" component "test": parameter "boolParam": require "boolean" type parameter value`},
		{name: "InvalidFieldPath", props: "{badPath: test, required: r}",
			wantErr: `app.yaml:6:5: application "myapp" component "test": parameter "badPath": field "spec[.test": unterminated [ in "spec[.test"`},
		{name: "index out of range", props: "{outOfRange: test, required: r}",
			wantErr: `app.yaml:6:5: application "myapp" component "test": parameter "outOfRange": field "spec.list[3]": index 3 out of range`},
		{name: "unknown parameter", props: "{nope: x, required: r}",
			wantErr: `app.yaml:6:5: application "myapp" component "test": unsupported parameter "nope"`},
		{name: "required parameter", props: "{strParam: s}",
			wantErr: `app.yaml:6:5: application "myapp" component "test": require parameter "required"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := renderFirst(t, withDefs(t, kubeDef()), parseApp(t, appWith("kw", tt.props, tt.traits)), cueval.Placement{})
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(obj(t, tt.want), withoutOAM(m.Workload.Object)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

// withoutOAM is o without its namespace and the labels of the OAM
// contract (TestContract checks those).
func withoutOAM(o map[string]any) map[string]any {
	o = manifest.DeepCopy(o).(map[string]any)
	md := manifest.Map(o, "metadata")
	delete(md, "namespace")
	if l := manifest.Map(md, "labels"); l != nil {
		for k := range l {
			if strings.Contains(k, "oam.dev/") {
				delete(l, k)
			}
		}
	}
	return o
}
