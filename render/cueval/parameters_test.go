package cueval_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render/cueval"
)

// TestParameterList: Parameters lists a definition's parameter fields as
// `drydock show` prints them: nested fields after their parent, list
// elements as "[]", types shortened, defaults, +usage comments, and
// whether a field is required.
func TestParameterList(t *testing.T) {
	d := cueDef(t, "web", "component", "", `
	output: {apiVersion: "v1", kind: "ConfigMap"}
	parameter: {
		// +usage=Which image to run
		image: string
		replicas: *1 | int
		debug?: bool
		env?: [...{
			name: string
			value?: string
		}]
		resources: {
			cpu: *"100m" | string
		}
		mode: "a" | "b"
		tags: [...string]
		long: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" | "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	}`)
	got, err := cueval.New(withDefs(t)).Parameters(d)
	if err != nil {
		t.Fatal(err)
	}
	want := []cueval.Parameter{
		{Path: "image", Type: "string", Required: true, Usage: "Which image to run"},
		{Path: "replicas", Type: "*1 | int", Default: "1"},
		{Path: "debug", Type: "bool"},
		{Path: "env", Type: "[...]", Default: "[]"}, // CUE gives an open list the default []
		{Path: "env[].name", Type: "string", Required: true},
		{Path: "env[].value", Type: "string"},
		{Path: "resources", Type: "{...}", Required: true},
		{Path: "resources.cpu", Type: `*"100m" | string`, Default: `"100m"`},
		{Path: "mode", Type: `"a" | "b"`, Required: true},
		{Path: "tags", Type: "[...]", Default: "[]"},
		{Path: "long", Type: "string", Required: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parameters (-want +got):\n%s", diff)
	}
}

// TestParameterListBadTemplate: a template that does not compile is an
// error, not an empty list.
func TestParameterListBadTemplate(t *testing.T) {
	d := cueDef(t, "bad", "component", "", `
	output: {kind: undefinedIdentifier}
	parameter: {}`)
	if _, err := cueval.New(withDefs(t)).Parameters(d); err == nil {
		t.Error("Parameters of a broken template succeeded")
	}
}
