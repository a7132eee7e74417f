package pipeline

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/schemas"
)

// The inputs' unknown fields follow Inputs.FieldValidation: errors
// (strict), warnings (warn) or nothing (ignore); warn and ignore render
// the objects as the API server keeps them, without those fields.
func TestFieldValidation(t *testing.T) {
	dir := t.TempDir()
	clean := configMapApp
	misspelt := strings.Replace(configMapApp, "type: k8s-objects,", "type: k8s-objects, replica: 3,", 1) + "  polices: []\n"
	writeFiles(t, dir, map[string]string{
		"clean/app.yaml": clean,
		"app.yaml":       misspelt,
		"defs/trait.yaml": "apiVersion: core.oam.dev/v1beta1\nkind: TraitDefinition\nmetadata: {name: team}\nspec:\n  podDisruptiv: true\n" +
			"  schematic: {cue: {template: 'patch: metadata: labels: team: \"x\"'}}\n",
	})
	render := func(v schemas.FieldValidation, paths ...string) (*Result, error) {
		return Run(context.Background(), Inputs{Paths: paths, DefinitionPaths: []string{filepath.Join(dir, "defs")}, FieldValidation: v})
	}
	want, err := render(schemas.FieldIgnore, filepath.Join(dir, "clean"))
	if err != nil {
		t.Fatal(err)
	}
	wantTree, err := Tree(want.Clusters)
	if err != nil {
		t.Fatal(err)
	}
	_, err = render(schemas.FieldStrict, filepath.Join(dir, "app.yaml"))
	if !errors.Is(err, schemas.ErrUnknownField) || !errors.Is(err, ErrInput) {
		t.Fatalf("strict: %v, want an input error wrapping ErrUnknownField", err)
	}
	for _, tt := range []struct {
		v        schemas.FieldValidation
		warnings []string
	}{
		{schemas.FieldWarn, []string{
			dir + `/defs/trait.yaml:5:3: TraitDefinition "team": unknown field "spec.podDisruptiv" (did you mean "podDisruptive"?)`,
			dir + `/app.yaml:5:45: application "shop": unknown field "spec.components[0].replica" (did you mean "properties.replica"?)`,
			dir + `/app.yaml:6:3: application "shop": unknown field "spec.polices" (did you mean "policies"?)`,
		}},
		{schemas.FieldIgnore, nil},
	} {
		t.Run(tt.v.String(), func(t *testing.T) {
			res, err := render(tt.v, filepath.Join(dir, "app.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.warnings, res.Warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			got, err := Tree(res.Clusters)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantTree, got); diff != "" {
				t.Errorf("the render differs from the one without the unknown fields (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFieldValidationDuplicateKeys: a key written twice follows
// Inputs.FieldValidation (the API server's duplicate fields): an error
// under strict, one warning per key under warn (though each
// Application's document is decoded again in the render's workers), the
// last value kept under warn and ignore.
func TestFieldValidationDuplicateKeys(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	var want []string
	for _, n := range []string{"a", "b", "c", "d"} {
		app := strings.Replace(configMapApp, "{name: shop}", "\n  name: "+n+"\n  name: "+n+"2", 1)
		files[n+".yaml"] = strings.Replace(app, "metadata: {name: a}", "metadata: {name: "+n+"}", 1)
		want = append(want, filepath.Join(dir, n+".yaml")+`:5:3: duplicate key "name" (first defined at line 4): the last value is kept (--field-validation warn)`)
	}
	writeFiles(t, dir, files)
	render := func(v schemas.FieldValidation) (*Result, error) {
		return Run(context.Background(), Inputs{Paths: []string{dir}, FieldValidation: v, Workers: 4})
	}
	if _, err := render(schemas.FieldStrict); !errors.Is(err, manifest.ErrDuplicateKey) {
		t.Fatalf("strict: %v, want a duplicate key error", err)
	}
	for v, warnings := range map[schemas.FieldValidation][]string{schemas.FieldWarn: want, schemas.FieldIgnore: nil} {
		res, err := render(v)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(warnings, res.SortedWarnings()); diff != "" {
			t.Errorf("%v: warnings (-want +got):\n%s", v, diff)
		}
		if got := res.Applications; got != 4 {
			t.Errorf("%v: %d applications, want 4", v, got)
		}
	}
}
