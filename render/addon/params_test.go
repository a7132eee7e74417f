package addon

import (
	"encoding/base64"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// valuesOf is the parameters m, taken as written.
func valuesOf(m map[string]any) Params {
	if m == nil {
		return Params{}
	}
	return Params{Values: []Values{{Data: m, Source: "test values"}}}
}

// typedFiles is an addon whose parameter declares one parameter of each
// kind, and whose resource uses the scalar ones, so that a value CUE
// refuses fails the render.
var typedFiles = withMeta(map[string]string{
	"parameter.cue": `parameter: {
	port:     *"80" | string
	enabled:  *false | bool
	replicas: *1 | int
	cpu:      *0.1 | number
	either:   *"x" | string | int
	clusters?: [...string]
	values?: {
		replicaCount: *1 | int
		image: tag: *"latest" | string
	}
	ports?: [...{name: string, port: int}]
	labels?: [string]: string
	extra?: {...}
	anything?: _
}
`,
	"resources/cm.cue": `output: {
	type: "k8s-objects"
	properties: objects: [{
		apiVersion: "v1"
		kind:       "ConfigMap"
		metadata: name: "cm"
		data: {
			port:     parameter.port
			enabled:  "\(parameter.enabled)"
			replicas: "\(parameter.replicas)"
			cpu:      "\(parameter.cpu)"
			either:   "\(parameter.either)"
			if parameter.values != _|_ {
				tag: parameter.values.image.tag
			}
		}
	}]
}
`,
})

// storedParams is the JSON of the parameters the render stored in the
// addon's parameter Secret: what `vela addon enable` is given.
func storedParams(t *testing.T, res *Result) string {
	t.Helper()
	last := res.Objects[len(res.Objects)-1]
	if last.Kind() != "Secret" {
		t.Fatalf("no parameter Secret: the last object is a %s", last.Kind())
	}
	js, err := base64.StdEncoding.DecodeString(manifest.String(last.Data, "data", "addonParameterDataKey"))
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}

// TestParamsTyped: --set values are typed by the parameter they set, and
// values, --set and --set-string merge in Helm's order.
func TestParamsTyped(t *testing.T) {
	tests := []struct {
		name   string
		params Params
		want   string // the parameters stored, as JSON
	}{
		{"a string parameter takes 40 as a string", Params{Set: []string{"port=40"}}, `{"port":"40"}`},
		{"a string parameter takes true as a string", Params{Set: []string{"port=true"}}, `{"port":"true"}`},
		{"a bool parameter", Params{Set: []string{"enabled=TRUE"}}, `{"enabled":true}`},
		{"an int parameter", Params{Set: []string{"replicas=3"}}, `{"replicas":3}`},
		{"an int with a leading zero", Params{Set: []string{"replicas=007"}}, `{"replicas":7}`},
		{"a number parameter takes 0.5", Params{Set: []string{"cpu=0.5"}}, `{"cpu":0.5}`},
		{"a number parameter takes 2 as an int", Params{Set: []string{"cpu=2"}}, `{"cpu":2}`},
		{"string|int keeps vela's int", Params{Set: []string{"either=40"}}, `{"either":40}`},
		{"string|int takes a word as a string", Params{Set: []string{"either=abc"}}, `{"either":"abc"}`},
		{"--set-string forces a string", Params{SetString: []string{"either=40"}}, `{"either":"40"}`},
		{"values are taken as written", Params{Values: []Values{{Data: map[string]any{"either": "40", "cpu": int64(1), "labels": map[string]any{"a": "1"}}}}},
			`{"cpu":1,"either":"40","labels":{"a":"1"}}`},
		{"nested", Params{Set: []string{"values.replicaCount=2", "values.image.tag=2"}}, `{"values":{"image":{"tag":"2"},"replicaCount":2}}`},
		{"a list of strings", Params{Set: []string{"clusters={local,1}"}}, `{"clusters":["local","1"]}`},
		{"list items by index", Params{Set: []string{"ports[0].name=8080,ports[0].port=8080"}}, `{"ports":[{"name":"8080","port":8080}]}`},
		{"a pattern's type", Params{Set: []string{"labels.team=42"}}, `{"labels":{"team":"42"}}`},
		{"an open struct keeps vela's types", Params{Set: []string{"extra.x=5,extra.y=true"}}, `{"extra":{"x":5,"y":true}}`},
		{"top keeps vela's types", Params{Set: []string{"anything=5"}}, `{"anything":5}`},
		{"later --set wins", Params{Set: []string{"replicas=1", "replicas=2"}}, `{"replicas":2}`},
		{"values files, then --set, then --set-string", Params{
			Values: []Values{
				{Data: map[string]any{"port": "1", "replicas": int64(2), "values": map[string]any{"replicaCount": int64(5), "image": map[string]any{"tag": "a"}}}},
				{Data: map[string]any{"replicas": int64(4)}},
			},
			Set:       []string{"port=2", "values.image.tag=b"},
			SetString: []string{"port=3"},
		}, `{"port":"3","replicas":4,"values":{"image":{"tag":"b"},"replicaCount":5}}`},
		{"--set indexes a values file's list", Params{
			Values: []Values{{Data: map[string]any{"ports": []any{map[string]any{"name": "a", "port": int64(1)}, map[string]any{"name": "b", "port": int64(2)}}}}},
			Set:    []string{"ports[1].port=3"},
		}, `{"ports":[{"name":"a","port":1},{"name":"b","port":3}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRender(t, typedFiles, Options{Params: tt.params})
			if diff := cmp.Diff(tt.want, storedParams(t, res)); diff != "" {
				t.Errorf("parameters (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParamsRefused: an unknown key is refused with the nearest declared
// parameter (or the list of them), and a --set value the parameter cannot
// take is refused, naming the argument.
func TestParamsRefused(t *testing.T) {
	valuesAt := func(data map[string]any) Values {
		return Values{Data: data, Source: "values.yaml", Pos: func(p fieldpath.Path) manifest.Pos {
			return manifest.Pos{File: "values.yaml", Line: len(p) + 1, Col: 1}
		}}
	}
	inConfig := func(setString bool, i int) manifest.Pos {
		if setString {
			return manifest.Pos{File: "drydock.yaml", Line: 9, Col: 20 + i}
		}
		return manifest.Pos{File: "drydock.yaml", Line: 8, Col: 20 + i}
	}
	tests := []struct {
		name   string
		files  map[string]string
		params Params
		want   string
	}{
		{"a set argument located where it is written", typedFiles, Params{Set: []string{"port=1", "tema=x"}, Pos: inConfig},
			`drydock.yaml:8:21: addon demo: unknown parameter "tema": the parameters are port, enabled, replicas, cpu, either, clusters, values, ports, labels, extra, anything`},
		{"a setString argument located", typedFiles, Params{SetString: []string{"replica=1"}, Pos: inConfig},
			`drydock.yaml:9:20: addon demo: unknown parameter "replica" (did you mean "replicas"?)`},
		{"a value located where it is written", typedFiles, Params{Set: []string{"replicas=x"}, Pos: inConfig},
			`drydock.yaml:8:20: addon demo: parameter.replicas is an int, not "x"`},
		{"unknown, with a suggestion", typedFiles, Params{Set: []string{"replica=3"}},
			`addon demo: --set replica=3: unknown parameter "replica" (did you mean "replicas"?)`},
		{"nested unknown, with a suggestion", typedFiles, Params{Set: []string{"values.replicaCont=2"}},
			`addon demo: --set values.replicaCont=2: unknown parameter "values.replicaCont" (did you mean "values.replicaCount"?)`},
		{"a nested field given at the top", typedFiles, Params{Set: []string{"replicaCount=2"}},
			`addon demo: --set replicaCount=2: unknown parameter "replicaCount" (did you mean "values.replicaCount"?)`},
		{"unknown, with the parameters listed", typedFiles, Params{Set: []string{"zzzzzz=1"}},
			`addon demo: --set zzzzzz=1: unknown parameter "zzzzzz": the parameters are port, enabled, replicas, cpu, either, clusters, values, ports, labels, extra, anything`},
		{"nested unknown, with the fields listed", typedFiles, Params{Set: []string{"values.zzzzzz=1"}},
			`addon demo: --set values.zzzzzz=1: unknown parameter "values.zzzzzz": the fields of values are replicaCount, image`},
		{"a field of a string", typedFiles, Params{Set: []string{"port.x=1"}},
			`addon demo: --set port.x=1: unknown parameter "port.x": port is a string, not a struct`},
		{"--set-string is checked too", typedFiles, Params{SetString: []string{"prot=1"}},
			`addon demo: --set-string prot=1: unknown parameter "prot" (did you mean "port"?)`},
		{"an unknown key of a values file, located", typedFiles, Params{Values: []Values{valuesAt(map[string]any{"values": map[string]any{"replicas": int64(1)}})}},
			`values.yaml:3:1: addon demo: unknown parameter "values.replicas" (did you mean "values.replicaCount"?)`},
		{"an unknown key of values without positions", typedFiles, Params{Values: []Values{{Data: map[string]any{"enable": true}, Source: "values.yaml"}}},
			`addon demo: values.yaml: unknown parameter "enable" (did you mean "enabled"?)`},
		{"a values file's int for a string parameter, located", typedFiles, Params{Values: []Values{valuesAt(map[string]any{"port": int64(40)})}},
			`values.yaml:2:1: addon demo: parameter.port is a string, not the int 40 (quote it)`},
		{"a values file's float for an int parameter", typedFiles, Params{Values: []Values{{Data: map[string]any{"values": map[string]any{"replicaCount": 1.5}}, Source: "values.yaml"}}},
			`addon demo: values.yaml: parameter.values.replicaCount is an int, not the float 1.5`},
		{"--set-string for an int parameter", typedFiles, Params{SetString: []string{"replicas=3"}},
			`addon demo: --set-string replicas=3: parameter.replicas is an int, not the string "3"`},
		{"not an int", typedFiles, Params{Set: []string{"replicas=abc"}},
			`addon demo: --set replicas=abc: parameter.replicas is an int, not "abc"`},
		{"not a bool", typedFiles, Params{Set: []string{"enabled=yes"}},
			`addon demo: --set enabled=yes: parameter.enabled is a bool, not "yes"`},
		{"not a list", typedFiles, Params{Set: []string{"clusters=local"}},
			`addon demo: --set clusters=local: parameter.clusters is a list, not "local" (a list is written clusters={a,b})`},
		{"not a struct", typedFiles, Params{Set: []string{"values=1"}},
			`addon demo: --set values=1: parameter.values is a struct, not "1" (set its fields: values.NAME=VALUE)`},
		{"an int in a list", typedFiles, Params{Set: []string{"ports[0].port=http"}},
			`addon demo: --set ports[0].port=http: parameter.ports[0].port is an int, not "http"`},
		{"an addon whose parameter declares nothing", withMeta(map[string]string{"parameter.cue": "parameter: {}\n"}), Params{Set: []string{"x=1"}},
			`addon demo: --set x=1: unknown parameter "x": the addon declares no parameters`},
		{"malformed", typedFiles, Params{Set: []string{"a={x"}},
			`addon demo: --set a={x: list must terminate with '}'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(addonFS(tt.files), Options{Params: tt.params})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParamsClusters: `clusters`, which vela addon enable reads itself, is
// taken whether or not the addon declares it.
func TestParamsClusters(t *testing.T) {
	files := withMeta(map[string]string{"parameter.cue": "parameter: {n: *1 | int}\n"})
	res := mustRender(t, files, Options{Params: Params{Set: []string{"clusters={local}", "n=2"}}})
	if diff := cmp.Diff(`{"clusters":["local"],"n":2}`, storedParams(t, res)); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
}

// TestParamsNoParameterFile: an addon without a parameter file has no
// schema (its templates may still read parameter.x, which KubeVela
// generates from the arguments): every key is taken, with vela's types.
func TestParamsNoParameterFile(t *testing.T) {
	res := mustRender(t, withMeta(map[string]string{}), Options{Params: Params{Set: []string{"x=1", "y=a"}}})
	if diff := cmp.Diff(`{"x":1,"y":"a"}`, storedParams(t, res)); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
}

// TestParamsCheck: Check refuses a malformed argument without an addon.
func TestParamsCheck(t *testing.T) {
	if err := (Params{Set: []string{"a=1", "b.c={x,y}"}, SetString: []string{"d=2"}}).Check(); err != nil {
		t.Errorf("Check() = %v", err)
	}
	for _, p := range []Params{{Set: []string{"a"}}, {SetString: []string{"a={x"}}} {
		if err := p.Check(); !errors.Is(err, ErrInvalid) {
			t.Errorf("Check(%+v) = %v, want an ErrInvalid", p, err)
		}
	}
}
