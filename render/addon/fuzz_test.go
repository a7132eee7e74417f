package addon

import (
	"errors"
	"testing"
	"testing/fstest"
)

// FuzzRenderAddon enables an addon whose metadata.yaml, template.yaml and
// one resource file are arbitrary YAML (the CUE files stay fixed, so the
// fuzzer explores drydock's reading, not CUE's evaluation): nothing may
// panic, and every refusal is ErrInvalid.
func FuzzRenderAddon(f *testing.F) {
	f.Add("name: team\nversion: 1.0.0\ndependencies: [{name: fluxcd}]\ndeployTo: {runtimeCluster: true}\n",
		"apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: team}\nspec: {components: []}\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {k: v}\n")
	f.Add("name: x\nsystem: {vela: '>=1.0', kubernetes: '>=1.20'}\nneedNamespace: [a]\n", "", "kind: [\n")
	f.Fuzz(func(t *testing.T, metadata, template, resource string) {
		fsys := fstest.MapFS{
			"metadata.yaml":        {Data: []byte(metadata)},
			"template.yaml":        {Data: []byte(template)},
			"resources/res.yaml":   {Data: []byte(resource)},
			"parameter.cue":        {Data: []byte("parameter: {replicas: *1 | int}\n")},
			"resources/deploy.cue": {Data: []byte("output: {type: \"k8s-objects\", properties: objects: [{apiVersion: \"v1\", kind: \"ConfigMap\", metadata: name: \"n\", data: r: \"\\(parameter.replicas)\"}]}\n")},
		}
		if _, err := Render(fsys, Options{}); err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("error %v is not ErrInvalid", err)
		}
	})
}
