package tree

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	yaml2 "go.yaml.in/yaml/v2"
	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// checkEmit requires emit to write what go-yaml v2's Marshal writes for
// the model of data whenever it writes anything; it reports whether it did.
func checkEmit(t *testing.T, name string, data map[string]any) bool {
	t.Helper()
	v, ok := jsonModel(data)
	if !ok {
		return false
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		return false
	}
	got, ok := emit(m)
	if !ok {
		return false
	}
	want, err := yaml2.Marshal(v)
	if err != nil {
		t.Fatalf("%s: go-yaml v2 fails (%v) where emit writes:\n%s", name, err, got)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s: emit differs from go-yaml v2 (-want +got):\n%s", name, diff)
	}
	return true
}

// TestEmitCorpora: every object of every conformance corpus file and
// example (inputs, expected trees, golden files) is written as go-yaml v2
// writes it, and most of them without falling back to it.
func TestEmitCorpora(t *testing.T) {
	var objects, emitted int
	for _, root := range []string{"../../shared/conformance", "../examples", "testdata"} {
		root, err := filepath.Abs(root)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(root); err != nil {
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			dec := yaml3.NewDecoder(bytes.NewReader(data))
			for i := 0; ; i++ {
				var node yaml3.Node
				if err := dec.Decode(&node); err != nil {
					if !errors.Is(err, io.EOF) {
						t.Logf("%s: %v", p, err)
					}
					break
				}
				doc, err := yaml3.Marshal(&node)
				if err != nil {
					continue
				}
				var obj map[string]any
				if yaml.Unmarshal(doc, &obj) != nil || obj == nil {
					continue
				}
				objects++
				if checkEmit(t, p, obj) {
					emitted++
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d objects, %d written by emit", objects, emitted)
	if objects < 1000 || emitted*10 < objects*7 {
		t.Errorf("%d objects, %d written by emit: want at least 1,000 and 70%%", objects, emitted)
	}
}

// trickyStrings are scalars YAML quotes, folds, resolves to other types
// or writes as blocks, and keys go-yaml v2 sorts numerically.
var trickyStrings = []string{
	"", " ", "a", "a b", " a", "a ", "a: b", "a:", ":a", "a:b", "#a", "a #b", "a#b", "- a", "-a", "-", "--", "---", "--- a", "...",
	"? a", "?a", "a?", "[a]", "{a}", "a,b", ",a", "&a", "*a", "!a", "|a", ">a", "'a'", "\"a\"", "%a", "@a", "`a",
	"y", "Y", "yes", "No", "on", "OFF", "true", "False", "null", "Null", "~", "<<", ".nan", ".Inf", "-.inf", "+.INF",
	"0", "1", "-1", "+1", "007", "0x1F", "0o17", "0b101", "1_000", "1e3", "1.5", ".5", "5.", "1e", "12:30", "1:2:3", "190:20:30.15",
	"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "100Mi", "500m", "1Gi", "3", "v1", "apps/v1",
	"a\nb", "a\n", "\na", "a\n\nb", " a\nb", "a \nb", "a\tb", "\t", "a\rb", "é", "日本", "a\u0085b", "a\u2028b", "\u00a0", "\x7f", "\x01",
	"\ufeffa", "a\\b", "a\"b", "a'b", "http://example.com/a?b=c&d=e#f", "key=value", "a=b,c=d", "app.oam.dev/name", "k8s.io/x_y",
	"a1", "a01", "a10", "a2", "a001", "A", "B", "a", "b", "_", "_a", "1a", "10a", "2a", "a.1", "a.01", "ab1c2", "ab01c", "Z9", "z",
	strings.Repeat("x", 79), strings.Repeat("x", 81), strings.Repeat("x", 129), strings.Repeat("ab ", 30), strings.Repeat("word ", 20) + "end",
	"echo hello && sleep 3600", strings.Repeat("a", 60) + " " + strings.Repeat("b", 30), strings.Repeat("é", 50) + " a",
}

// randomValue is a random value of the JSON data model from tricky
// strings and numbers, depth levels deep at most.
func randomValue(r *rand.Rand, depth int) any {
	n := r.IntN(10)
	if depth <= 0 {
		n = 5 + r.IntN(5)
	}
	switch n {
	case 0, 1, 2:
		m := map[string]any{}
		for range r.IntN(5) {
			m[trickyStrings[r.IntN(len(trickyStrings))]] = randomValue(r, depth-1)
		}
		return m
	case 3, 4:
		s := make([]any, r.IntN(4))
		for i := range s {
			s[i] = randomValue(r, depth-1)
		}
		return s
	case 5, 6:
		return trickyStrings[r.IntN(len(trickyStrings))]
	case 7:
		return []any{int64(r.IntN(2000) - 1000), math.MaxInt, 0.5, 1e21, 1e-7, -2.5e300, uint64(math.MaxUint64), 3}[r.IntN(8)]
	case 8:
		return r.IntN(2) == 0
	}
	return nil
}

// TestEmitRandom: random documents of tricky keys and values at every
// depth (so every column) are written as go-yaml v2 writes them.
func TestEmitRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var emitted int
	const n = 20000
	for i := range n {
		m := map[string]any{}
		for range 1 + r.IntN(4) {
			m[trickyStrings[r.IntN(len(trickyStrings))]] = randomValue(r, 1+r.IntN(6))
		}
		if checkEmit(t, "random", m) {
			emitted++
		}
		if t.Failed() {
			t.Fatalf("document %d", i)
		}
	}
	t.Logf("%d of %d written by emit", emitted, n)
	if emitted < n/20 {
		t.Errorf("emit wrote %d of %d documents", emitted, n)
	}
}

// TestEmitStrings: each tricky string as a key and as a value at several
// columns.
func TestEmitStrings(t *testing.T) {
	for _, s := range trickyStrings {
		for _, m := range []map[string]any{
			{"k": s},
			{s: "v"},
			{s: map[string]any{s: []any{s, map[string]any{"a": s, s: s}}}},
			{strings.Repeat("k", 40): map[string]any{strings.Repeat("k", 20): s}},
			{"list": []any{[]any{s, []any{s}}}},
		} {
			checkEmit(t, "string "+s, m)
		}
	}
	if _, ok := emit(map[string]any{"plain": "registry.example.com/web:0", "n": int64(3), "list": []any{map[string]any{"a": "b"}}}); !ok {
		t.Error("emit falls back on plain values")
	}
}

// FuzzEmit: documents built from two fuzzed strings.
func FuzzEmit(f *testing.F) {
	for i, s := range trickyStrings {
		f.Add(s, trickyStrings[(i*7)%len(trickyStrings)])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		checkEmit(t, "fuzz", map[string]any{a: b, b: []any{a, map[string]any{a: b, "x" + b: a}}, "k": map[string]any{b: a}})
	})
}

// benchObject is a Deployment as drydock renders it.
func benchObject(b *testing.B) map[string]any {
	data, err := os.ReadFile("testdata/encode-deployment.yaml")
	if err != nil {
		b.Fatal(err)
	}
	var obj map[string]any
	if err := yaml.Unmarshal(data, &obj); err != nil {
		b.Fatal(err)
	}
	v, _ := jsonModel(obj)
	return v.(map[string]any)
}

// BenchmarkEncodeEmit: a rendered Deployment written by emit (compare
// with BenchmarkEncodeYAMLv2, what Encode called before).
func BenchmarkEncodeEmit(b *testing.B) {
	obj := benchObject(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := emit(obj); !ok {
			b.Fatal("emit falls back")
		}
	}
}

// BenchmarkEncodeYAMLv2: the same Deployment written by go-yaml v2.
func BenchmarkEncodeYAMLv2(b *testing.B) {
	obj := benchObject(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := yaml2.Marshal(obj); err != nil {
			b.Fatal(err)
		}
	}
}
