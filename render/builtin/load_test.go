package builtin

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render"
)

// TestParse: every embedded definition parses, alone in its file named
// after it, so that the lazy built-ins find each one by its name.
func TestParse(t *testing.T) {
	names := Names()
	if len(names) < 40 {
		t.Fatalf("%d built-in definitions", len(names))
	}
	for _, name := range names {
		d, err := Parse(name)
		if err != nil || d == nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := Definitions().Get(d.Kind, name); got == nil || got.Template != d.Template {
			t.Errorf("%s: Definitions().Get(%s) = %v", name, d.Kind, got)
		}
	}
	if d := Definitions().Get(render.KindTrait, "webservice"); d != nil {
		t.Errorf("a component found as a trait: %v", d)
	}
	if d, err := Parse("../builtin"); d != nil || err != nil {
		t.Errorf("Parse(../builtin) = %v, %v", d, err)
	}
}

// TestMerge: later sets replace same-named built-ins, noBuiltins leaves
// the built-ins out, and the built-ins themselves stay as they are.
func TestMerge(t *testing.T) {
	mine := &render.Definition{Name: "webservice", Kind: render.KindComponent, Template: "output: {}"}
	other := &render.Definition{Name: "mine", Kind: render.KindTrait, Template: "patch: {}"}
	defs := Merge(false, []*render.Definition{mine}, []*render.Definition{other})
	if got := defs.Get(render.KindComponent, "webservice"); got != mine {
		t.Errorf("webservice = %v, want the given one", got)
	}
	if defs.Get(render.KindComponent, "worker") == nil || defs.Get(render.KindTrait, "mine") != other {
		t.Errorf("built-in worker or given trait missing")
	}
	if Definitions().Get(render.KindComponent, "webservice") == mine {
		t.Errorf("Merge changed the built-ins")
	}
	none := Merge(true, []*render.Definition{other})
	if none.Get(render.KindComponent, "worker") != nil || none.Get(render.KindTrait, "mine") != other {
		t.Errorf("noBuiltins: worker present or given trait missing")
	}
}

// TestChartNames: the built-ins are exactly the definitions of KubeVela
// v1.11's vela-core chart (testdata/chart-names.txt), each of the chart's
// kind, so that a definition added to or dropped from either is a failure.
func TestChartNames(t *testing.T) {
	data, err := os.ReadFile("testdata/chart-names.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && !strings.HasPrefix(line, "#") {
			want[f[0]] = f[1]
		}
	}
	if len(want) != 91 {
		t.Fatalf("chart-names.txt lists %d definitions, the chart 91", len(want))
	}
	got := map[string]string{}
	for _, name := range Names() {
		d, err := Parse(name)
		if err != nil || d == nil {
			t.Fatalf("%s: %v", name, err)
		}
		got[name] = d.Kind
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("built-ins (-chart +drydock):\n%s", diff)
	}
}
