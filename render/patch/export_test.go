package patch

import (
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/format"
	"github.com/google/go-cmp/cmp"
)

// TestExportFragment: a template's output or patch that exports as data
// takes the export without the self-contained walk (fields whose
// fragment is not data exported again on their own), and comes out as
// the self-contained export does, docs and defaults included; a value
// whose export refers to anything (or holds what simplification prints
// otherwise) is exported self-contained.
func TestExportFragment(t *testing.T) {
	// ports is webservice's port plan: once the output has been checked
	// concrete (as a trait's context does), the fragment export prints
	// the defaults of protocol and name as the references they came from.
	const ports = `
output: {
	kind: "Deployment"
	// +patchKey=name
	ports: [for pp in _plan {
		containerPort: pp.target
		protocol:      pp.src.protocol
		name:          pp.name
	}]
}
_plan: [for p in parameter.ports {
	src:    p
	target: [if p.containerPort != _|_ {p.containerPort}, p.port][0]
	if p.name == _|_ {name: *"port-\(target)" | string}
}]
parameter: ports: [...{port: int, containerPort?: int, name?: string, protocol: *"TCP" | "UDP" | "SCTP"}]
parameter: ports: [{port: 8080}, {port: 81, protocol: "UDP"}]
`
	tests := []struct {
		name, src, path string
		// final checks the value concrete first.
		final    bool
		fragment bool
		// refers is true when the fragment refers before its fields are
		// exported again.
		refers bool
	}{
		{name: "data built by helper comprehensions", path: "output", fragment: true, src: `
parameter: {name: "web", ports: [{port: 80, expose: true}, {port: 81}]}
_plan: [for p in parameter.ports {target: p.port, if p.expose != _|_ {exposed: p.expose}}]
output: {
	kind: "Deployment"
	metadata: name: parameter.name
	spec: {
		// +patchKey=name
		containers: [{name: parameter.name, ports: [for p in _plan {containerPort: p.target}]}]
		if len(_plan) > 1 {replicas: len(_plan)}
	}
}`},
		{name: "defaults and type names", path: "output", fragment: true, src: `
parameter: {port: 8080, protocol: *"TCP" | "UDP"}
output: {
	name:     *"port-\(parameter.port)" | string
	protocol: parameter.protocol
	opt?:     int
	any:      _
	n:        null
	b:        bytes | *'x'
	f:        float | *1.5
	"a-b":    [1, ...int]
}`},
		{name: "defaults that refer, before the concrete check", path: "output", fragment: true, src: ports},
		{name: "defaults that refer, after the concrete check", path: "output", final: true, fragment: true, refers: true, src: ports},
		{name: "a patch reading the parameter", path: "patch", fragment: true, src: `
parameter: replicas: *1 | int
// +patchStrategy=retainKeys
patch: spec: replicas: parameter.replicas`},
		{name: "a hidden field resolved", path: "output", fragment: true, src: `output: {_h: 1, a: _h}`},
		{name: "an incomplete field refers to the template", path: "output", src: `
_q: {}
output: {p: _q.protocol, n: 1}`},
		{name: "an incomplete field in a comprehension", path: "output", src: `
parameter: ports: [{port: 80}]
output: ports: [for v in parameter.ports {protocol: v.protocol, name: *_name | string, _name: string}]`},
		{name: "bounds", path: "output", src: `
parameter: n: >=0 & <=10
output: replicas: parameter.n`},
		{name: "an error", path: "output", src: `output: containers: [{name: _|_}]`},
		{name: "a definition", path: "output", src: `output: {#D: {a: int}, d: #D & {a: 1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newContext().CompileString(tt.src).LookupPath(cue.ParsePath(tt.path))
			if tt.final {
				if err := v.Validate(cue.Concrete(true), cue.Final()); err != nil {
					t.Fatal(err)
				}
			}
			//lint:ignore SA1019 the export the patcher used before the fragment.
			full, err := format.Node(v.Syntax(cue.Docs(true), cue.ResolveReferences(true)))
			if err != nil {
				t.Fatal(err)
			}
			got, err := format.Node(export(v))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(full), string(got)); diff != "" {
				t.Errorf("export differs from the self-contained one (-want +got):\n%s", diff)
			}
			//lint:ignore SA1019 as fragment.
			if refers := !isData(v.Syntax(cue.Docs(true), cue.Raw(), cue.ResolveReferences(true))); tt.fragment && refers != tt.refers {
				t.Errorf("the fragment refers: %v, want %v", refers, tt.refers)
			}
			if _, frag := fragment(v); frag != tt.fragment {
				t.Errorf("exported as a fragment: %v, want %v", frag, tt.fragment)
			}
		})
	}
}
