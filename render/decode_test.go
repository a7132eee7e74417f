package render

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/fieldpath"
)

// Mirrors of KubeVela structs, shaped as render's subpackages shape theirs:
// exported under KubeVela's name, or unexported behind a "kv" prefix.
type (
	// TestSpec stands for a v1alpha1 policy spec with an embedded struct.
	TestSpec struct {
		TestPlacement `json:",inline"`
		Namespace     string            `json:"namespace,omitempty"`
		Rules         []TestRule        `json:"rules,omitempty"`
		Labels        map[string]string `json:"labels,omitempty"`
		Selector      *ClusterSelector  `json:"selector,omitempty"`
	}
	TestPlacement struct {
		Clusters []string `json:"clusters,omitempty"`
	}
	TestRule struct {
		Strategy TestStrategy `json:"strategy"`
		Keys     []string     `json:"keys,omitempty"`
	}
	TestStrategy string
	// ClusterSelector is common.ClusterSelector's name (kvPackages).
	ClusterSelector struct {
		Name string `json:"name,omitempty"`
	}
	// kvDeployWorkflowStepSpec is step.DeployWorkflowStepSpec's mirror.
	kvDeployWorkflowStepSpec struct {
		kvEmbedded  `json:",inline"`
		Parallelism *int `json:"parallelism,omitempty"`
	}
	kvEmbedded struct {
		Policies []string `json:"policies,omitempty"`
	}
)

// TestKubeVelaTypeName: reflect's names of the mirrors as KubeVela's types
// print (v1alpha1 unless kvPackages says otherwise); other types as Go
// prints them.
func TestKubeVelaTypeName(t *testing.T) {
	types := []any{TestSpec{}, &TestSpec{}, []TestRule{}, map[string]TestStrategy{}, ClusterSelector{},
		kvDeployWorkflowStepSpec{}, []*kvDeployWorkflowStepSpec{}, map[string]any{}, []string{}, 0}
	var got []string
	for _, v := range types {
		got = append(got, KubeVelaTypeName(reflect.TypeOf(v)))
	}
	want := []string{"v1alpha1.TestSpec", "*v1alpha1.TestSpec", "[]v1alpha1.TestRule", "map[string]v1alpha1.TestStrategy",
		"common.ClusterSelector", "step.DeployWorkflowStepSpec", "[]*step.DeployWorkflowStepSpec",
		"map[string]interface {}", "[]string", "int"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
}

// TestIsMirrorPkg: mirrors live in render, the packages under it and
// overrides/kubevela (whose own tests decode its mirrors); no other
// package's types are renamed.
func TestIsMirrorPkg(t *testing.T) {
	const module = "github.com/drydock-dev/drydock/"
	tests := map[string]bool{
		module + "render": true, module + "render/policy": true, module + "render/workflow": true,
		module + "overrides/kubevela": true, module + "overrides/karmada": false, module + "overrides": false,
		module + "renderer": false, module + "manifest": false, "encoding/json": false, "": false,
	}
	for pkg, want := range tests {
		if got := isMirrorPkg(pkg); got != want {
			t.Errorf("isMirrorPkg(%q) = %v, want %v", pkg, got, want)
		}
	}
}

// TestDecode: KubeVela decodes properties with encoding/json, strictly
// (utils.StrictUnmarshal: DisallowUnknownFields) or not (json.Unmarshal),
// and reports the decoder's error: the same words, with KubeVela's type
// names, and the path of the offending value in the properties.
func TestDecode(t *testing.T) {
	tests := []struct {
		name     string
		v        any
		dst      func() any
		strict   bool
		want     string
		wantPath string
	}{
		{"strict ok", map[string]any{"clusters": []any{"a"}, "namespace": "n"}, func() any { return &TestSpec{} }, true, "", ""},
		{"unknown field", map[string]any{"cluster": "x"}, func() any { return &TestSpec{} }, true,
			`json: unknown field "cluster"`, "cluster"},
		{"unknown field, nested", map[string]any{"rules": []any{map[string]any{"strategy": "a"}, map[string]any{"strategy": "b", "key": "x"}}},
			func() any { return &TestSpec{} }, true, `json: unknown field "key"`, "rules[1].key"},
		{"unknown field beside an embedded kv struct's", map[string]any{"policies": []any{}, "zz": 1}, func() any { return &kvDeployWorkflowStepSpec{} }, true,
			`json: unknown field "zz"`, "zz"},
		{"unknown field under a pointer", map[string]any{"selector": map[string]any{"nme": "x"}}, func() any { return &TestSpec{} }, true,
			`json: unknown field "nme"`, "selector.nme"},
		// A map's key of that name, met earlier, is no field: the unknown
		// field is the one the decoder refused.
		{"unknown field named as a map key before it", map[string]any{"labels": map[string]any{"zz": "x"}, "zz": 1}, func() any { return &TestSpec{} }, true,
			`json: unknown field "zz"`, "zz"},
		{"case-folded key is a field", map[string]any{"Namespace": "n", "zz": 1}, func() any { return &TestSpec{} }, true,
			`json: unknown field "zz"`, "zz"},
		{"loose decoding allows unknown fields", map[string]any{"cluster": "x"}, func() any { return &TestSpec{} }, false, "", ""},
		{"field of an embedded struct", map[string]any{"clusters": "local"}, func() any { return &TestSpec{} }, true,
			"json: cannot unmarshal string into Go struct field TestSpec.TestPlacement.clusters of type []string", "clusters"},
		{"element of a list", map[string]any{"rules": []any{map[string]any{"strategy": "a", "keys": []any{"k", int64(1)}}}}, func() any { return &TestSpec{} }, false,
			"json: cannot unmarshal number into Go struct field TestRule.rules.keys of type string", "rules[0].keys[1]"},
		{"named string", map[string]any{"rules": []any{map[string]any{"strategy": true}}}, func() any { return &TestSpec{} }, false,
			"json: cannot unmarshal bool into Go struct field TestRule.rules.strategy of type v1alpha1.TestStrategy", "rules[0].strategy"},
		{"value of a map", map[string]any{"labels": map[string]any{"a": "x", "b": 1.5}}, func() any { return &TestSpec{} }, true,
			"json: cannot unmarshal number into Go struct field TestSpec.labels of type string", "labels.b"},
		{"common package", map[string]any{"selector": []any{}}, func() any { return &TestSpec{} }, true,
			"json: cannot unmarshal array into Go struct field TestSpec.selector of type common.ClusterSelector", "selector"},
		{"kv prefix and embedded kv struct", map[string]any{"policies": map[string]any{}}, func() any { return &kvDeployWorkflowStepSpec{} }, true,
			"json: cannot unmarshal object into Go struct field DeployWorkflowStepSpec.Embedded.policies of type []string", "policies"},
		{"pointer field", map[string]any{"parallelism": "2"}, func() any { return &kvDeployWorkflowStepSpec{} }, true,
			"json: cannot unmarshal string into Go struct field DeployWorkflowStepSpec.parallelism of type int", "parallelism"},
		// encoding/json matches keys case-insensitively, so KubeVela's
		// decoder takes "Strategy" for strategy; its error names the
		// field, which the path follows as far as the keys match.
		{"case-folded key", map[string]any{"rules": []any{map[string]any{"Strategy": true}}}, func() any { return &TestSpec{} }, true,
			"json: cannot unmarshal bool into Go struct field TestRule.rules.strategy of type v1alpha1.TestStrategy", "rules"},
		{"case-folded key at the top", map[string]any{"Clusters": "x"}, func() any { return &TestSpec{} }, true,
			"json: cannot unmarshal string into Go struct field TestSpec.TestPlacement.clusters of type []string", ""},
		{"the whole value", []any{}, func() any { return &TestSpec{} }, false,
			"json: cannot unmarshal array into Go value of type v1alpha1.TestSpec", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			decode := DecodeLoose
			if tt.strict {
				decode = DecodeStrict
			}
			err := decode(tt.v, tt.dst())
			path := ""
			if err != nil {
				path = ErrorPath(tt.v, err).String()
			}
			if diff := cmp.Diff(tt.want, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantPath, path); diff != "" {
				t.Errorf("path (-want +got):\n%s", diff)
			}
			var te *json.UnmarshalTypeError
			if strings.Contains(tt.want, "cannot unmarshal") && !errors.As(err, &te) {
				t.Errorf("encoding/json's error is not reachable from %v", err)
			}
		})
	}
}

// TestDecodeValues: what decodes ends up in the mirror.
func TestDecodeValues(t *testing.T) {
	var got TestSpec
	err := DecodeStrict(map[string]any{"clusters": []any{"a", "b"}, "rules": []any{map[string]any{"strategy": "never"}}}, &got)
	if err != nil {
		t.Fatal(err)
	}
	want := TestSpec{TestPlacement: TestPlacement{Clusters: []string{"a", "b"}}, Rules: []TestRule{{Strategy: "never"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	// A value JSON cannot encode is the encoder's error, as is.
	if err := DecodeStrict(map[string]any{"x": func() {}}, &got); err == nil {
		t.Errorf("DecodeStrict of a func: no error")
	}
	if err := DecodeLoose(map[string]any{"x": func() {}}, &got); err == nil {
		t.Errorf("DecodeLoose of a func: no error")
	}
}

// TestUnknownField: the first key (sorted, depth first) a type has no
// field for; a type decoding itself (json.Unmarshaler) or any value
// (interface) takes every key.
func TestUnknownField(t *testing.T) {
	type withRaw struct {
		Raw  json.RawMessage `json:"raw"`
		Any  any             `json:"any"`
		Skip string          `json:"-"`
		Bare string
		priv string // unexported: no JSON field
	}
	tests := []struct {
		name   string
		v      any
		t      reflect.Type
		want   string
		wantOK bool
	}{
		{"raw message", map[string]any{"raw": map[string]any{"x": 1}, "any": map[string]any{"y": 2}}, reflect.TypeFor[withRaw](), "", false},
		{"untagged field by its Go name", map[string]any{"Bare": "b", "bare": "c"}, reflect.TypeFor[withRaw](), "", false},
		{"json:\"-\" field", map[string]any{"Skip": "s"}, reflect.TypeFor[withRaw](), "Skip", true},
		{"unexported field", map[string]any{"priv": "p"}, reflect.TypeFor[withRaw](), "priv", true},
		{"list of structs", []any{map[string]any{"strategy": "a"}, map[string]any{"nope": 1}}, reflect.TypeFor[[]TestRule](), "[1].nope", true},
		{"list where a struct is", []any{map[string]any{"nope": 1}}, reflect.TypeFor[TestRule](), "", false},
		{"scalar", "x", reflect.TypeFor[TestRule](), "", false},
		{"object where a list is", map[string]any{"nope": 1}, reflect.TypeFor[[]TestRule](), "", false},
		{"map of structs", map[string]any{"a": map[string]any{"nope": 1}}, reflect.TypeFor[map[string]TestRule](), "a.nope", true},
	}
	_ = withRaw{priv: "set only here"}.priv
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := unknownField(tt.v, tt.t)
			if got.String() != tt.want || ok != tt.wantOK {
				t.Errorf("unknownField = %q, %t; want %q, %t", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// TestErrorPath: errors it cannot place.
func TestErrorPath(t *testing.T) {
	v := map[string]any{"a": map[string]any{"b": "x"}, "l": []any{int64(1)}}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"not a decoding error", errors.New("boom"), ""},
		// The text is not read: only DecodeStrict's typed error is placed.
		{"unknown field as text", errors.New(`json: unknown field "a"`), ""},
		{"unknown field", &UnknownFieldError{Path: fieldpath.New("a", "b"), err: errors.New(`json: unknown field "b"`)}, "a.b"},
		{"type error in a list", &json.UnmarshalTypeError{Type: reflect.TypeOf(""), Value: "number", Field: "l"}, "l[0]"},
		{"type error, nested", &json.UnmarshalTypeError{Type: reflect.TypeOf(""), Value: "string", Field: "a.b"}, "a.b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ErrorPath(v, tt.err).String()); diff != "" {
				t.Errorf("path (-want +got):\n%s", diff)
			}
		})
	}
}
