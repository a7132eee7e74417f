package source_test

import (
	"os"
	"testing"
	"testing/fstest"

	"github.com/drydock-dev/drydock/charts/source"
)

// FuzzOpen: whatever bytes an index.yaml, an OCI index.json, a
// <repo>-index.yaml or a package holds, Open and Chart return an error
// or a chart, never panic.
func FuzzOpen(f *testing.F) {
	for _, p := range []string{"testdata/repo/index.yaml", "testdata/repo/mini-0.1.0.tgz", "testdata/src/mini/Chart.yaml"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"manifests":[{"digest":"sha256:00","annotations":{"org.opencontainers.image.ref.name":"a/b:1"}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fsys := range []fstest.MapFS{
			{"c/index.yaml": {Data: data}, "c/mini-0.1.0.tgz": {Data: data}},
			{"c/oci-layout": {Data: []byte("{}")}, "c/index.json": {Data: data}},
			{"c/x-index.yaml": {Data: data}},
			{"c/p.tgz": {Data: data}},
			{"c/Chart.yaml": {Data: data}},
		} {
			c, err := source.Open(source.Config{FS: fsys, Charts: []string{"c"}})
			if err != nil {
				continue
			}
			_, _ = c.Chart(source.ChartRef{Name: "mini"})
		}
	})
}
