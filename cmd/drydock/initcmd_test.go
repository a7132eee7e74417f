package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// init surveys what it can read: a file past MaxInputBytes (a big JSON
// fixture) is passed over, not an error.
func TestSurveySkipsLargeFiles(t *testing.T) {
	root := t.TempDir()
	app := "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec: {components: []}\n"
	if err := os.MkdirAll(filepath.Join(root, "apps"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "apps", "app.yaml"), []byte(app), 0o644); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(root, "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(manifest.MaxInputBytes + 1); err != nil { // sparse
		t.Fatal(err)
	}
	big.Close()
	found, err := survey(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(found.inputs) != 1 || found.inputs[0] != "apps" {
		t.Errorf("inputs %q, want [apps]", found.inputs)
	}
}
