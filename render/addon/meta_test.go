package addon

import (
	"errors"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/google/go-cmp/cmp"
)

// TestContextMetadata checks `context.metadata`, which KubeVela's
// addonCueTemplateRender.formatContext fills with the JSON of its typed
// Meta (pkg/addon/type.go) as read from metadata.yaml by sigs.k8s.io/yaml:
// name, version, description, icon and invisible always, the other fields
// only when set; unknown keys dropped, scalars coerced into string fields
// (version 1.10 becomes "1.1"), and the last of duplicate keys winning
// (the x-victoria-metric-default case).
func TestContextMetadata(t *testing.T) {
	tests := []struct {
		name string
		meta string
		want map[string]any
	}{
		{
			name: "minimal",
			meta: "name: demo\nversion: 1.0.0\n",
			want: map[string]any{"name": "demo", "version": "1.0.0", "description": "", "icon": "", "invisible": false},
		},
		{
			name: "everything",
			meta: `name: demo
version: 1.10
description: A demo
icon: https://example.com/i.png
url: https://example.com
tags: [a, 1]
uxPlugins: {p: https://example.com/p.tgz}
deployTo: {runtime_cluster: true}
dependencies: [{name: fluxcd}]
dependencies: [{name: terraform, version: ">=1.0.0"}]
needNamespace: [vela-system]
invisible: true
system: {vela: ">=1.5.0"}
annotations: {owner: me}
unknown: dropped
`,
			want: map[string]any{
				"name": "demo", "version": "1.1", "description": "A demo", "icon": "https://example.com/i.png",
				"url":           "https://example.com",
				"tags":          []any{"a", "1"},
				"uxPlugins":     map[string]any{"p": "https://example.com/p.tgz"},
				"deployTo":      map[string]any{"runtime_cluster": true, "disableControlPlane": false, "runtimeCluster": false},
				"dependencies":  []any{map[string]any{"name": "terraform", "version": ">=1.0.0"}},
				"needNamespace": []any{"vela-system"},
				"invisible":     true,
				"system":        map[string]any{"vela": ">=1.5.0"},
				"annotations":   map[string]any{"owner": "me"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRender(t, map[string]string{
				"metadata.yaml":     tt.meta,
				"resources/ctx.cue": "output: {\n\ttype: \"raw\"\n\tproperties: context.metadata\n}\n",
			}, Options{})
			spec := res.Objects[0].Data["spec"].(map[string]any)
			var got any
			for _, c := range spec["components"].([]any) {
				if c.(map[string]any)["name"] == "ctx" {
					got = c.(map[string]any)["properties"]
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("context.metadata (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMetadataShapeErrors: metadata.yaml values that sigs.k8s.io/yaml
// cannot decode into KubeVela's Meta fail the enable (readMetadata, the
// x-kv-invalid-metadata case); drydock names the field, matched
// case-insensitively as encoding/json does, and its line.
func TestMetadataShapeErrors(t *testing.T) {
	tests := []struct {
		name, meta, want string
	}{
		{"bare string", "just a string\n", `metadata.yaml:1:1: invalid YAML: a document must be a mapping, found the scalar "just a string"`},
		{"list", "- name: demo\n", "metadata.yaml:1:1: invalid YAML: a document must be a mapping, found a sequence"},
		{"uxPlugins a list", testMeta + "uxPlugins: [a]\n", "metadata.yaml:3:12: addon demo: metadata.yaml: uxPlugins: must be a mapping, found a list"},
		{"annotation a list", testMeta + "annotations:\n  a: [1]\n", "metadata.yaml:4:6: addon demo: metadata.yaml: annotations.a: must be a string, found a list"},
		{"invisible a string", testMeta + "invisible: \"yes\"\n", `metadata.yaml:3:12: addon demo: metadata.yaml: invisible: must be a boolean, found the string "yes"`},
		{"runtimeCluster a number", testMeta + "deployTo:\n  runtimeCluster: 1\n", "metadata.yaml:4:19: addon demo: metadata.yaml: deployTo.runtimeCluster: must be a boolean, found the number 1"},
		{"system.vela a mapping", testMeta + "system:\n  vela: {x: 1}\n", "metadata.yaml:4:9: addon demo: metadata.yaml: system.vela: must be a string, found a mapping"},
		{"field named in another case", testMeta + "NeedNamespace: {a: b}\n", "metadata.yaml:3:16: addon demo: metadata.yaml: NeedNamespace: must be a list of strings, found a mapping"},
		{"dependency version a list", testMeta + "dependencies:\n- name: x\n  version: [1]\n", "metadata.yaml:5:12: addon demo: metadata.yaml: dependencies[0].version: must be a string, found a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(addonFS(map[string]string{"metadata.yaml": tt.meta}), Options{})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
