package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	"github.com/drydock-dev/drydock/manifest"
)

func TestParseCUEDefinitions(t *testing.T) {
	src := `import "strings"

"my-trait": {
	type: "trait"
	attributes: stage: "PostDispatch"
}
template: {
	parameter: name: string
	outputs: cm: {
		apiVersion: "v1"
		kind:       "ConfigMap"
		data: up: strings.ToUpper(parameter.name)
	}
}
`
	ds, err := ParseCUEDefinitions("t.cue", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	d := ds[0]
	if d.Kind != KindTrait || d.Name != "my-trait" || d.Stage != StagePostDispatch {
		t.Errorf("got %s %q stage %q", d.Kind, d.Name, d.Stage)
	}
	// The template keeps the file's line numbers: parameter is on line 8.
	if lines := strings.Split(d.Template, "\n"); !strings.Contains(lines[7], "parameter: name: string") {
		t.Errorf("line 8 of the template = %q", lines[7])
	}
	// It compiles as it is (render/cueval adds only declarations).
	if v := cuecontext.New().CompileString(d.Template, cue.Filename(d.TemplateFile)); v.Err() != nil {
		t.Fatalf("template does not compile: %v", v.Err())
	}
}

func TestParseCUEDefinitionsErrors(t *testing.T) {
	tests := map[string]string{
		"no template":  `x: {type: "trait"}`,
		"unknown type": "x: {type: \"gadget\"}\ntemplate: {}",
		"two defs":     "x: {type: \"trait\"}\ny: {type: \"trait\"}\ntemplate: {}",
		"syntax":       "x: {type: \"trait\"\ntemplate: {}",
	}
	for name, src := range tests {
		if _, err := ParseCUEDefinitions("bad.cue", []byte(src)); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.Contains(manifest.Format(err, nil), "bad.cue") {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
}

func FuzzParseCUEDefinitions(f *testing.F) {
	files, _ := filepath.Glob("builtin/*.cue")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("x: {type: \"trait\"}\ntemplate: {}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseCUEDefinitions("fuzz.cue", data)
	})
}
