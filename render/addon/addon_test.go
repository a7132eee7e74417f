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
	"github.com/drydock-dev/drydock/manifest"
	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/fieldpath"
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
			prefix: "metadata.yaml:1:1: addon demo: metadata.yaml must define the version",
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
				"parameter.cue": "parameter: {\n\tn: *\"one\" | \"three\"\n}\n",
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
			prefix: "resources/cm.yaml:3:1: addon demo: kind: Required value",
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
			_, err := Render(fsys, Options{Params: valuesOf(map[string]any{"n": "two"})})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if !strings.HasPrefix(manifest.Format(err, nil), tt.prefix) {
				t.Errorf("Render() error\n%s\nwant prefix\n%s", err, tt.prefix)
			}
		})
	}
}

// TestRenderErrorMessages pins whole messages: each starts with the file,
// line and column of its cause, names the addon when its name is known and
// the field or item concerned, in KubeVela's or drydock's words, never in
// a library's.
func TestRenderErrorMessages(t *testing.T) {
	registry := fstest.MapFS{
		"other/metadata.yaml": {Data: []byte("name: other\nversion: 1.0.0\n")},
		"bad/metadata.yaml":   {Data: []byte("name: bad\nversion: 1.0.0\ntags: x\n")},
		"loop/metadata.yaml":  {Data: []byte("name: loop\nversion: 1.0.0\ndependencies: [{name: demo}]\n")},
	}
	tests := []struct {
		name  string
		files map[string]string
		opts  Options
		want  string
	}{
		{
			name:  "empty metadata",
			files: map[string]string{"metadata.yaml": ""},
			want:  "metadata.yaml:1:1: metadata.yaml must define the name of the addon",
		},
		{
			name:  "metadata without version",
			files: map[string]string{"metadata.yaml": "name: demo\ndescription: none\n"},
			want:  "metadata.yaml:1:1: addon demo: metadata.yaml must define the version of the addon",
		},
		{
			name:  "metadata syntax error",
			files: map[string]string{"metadata.yaml": "name: demo\nversion: 1.0.0\ndescription: \"unterminated\n"},
			want:  "metadata.yaml:3:14: invalid YAML near line 3: found unexpected end of stream (a quoted string opened here is never closed)",
		},
		{
			name:  "metadata tags a string",
			files: map[string]string{"metadata.yaml": testMeta + "tags: example\n"},
			want:  `metadata.yaml:3:7: addon demo: metadata.yaml: tags: must be a list of strings, found the string "example"`,
		},
		{
			name:  "metadata deployTo a string",
			files: map[string]string{"metadata.yaml": testMeta + "deployTo: runtime\n"},
			want:  `metadata.yaml:3:11: addon demo: metadata.yaml: deployTo: must be a mapping, found the string "runtime"`,
		},
		{
			name:  "metadata dependency a string",
			files: map[string]string{"metadata.yaml": testMeta + "dependencies:\n  - name: fluxcd\n  - terraform\n"},
			want:  `metadata.yaml:5:5: addon demo: metadata.yaml: dependencies[1]: must be a mapping, found the string "terraform"`,
		},
		{
			name:  "metadata name a list",
			files: map[string]string{"metadata.yaml": "name: [1, 2]\nversion: 1.0.0\n"},
			want:  "metadata.yaml:1:7: metadata.yaml: name: must be a string, found a list",
		},
		{
			name:  "metadata scalars become strings",
			files: map[string]string{"metadata.yaml": testMeta + "invisible: [x]\n"},
			want:  "metadata.yaml:3:12: addon demo: metadata.yaml: invisible: must be a boolean, found a list",
		},
		{
			name:  "system constraint that does not parse",
			files: map[string]string{"metadata.yaml": testMeta + "system:\n  vela: \">=banana\"\n"},
			want:  `metadata.yaml:4:9: addon demo: metadata.yaml: system.vela: Invalid value: ">=banana": not a version constraint KubeVela can check`,
		},
		{
			name:  "dependency missing from the registry",
			files: map[string]string{"metadata.yaml": testMeta + "dependencies:\n  - name: other\n  - name: missing\n    version: \">=1.0.0\"\n"},
			opts:  Options{Registry: registry},
			want:  "metadata.yaml:5:11: addon demo: dependencies[1].name: unresolvable dependency missing: no available addon with name missing",
		},
		{
			name:  "dependency version unsatisfied",
			files: map[string]string{"metadata.yaml": testMeta + "dependencies:\n  - name: other\n    version: \">=2.0.0\"\n"},
			opts:  Options{Registry: registry},
			want:  `metadata.yaml:5:14: addon demo: dependencies[0].version: unresolvable dependency other: no version of other satisfies ">=2.0.0" (registry has 1.0.0)`,
		},
		{
			name:  "dependency with bad metadata, located in its own directory",
			files: map[string]string{"metadata.yaml": testMeta + "dependencies:\n  - name: bad\n"},
			opts:  Options{Registry: registry},
			want:  `../bad/metadata.yaml:3:7: addon bad (needed by addon demo): metadata.yaml: tags: must be a list of strings, found the string "x"`,
		},
		{
			name:  "dependency cycle",
			files: map[string]string{"metadata.yaml": testMeta + "dependencies:\n  - name: loop\n"},
			opts:  Options{Registry: registry},
			want:  "../loop/metadata.yaml:3:23: addon loop (needed by addon demo): dependencies[0].name: dependency cycle demo -> loop -> demo",
		},
		{
			name: "template.yaml components a mapping",
			files: map[string]string{
				"metadata.yaml": testMeta,
				"template.yaml": "apiVersion: core.oam.dev/v1beta1\nkind: Application\nspec:\n  components:\n    web: {type: webservice}\n",
			},
			want: "template.yaml:5:5: addon demo: template.yaml: spec.components: must be a list of mappings, found a mapping",
		},
		{
			name: "template.yaml component name a number",
			files: map[string]string{
				"metadata.yaml": testMeta,
				"template.yaml": "kind: Application\nspec:\n  components:\n  - name: 5\n    type: webservice\n",
			},
			want: "template.yaml:4:11: addon demo: template.yaml: spec.components[0].name: must be a string, found the number 5",
		},
		{
			name: "template.yaml syntax error",
			files: map[string]string{
				"metadata.yaml": testMeta,
				"template.yaml": "apiVersion: core.oam.dev/v1beta1\nkind: Application\nspec:\n  components: [\n",
			},
			want: "template.yaml:4: addon demo: invalid YAML near line 4: did not find expected node content",
		},
		{
			name: "resource CUE names its own fields",
			files: map[string]string{
				"metadata.yaml":   testMeta,
				"parameter.cue":   "parameter: {\n\tn: *1 | int\n}\n",
				"resources/x.cue": "output: {\n\ttype: \"k8s-objects\"\n\tproperties: objects: [{metadata: name: \"cm\" + parameter.n}]\n}\n",
			},
			opts: Options{Params: valuesOf(map[string]any{})},
			want: `resources/x.cue:3:41: addon demo: render resource: output.properties.objects.0.metadata.name: invalid operands "cm" and 1 to '+' (type string and int)`,
		},
		{
			name: "resource CUE output of the wrong shape",
			files: map[string]string{
				"metadata.yaml":   testMeta,
				"resources/x.cue": "output: {\n\ttype: \"raw\"\n\ttraits: {a: 1}\n}\n",
			},
			want: "resources/x.cue:3:2: addon demo: x.cue: output: traits: must be a list of mappings, found a mapping",
		},
		{
			name: "template.cue output of the wrong shape",
			files: map[string]string{
				"metadata.yaml": testMeta,
				"template.cue":  "output: {\n\tkind: \"Application\"\n\tspec: components: [{name: \"x\", type: 1}]\n}\n",
			},
			want: "template.cue:3:33: addon demo: template.cue: output: spec.components[0].type: must be a string, found the number 1",
		},
		{
			name: "definition YAML syntax error",
			files: map[string]string{
				"metadata.yaml":      testMeta,
				"definitions/t.yaml": "apiVersion: core.oam.dev/v1beta1\nkind: TraitDefinition\nmetadata: {name: t\n",
			},
			want: "definitions/t.yaml:3:11: addon demo: invalid YAML near line 3: did not find expected ',' or '}' (the '{' here is never closed)",
		},
		{
			name: "schema YAML syntax error",
			files: map[string]string{
				"metadata.yaml":           testMeta,
				"schemas/webservice.yaml": "- jsonKey: image\n  uiType: ImageInput\n  validate: {required: true\n",
			},
			want: "schemas/webservice.yaml:3:13: addon demo: invalid YAML near line 3: did not find expected ',' or '}' (the '{' here is never closed)",
		},
		{
			name: "resource YAML without kind",
			files: map[string]string{
				"metadata.yaml":    testMeta,
				"resources/x.yaml": "# x\napiVersion: v1\nmetadata:\n  name: x\n",
			},
			want: "resources/x.yaml:2:1: addon demo: kind: Required value: a Kubernetes object must name its kind",
		},
		{
			name: "resource YAML with a kind that is not a string",
			files: map[string]string{
				"metadata.yaml":    testMeta,
				"resources/x.yaml": "apiVersion: v1\nkind: [ConfigMap]\n",
			},
			want: "resources/x.yaml:2:7: addon demo: kind: must be a string, found a list",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, data := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
			}
			_, err := Render(fsys, tt.opts)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("Render() error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestApplicationPositions checks that the addon Application locates each
// component in the file (and at the line) it came from, so that errors in
// rendering it point there.
func TestApplicationPositions(t *testing.T) {
	resources := map[string]string{
		"metadata.yaml":    testMeta + "needNamespace:\n  - demo-system\ndeployTo:\n  runtimeCluster: true\n",
		"resources/a.yaml": "# the first object\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
		"resources/b.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
		"resources/c.cue":  "output: {\n\ttype: \"webservice\"\n\tproperties: {\n\t\timage: 5\n\t}\n}\n",
	}
	withTemplate := func(name, text string) map[string]string {
		files := map[string]string{"metadata.yaml": testMeta, name: text}
		for k, v := range resources {
			if k != "metadata.yaml" {
				files[k] = v
			}
		}
		return files
	}
	tests := []struct {
		name  string
		files map[string]string
		want  map[string]string // field path → position
	}{
		{
			name:  "without a template",
			files: resources,
			want: map[string]string{
				"":                        "metadata.yaml:1:1",
				"metadata.name":           "metadata.yaml:1:7",
				"spec.components[0]":      "metadata.yaml:4:5",
				"spec.components[1]":      "resources/a.yaml:2:1",
				"spec.components[1].type": "resources/a.yaml:2:1",
				"spec.components[1].properties.objects[1].metadata.name": "resources/b.yaml:4:9",
				"spec.components[2].type":                                "resources/c.cue:2:2",
				"spec.components[2].properties.image":                    "resources/c.cue:4:3",
				"spec.policies[0]":                                       "metadata.yaml:6:3",
			},
		},
		{
			name:  "template.yaml",
			files: withTemplate("template.yaml", "apiVersion: core.oam.dev/v1beta1\nkind: Application\nspec:\n  components:\n  - name: web\n    type: webservice\n"),
			want: map[string]string{
				"":                        "template.yaml:1:1",
				"spec.components[0].type": "template.yaml:6:11",
				"spec.components[1]":      "resources/a.yaml:2:1",
				"spec.components[2].type": "resources/c.cue:2:2",
			},
		},
		{
			name:  "template.cue",
			files: withTemplate("template.cue", "package main\n\noutput: {\n\tkind: \"Application\"\n\tspec: components: [{\n\t\tname: \"web\"\n\t\ttype: \"webservice\"\n\t}]\n}\n"),
			want: map[string]string{
				"":                        "template.cue:3:1",
				"spec.components[0].type": "template.cue:7:3",
				"spec.components[1]":      "resources/a.yaml:2:1",
				"spec.components[2].type": "resources/c.cue:2:2",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, data := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
			}
			res, err := Render(fsys, Options{})
			if err != nil {
				t.Fatal(err)
			}
			app := res.Objects[0]
			got := map[string]string{}
			for path := range tt.want {
				if path == "" {
					got[path] = app.Pos.String()
					continue
				}
				got[path] = app.FieldPos(fieldpath.MustParse(path)).String()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("positions (-want +got):\n%s", diff)
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
	if !errors.Is(err, ErrInvalid) || !strings.Contains(manifest.Format(err, nil), "resources/leak.yaml: symbolic links are not allowed") {
		t.Errorf("Render() = %v, want the symlink rejected", err)
	}
}

func TestRenderMinimal(t *testing.T) {
	fsys := fstest.MapFS{
		"metadata.yaml": {Data: []byte(testMeta + "needNamespace: [demo-system, vela-system]\n")},
		"NOTES.cue":     {Data: []byte("notes: \"v\\(context.metadata.version) upgrade=\\(context.installer.upgrade) x=\\(parameter.x)\"\n")},
	}
	res, err := Render(fsys, Options{Params: valuesOf(map[string]any{"x": int64(1)})})
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
