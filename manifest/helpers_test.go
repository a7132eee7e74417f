package manifest

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNameRules: the API server's name rules, in its words.
func TestNameRules(t *testing.T) {
	tests := []struct {
		rule func(string) string
		in   string
		want string
	}{
		{DNS1123Label, "web-1", ""},
		{DNS1123Label, "Web", `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{DNS1123Label, strings.Repeat("a", 64), "must be no more than 63 characters"},
		{DNS1123Subdomain, "web.example.com", ""},
		{PathSegmentName, "ok", ""},
		{PathSegmentName, "..", "may not be '..'"},
		{PathSegmentName, "a/b", "may not contain '/' or '%'"},
		{PathSegmentName, "a%b", "may not contain '/' or '%'"},
	}
	for _, tt := range tests {
		if got := tt.rule(tt.in); got != tt.want {
			t.Errorf("rule(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := DNS1123Subdomain("Web.example"); !strings.Contains(got, "RFC 1123 subdomain") {
		t.Errorf("DNS1123Subdomain(Web.example) = %q", got)
	}
}

func TestDidYouMean(t *testing.T) {
	if got, want := DidYouMean("replica", nil, []string{"replicas", "image"}), ` (did you mean "replicas"?)`; got != want {
		t.Errorf("DidYouMean = %q, want %q", got, want)
	}
	if got := DidYouMean("zzz", []string{"replicas"}); got != "" {
		t.Errorf("DidYouMean(zzz) = %q, want none", got)
	}
}

// TestObjectHelpers: the small readers and writers of decoded objects.
func TestObjectHelpers(t *testing.T) {
	o := New(map[string]any{"metadata": map[string]any{
		"labels":      map[string]any{"app": "web", "n": int64(1)},
		"annotations": map[string]any{"a": "b"},
	}})
	if d := cmp.Diff(map[string]string{"app": "web"}, o.Labels()); d != "" {
		t.Errorf("Labels (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]string{"a": "b"}, o.Annotations()); d != "" {
		t.Errorf("Annotations (-want +got):\n%s", d)
	}
	if StrictStringMap(o.Data, "metadata", "labels") != nil {
		t.Error("StrictStringMap read a map with a number")
	}
	if d := cmp.Diff(map[string]string{"a": "b"}, StrictStringMap(o.Data, "metadata", "annotations")); d != "" {
		t.Errorf("StrictStringMap (-want +got):\n%s", d)
	}
	if Map(o.Data, "metadata", "nothing") != nil || Map(o.Data, "metadata") == nil {
		t.Error("Map is wrong")
	}
	SetNested(o.Data, "v", "spec", "template", "name")
	if got := String(o.Data, "spec", "template", "name"); got != "v" {
		t.Errorf("SetNested then String = %q", got)
	}
	c := DeepCopy(o.Data).(map[string]any)
	SetNested(c, "changed", "spec", "template", "name")
	if String(o.Data, "spec", "template", "name") != "v" {
		t.Error("DeepCopy shares maps with its source")
	}
	if d := cmp.Diff(o.Data["metadata"], c["metadata"]); d != "" {
		t.Errorf("DeepCopy (-want +got):\n%s", d)
	}
	list := []any{[]any{int64(1)}, "s"}
	cl := DeepCopy(list).([]any)
	cl[0].([]any)[0] = int64(2)
	if list[0].([]any)[0] != int64(1) {
		t.Error("DeepCopy shares lists with its source")
	}
}

func TestKeyOrder(t *testing.T) {
	a := Key{Namespace: "a", Kind: "Service", Name: "x"}
	b := Key{Namespace: "a", Group: "apps", Kind: "Deployment", Name: "x"}
	c := Key{Namespace: "b", Kind: "ConfigMap", Name: "a"}
	d := Key{Namespace: "a", Kind: "Service", Name: "y"}
	got := SortedObjectKeys(map[Key]int{c: 1, b: 2, a: 3, d: 4})
	if diff := cmp.Diff([]Key{a, d, b, c}, got); diff != "" {
		t.Errorf("SortedObjectKeys (-want +got):\n%s", diff)
	}
	if a.Less(a) {
		t.Error("a key is less than itself")
	}
	if Group("apps/v1") != "apps" || Group("v1") != "" {
		t.Error("Group is wrong")
	}
}

func TestDecodeJSON(t *testing.T) {
	v, err := DecodeJSON([]byte(`{"i": 3, "f": 1.5, "big": 1e400, "l": [2, {"x": 9007199254740993}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"i": int64(3), "f": 1.5, "big": math.Inf(1), "l": []any{int64(2), map[string]any{"x": int64(9007199254740993)}}}
	if d := cmp.Diff(want, v); d != "" {
		t.Errorf("DecodeJSON (-want +got):\n%s", d)
	}
	if _, err := DecodeJSON([]byte(`{`)); err == nil {
		t.Error("DecodeJSON of broken JSON succeeded")
	}
}

func TestTypeWords(t *testing.T) {
	for _, tt := range []struct {
		v              any
		schema, goJSON string
	}{
		{"s", "string", "string"},
		{int64(1), "integer", "number"},
		{1.5, "number", "number"},
		{true, "boolean", "bool"},
		{map[string]any{}, "object", "object"},
		{[]any{}, "array", "array"},
		{nil, "null", "null"},
	} {
		if got := TypeName(tt.v); got != tt.schema {
			t.Errorf("TypeName(%#v) = %q, want %q", tt.v, got, tt.schema)
		}
		if got := JSONKind(tt.v); got != tt.goJSON {
			t.Errorf("JSONKind(%#v) = %q, want %q", tt.v, got, tt.goJSON)
		}
	}
}

func TestOptionalString(t *testing.T) {
	m := map[string]any{"s": "x", "n": nil, "i": int64(1)}
	for key, want := range map[string]string{"s": "x", "n": "", "missing": ""} {
		if got, err := OptionalString(m, key); err != nil || got != want {
			t.Errorf("OptionalString(%s) = %q, %v", key, got, err)
		}
	}
	var fe *FieldError
	if _, err := OptionalString(m, "i"); !errors.As(err, &fe) || fe.Path.String() != "i" {
		t.Errorf("OptionalString(i) error = %v, want a FieldError at i", err)
	}
}

// TestValues: a decoded sequence's elements and mappings keep their
// positions.
func TestValues(t *testing.T) {
	vals, err := DecodeValues("v.yaml", []byte("- a: 1\n- [x, y]\n- s\n"), 1, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) != 1 {
		t.Fatalf("%d values", len(vals))
	}
	els := vals[0].Elements()
	if len(els) != 3 {
		t.Fatalf("%d elements", len(els))
	}
	var lines []int
	for _, e := range els {
		lines = append(lines, e.Pos.Line)
	}
	if d := cmp.Diff([]int{1, 2, 3}, lines); d != "" {
		t.Errorf("element lines (-want +got):\n%s", d)
	}
	if o, ok := els[0].Object(); !ok || o.Data["a"] != int64(1) {
		t.Errorf("Object of a mapping = %v, %v", o, ok)
	}
	if _, ok := els[2].Object(); ok {
		t.Error("a scalar is an object")
	}
	if els[2].Elements() != nil {
		t.Error("a scalar has elements")
	}
}

func TestExpandList(t *testing.T) {
	objs, err := Decode("l.yaml", []byte("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n"), DecodeOptions{KeepLists: true})
	if err != nil {
		t.Fatal(err)
	}
	items, err := objs[0].ExpandList()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, it := range items {
		names = append(names, it.Name()+"@"+it.Item())
	}
	if d := cmp.Diff([]string{"a@items[0]: ", "b@items[1]: "}, names); d != "" {
		t.Errorf("items (-want +got):\n%s", d)
	}
	single := New(map[string]any{"kind": "ConfigMap"})
	if got, err := single.ExpandList(); err != nil || len(got) != 1 || got[0] != single {
		t.Errorf("ExpandList of one object = %v, %v", got, err)
	}
}

func TestYAMLError(t *testing.T) {
	_, err := Decode("bad.yaml", []byte("a: [\n"), DecodeOptions{})
	if err == nil {
		t.Fatal("no error")
	}
	if !errors.Is(err, ErrInvalidYAML) {
		t.Errorf("error %v does not wrap ErrInvalidYAML", err)
	}
	if got := YAMLError("f.yaml", []byte("a: 1\n"), errors.New("other")); got == nil || !strings.Contains(got.Error(), "other") {
		t.Errorf("YAMLError of a foreign error = %v", got)
	}
}

// TestReadInAndDirFS: files read under a root, and a directory as an
// fs.FS that keeps links inside it.
func TestReadInAndDirFS(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("x: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.yaml", filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if data, err := ReadIn(root, "a.yaml"); err != nil || string(data) != "x: 1\n" {
		t.Errorf("ReadIn = %q, %v", data, err)
	}
	if _, err := ReadIn(root, "sub"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadIn of a directory: %v, want ErrNotRegular", err)
	}
	if _, err := ReadIn(root, "missing.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadIn of a missing file: %v", err)
	}

	fsys, err := DirFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := fs.ReadFile(fsys, "link.yaml"); err != nil || string(data) != "x: 1\n" {
		t.Errorf("ReadFile through a link = %q, %v", data, err)
	}
	if target, err := fs.ReadLink(fsys, "link.yaml"); err != nil || target != "a.yaml" {
		t.Errorf("ReadLink = %q, %v", target, err)
	}
	if _, err := fs.ReadFile(fsys, "../x"); err == nil {
		t.Error("ReadFile of ../x succeeded")
	}

	real, err := RealPath(filepath.Join(dir, "link.yaml"))
	if err != nil || filepath.Base(real) != "a.yaml" {
		t.Errorf("RealPath(link) = %q, %v", real, err)
	}
	future, err := RealPath(filepath.Join(dir, "sub", "new", "file.yaml"))
	if err != nil || !strings.HasSuffix(future, filepath.Join("sub", "new", "file.yaml")) {
		t.Errorf("RealPath of a path to be created = %q, %v", future, err)
	}
}

func TestTooLarge(t *testing.T) {
	err := TooLarge("big.yaml")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "big.yaml") {
		t.Errorf("TooLarge = %v", err)
	}
	if errors.Is(err, ErrNotRegular) {
		t.Error("TooLarge is ErrNotRegular")
	}
}

func TestWholeNumbers(t *testing.T) {
	in := map[string]any{"a": 3.0, "b": 1.5, "c": []any{2.0, float64(1 << 60)}, "s": "x"}
	got := WholeNumbers(in, 1<<53)
	want := map[string]any{"a": int64(3), "b": 1.5, "c": []any{int64(2), float64(1 << 60)}, "s": "x"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("WholeNumbers(2^53) (-want +got):\n%s", d)
	}
	if got := WholeNumbers(float64(1<<60), 1<<63); got != int64(1<<60) {
		t.Errorf("WholeNumbers(2^60, 2^63) = %#v", got)
	}
	if in["a"] != 3.0 {
		t.Error("WholeNumbers changed its input")
	}
}
