package addon

import (
	"strings"
	"testing"

	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"github.com/google/go-cmp/cmp"
)

// TestKubevelaFixCases runs the table of github.com/cue-exp/kubevelafix's
// TestFix (fix_test.go), the rewrite KubeVela applies to addon CUE files,
// and checks that a second pass changes nothing.
func TestKubevelaFixCases(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"simple",
			"x: 212343\nparameter: _\ny: {\n\tfor k, v in parameter.p {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"x:         212343\nparameter: _\ny: {\n\tfor k, v in *parameter.p | {} {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"deep",
			"{\n\tfor k, v in parameter.p.q {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"{\n\tfor k, v in *parameter.p.q | {} {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"several",
			"{\n\tfor k, v in parameter.p {\n\t\t\"\\(k)\": v\n\t}\n\tfor k, v in parameter.q {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"{\n\tfor k, v in *parameter.p | {} {\n\t\t\"\\(k)\": v\n\t}\n\tfor k, v in *parameter.q | {} {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"otherElements",
			"{\n\tfor k, v in parameter.p {\n\t\t\"\\(k)\": v\n\t}\n\tx: \"foo\"\n\ty: {\n\t\tfor k, v in parameter.p {\n\t\t\t\"\\(k)\": v\n\t\t}\n\t}\n\tfor k, v in other.x {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"{\n\tfor k, v in *parameter.p | {} {\n\t\t\"\\(k)\": v\n\t}\n\tx: \"foo\"\n\ty: {\n\t\tfor k, v in *parameter.p | {} {\n\t\t\t\"\\(k)\": v\n\t\t}\n\t}\n\tfor k, v in other.x {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"comprehensionInComprehension",
			"{\n\tfoo: {\n\t\tfor k, v in parameter.p {\n\t\t\tif v.something {\n\t\t\t\t\"\\(k)\": v\n\t\t\t}\n\t\t}\n\t}\n}\n",
			"{\n\tfoo: {\n\t\tfor k, v in *parameter.p | {} {\n\t\t\tif v.something {\n\t\t\t\t\"\\(k)\": v\n\t\t\t}\n\t\t}\n\t}\n}\n"},
		{"fileLevel",
			"import \"strings\"\n\nfor k, v in parameter.p {\n\tif v.something {\n\t\t\"\\(k)\": strings.X(v)\n\t}\n}\n",
			"import \"strings\"\n\nfor k, v in *parameter.p | {} {\n\tif v.something {\n\t\t\"\\(k)\": strings.X(v)\n\t}\n}\n"},
		{"ifGuarded",
			"foo: {\n\tif parameter.p != _|_ for k, v in parameter.p {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"foo: {\n\tif parameter.p != _|_ for k, v in parameter.p {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"ifGuardedNoMatch",
			"foo: {\n\tif parameter.p != _|_ for k, v in parameter.q {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"foo: {\n\tif parameter.p != _|_ for k, v in *parameter.q | {} {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"ifGuardedSeveralGuards",
			"foo: {\n\tif parameter.a != _|_ if parameter.b != _|_ for k, v in parameter.a {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"foo: {\n\tif parameter.a != _|_ if parameter.b != _|_ for k, v in parameter.a {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"usingIndex",
			"foo: {\n\tfor k, v in parameter[\"p\"] {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"foo: {\n\tfor k, v in *parameter[\"p\"] | {} {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"guardUsingIndex",
			"foo: {\n\tif parameter[\"p\"] != _|_ for k, v in parameter.p {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"foo: {\n\tif parameter[\"p\"] != _|_ for k, v in parameter.p {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		// isGuard needs `!=` and `_|_`, isParameterDot a `parameter` root
		{"equality is no guard",
			"foo: {\n\tif parameter.p == _|_ for k, v in parameter.p {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"foo: {\n\tif parameter.p == _|_ for k, v in *parameter.p | {} {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"comparison with a value is no guard",
			"foo: {\n\tif parameter.p != null for k, v in parameter.p {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"foo: {\n\tif parameter.p != null for k, v in *parameter.p | {} {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"condition not a comparison",
			"foo: {\n\tif parameter.ok for k, v in parameter.p {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"foo: {\n\tif parameter.ok for k, v in *parameter.p | {} {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"other root",
			"foo: {\n\tfor k, v in context.p {\n\t\t\"\\(k)\": v\n\t}\n\tfor k, v in x.parameter.p {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"foo: {\n\tfor k, v in context.p {\n\t\t\"\\(k)\": v\n\t}\n\tfor k, v in x.parameter.p {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
		{"source not a selector",
			"foo: [for v in [1, 2] {v}]\n",
			"foo: [for v in [1, 2] {v}]\n"},
		{"index of an index",
			"foo: {\n\tfor k, v in parameter[\"p\"][\"q\"] {\n\t\t\"\\(k)\": v\n\t}\n}\n",
			"foo: {\n\tfor k, v in *parameter[\"p\"][\"q\"] | {} {\n\t\t\"\\(k)\": v\n\t}\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			once := fixText(t, tt.in)
			if diff := cmp.Diff(strings.TrimSpace(tt.want), strings.TrimSpace(once)); diff != "" {
				t.Errorf("kubevelaFix (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(once, fixText(t, once)); diff != "" {
				t.Errorf("second kubevelaFix changed the text (-first +second):\n%s", diff)
			}
		})
	}
}

func fixText(t *testing.T, src string) string {
	t.Helper()
	f, err := parser.ParseFile("x.cue", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	b, err := format.Node(kubevelaFix(f))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStubImports checks the stand-ins for KubeVela's own CUE packages:
// imports of vela/* and kube/* (and any path with a domain) become `let`
// clauses bound to top, blanked out in place so every line and column
// stays where it was; the standard library stays imported.
func TestStubImports(t *testing.T) {
	sp := func(s string) string { return strings.Repeat(" ", len(s)) }
	tests := []struct{ name, in, want string }{
		{"no imports", "x: 1\n", "x: 1\n"},
		{"standard library only", "import \"strings\"\n\nx: strings.ToUpper(\"a\")\n", "import \"strings\"\n\nx: strings.ToUpper(\"a\")\n"},
		{
			"one KubeVela package",
			"import \"vela/config\"\n\nx: config.#HelmRepository\n",
			sp(`import "vela/config"`) + "\n\nx: config.#HelmRepository\n\nlet config = _\n_addonImportStubs: [config]\n",
		},
		{
			"mixed group",
			"import (\n\t\"strings\"\n\tq \"vela/ql\"\n\t\"kube/apps/v1\"\n\t\"example.com/x/y\"\n)\n",
			"import (\n\t\"strings\"\n\t" + sp(`q "vela/ql"`) + "\n\t" + sp(`"kube/apps/v1"`) + "\n\t" + sp(`"example.com/x/y"`) + "\n)\n" +
				"\nlet q = _\nlet v1 = _\nlet y = _\n_addonImportStubs: [q, v1, y]\n",
		},
		{
			"group of KubeVela packages only",
			"import (\n\t\"vela/op\"\n)\nx: 1\n",
			sp("import (") + "\n" + sp("\t\"vela/op\"") + "\n" + sp(")") + "\nx: 1\n\nlet op = _\n_addonImportStubs: [op]\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := stubImports([]byte(tt.in), "x.cue")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("stubImports (-want +got):\n%s", diff)
			}
			if got, want := strings.Count(string(got[:min(len(got), len(tt.in))]), "\n"), strings.Count(tt.in, "\n"); got != want {
				t.Errorf("lines of the original text: %d, want %d", got, want)
			}
		})
	}
}

// TestStdlibImport: CUE's standard library has no domain and is neither
// vela/* nor kube/*.
func TestStdlibImport(t *testing.T) {
	tests := map[string]bool{
		"strings": true, "encoding/json": true, "list": true, "math/bits": true,
		"vela/op": false, "vela": false, "kube/apps/v1": false, "github.com/x/y": false, "example.com": false,
	}
	for p, want := range tests {
		if got := stdlibImport(p); got != want {
			t.Errorf("stdlibImport(%q) = %v, want %v", p, got, want)
		}
	}
}
