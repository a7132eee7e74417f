package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// FuzzParseApplication reads Applications from arbitrary YAML: nothing may
// panic, and every refusal names the file. Seeded from the KubeVela
// conformance corpus's applications.
func FuzzParseApplication(f *testing.F) {
	files, _ := filepath.Glob("../../shared/conformance/kubevela/cases/*/input/*.yaml")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "kind: Application") {
			f.Add(string(b))
		}
	}
	f.Add("apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: [{name: c, type: webservice, properties: {image: x}, traits: [{type: scaler}]}]\n  workflow: {steps: [{name: s, type: step-group, subSteps: [{name: t, type: suspend}]}]}\n")
	f.Fuzz(func(t *testing.T, src string) {
		objs, err := manifest.Decode("a.yaml", []byte(src), manifest.DecodeOptions{})
		if err != nil {
			return
		}
		for _, o := range objs {
			if o.Kind() != "Application" {
				continue
			}
			if _, err := ParseApplication(o); err != nil && !strings.HasPrefix(manifest.Format(err, nil), "a.yaml") {
				t.Fatalf("error %q does not name the file", err)
			}
		}
	})
}
