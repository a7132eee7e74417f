package cueval

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/drydock-dev/drydock/render"
)

// TestBuiltinsParse checks every embedded definition parses and compiles.
func TestBuiltinsParse(t *testing.T) {
	files, _ := filepath.Glob("../builtin/*.cue")
	e := New(render.NewDefinitions())
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := render.ParseCUEDefinitions(f, data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if _, err := e.template(ds[0]); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
