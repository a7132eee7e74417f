package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drydock-dev/drydock/fieldpath"
)

func TestDecodeValues(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]any
	}{
		{"yaml 1.1 bools", "a: yes\nb: off\nc: 'yes'\nd: !!str on\ne: y", map[string]any{"a": true, "b": false, "c": "yes", "d": "on", "e": true}},
		{"numbers", "i: 3\nf: 1.5\nw: 1.0\nh: 0x1f\no: 0777\nbig: 99999999999999999999", map[string]any{"i": int64(3), "f": 1.5, "w": 1.0, "h": int64(31), "o": int64(511), "big": 1e20}},
		{"null and strings", "k: ~\ns: \"80\"\nt: 2001-12-14", map[string]any{"k": nil, "s": "80", "t": "2001-12-14"}},
		// As in sigs.k8s.io/yaml, the plain keys y and n are YAML 1.1 bools.
		{"bool keys", "y: 1\nn: 2", map[string]any{"true": int64(1), "false": int64(2)}},
		{"non-string keys", "80: http\ntrue: x", map[string]any{"80": "http", "true": "x"}},
		{"merge key", "base: &b {x: 1, z: 2}\nm:\n  <<: *b\n  z: 3", map[string]any{"base": map[string]any{"x": int64(1), "z": int64(2)}, "m": map[string]any{"x": int64(1), "z": int64(3)}}},
		{"json", `{"a": [1, "b", null]}`, map[string]any{"a": []any{int64(1), "b", nil}}},
		// An explicit tag wins over quotes, as in sigs.k8s.io/yaml.
		{"explicit tags", "i: !!int \"7\"\nf: !!float '1.5'\nb: !!bool \"yes\"\nbin: !!binary aGVsbG8=\ns: !!str 7", map[string]any{"i": int64(7), "f": 1.5, "b": true, "bin": "hello", "s": "7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := Decode("in.yaml", []byte(tt.in), DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(objs) != 1 {
				t.Fatalf("got %d objects", len(objs))
			}
			if diff := cmp.Diff(tt.want, objs[0].Data); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestDecodeStreamAndLists(t *testing.T) {
	in := `# comment only
---
kind: A
metadata: {name: a}
---
---
kind: List
items:
- kind: B
  metadata:
    name: b
- kind: C
  metadata: {name: c}
`
	objs, err := Decode("s.yaml", []byte(in), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range objs {
		got = append(got, o.Item()+o.Kind()+"/"+o.Name()+"@"+o.Pos.String())
	}
	want := []string{"A/a@s.yaml:3:1", "items[0]: B/b@s.yaml:9:3", "items[1]: C/c@s.yaml:12:3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
	if p := objs[1].FieldPos(fieldpath.New("metadata", "name")); p.String() != "s.yaml:11:11" {
		t.Errorf("item field position = %s, want s.yaml:11:11", p)
	}
}

func TestFieldPos(t *testing.T) {
	in := "spec:\n  components:\n    - name: api\n      properties:\n        replicas: two\n"
	objs, err := Decode("app.yaml", []byte(in), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o := objs[0]
	tests := map[string]string{
		"spec.components[0].properties.replicas": "app.yaml:5:19",
		"spec.components[0].name":                "app.yaml:3:13",
		"spec.components[0].properties.missing":  "app.yaml:5:9",
		"nothing.here":                           "app.yaml:1:1",
	}
	for path, want := range tests {
		if got := o.FieldPos(fieldpath.MustParse(path)).String(); got != want {
			t.Errorf("FieldPos(%q) = %s, want %s", path, got, want)
		}
	}
}

func TestKeyPos(t *testing.T) {
	in := "suites:\n  - name: a\n    limitz:\n      x: 1\n"
	tests := []struct {
		name string
		opts DecodeOptions
		path string
		want string
	}{
		{"key recorded", DecodeOptions{KeyPositions: true}, "suites[0].limitz", "c.yaml:3:5"},
		{"top-level key", DecodeOptions{KeyPositions: true}, "suites", "c.yaml:1:1"},
		{"list item: its value", DecodeOptions{KeyPositions: true}, "suites[0]", "c.yaml:2:5"},
		{"not recorded: the value", DecodeOptions{}, "suites[0].limitz", "c.yaml:4:7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := Decode("c.yaml", []byte(in), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, objs[0].KeyPos(fieldpath.MustParse(tt.path)).String()); diff != "" {
				t.Errorf("KeyPos(%q) (-want +got):\n%s", tt.path, diff)
			}
		})
	}
}

func TestBlockStart(t *testing.T) {
	in := "spec:\n  template: |\n    output: {\n    \tx: 1\n    }\n"
	objs, err := Decode("d.yaml", []byte(in), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := objs[0].BlockStart(fieldpath.New("spec", "template"))
	if !ok || p.String() != "d.yaml:3:5" {
		t.Errorf("BlockStart = %v %v, want d.yaml:3:5", p, ok)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
		opts           DecodeOptions
	}{
		{"duplicate key", "a: 1\nb: 2\na: 3\n", `in.yaml:3:1: invalid YAML: duplicate key "a" (first defined at line 1)`, DecodeOptions{}},
		{"syntax", "a: [1\n", "in.yaml:1:4: invalid YAML", DecodeOptions{}},
		{"syntax at an inner line", "a: 1\nb: 2\nc: [1, 2\nd: 4\n", "in.yaml:4: invalid YAML near line 4: did not find expected ',' or ']'", DecodeOptions{}},
		{"scanner error", "a: 1\nb: @x\n", "in.yaml:2:4: invalid YAML near line 2: found character that cannot start any token", DecodeOptions{}},
		{"not a mapping", "- a\n", "in.yaml:1:1: invalid YAML: a document must be a mapping, found a sequence", DecodeOptions{}},
		{"list items not a list", "kind: List\nitems: 3\n", "in.yaml:2:8: invalid YAML: List items must be a sequence", DecodeOptions{}},
		{"alias bomb", aliasBomb(), "in.yaml:6:47: invalid YAML: alias *a3 at root.a4[7]: aliases expand to more than 100000 nodes", DecodeOptions{}},
		{"few aliases, big anchor", wideAnchor(), "in.yaml:2:9: invalid YAML: alias *a at b[1]: aliases expand to more than 100000 nodes", DecodeOptions{}},
		{"unknown anchor", "a: 1\nb: [x, *nope]\n", "in.yaml:2:8: invalid YAML: unknown anchor 'nope' referenced (no &nope before it)", DecodeOptions{}},
		{"infinity", "a: 1\nb: .inf\n", "in.yaml:2:4: invalid YAML: .inf is not a number JSON can hold", DecodeOptions{}},
		{"not a number", "b: .NaN\n", "in.yaml:1:4: invalid YAML: .NaN is not a number JSON can hold", DecodeOptions{}},
		{"out of range", "e: !!float 1e400\n", "in.yaml:1:4: invalid YAML: 1e400 is not a number JSON can hold", DecodeOptions{}},
		{"null key", "a: 1\n~: c\n", "in.yaml:2:1: invalid YAML: a mapping key may not be null", DecodeOptions{}},
		{"bad explicit int", "a: !!int \"x\"\n", `in.yaml:1:4: invalid YAML: invalid int "x"`, DecodeOptions{}},
		{"explicit int with a fraction", "a: !!int 1.5\n", `in.yaml:1:4: invalid YAML: invalid int "1.5"`, DecodeOptions{}},
		{"explicit null with a value", "a: !!null x\n", `in.yaml:1:4: invalid YAML: invalid null "x"`, DecodeOptions{}},
		{"too deep", "spec:\n  x: " + strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5), "in.yaml:2:" + fmt.Sprint(6+MaxDepth-1) + ": invalid YAML: nesting deeper than 200 levels at spec.x" + strings.Repeat("[0]", MaxDepth-1), DecodeOptions{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode("in.yaml", []byte(tt.in), tt.opts)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrInvalidYAML) {
				t.Errorf("error %v does not wrap ErrInvalidYAML", err)
			}
			if !strings.Contains(Format(err, nil), tt.want) {
				t.Errorf("error %q lacks %q", err, tt.want)
			}
			var pe *Error
			if !errors.As(err, &pe) || !strings.HasPrefix(tt.want, pe.Pos.String()+": ") {
				t.Errorf("error %v: position %v, want the one %q starts with", err, pe, tt.want)
			}
		})
	}
}

func TestGraft(t *testing.T) {
	objs, err := Decode("res.yaml", []byte("kind: ConfigMap\nmetadata:\n  name: a\nlist:\n- x\n"), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	at := &Object{Pos: Pos{File: "app.yaml", Line: 1, Col: 1}}
	at.SetFieldPos(fieldpath.New("spec"), Pos{File: "app.yaml", Line: 2, Col: 1})
	at.Graft(fieldpath.New("spec", "objects", 0), objs[0])
	at.MapPos(func(p Pos) Pos { p.File = "dir/" + p.File; return p })
	got := map[string]string{}
	for _, path := range []string{"", "spec", "spec.objects", "spec.objects[0]", "spec.objects[0].metadata.name", "spec.objects[0].list[0]", "spec.objects[1]"} {
		got[path] = at.FieldPos(fieldpath.MustParse(path)).String()
	}
	want := map[string]string{
		"":                              "dir/app.yaml:1:1",
		"spec":                          "dir/app.yaml:2:1",
		"spec.objects":                  "dir/app.yaml:2:1",
		"spec.objects[0]":               "dir/res.yaml:1:1",
		"spec.objects[0].metadata.name": "dir/res.yaml:3:9",
		"spec.objects[0].list[0]":       "dir/res.yaml:5:3",
		"spec.objects[1]":               "dir/app.yaml:2:1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
}

func TestDecodeLastKeyWins(t *testing.T) {
	objs, err := Decode("m.yaml", []byte("name: a\nname: b\n"), DecodeOptions{LastKeyWins: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := objs[0].Data["name"]; got != "b" {
		t.Errorf("name = %v, want b", got)
	}
}

func aliasBomb() string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	return "root:\n" + indent(b.String())
}

// wideAnchor anchors a 60,000-item list and aliases it three times: few
// aliases, a large expansion.
func wideAnchor() string {
	return "a: &a [" + strings.Repeat("1,", 60_000) + "1]\nb: [*a, *a, *a]\n"
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

func FuzzDecode(f *testing.F) {
	for _, seed := range []string{"a: 1", "kind: List\nitems: [{kind: A}]", "{}", "- x", "a: &x [1]\nb: *x", "---\n---\nk: v"} {
		f.Add([]byte(seed))
	}
	f.Add([]byte(aliasBomb()))
	f.Add([]byte("a: &a {x: &b [1, 2]}\nb: [*a, *b, {<<: *a}]\n"))
	f.Add([]byte("a: [\n---\nb: 1\n---\nc: 'x\n---\nd: 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Going on after errors ends, with no more calls than lines.
		d := NewDecoder("fuzz.yaml", data, DecodeOptions{})
		for calls := 0; ; calls++ {
			if _, err := d.Next(); errors.Is(err, io.EOF) {
				break
			}
			if calls > bytes.Count(data, []byte("\n"))+2 && calls > 100 {
				t.Fatalf("Next called %d times on %d lines without io.EOF", calls, bytes.Count(data, []byte("\n")))
			}
		}
		objs, err := Decode("fuzz.yaml", data, DecodeOptions{})
		if err != nil {
			return
		}
		// Expansion oracle: a decoded stream holds at most the nodes its
		// text spells out (fewer than two per byte) and MaxAliasNodes more
		// per document (each document gives at least one object).
		nodes := 0
		for _, o := range objs {
			nodes += countValues(o.Data)
		}
		if limit := 2*(len(data)+1) + MaxAliasNodes*len(objs); nodes > limit {
			t.Fatalf("%d bytes decoded to %d nodes, over the bound %d", len(data), nodes, limit)
		}
		for _, o := range objs {
			_ = o.Key()
			_ = o.FieldPos(fieldpath.New("metadata", "name"))
		}
		checkAlone(t, objs)
	})
}

// checkAlone checks that every object that has its Document decodes from
// it alone to the same object, positions included.
func checkAlone(t *testing.T, objs []*Object) {
	t.Helper()
	for i, o := range objs {
		doc, ok := o.Document()
		if !ok {
			continue
		}
		again, err := doc.Decode()
		if err != nil {
			t.Fatalf("object %d decoded alone: %v", i, err)
		}
		if diff := cmp.Diff(o, again, cmp.AllowUnexported(Object{}, Document{}), cmpopts.EquateNaNs()); diff != "" {
			t.Fatalf("object %d decoded alone differs (-stream +alone):\n%s", i, diff)
		}
	}
}

// TestDecodeAlone: a document decodes again from its own text to the
// object Decode returned from the whole stream, and the documents that
// cannot (List items, aliases, directives, odd line breaks) have none.
func TestDecodeAlone(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		alone []bool
	}{
		{"stream", "# lead\n\napiVersion: v1\nkind: A\n---\n# c\nkind: B\ndata:\n  x: |\n    one\n    two\n  y: [1, 2.5, yes]\n--- {kind: C}\n", []bool{true, true, true}},
		{"crlf", "kind: A\r\n---\r\nkind: B\r\nx: |\r\n  t\r\n", []bool{true, true}},
		{"list items", "kind: List\nitems:\n- {kind: A}\n- {kind: B}\n---\nkind: C\n", []bool{false, false, true}},
		{"alias", "kind: A\nx: &a {y: 1}\n---\nkind: B\nz: *a\n---\nkind: C\n", []bool{true, false, true}},
		{"lone CR", "kind: A\nx: \"a\rb\"\n---\nkind: B\n", []bool{false, false}},
		{"empty documents", "---\n---\nkind: A\n---\n", []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := Decode("f.yaml", []byte(tt.in), DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var alone []bool
			for _, o := range objs {
				_, ok := o.Document()
				alone = append(alone, ok)
			}
			if diff := cmp.Diff(tt.alone, alone); diff != "" {
				t.Errorf("decodable alone (-want +got):\n%s", diff)
			}
			checkAlone(t, objs)
		})
	}
}

// countValues counts the nodes of a decoded value.
func countValues(v any) int {
	n := 1
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			n += countValues(e)
		}
	case []any:
		for _, e := range x {
			n += countValues(e)
		}
	}
	return n
}

// WithKeyPositions decodes an object again to find where its keys are
// written; an object that cannot be decoded alone, or already has them,
// is returned as it is.
func TestWithKeyPositions(t *testing.T) {
	src := "a: 1\n---\nkind: X\nspec:\n  list:\n    - x\n"
	dec := NewDecoder("in.yaml", []byte(src), DecodeOptions{})
	if _, err := dec.Next(); err != nil {
		t.Fatal(err)
	}
	objs, err := dec.Next()
	if err != nil {
		t.Fatal(err)
	}
	list := fieldpath.New("spec", "list")
	o := objs[0]
	if got, want := o.KeyPos(list), (Pos{File: "in.yaml", Line: 6, Col: 5}); got != want {
		t.Errorf("without key positions: %v, want the value's %v", got, want)
	}
	keys := o.WithKeyPositions()
	if got, want := keys.KeyPos(list), (Pos{File: "in.yaml", Line: 5, Col: 3}); got != want {
		t.Errorf("with key positions: %v, want the key's %v", got, want)
	}
	if keys.WithKeyPositions() != keys {
		t.Error("an object with key positions is decoded again")
	}
	items, err := NewDecoder("in.yaml", []byte("kind: List\nitems:\n  - kind: X\n    a: 1\n"), DecodeOptions{}).Next()
	if err != nil {
		t.Fatal(err)
	}
	if items[0].WithKeyPositions() != items[0] {
		t.Error("a List's item is decoded again")
	}
}

// TestDecodeDuplicateReported: with DecodeOptions.Duplicate, a key
// written twice is reported at the later key (ErrDuplicateKey) and the
// last value wins, as kubectl's YAML to JSON conversion keeps it; the
// later key's position is the field's.
func TestDecodeDuplicateReported(t *testing.T) {
	var got []string
	objs, err := Decode("in.yaml", []byte("a: 1\nb: {c: 2, c: 3}\na: 4\n"), DecodeOptions{Duplicate: func(err error) {
		if !errors.Is(err, ErrDuplicateKey) {
			t.Errorf("%v does not wrap ErrDuplicateKey", err)
		}
		got = append(got, Format(err, nil))
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`in.yaml:2:11: duplicate key "c" (first defined at line 2)`, `in.yaml:3:1: duplicate key "a" (first defined at line 1)`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reported (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"a": int64(4), "b": map[string]any{"c": int64(3)}}, objs[0].Data); diff != "" {
		t.Errorf("data (-want +got):\n%s", diff)
	}
	if p := objs[0].FieldPos(fieldpath.New("a")); p.Line != 3 {
		t.Errorf("a is at %v, want line 3", p)
	}
}

// TestDecoderGoesOn: after a bad document the decoder goes on with the
// next one, so that every document's error and object is seen; positions
// (and a document decoded again) keep the file's lines.
func TestDecoderGoesOn(t *testing.T) {
	src := "kind: A\nmetadata: {name: a}\n---\nkind: B\nx: [1\ny: 2\n---\nkind: C\nmetadata:\n  name: c\n---\nkind: D\nk: 1\nk: 2\n---\nkind: E\nspec:\n  x: 1\n---\nbad: [\n---\nkind: F\n---\nbad: [\n"
	d := NewDecoder("in.yaml", []byte(src), DecodeOptions{})
	var got []string
	for {
		objs, err := d.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			got = append(got, "error "+Format(err, nil))
			continue
		}
		for _, o := range objs {
			got = append(got, fmt.Sprintf("%s at %s", o.Kind(), o.Pos))
			if doc, ok := o.Document(); ok {
				again, err := doc.Decode()
				if err != nil {
					t.Fatalf("%s: decode again: %v", o.Kind(), err)
				}
				if p := again.FieldPos(fieldpath.New("kind")); p != o.FieldPos(fieldpath.New("kind")) {
					t.Errorf("%s decoded again: kind at %s, want %s", o.Kind(), p, o.FieldPos(fieldpath.New("kind")))
				}
			}
		}
	}
	want := []string{
		"A at in.yaml:1:1",
		"error in.yaml:6: invalid YAML near line 6: did not find expected ',' or ']' (the '[' opened at in.yaml:5:4)",
		"C at in.yaml:8:1",
		`error in.yaml:14:1: invalid YAML: duplicate key "k" (first defined at line 13)`,
		"E at in.yaml:16:1",
		"error in.yaml:21: invalid YAML near line 21: did not find expected node content",
		"F at in.yaml:22:1",
		"error in.yaml:24: invalid YAML near line 24: did not find expected node content",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
