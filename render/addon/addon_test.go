package addon

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"github.com/google/go-cmp/cmp"
)

const testMeta = "name: demo\nversion: 1.0.0\n"

func TestRenderErrors(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		prefix string // the error must start with it
	}{
		{
			name:   "no metadata",
			files:  map[string]string{"template.cue": "output: {}\n"},
			prefix: "the addon has no metadata.yaml",
		},
		{
			name:   "metadata without version",
			files:  map[string]string{"metadata.yaml": "name: demo\n"},
			prefix: "metadata.yaml: metadata.yaml must define the version",
		},
		{
			name: "template error at its line",
			files: map[string]string{
				"metadata.yaml": testMeta,
				"template.cue":  "package main\n\noutput: {\n\tkind: \"Application\"\n\tspec: components: [1] + [2]\n}\n",
			},
			prefix: "template.cue:5:20: addon demo: render application: output.spec.components: Addition of lists",
		},
		{
			name: "template without package keeps its lines",
			files: map[string]string{
				"metadata.yaml": testMeta,
				"parameter.cue": "parameter: {\n\tn: string\n\tm: string\n}\n",
				"template.cue":  "output: {\n\tkind: \"Application\"\n\tspec: components: [{name: \"x\", type: parameter.nope}]\n}\n",
			},
			prefix: "template.cue:3:49: addon demo: decode application from CUE: cue: marshal error: output.spec.components.0.type: undefined field: nope",
		},
		{
			name: "parameter conflict names the parameter file",
			files: map[string]string{
				"metadata.yaml": testMeta,
				"parameter.cue": "parameter: {\n\tn: *1 | int\n}\n",
				"template.cue":  "output: {kind: \"Application\", metadata: labels: n: \"\\(parameter.n)\"}\n",
			},
			prefix: "parameter.cue:2:6: addon demo: render application: parameter.n",
		},
		{
			name: "both templates",
			files: map[string]string{
				"metadata.yaml": testMeta,
				"template.cue":  "output: {}\n",
				"template.yaml": "kind: Application\n",
			},
			prefix: "template.yaml: addon demo: an addon cannot have both",
		},
		{
			name: "resource without kind",
			files: map[string]string{
				"metadata.yaml":       testMeta,
				"resources/cm.yaml":   "\n# a comment\napiVersion: v1\n",
				"resources/other.cue": "x: 1\n",
			},
			prefix: "resources/cm.yaml:3:1: addon demo: object 'Kind' is missing",
		},
		{
			name: "unknown definition attribute",
			files: map[string]string{
				"metadata.yaml":     testMeta,
				"definitions/x.cue": "x: {\n\ttype: \"trait\"\n\tattributes: nope: 1\n}\ntemplate: {\n\tpatch: {}\n}\n",
			},
			prefix: `definitions/x.cue: addon demo: invalid definition spec: unknown field "spec.nope"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, data := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
			}
			_, err := Render(fsys, Options{Params: map[string]any{"n": "two"}})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if !strings.HasPrefix(err.Error(), tt.prefix) {
				t.Errorf("Render() error\n%s\nwant prefix\n%s", err, tt.prefix)
			}
		})
	}
}

func TestRenderRejectsSymlinks(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(outside, []byte("kind: Secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(testMeta), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "resources"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "resources", "leak.yaml")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	_, err := Render(os.DirFS(dir), Options{})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "resources/leak.yaml: symbolic links are not allowed") {
		t.Errorf("Render() = %v, want the symlink rejected", err)
	}
}

func TestRenderMinimal(t *testing.T) {
	fsys := fstest.MapFS{
		"metadata.yaml": {Data: []byte(testMeta + "needNamespace: [demo-system, vela-system]\n")},
		"NOTES.cue":     {Data: []byte("notes: \"v\\(context.metadata.version) upgrade=\\(context.installer.upgrade) x=\\(parameter.x)\"\n")},
	}
	res, err := Render(fsys, Options{Params: map[string]any{"x": int64(1)}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range res.Objects {
		got = append(got, o.Kind()+"/"+o.Name())
	}
	want := []string{"Application/addon-demo", "Secret/addon-secret-demo"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	comps, _ := res.Objects[0].Data["spec"].(map[string]any)["components"].([]any)
	if len(comps) != 1 {
		t.Errorf("components = %v, want the demo-system namespace only", comps)
	}
	if diff := cmp.Diff("v1.0.0 upgrade=false x=1", res.Notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}

func TestRenderResourceComponents(t *testing.T) {
	fsys := fstest.MapFS{
		"metadata.yaml":         {Data: []byte(testMeta)},
		"parameter.cue":         {Data: []byte("import \"strings\"\n\nparameter: {\n\tname: *\"Demo\" | string\n\tlower: strings.ToLower(name)\n}\n")},
		"template.yaml":         {Data: []byte("apiVersion: core.oam.dev/v1beta1\nkind: Application\nspec:\n  components: null\n")},
		"resources/a.b.cue":     {Data: []byte("import \"strings\"\n\noutput: {\n\ttype: \"raw\"\n\tproperties: name: strings.ToUpper(parameter.lower)\n}\n")},
		"resources/named.cue":   {Data: []byte("output: {\n\tname: \"n\"\n\ttype: \"raw\"\n\tproperties: v: context.metadata.version\n}\n")},
		"resources/nothing.cue": {Data: []byte("x: 1\n")},
		"resources/main.cue":    {Data: []byte("package main\n\noutput: {type: \"ignored\"}\n")},
	}
	res, err := Render(fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Objects[0].Data["spec"]
	want := map[string]any{"components": []any{
		map[string]any{"name": "a-b", "type": "raw", "properties": map[string]any{"name": "DEMO"}},
		map[string]any{"name": "n", "type": "raw", "properties": map[string]any{"v": "1.0.0"}},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("spec (-want +got):\n%s", diff)
	}
}

func TestKubevelaFix(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a: {for k, v in parameter.labels {(k): v}}", "a: {for k, v in *parameter.labels | {} {(k): v}}"},
		{"a: {if parameter.labels != _|_ for k, v in parameter.labels {(k): v}}", "a: {if parameter.labels != _|_ for k, v in parameter.labels {(k): v}}"},
		{"a: [for x in other.list {x}]", "a: [for x in other.list {x}]"},
	}
	for _, tt := range tests {
		f, err := parser.ParseFile("x.cue", tt.in)
		if err != nil {
			t.Fatal(err)
		}
		b, err := format.Node(kubevelaFix(f))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.want, strings.TrimSpace(string(b))); diff != "" {
			t.Errorf("kubevelaFix(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}
