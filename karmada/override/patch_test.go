package override

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

const patchDoc = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"1","x/y":"2","t~1":"3"},"annotations":null},
"spec":{"replicas":2,"ratio":1.5,"list":[1,2,3],"nested":[{"k":"v"},[10,20]],"empty":{},"nil":null,"s":"str"}}`

// comparePatch applies ops both in memory and with evanphx/json-patch. When
// the in-memory patcher accepts the ops, both must agree; it may only
// decline (errNative) where the library would fail or for corners it leaves
// to the library.
func comparePatch(t *testing.T, docJSON string, ops []patchOp) (native bool, exactErr error) {
	t.Helper()
	doc, err := decodeObject([]byte(docJSON))
	if err != nil {
		t.Fatal(err)
	}
	exact, exactErr := exactPatch(doc, ops)
	norm, _ := normalize(doc)
	d := &document{data: norm.(map[string]any)}
	nerr := d.patch(ops)
	if nerr != nil {
		if !errors.Is(nerr, errNative) {
			t.Fatalf("native patch returned %v, want errNative", nerr)
		}
		return false, exactErr
	}
	if exactErr != nil {
		t.Fatalf("native patch succeeded where evanphx fails: %v\nops: %+v", exactErr, ops)
	}
	if diff := cmp.Diff(exact, d.data); diff != "" {
		t.Fatalf("ops %+v: -evanphx +native:\n%s", ops, diff)
	}
	return true, nil
}

func TestNativePatchMatchesEvanphx(t *testing.T) {
	tests := []struct {
		name string
		ops  []patchOp
		// native: the in-memory patcher handles the case (else it falls
		// back); fails: evanphx rejects the patch.
		native, fails bool
	}{
		{"replace scalar", []patchOp{{op: "replace", path: "/spec/replicas", value: int64(5)}}, true, false},
		{"replace with float that is whole", []patchOp{{op: "replace", path: "/spec/ratio", value: 2.0}}, true, false},
		{"add new key", []patchOp{{op: "add", path: "/spec/new", value: map[string]any{"b": "x", "a": []any{1.5}}}}, true, false},
		{"add overwrites", []patchOp{{op: "add", path: "/spec/s", value: "other"}}, true, false},
		{"add null", []patchOp{{op: "add", path: "/spec/n2", value: nil}}, true, false},
		{"remove key", []patchOp{{op: "remove", path: "/spec/s"}}, true, false},
		{"remove null-valued key", []patchOp{{op: "remove", path: "/spec/nil"}}, true, false},
		{"replace null-valued key", []patchOp{{op: "replace", path: "/spec/nil", value: "v"}}, true, false},
		{"remove missing key", []patchOp{{op: "remove", path: "/spec/missing"}}, false, true},
		{"replace missing key", []patchOp{{op: "replace", path: "/spec/missing", value: 1}}, false, true},
		{"add under missing parent", []patchOp{{op: "add", path: "/spec/missing/x", value: 1}}, false, true},
		{"add under null parent", []patchOp{{op: "add", path: "/spec/nil/x", value: 1}}, false, true},
		{"add under string", []patchOp{{op: "add", path: "/spec/s/x", value: 1}}, false, true},
		{"escaped key", []patchOp{{op: "replace", path: "/metadata/labels/x~1y", value: "9"}}, true, false},
		{"tilde escape", []patchOp{{op: "add", path: "/metadata/labels/t~01", value: "9"}}, true, false},
		{"append", []patchOp{{op: "add", path: "/spec/list/-", value: int64(4)}}, true, false},
		{"insert at 0", []patchOp{{op: "add", path: "/spec/list/0", value: int64(0)}}, true, false},
		{"insert at len", []patchOp{{op: "add", path: "/spec/list/3", value: int64(0)}}, true, false},
		{"insert past len", []patchOp{{op: "add", path: "/spec/list/4", value: int64(0)}}, false, true},
		{"insert at -1", []patchOp{{op: "add", path: "/spec/list/-1", value: int64(9)}}, true, false},
		{"insert at -4", []patchOp{{op: "add", path: "/spec/list/-4", value: int64(9)}}, true, false},
		{"insert at -5", []patchOp{{op: "add", path: "/spec/list/-5", value: int64(9)}}, false, true},
		{"insert with leading zero", []patchOp{{op: "add", path: "/spec/list/01", value: int64(9)}}, true, false},
		{"insert with plus", []patchOp{{op: "add", path: "/spec/list/+1", value: int64(9)}}, true, false},
		{"replace -1", []patchOp{{op: "replace", path: "/spec/list/-1", value: int64(9)}}, true, false},
		{"replace past end", []patchOp{{op: "replace", path: "/spec/list/3", value: int64(9)}}, false, true},
		{"replace dash", []patchOp{{op: "replace", path: "/spec/list/-", value: int64(9)}}, false, true},
		{"remove -3", []patchOp{{op: "remove", path: "/spec/list/-3"}}, true, false},
		{"remove -4", []patchOp{{op: "remove", path: "/spec/list/-4"}}, false, true},
		{"nested arrays", []patchOp{{op: "add", path: "/spec/nested/1/-1", value: "x"}, {op: "replace", path: "/spec/nested/0/k", value: "w"}}, true, false},
		{"array index not a number", []patchOp{{op: "add", path: "/spec/list/x", value: 1}}, false, true},
		{"ops see earlier ops", []patchOp{{op: "add", path: "/spec/obj", value: map[string]any{}}, {op: "add", path: "/spec/obj/k", value: "v"}}, true, false},
		{"atomic failure", []patchOp{{op: "add", path: "/spec/k", value: "v"}, {op: "remove", path: "/spec/missing"}}, false, true},
		{"path without leading slash", []patchOp{{op: "replace", path: "spec/kind", value: "Other"}}, true, false},
		{"path without slash at all", []patchOp{{op: "add", path: "spec", value: 1}}, false, true},
		{"remove kind", []patchOp{{op: "remove", path: "/kind"}}, false, true},
		{"empty path", []patchOp{{op: "replace", path: "", value: map[string]any{"kind": "X"}}}, false, false},
		{"empty segment", []patchOp{{op: "add", path: "/spec//x", value: 1}}, false, true},
		{"trailing slash", []patchOp{{op: "add", path: "/spec/", value: 1}}, false, false},
		{"annotations null", []patchOp{{op: "add", path: "/metadata/annotations/a", value: "1"}}, false, true},
		{"no ops", nil, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			native, exactErr := comparePatch(t, patchDoc, tt.ops)
			if diff := cmp.Diff(tt.native, native); diff != "" {
				t.Errorf("native handled (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.fails, exactErr != nil); diff != "" {
				t.Errorf("evanphx fails (-want +got): %v\n%s", exactErr, diff)
			}
		})
	}
}

// FuzzNativePatch checks that whenever the in-memory patcher accepts an
// operation, evanphx/json-patch produces the same document.
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
		data, err := json.Marshal(doc)
		if err != nil {
			return
		}
		comparePatch(t, string(data), []patchOp{{op: op, path: path, value: manifest.FromJSONNumbers(value)}})
	})
}
