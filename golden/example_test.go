package golden_test

import (
	"flag"
	"fmt"
	"os"

	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// The test binary must know -update before it parses its arguments; Check
// finds this flag by name and shares it. `go test -update` then rewrites
// the golden files.
var _ = flag.Bool("update", false, "rewrite golden files")

// exampleT stands in for the *testing.T a real test passes to Check.
type exampleT struct{ failed bool }

func (*exampleT) Helper() {}
func (t *exampleT) Errorf(format string, args ...any) {
	t.failed = true
	fmt.Printf("FAIL: "+format+"\n", args...)
}
func (t *exampleT) Fatalf(format string, args ...any) { t.Errorf(format, args...) }
func (*exampleT) Logf(format string, args ...any)     { fmt.Printf(format+"\n", args...) }

// configMap is a rendered object.
func configMap(color string) *manifest.Object {
	return manifest.New(map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]any{"name": "app", "namespace": "default"},
		"data":       map[string]any{"color": color},
	})
}

// A test renders its tree and checks it against the golden files committed
// in testdata. In a real test, t is the test's *testing.T:
//
//	func TestRender(t *testing.T) {
//		golden.Check(t, "testdata/golden", render(t))
//	}
func ExampleCheck() {
	t := &exampleT{}
	rendered := tree.Tree{}
	if err := rendered.Add("local", configMap("blue")); err != nil {
		t.Fatalf("%v", err)
	}
	golden.Check(t, "testdata/example", rendered)
	fmt.Println("failed:", t.failed)
	// Output: failed: false
}

// A CI check compares and fails unless the report is OK; accepting the
// render is a tree.Update.
func ExampleCompare() {
	dir, err := os.MkdirTemp("", "golden-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	before := tree.Tree{}
	_ = before.Add("local", configMap("blue"))
	_ = before.Add("staging", configMap("blue"))
	if _, err := tree.Update(dir, before, tree.UpdateOptions{}); err != nil {
		panic(err)
	}

	after := tree.Tree{}
	_ = after.Add("local", configMap("green"))
	_ = after.Add("prod", configMap("green"))
	rep, err := golden.Compare(dir, after)
	if err != nil {
		panic(err)
	}
	fmt.Print(rep)
	fmt.Println("ok:", rep.OK())

	upd, err := tree.Update(dir, after, tree.UpdateOptions{Prune: true})
	if err != nil {
		panic(err)
	}
	fmt.Printf("updated: %d written, %d deleted\n", len(upd.Added)+len(upd.Changed), len(upd.Removed))
	rep, _ = golden.Compare(dir, after)
	fmt.Print(rep)
	// Output:
	// golden: 1 changed, 1 added, 1 removed, 0 unchanged
	// changed  local/default/configmap_app.yaml
	// added    prod/default/configmap_app.yaml
	// removed  staging/default/configmap_app.yaml
	//
	// --- golden/local/default/configmap_app.yaml
	// +++ rendered/local/default/configmap_app.yaml
	// @@ -1,6 +1,6 @@
	//  apiVersion: v1
	//  data:
	// -  color: blue
	// +  color: green
	//  kind: ConfigMap
	//  metadata:
	//    name: app
	// ok: false
	// updated: 2 written, 1 deleted
	// golden: up to date, 2 unchanged
}
