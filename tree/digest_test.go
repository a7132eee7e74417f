package tree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestDigest: values that differ anywhere, in value, type or structure
// (even where a naive concatenation would read alike), have different
// digests; the same data in another map order has the same; and wherever
// two digests are equal the encodings are.
func TestDigest(t *testing.T) {
	cases := []map[string]any{
		{"a": "bc"}, {"ab": "c"}, {"a": []any{"b", "c"}}, {"a": []any{"bc"}}, {"a": []any{[]any{"b"}, "c"}},
		{"a": 1}, {"a": int64(2)}, {"a": "1"}, {"a": 1.5}, {"a": true}, {"a": false}, {"a": nil}, {"a": map[string]any{}},
		{"a": []any{}}, {"a": map[string]any{"b": nil}}, {"a": map[string]any{"b": nil, "c": nil}}, {"a": "", "b": ""},
		{"a": map[string]any{"": ""}}, {}, {"a": "b\xff"},
	}
	seen := map[Digest]int{}
	for i, c := range cases {
		d, ok := DigestOf(manifest.New(c))
		if !ok {
			t.Fatalf("case %d %v: no digest", i, c)
		}
		if j, dup := seen[d]; dup {
			t.Errorf("cases %d %v and %d %v have one digest", j, cases[j], i, c)
		}
		seen[d] = i
	}
	// The same values, by other types and in another order, the same digest
	// where they encode alike.
	for _, pair := range [][2]map[string]any{
		{{"a": 1, "b": []any{"x", 2}}, {"b": []any{"x", int64(2)}, "a": int64(1)}},
		{{"a": map[string]any(nil)}, {"a": nil}},
		{{"a": []any(nil)}, {"a": nil}},
	} {
		d0, _ := DigestOf(manifest.New(pair[0]))
		d1, _ := DigestOf(manifest.New(pair[1]))
		if d0 != d1 {
			t.Errorf("%v and %v: different digests", pair[0], pair[1])
		}
		e0, _ := Encode(manifest.New(pair[0]))
		e1, _ := Encode(manifest.New(pair[1]))
		if !bytes.Equal(e0, e1) {
			t.Errorf("%v and %v: one digest, encodings %q and %q", pair[0], pair[1], e0, e1)
		}
	}
	if _, ok := DigestOf(manifest.New(map[string]any{"a": json.Number("1")})); ok {
		t.Error("a json.Number has a digest")
	}
}

// FuzzDigest: two documents with the same digest encode alike.
func FuzzDigest(f *testing.F) {
	f.Add([]byte("a: 1\nb: [x, {c: null}]"), []byte("b: [x, {c: null}]\na: 1"))
	f.Add([]byte("a: 1.0"), []byte("a: 1"))
	f.Fuzz(func(t *testing.T, x, y []byte) {
		ox, err1 := manifest.Decode("x.yaml", x, manifest.DecodeOptions{})
		oy, err2 := manifest.Decode("y.yaml", y, manifest.DecodeOptions{})
		if err1 != nil || err2 != nil || len(ox) != 1 || len(oy) != 1 {
			return
		}
		dx, okx := DigestOf(ox[0])
		dy, oky := DigestOf(oy[0])
		if !okx || !oky || dx != dy {
			return
		}
		ex, errx := Encode(ox[0])
		ey, erry := Encode(oy[0])
		if diff := cmp.Diff(fmt.Sprint(string(ex), errx), fmt.Sprint(string(ey), erry)); diff != "" {
			t.Errorf("one digest, encodings differ (-x +y):\n%s", diff)
		}
	})
}

// BenchmarkDigest against BenchmarkDigestEncode: a Deployment's digest
// and its encoding.
func BenchmarkDigest(b *testing.B) {
	o := benchDeployment(b)
	for b.Loop() {
		DigestOf(o)
	}
}

func BenchmarkDigestEncode(b *testing.B) {
	o := benchDeployment(b)
	for b.Loop() {
		if _, err := Encode(o); err != nil {
			b.Fatal(err)
		}
	}
}

func benchDeployment(b *testing.B) *manifest.Object {
	objs, err := manifest.Decode("d.yaml", []byte(`apiVersion: apps/v1
kind: Deployment
metadata:
  annotations: {app.oam.dev/publishVersion: ""}
  labels: {app.oam.dev/appRevision: app-1-v1, app.oam.dev/component: web-1, app.oam.dev/name: app-1, app.oam.dev/namespace: team-1, app.oam.dev/resourceType: WORKLOAD, workload.oam.dev/type: webservice}
  name: web-1
  namespace: team-1
spec:
  replicas: 2
  selector: {matchLabels: {app.oam.dev/component: web-1}}
  template:
    metadata:
      labels: {app.oam.dev/component: web-1, app.oam.dev/name: app-1}
    spec:
      containers:
        - env: [{name: INDEX, value: "1"}]
          image: registry.example.com/web:1
          name: web-1
          ports: [{containerPort: 8080, name: port-8080, protocol: TCP}]
`), manifest.DecodeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return objs[0]
}
