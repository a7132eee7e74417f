package cueval_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
)

func TestUndeclared(t *testing.T) {
	defs := builtinDefinitions(t)
	e := cueval.New(defs)
	def := func(kind, name string) *render.Definition {
		d, err := defs.Lookup(kind, name)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		kind, name string
		props      map[string]any
		want       []string
	}{
		{render.KindComponent, "webservice", map[string]any{"image": "nginx", "replica": 2, "imagePullPolicy": "Always"}, []string{"replica"}},
		{render.KindComponent, "webservice", map[string]any{"image": "nginx", "prots": []any{}, "ports": []any{map[string]any{"port": 80, "expos": true}}}, []string{"ports[0].expos (expose)", "prots (ports)"}},
		{render.KindTrait, "scaler", map[string]any{"replica": 3}, []string{"replica (replicas)"}},
		// A pattern ([string]: string) takes any field.
		{render.KindTrait, "labels", map[string]any{"anything": "x"}, nil},
		{render.KindComponent, "webservice", map[string]any{"image": "nginx", "env": []any{map[string]any{"name": "A", "value": "b"}}}, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, u := range e.Undeclared(def(tt.kind, tt.name), tt.props) {
			s := u.Path.String()
			if u.Closest != "" {
				s += fmt.Sprintf(" (%s)", u.Closest)
			}
			got = append(got, s)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s %v (-want +got):\n%s", tt.name, tt.props, diff)
		}
	}
}

func TestUndeclaredOpenObjects(t *testing.T) {
	defs := builtinDefinitions(t)
	d, err := defs.Lookup(render.KindComponent, "k8s-objects")
	if err != nil {
		t.Fatal(err)
	}
	props := map[string]any{"objects": []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}}}
	if got := cueval.New(defs).Undeclared(d, props); len(got) != 0 {
		t.Errorf("k8s-objects' objects take any object: %v", got)
	}
}

// A field a comprehension declares counts as declared: when the other
// properties decide it, and (conservatively) when an outer one does.
func TestUndeclaredComprehensions(t *testing.T) {
	d := cueDef(t, "disk", "trait", "", `
	parameter: {
		volumeMode: *"Filesystem" | "Block"
		volumes: [...{
			name: string
			type: *"emptyDir" | "pvc"
			if type == "pvc" {
				claimName: string
			}
		}]
		mounts: [...{
			name: string
			if volumeMode == "Block" {
				devicePath: string
			}
		}]
	}
	patch: {}`)
	e := cueval.New(withDefs(t, d))
	props := map[string]any{
		"volumeMode": "Block",
		"volumes":    []any{map[string]any{"name": "a", "type": "pvc", "claimName": "c"}, map[string]any{"name": "b", "claimNme": "x"}},
		"mounts":     []any{map[string]any{"name": "m", "devicePath": "/dev/x"}},
	}
	var got []string
	for _, u := range e.Undeclared(d, props) {
		got = append(got, u.Path.String())
	}
	if diff := cmp.Diff([]string{"volumes[1].claimNme"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
