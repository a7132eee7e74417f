package kustomize

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzBuild builds a kustomization.yaml of arbitrary bytes beside one
// resource: the build may fail but must not panic, write into the
// source, or get past the remote check with a URL resource.
func FuzzBuild(f *testing.F) {
	for _, seed := range []string{
		"resources: [a.yaml]\n",
		"resources: [a.yaml]\nnamePrefix: p-\nimages: [{name: nginx, newTag: '2'}]\n",
		"resources:\n- https://example.com/x.yaml\n",
		"resources: [a.yaml]\npatches:\n- patch: '[{\"op\":\"add\",\"path\":\"/data/x\",\"value\":\"1\"}]'\n  target: {kind: ConfigMap}\n",
		"helmCharts: [{name: x}]\n",
		"configMapGenerator: [{name: c, literals: [a=b]}]\n",
		"resources: [",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, kustomization []byte) {
		dir := t.TempDir()
		files := map[string][]byte{
			"kustomization.yaml": kustomization,
			"a.yaml":             []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: ${V}\n"),
		}
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		before := treeHash(t, dir)
		k := ks("ns", "k", map[string]any{"postBuild": map[string]any{"substitute": map[string]any{"V": "v"}}})
		_, _ = Build(dir, k, nil)
		if treeHash(t, dir) != before {
			t.Fatal("the build changed the source")
		}
	})
}
