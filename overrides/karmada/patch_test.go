package karmada

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

const patchDoc = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"1","x/y":"2","t~1":"3"},"annotations":null},
"spec":{"replicas":2,"ratio":1.5,"list":[1,2,3],"nested":[{"k":"v"},[10,20]],"empty":{},"nil":null,"s":"str"}}`

// comparePatch applies ops in memory and with evanphx/json-patch (the
// library Karmada uses): both must give the same document, or fail with
// the same message.
func comparePatch(t *testing.T, docJSON string, ops []patchOp) (exactErr error) {
	t.Helper()
	doc, err := decodeObject([]byte(docJSON))
	if err != nil {
		t.Fatal(err)
	}
	exact, exactErr := exactPatch(doc, ops)
	norm, _ := normalize(doc)
	d := &document{data: norm.(map[string]any)}
	_, nerr := d.patch(ops)
	if exactErr != nil || nerr != nil {
		if exactErr == nil || nerr == nil || !sameMessage(manifest.Format(exactErr, nil), manifest.Format(nerr, nil)) {
			t.Fatalf("ops %+v:\nevanphx error %v\nnative error  %v", ops, exactErr, nerr)
		}
		return exactErr
	}
	if diff := cmp.Diff(exact, d.data); diff != "" {
		t.Fatalf("ops %+v: -evanphx +native:\n%s", ops, diff)
	}
	return nil
}

// sameMessage compares messages, except the JSON apimachinery quotes in
// "Object 'Kind' is missing in '...'", whose key order the library keeps
// from the document and drydock does not.
func sameMessage(a, b string) bool {
	const kind = "Object 'Kind' is missing in '"
	if strings.HasPrefix(a, kind) && strings.HasPrefix(b, kind) {
		return true
	}
	return a == b
}

func TestNativePatchMatchesEvanphx(t *testing.T) {
	tests := []struct {
		name string
		ops  []patchOp
		// fails: evanphx rejects the patch.
		fails bool
	}{
		{"replace scalar", []patchOp{{op: "replace", path: "/spec/replicas", value: int64(5)}}, false},
		{"replace with float that is whole", []patchOp{{op: "replace", path: "/spec/ratio", value: 2.0}}, false},
		{"add new key", []patchOp{{op: "add", path: "/spec/new", value: map[string]any{"b": "x", "a": []any{1.5}}}}, false},
		{"add overwrites", []patchOp{{op: "add", path: "/spec/s", value: "other"}}, false},
		{"add null", []patchOp{{op: "add", path: "/spec/n2", value: nil}}, false},
		{"remove key", []patchOp{{op: "remove", path: "/spec/s"}}, false},
		{"remove null-valued key", []patchOp{{op: "remove", path: "/spec/nil"}}, false},
		{"replace null-valued key", []patchOp{{op: "replace", path: "/spec/nil", value: "v"}}, false},
		{"remove missing key", []patchOp{{op: "remove", path: "/spec/missing"}}, true},
		{"replace missing key", []patchOp{{op: "replace", path: "/spec/missing", value: 1}}, true},
		{"add under missing parent", []patchOp{{op: "add", path: "/spec/missing/x", value: 1}}, true},
		{"add under null parent", []patchOp{{op: "add", path: "/spec/nil/x", value: 1}}, true},
		{"add under string", []patchOp{{op: "add", path: "/spec/s/x", value: 1}}, true},
		{"escaped key", []patchOp{{op: "replace", path: "/metadata/labels/x~1y", value: "9"}}, false},
		{"tilde escape", []patchOp{{op: "add", path: "/metadata/labels/t~01", value: "9"}}, false},
		{"append", []patchOp{{op: "add", path: "/spec/list/-", value: int64(4)}}, false},
		{"insert at 0", []patchOp{{op: "add", path: "/spec/list/0", value: int64(0)}}, false},
		{"insert at len", []patchOp{{op: "add", path: "/spec/list/3", value: int64(0)}}, false},
		{"insert past len", []patchOp{{op: "add", path: "/spec/list/4", value: int64(0)}}, true},
		{"insert at -1", []patchOp{{op: "add", path: "/spec/list/-1", value: int64(9)}}, false},
		{"insert at -4", []patchOp{{op: "add", path: "/spec/list/-4", value: int64(9)}}, false},
		{"insert at -5", []patchOp{{op: "add", path: "/spec/list/-5", value: int64(9)}}, true},
		{"insert with leading zero", []patchOp{{op: "add", path: "/spec/list/01", value: int64(9)}}, false},
		{"insert with plus", []patchOp{{op: "add", path: "/spec/list/+1", value: int64(9)}}, false},
		{"replace -1", []patchOp{{op: "replace", path: "/spec/list/-1", value: int64(9)}}, false},
		{"replace past end", []patchOp{{op: "replace", path: "/spec/list/3", value: int64(9)}}, true},
		{"replace dash", []patchOp{{op: "replace", path: "/spec/list/-", value: int64(9)}}, true},
		{"remove -3", []patchOp{{op: "remove", path: "/spec/list/-3"}}, false},
		{"remove -4", []patchOp{{op: "remove", path: "/spec/list/-4"}}, true},
		{"nested arrays", []patchOp{{op: "add", path: "/spec/nested/1/-1", value: "x"}, {op: "replace", path: "/spec/nested/0/k", value: "w"}}, false},
		{"array index not a number", []patchOp{{op: "add", path: "/spec/list/x", value: 1}}, true},
		{"ops see earlier ops", []patchOp{{op: "add", path: "/spec/obj", value: map[string]any{}}, {op: "add", path: "/spec/obj/k", value: "v"}}, false},
		{"atomic failure", []patchOp{{op: "add", path: "/spec/k", value: "v"}, {op: "remove", path: "/spec/missing"}}, true},
		{"path without leading slash", []patchOp{{op: "replace", path: "spec/kind", value: "Other"}}, false},
		{"path without slash at all", []patchOp{{op: "add", path: "spec", value: 1}}, true},
		{"remove kind", []patchOp{{op: "remove", path: "/kind"}}, true},
		{"empty path", []patchOp{{op: "replace", path: "", value: map[string]any{"kind": "X"}}}, false},
		{"empty segment", []patchOp{{op: "add", path: "/spec//x", value: 1}}, true},
		{"trailing slash", []patchOp{{op: "add", path: "/spec/", value: 1}}, false},
		{"annotations null", []patchOp{{op: "add", path: "/metadata/annotations/a", value: "1"}}, true},
		{"no ops", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exactErr := comparePatch(t, patchDoc, tt.ops)
			if diff := cmp.Diff(tt.fails, exactErr != nil); diff != "" {
				t.Errorf("evanphx fails (-want +got): %v\n%s", exactErr, diff)
			}
		})
	}
}

// FuzzNativePatch checks that the in-memory patcher and evanphx/json-patch
// give the same document or the same error for any operation.
func FuzzNativePatch(f *testing.F) {
	f.Add(patchDoc, "add", "/spec/list/-1", `"x"`)
	f.Add(patchDoc, "remove", "/spec/nested/1/0", `null`)
	f.Add(patchDoc, "replace", "/metadata/labels/x~1y", `{"a":[1,2.5]}`)
	f.Add(`{"kind":"K","a":[[[]]]}`, "add", "/a/0/0/-", `1e3`)
	f.Fuzz(func(t *testing.T, docJSON, op, path, valueJSON string) {
		doc, err := decodeObject([]byte(docJSON))
		if err != nil {
			return
		}
		var value any
		if err := json.Unmarshal([]byte(valueJSON), &value); err != nil {
			return
		}
		if op != "add" && op != "remove" && op != "replace" {
			return
		}
		// Policies come from YAML, which is valid UTF-8; the library's JSON
		// coding would replace invalid bytes.
		if !utf8.ValidString(path) || !utf8.ValidString(valueJSON) || !utf8.ValidString(docJSON) {
			return
		}
		data, err := json.Marshal(doc)
		if err != nil {
			return
		}
		comparePatch(t, string(data), []patchOp{{op: op, path: path, value: manifest.FromJSONNumbers(value)}})
	})
}

// decodeObject is unstructured.UnmarshalJSON: whole numbers become int64,
// others float64, and the object must have a kind.
func decodeObject(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	manifest.FromJSONNumbers(m)
	if k, ok := m["kind"].(string); !ok || k == "" {
		return nil, fmt.Errorf("Object 'Kind' is missing in '%s'", data)
	}
	return m, nil
}
