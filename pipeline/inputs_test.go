package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestHubObjectsDuplicates: the API server keeps one Workflow and one
// Policy per namespace and name; a second is bad input naming the first.
func TestHubObjectsDuplicates(t *testing.T) {
	const (
		workflow = "apiVersion: core.oam.dev/v1alpha1\nkind: Workflow\nmetadata: {name: wf, namespace: default}\nsteps: [{name: s, type: suspend}]\n"
		pol      = "apiVersion: core.oam.dev/v1alpha1\nkind: Policy\nmetadata: {name: p}\ntype: topology\nproperties: {clusters: [local]}\n"
	)
	tests := []struct {
		name, input, want string
	}{
		{name: "workflows", input: workflow + "---\n" + workflow, want: "in.yaml:8:18: Workflow default/wf is also defined at in.yaml:3:18"},
		{name: "policies, the first in default", input: pol + "---\n" + strings.Replace(pol, "{name: p}", "{name: p, namespace: default}", 1), want: "in.yaml:9:18: Policy default/p is also defined at in.yaml:3:18"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in.yaml")
			if err := os.WriteFile(path, []byte(tt.input), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Run(context.Background(), Inputs{Paths: []string{path}})
			if !errors.Is(err, ErrInput) {
				t.Fatalf("error %v: want ErrInput", err)
			}
			got := strings.ReplaceAll(manifest.Format(err, nil), path, "in.yaml")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoadDefinitions: -d definitions replace the built-ins of their
// name; a -d file holding anything else is refused.
func TestLoadDefinitionFiles(t *testing.T) {
	dir := t.TempDir()
	def := filepath.Join(dir, "def.yaml")
	if err := os.WriteFile(def, []byte("apiVersion: core.oam.dev/v1beta1\nkind: TraitDefinition\nmetadata: {name: scaler}\nspec:\n  schematic:\n    cue:\n      template: |\n        parameter: {n: *1 | int}\n        patch: spec: replicas: parameter.n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defs, err := LoadDefinitions([]string{def}, false)
	if err != nil {
		t.Fatal(err)
	}
	if d := defs.Get("TraitDefinition", "scaler"); d == nil || d.Source.File != def {
		t.Errorf("scaler: %+v, want the one of %s", d, def)
	}
	if d := defs.Get("ComponentDefinition", "webservice"); d == nil {
		t.Error("the built-in webservice is missing")
	}
	if defs, err := LoadDefinitions([]string{def}, true); err != nil || defs.Get("ComponentDefinition", "webservice") != nil {
		t.Errorf("without built-ins: %v, webservice %v", err, defs.Get("ComponentDefinition", "webservice"))
	}
	other := filepath.Join(dir, "cm.yaml")
	if err := os.WriteFile(other, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDefinitions([]string{other}, false); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "-d") {
		t.Errorf("error %v: want ErrInput about -d", err)
	}
}

// TestStdin: "-" reads standard input once; without one (or a second
// time) it is bad input.
func TestStdin(t *testing.T) {
	const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: default}\n"
	res, err := Run(context.Background(), Inputs{Paths: []string{"-"}, Stdin: strings.NewReader(cm)})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Clusters.Len(); got != 1 {
		t.Errorf("%d objects rendered from stdin, want the ConfigMap", got)
	}
	for name, in := range map[string]Inputs{
		"no stdin": {Paths: []string{"-"}},
		"twice":    {Paths: []string{"-", "-"}, Stdin: strings.NewReader(cm)},
	} {
		if _, err := Run(context.Background(), in); !errors.Is(err, ErrInput) || err.Error() != "-: no standard input" {
			t.Errorf("%s: error %v, want ErrInput: -: no standard input", name, err)
		}
	}
}

// TestClusterPaths: --clusters holds Cluster objects only, and at least
// one.
func TestClusterPaths(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content, want string
	}{
		{name: "another kind", content: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", want: "--clusters"},
		{name: "nothing", content: "# no object\n", want: "no cluster.karmada.io Cluster object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".yaml")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Run(context.Background(), Inputs{Paths: []string{"../examples/first-vela-app.yaml"}, ClusterPaths: []string{path}})
			if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v: want ErrInput containing %q", err, tt.want)
			}
		})
	}
}

// TestAddonParams: an addon's parameters reach it as given, typed by its
// parameter schema (team-policy's team is a string: 40 is "40"), and a
// key it does not declare is bad input with the nearest one.
func TestAddonParams(t *testing.T) {
	const dir = "../examples/addons/team-policy"
	res, err := RenderAddon(AddonInputs{Addon: Addon{Dir: dir, Params: AddonParams{Set: []string{"team=40"}}}})
	if err != nil {
		t.Fatal(err)
	}
	var stored string
	for _, e := range res.Clusters.List("local") {
		if e.Object.Kind() == "Secret" {
			stored = manifest.String(e.Object.Data, "data", "addonParameterDataKey")
		}
	}
	if want := "eyJ0ZWFtIjoiNDAifQ=="; stored != want { // {"team":"40"}
		t.Errorf("stored parameters %q, want %q", stored, want)
	}
	_, err = RenderAddon(AddonInputs{Addon: Addon{Dir: dir, Params: AddonParams{Set: []string{"tema=x"}}}})
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), `unknown parameter "tema" (did you mean "team"?)`) {
		t.Errorf("unknown key: error %v", err)
	}
}
