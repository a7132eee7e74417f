package addon

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestConfigTemplateGolden renders each testdata/config-templates/*.cue
// as the one config template of an addon and compares its ConfigMap with
// the .golden.yaml beside it. The templates are KubeVela catalog ones and
// the goldens are the conformance corpus's expected ConfigMaps for them:
// helm-repository from fluxcd-default (a vela/config import, stubbed),
// image-registry, nacos-config (the nacos expanded writer) and
// nacos-server from velaux-default.
func TestConfigTemplateGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "config-templates", "*.cue"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no config templates")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".cue")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			res := mustRender(t, withMeta(map[string]string{"config-templates/" + name + ".cue": string(src)}), Options{})
			cm := find(res, "ConfigMap", "config-template-"+name)
			if cm == nil {
				t.Fatalf("no ConfigMap config-template-%s in %v", name, objectNames(res.Objects))
			}
			compareGolden(t, strings.TrimSuffix(file, ".cue")+".golden.yaml", encodeObjects(t, []*manifest.Object{cm}))
		})
	}
}

// TestConfigTemplateMetadata checks the ConfigMap's name, labels and
// annotations (config.ParseTemplate in pkg/config/factory.go): named
// config-template-<metadata.name>, scope and alias copied even when empty,
// sensitive as "true"/"false", and the description annotation always
// empty (the Template ParseTemplate builds never gets one).
func TestConfigTemplateMetadata(t *testing.T) {
	tests := []struct {
		name     string
		metadata string
		want     map[string]any
	}{
		{
			name:     "all fields",
			metadata: `{name: "reg", alias: "Registry", description: "d", sensitive: true, scope: "project"}`,
			want: map[string]any{
				"name": "config-template-reg", "namespace": "vela-system",
				"labels":      map[string]any{"config.oam.dev/catalog": "velacore-config", "config.oam.dev/scope": "project"},
				"annotations": map[string]any{"config.oam.dev/alias": "Registry", "config.oam.dev/description": "", "config.oam.dev/sensitive": "true"},
			},
		},
		{
			name:     "name only",
			metadata: `{name: "bare"}`,
			want: map[string]any{
				"name": "config-template-bare", "namespace": "vela-system",
				"labels":      map[string]any{"config.oam.dev/catalog": "velacore-config", "config.oam.dev/scope": ""},
				"annotations": map[string]any{"config.oam.dev/alias": "", "config.oam.dev/description": "", "config.oam.dev/sensitive": "false"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "metadata: " + tt.metadata + "\ntemplate: {\n\tparameter: {}\n}\n"
			res := mustRender(t, withMeta(map[string]string{"config-templates/x.cue": src}), Options{})
			got := res.Objects[1].Data["metadata"]
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("metadata (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConfigTemplateData checks the data of the ConfigMap
// (config.ParseTemplate): the template text with KubeVela's default
// context appended (script.BuildCUEScriptWithDefaultContext and
// config/context.DefaultContext), the parameter schema, and the
// expanded-writer YAML (writer.ParseExpandedWriterConfig, decoding nacos
// into NacosConfig: endpoint name and namespace, format, dataId, group
// and namespaceId always, appName, tenant and tag when set).
func TestConfigTemplateData(t *testing.T) {
	tests := []struct {
		name     string
		template string // the template: {...} field
		want     map[string]any
	}{
		{
			name:     "empty parameter",
			template: "template: parameter: {}\n",
			want: map[string]any{
				"schema":          "type: object\n",
				"expanded-writer": "nacos: null\n",
			},
		},
		{
			name: "nacos with every field",
			template: `template: {
	parameter: {}
	nacos: {
		endpoint: {name: "nacos", namespace: "ns"}
		format: "yaml"
		metadata: {
			dataId:      "id"
			group:       "g"
			namespaceId: "nsid"
			appName:     "app"
			tenant:      "tenant"
			tag:         "tag"
		}
	}
}
`,
			want: map[string]any{
				"schema":          "type: object\n",
				"expanded-writer": "nacos:\n  endpoint:\n    name: nacos\n    namespace: ns\n  format: yaml\n  metadata:\n    appName: app\n    dataId: id\n    group: g\n    namespaceId: nsid\n    tag: tag\n    tenant: tenant\n",
			},
		},
		{
			name:     "nacos without fields",
			template: "template: {\n\tparameter: {}\n\tnacos: {}\n}\n",
			want: map[string]any{
				"schema":          "type: object\n",
				"expanded-writer": "nacos:\n  endpoint:\n    name: \"\"\n    namespace: \"\"\n  format: \"\"\n  metadata:\n    dataId: \"\"\n    group: \"\"\n    namespaceId: \"\"\n",
			},
		},
		{
			name: "schema titles, usage and short tags",
			template: `template: parameter: {
	// +usage=The URL +short=u
	url: string
	// +usage=Labels
	labels?: [string]: string
	// plain comment
	items?: [...{
		// +usage=Item name
		name: string
	}]
	nested: {
		// +usage=Port
		port: *80 | int
	}
}
`,
			want: map[string]any{
				"schema": `properties:
  items:
    description: plain comment
    items:
      properties:
        name:
          description: Item name
          title: name
          type: string
      required:
      - name
      type: object
    title: items
    type: array
  labels:
    additionalProperties:
      type: string
    description: Labels
    title: labels
    type: object
  nested:
    properties:
      port:
        default: 80
        description: Port
        title: port
        type: integer
    required:
    - port
    title: nested
    type: object
  url:
    description: The URL
    title: url
    type: string
required:
- url
- nested
type: object
`,
				"expanded-writer": "nacos: null\n",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "metadata: name: \"x\"\n" + tt.template
			res := mustRender(t, withMeta(map[string]string{"config-templates/x.cue": src}), Options{})
			data, _ := res.Objects[1].Data["data"].(map[string]any)
			tt.want["template"] = src + "\n" + "\n\tcontext: {\n\t\tname: string\n\t\tnamespace: string\n\t}\n"
			if diff := cmp.Diff(tt.want, data); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConfigTemplateErrors checks what config.ParseTemplate refuses: a
// script that does not compile, one without `template`,
// `template.parameter` (CUE.ParseToTemplateValueWithCueX) or `metadata`,
// and metadata that does not decode into TemplateMetadata.
func TestConfigTemplateErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{
			name: "syntax error",
			src:  "metadata: {\n",
			want: "config-templates/x.cue:1:13: addon demo: expected '}', found 'EOF'",
		},
		{
			name: "conflict",
			src:  "metadata: name: \"x\"\nmetadata: name: \"y\"\ntemplate: parameter: {}\n",
			want: `config-templates/x.cue:1:17: addon demo: config template: metadata.name: conflicting values "y" and "x"`,
		},
		{
			name: "no metadata",
			src:  "template: parameter: {}\n",
			want: "config-templates/x.cue: addon demo: config template has no `metadata` field",
		},
		{
			name: "no template",
			src:  "metadata: name: \"x\"\n",
			want: "config-templates/x.cue: addon demo: config template has no `template` field",
		},
		{
			name: "no template.parameter",
			src:  "metadata: name: \"x\"\ntemplate: output: {}\n",
			want: "config-templates/x.cue: addon demo: config template has no `template.parameter` field",
		},
		{
			name: "metadata not concrete",
			src:  "metadata: name: string\ntemplate: parameter: {}\n",
			want: `config-templates/x.cue:1:17: addon demo: config template metadata: cue: marshal error: metadata.name: cannot convert incomplete value "string" to JSON`,
		},
		{
			name: "sensitive not a bool",
			src:  "metadata: {name: \"x\", sensitive: \"yes\"}\ntemplate: parameter: {}\n",
			want: "config-templates/x.cue: addon demo: config template metadata: json: cannot unmarshal string into Go struct field templateMetadata.sensitive of type bool",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(addonFS(withMeta(map[string]string{"config-templates/x.cue": tt.src})), Options{})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConfigTemplatesOnlyCUE: only .cue files under config-templates are
// config templates (readResFile in pkg/addon/addon.go).
func TestConfigTemplatesOnlyCUE(t *testing.T) {
	res := mustRender(t, withMeta(map[string]string{
		"config-templates/readme.yaml": "not: a template\n",
		"config-templates/a.cue":       "metadata: name: \"a\"\ntemplate: parameter: {}\n",
	}), Options{})
	want := []string{"Application/addon-demo", "ConfigMap/config-template-a"}
	if diff := cmp.Diff(want, objectNames(res.Objects)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
}

// TestFixSchema follows KubeVela's script.FixOpenAPISchema: titles from
// property names (not for array items), the text after +usage= kept, the
// text before +short kept and trimmed, an empty description dropped.
func TestFixSchema(t *testing.T) {
	tests := []struct {
		name string
		in   map[string]any
		want map[string]any
	}{
		{
			name: "usage",
			in:   map[string]any{"type": "string", "description": "+usage=The name"},
			want: map[string]any{"type": "string", "description": "The name"},
		},
		{
			name: "usage and short",
			in:   map[string]any{"type": "string", "description": "+usage=The name +short=n"},
			want: map[string]any{"type": "string", "description": "The name"},
		},
		{
			name: "short only",
			in:   map[string]any{"type": "string", "description": " x +short=n"},
			want: map[string]any{"type": "string", "description": "x"},
		},
		{
			// strings.Split(description, UsageTag)[1]: the text between
			// the first and the second tag, untrimmed
			name: "usage twice",
			in:   map[string]any{"type": "string", "description": "+usage=first +usage=second"},
			want: map[string]any{"type": "string", "description": "first "},
		},
		{
			name: "emptied",
			in:   map[string]any{"type": "string", "description": "+usage="},
			want: map[string]any{"type": "string"},
		},
		{
			name: "object properties get titles",
			in: map[string]any{"type": "object", "properties": map[string]any{
				"a": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
					"b": map[string]any{"type": "string"},
				}}},
			}},
			want: map[string]any{"type": "object", "properties": map[string]any{
				"a": map[string]any{"type": "array", "title": "a", "items": map[string]any{"type": "object", "properties": map[string]any{
					"b": map[string]any{"type": "string", "title": "b"},
				}}},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fixSchema("", tt.in)
			if diff := cmp.Diff(tt.want, tt.in); diff != "" {
				t.Errorf("fixSchema() (-want +got):\n%s", diff)
			}
		})
	}
}
