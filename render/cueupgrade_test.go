package render

import (
	"strings"
	"testing"

	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/parser"
	"github.com/google/go-cmp/cmp"
)

// TestUpgradeLegacyCUE: KubeVela v1.11's legacy-CUE upgrade (cases after
// pkg/cue/upgrade/upgrade_test.go at 5a44b5f). The upgraded template
// compiles with CUE v0.14 and gives the values the legacy one meant; a
// template needing no upgrade is left as written.
func TestUpgradeLegacyCUE(t *testing.T) {
	tests := []struct {
		name, in string
		upgraded bool
		want     string // JSON of the evaluated template
		contains string // in the upgraded text
	}{
		{name: "list concatenation", in: "myList1: [1, 2, 3]\nmyList2: [4, 5, 6]\ncombined: myList1 + myList2\n", upgraded: true,
			want: `{"myList1":[1,2,3],"myList2":[4,5,6],"combined":[1,2,3,4,5,6]}`, contains: "combined: list.Concat([myList1, myList2])"},
		{name: "chain flattened", in: "a: [1]\nb: [2]\nc: [3]\nall: a + b + c\n", upgraded: true,
			want: `{"a":[1],"b":[2],"c":[3],"all":[1,2,3]}`, contains: "list.Concat([a, b, c])"},
		{name: "in an object, declared after use", in: "object: {\n\titems: baseItems + extraItems\n\tbaseItems: [\"a\"]\n\textraItems: [\"b\"]\n}\n", upgraded: true,
			want: `{"object":{"items":["a","b"],"baseItems":["a"],"extraItems":["b"]}}`},
		{name: "repeat both ways", in: "l: [\"x\"]\nr: l * 2\ns: 2 * l\n", upgraded: true,
			want: `{"l":["x"],"r":["x","x"],"s":["x","x"]}`, contains: "list.Repeat(l, 2)"},
		{name: "selector and literal", in: "p: {tags: [\"a\"]}\nall: p.tags + [\"b\"]\n", upgraded: true,
			want: `{"p":{"tags":["a"]},"all":["a","b"]}`},
		{name: "a result of a list operation is a list", in: "a: [1]\nb: a + [2]\nc: b + [3]\n", upgraded: true,
			want: `{"a":[1],"b":[1,2],"c":[1,2,3]}`},
		{name: "existing list import kept once", in: "import \"list\"\na: [1]\nb: a + [2]\nm: list.Max([1])\n", upgraded: true,
			want: `{"a":[1],"b":[1,2],"m":1}`},
		{name: "a partly upgraded chain is flattened", in: "import (\n\t\"list\"\n)\na: [1]\nb: [2]\nc: [3]\nall: list.Concat([a, b]) + c\n", upgraded: true,
			want: `{"a":[1],"b":[2],"c":[3],"all":[1,2,3]}`, contains: "list.Concat([a, b, c])"},
		{name: "repeat by a field", in: "n: 2\nl: [0]\nr: l * n\n", upgraded: true, want: `{"n":2,"l":[0],"r":[0,0]}`},
		{name: "error label quoted", in: "out: {error: \"x\", errorMessage: \"y\"}\n", upgraded: true,
			want: `{"out":{"error":"x","errorMessage":"y"}}`, contains: `"error": "x"`},
		// As upstream, a list is known from its declaration only: a field
		// that merely refers to one is not, so nothing is rewritten.
		{name: "a reference to a list is not known as one", in: "p: {x: [2]}\nbase: [1]\nmore: p.y\nall: base + more\n"},
		{name: "numbers added stay", in: "n1: 5\nn2: 10\nsum: n1 + n2\nd: *\"\" | string\n"},
		{name: "already upgraded", in: "import \"list\"\na: [1]\nb: list.Concat([a, [2]])\n"},
		{name: "does not parse: left as it is", in: "a: [1] +\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := upgradeLegacyCUE(tt.in)
			if ok != tt.upgraded {
				t.Fatalf("upgraded = %v, want %v:\n%s", ok, tt.upgraded, got)
			}
			if !ok {
				if got != tt.in {
					t.Errorf("changed a template needing no upgrade:\n%s", got)
				}
				return
			}
			if tt.contains != "" && !strings.Contains(got, tt.contains) {
				t.Errorf("upgraded text lacks %q:\n%s", tt.contains, got)
			}
			if n := listImports(t, got); n != 1 && strings.Contains(got, "list.") {
				t.Errorf("list imported %d times:\n%s", n, got)
			}
			v := cuecontext.New().CompileString(got)
			b, err := v.MarshalJSON()
			if err != nil {
				t.Fatalf("upgraded template does not evaluate: %v\n%s", err, got)
			}
			if diff := cmp.Diff(tt.want, string(b)); diff != "" {
				t.Errorf("value (-want +got):\n%s", diff)
			}
		})
	}
}

// listImports counts the imports of "list" in src.
func listImports(t *testing.T, src string) int {
	t.Helper()
	f, err := parser.ParseFile("", src, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, spec := range f.Imports {
		if spec.Path.Value == `"list"` {
			n++
		}
	}
	return n
}
