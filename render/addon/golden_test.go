package addon

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// addonFS is a small addon held in memory: file path → content.
func addonFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data)}
	}
	return fsys
}

// withMeta adds a metadata.yaml naming the addon demo 1.0.0 to files.
func withMeta(files map[string]string) map[string]string {
	out := map[string]string{"metadata.yaml": testMeta}
	for k, v := range files {
		out[k] = v
	}
	return out
}

// mustRender renders files with opts and fails the test on an error.
func mustRender(t *testing.T, files map[string]string, opts Options) *Result {
	t.Helper()
	res, err := Render(addonFS(files), opts)
	if err != nil {
		t.Fatalf("Render() = %v", err)
	}
	return res
}

// find returns the rendered object of kind and name, or nil.
func find(res *Result, kind, name string) *manifest.Object {
	for _, o := range res.Objects {
		if o.Kind() == kind && o.Name() == name {
			return o
		}
	}
	return nil
}

// objectNames lists kind/name of the objects, in order.
func objectNames(objs []*manifest.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Kind()+"/"+o.Name())
	}
	return out
}

// encodeObjects writes objects as one YAML stream, keys sorted, in order.
func encodeObjects(t *testing.T, objs []*manifest.Object) []byte {
	t.Helper()
	var b bytes.Buffer
	for i, o := range objs {
		if i > 0 {
			b.WriteString("---\n")
		}
		y, err := yaml.Marshal(o.Data)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(y)
	}
	return b.Bytes()
}

// TestRenderGolden renders the addons under testdata/golden/<case>/addon
// (with the parameters in args, one K=V a line) and compares the objects,
// in the order enable applies them, with want.yaml and the NOTES text
// with notes.txt. Each case is a copy of the conformance case of the same
// name (the addon files unchanged, big images and READMEs left out), and
// want.yaml holds that case's expected objects: the order is the one
// KubeVela's Installer.dispatchAddonResource applies them in (the
// Application, `outputs`, definitions, config templates, schemas, views,
// then the parameter Secret). `go test -update` rewrites the goldens.
func TestRenderGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no golden cases")
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var args []string
			if b, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
				args = strings.Fields(string(b))
			}
			res, err := Render(os.DirFS(filepath.Join(dir, "addon")), Options{Params: Params{Set: args}})
			if err != nil {
				t.Fatalf("Render() = %v", err)
			}
			compareGolden(t, filepath.Join(dir, "want.yaml"), encodeObjects(t, res.Objects))
			compareGolden(t, filepath.Join(dir, "notes.txt"), []byte(res.Notes))
		})
	}
}

// compareGolden compares got with the golden file (absent means empty),
// or rewrites it under -update (removing it when got is empty).
func compareGolden(t *testing.T, file string, got []byte) {
	t.Helper()
	if *update {
		if len(got) == 0 {
			if err := os.Remove(file); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", file, diff)
	}
}
