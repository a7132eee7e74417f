package cueval

import (
	"encoding/json"
	"fmt"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/builtin"
)

// evaluated is what a component's evaluation gives: the validation error
// (details and positions) and output, outputs and errs as JSON.
func evaluated(tmpl cue.Value, fill map[string]any) string {
	// JSON compiled, not Encode: its positions follow map iteration.
	data, err := json.Marshal(fill)
	if err != nil {
		panic(err)
	}
	v := tmpl.Unify(tmpl.Context().CompileBytes(data, cue.Filename("fill.json")))
	s := "validate:"
	if err := v.Validate(); err != nil {
		s += cueerrors.Details(err, nil) + fmt.Sprint(cueerrors.Positions(err))
	}
	for _, p := range []string{"output", "outputs", "errs"} {
		x := v.LookupPath(cue.ParsePath(p))
		b, err := x.MarshalJSON()
		s += fmt.Sprintf("\n%s: %s", p, b)
		if err != nil {
			s += " error: " + cueerrors.Details(err, nil) + fmt.Sprint(cueerrors.Positions(err))
		}
	}
	return s
}

// TestCompileSplit compiles templates whole and split, and compares what
// evaluating them with the same parameter gives, errors included.
func TestCompileSplit(t *testing.T) {
	tests := []struct {
		name  string
		tmpl  string
		param map[string]any
		split bool
	}{
		{
			name: "definition and helper used by the output",
			tmpl: `
output: {
	probe: parameter.probe
	port: _ports[parameter.proto]
}
_ports: {TCP: "tcp", UDP: _lower}
_lower: "udp"
parameter: {
	proto: *"TCP" | "UDP"
	probe?: #Probe
}
#Probe: {
	period: *10 | int
	path: string
}`,
			param: map[string]any{"proto": "UDP", "probe": map[string]any{"path": "/"}},
			split: true,
		},
		{
			name: "a closed definition refuses an undeclared field",
			tmpl: `
output: probe: parameter.probe
parameter: probe: #Probe
#Probe: {period: *10 | int}`,
			param: map[string]any{"probe": map[string]any{"bogus": 1}},
			split: true,
		},
		{
			name: "conflict inside a static definition's use",
			tmpl: `
output: probe: parameter.probe
parameter: probe: #Probe
#Probe: {period: *10 | int}`,
			param: map[string]any{"probe": map[string]any{"period": "often"}},
			split: true,
		},
		{
			name: "a helper that reads parameter stays in the template",
			tmpl: `
output: name: _name
_name: parameter.name + _suffix
_suffix: "-x"
parameter: name: string`,
			param: map[string]any{"name": "web"},
			split: true,
		},
		{
			name: "a helper through a helper that reads context stays",
			tmpl: `
output: name: _a
_a: _b
_b: context.name`,
			param: nil,
			split: false,
		},
		{
			name: "a label declared twice, once reading parameter",
			tmpl: `
output: _h
_h: {a: 1}
_h: {b: parameter.b}
parameter: b: int`,
			param: map[string]any{"b": 2},
			split: false,
		},
		{
			name: "imports used by one part or both",
			tmpl: `
import (
	"strings"
	"list"
)
output: {
	up: _up
	name: strings.ToUpper(parameter.name)
	n: list.Sum(_nums)
}
_up: strings.ToLower("ABC")
_nums: [1, 2]
parameter: name: string`,
			param: map[string]any{"name": "web"},
			split: true,
		},
		{
			name: "an unused import is still an error",
			tmpl: `
import "strings"
output: _x
_x: 1`,
			split: false,
		},
		{
			name: "a static helper with an error is left to the whole template",
			tmpl: `
output: a: parameter.a
_bad: 1 & 2
parameter: a: int`,
			param: map[string]any{"a": 1},
			split: false,
		},
		{
			name: "a top-level let reading parameter",
			tmpl: `
let N = parameter.n
output: n: N
_two: 2
output: two: _two
parameter: n: int`,
			param: map[string]any{"n": 1},
			split: true,
		},
		{
			name: "a top-level comprehension is not split",
			tmpl: `
if parameter.on {
	output: on: true
}
output: k: _k
_k: "v"
parameter: on: bool`,
			param: map[string]any{"on": true},
			split: false,
		},
		{
			name: "a helper referencing a field of the template stays",
			tmpl: `
output: {a: 1, b: _b}
_b: output.a + 1`,
			split: false,
		},
		{
			name: "for loops and nested references inside a static helper",
			tmpl: `
_table: {for k, v in _src {(k): v * 2}}
_src: {a: 1, b: 2}
#Item: {name: string, n: _table[name]}
output: items: [for n in parameter.names {#Item & {name: n}}]
parameter: names: [...string]`,
			param: map[string]any{"names": []any{"a", "b"}},
			split: true,
		},
		{
			name: "a missing parameter is incomplete the same way",
			tmpl: `
output: {image: parameter.image, p: #P}
#P: {x: *1 | int}
parameter: image: string`,
			param: map[string]any{},
			split: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.tmpl + "\ncontext: _\nparameter: _\n"
			ctx := cuecontext.New(cuecontext.EvaluatorVersion(cuecontext.EvalV2))
			whole := ctx.CompileString(src, cue.Filename("t.cue"))
			split, ok := compileSplit(ctx, "t.cue", src)
			if ok != tc.split {
				t.Fatalf("split %v, want %v", ok, tc.split)
			}
			if !ok {
				return
			}
			fill := map[string]any{"context": map[string]any{"name": "c"}}
			if tc.param != nil {
				fill["parameter"] = tc.param
			}
			if diff := cmp.Diff(evaluated(whole, fill), evaluated(split, fill)); diff != "" {
				t.Errorf("split template evaluates differently (-whole +split):\n%s", diff)
			}
		})
	}
}

// TestBuiltinComponentsSplit checks that the built-in component
// definitions' templates are split (they would render the same whole,
// slower).
func TestBuiltinComponentsSplit(t *testing.T) {
	for _, name := range []string{"webservice", "worker", "daemon", "task", "statefulset"} {
		d, err := builtin.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		e := New(render.NewDefinitions())
		if _, ok := e.compileStatic(d, d.RenderedTemplate()+"\ncontext: _\nparameter: _\n"); !ok {
			t.Errorf("%s: template not split", name)
		}
	}
}
