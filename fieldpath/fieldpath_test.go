package fieldpath

import (
	"errors"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestString(t *testing.T) {
	tests := []struct {
		path Path
		want string
	}{
		{nil, ""},
		{New("spec"), "spec"},
		{New("spec", "containers", 0, "image"), "spec.containers[0].image"},
		{New("metadata", "labels", "app.kubernetes.io/name"), "metadata.labels[app.kubernetes.io/name]"},
		{New("ports", "80"), `ports["80"]`},
		{New("a", ""), "a[]"},
		{New("a", `say "hi"`), `a["say \"hi\""]`},
		{New("a", "x]y"), `a["x]y"]`},
		{New("a", "it's"), `a["it's"]`},
		{New(0, "a"), "[0].a"},
		{New("x.y", "z"), "[x.y].z"},
		{New("a[b", "c"), "[a[b].c"},
	}
	for _, tt := range tests {
		if got := tt.path.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.path, got, tt.want)
		}
		back, err := Parse(tt.want)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.want, err)
			continue
		}
		if !back.Equal(tt.path) {
			t.Errorf("Parse(%q) = %v, want %v", tt.want, back, tt.path)
		}
		var built string
		for _, s := range tt.path {
			built = s.After(built)
		}
		if built != tt.want {
			t.Errorf("After built %q, want %q", built, tt.want)
		}
	}
}

func TestParseHandWritten(t *testing.T) {
	tests := []struct {
		in   string
		want Path
	}{
		{".spec.replicas", New("spec", "replicas")},
		{`metadata.labels['app']`, New("metadata", "labels", "app")},
		{`metadata.annotations["a.b/c"]`, New("metadata", "annotations", "a.b/c")},
		{"items[12]", New("items", 12)},
		{"", Path{}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if !got.Equal(tt.want) {
			t.Errorf("Parse(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{"a[", "a..b", "a.", `a["x`, `a["x"`, `a['x`, "a[-1]", "a]b", `a["\q"]`} {
		if _, err := Parse(in); !errors.Is(err, ErrSyntax) {
			t.Errorf("Parse(%q) error = %v, want ErrSyntax", in, err)
		}
	}
}

func TestMustParse(t *testing.T) {
	if got := MustParse("a[1]"); !got.Equal(New("a", 1)) {
		t.Errorf("MustParse = %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("MustParse of a bad path did not panic")
		}
	}()
	MustParse("a[")
}

func TestNewPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New(1.5) did not panic")
		}
	}()
	New(1.5)
}

func TestBuilders(t *testing.T) {
	base := make(Path, 0, 8).Child("spec")
	a := base.Child("a")
	b := base.At(3)
	if a.String() != "spec.a" || b.String() != "spec[3]" {
		t.Fatalf("Child/At share storage: %s %s", a, b)
	}
	if got := New("a").Join(New(1, "b")); got.String() != "a[1].b" {
		t.Errorf("Join = %s", got)
	}
	if got := New("a", "b").Parent(); got.String() != "a" {
		t.Errorf("Parent = %s", got)
	}
	if got := (Path{}).Parent(); len(got) != 0 {
		t.Errorf("Parent of empty = %v", got)
	}
	if s, ok := New("a", 2).Last(); !ok || !s.IsIndex() || s.Index() != 2 || s.Key() != "" {
		t.Errorf("Last = %v %v", s, ok)
	}
	if s, ok := New("a").Last(); !ok || s.IsIndex() || s.Key() != "a" || s.Index() != -1 || s.String() != ".a" {
		t.Errorf("Last = %v %v", s, ok)
	}
	if _, ok := (Path{}).Last(); ok {
		t.Error("Last of empty path is ok")
	}
	if !New("a", 1, "b").HasPrefix(New("a", 1)) || New("a").HasPrefix(New("a", 1)) || New("a", 1).HasPrefix(New("a", "1")) {
		t.Error("HasPrefix is wrong")
	}
	if New("a").Equal(New("a", "b")) {
		t.Error("Equal of different lengths")
	}
}

func TestGetSetDelete(t *testing.T) {
	obj := map[string]any{
		"spec": map[string]any{
			"containers": []any{map[string]any{"image": "a"}, nil},
			"n":          nil,
		},
	}
	if v, ok := Get(obj, MustParse("spec.containers[0].image")); !ok || v != "a" {
		t.Errorf("Get = %v %v", v, ok)
	}
	for _, p := range []string{"spec.containers[2]", "spec.containers.x", "spec[0]", "spec.missing", "spec.containers[0].image.deeper"} {
		if v, ok := Get(obj, MustParse(p)); ok {
			t.Errorf("Get(%s) = %v, want missing", p, v)
		}
	}
	if v, ok := Get(obj, nil); !ok || v == nil {
		t.Error("Get of the empty path is not the object")
	}

	for _, tt := range []struct {
		path string
		ok   bool
	}{
		{"spec.containers[0].image", true},
		{"spec.containers[1]", true},
		{"spec.n.m[0]", false}, // a new list is empty: index 0 is out of range
		{"metadata.labels[a.b]", true},
		{"spec.containers[5]", false},
		{"spec.containers.x", false},
		{"spec[0]", false},
		{"spec.containers[0].image.x", false},
		{"spec.containers[1].x", false},
	} {
		err := Set(obj, MustParse(tt.path), "v")
		if (err == nil) != tt.ok {
			t.Errorf("Set(%s) error = %v, want ok %v", tt.path, err, tt.ok)
		}
	}
	if err := Set(obj, nil, 1); err == nil {
		t.Error("Set of the empty path succeeded")
	}
	want := map[string]any{
		"spec": map[string]any{
			"containers": []any{map[string]any{"image": "v"}, "v"},
			"n":          map[string]any{"m": []any{}},
		},
		"metadata": map[string]any{"labels": map[string]any{"a.b": "v"}},
	}
	if d := cmp.Diff(want, obj); d != "" {
		t.Errorf("after Set (-want +got):\n%s", d)
	}

	for _, tt := range []struct {
		path string
		ok   bool
	}{
		{"metadata.labels[a.b]", true},
		{"metadata.labels[a.b]", false},
		{"spec.containers[1]", true},
		{"spec.containers[9]", false},
		{"spec.containers.x", false},
		{"spec[0]", false},
		{"nothing.here", false},
		{"spec.containers[0].image.x", false},
	} {
		if got := Delete(obj, MustParse(tt.path)); got != tt.ok {
			t.Errorf("Delete(%s) = %v, want %v", tt.path, got, tt.ok)
		}
	}
	if Delete(obj, nil) {
		t.Error("Delete of the empty path succeeded")
	}
	if c := obj["spec"].(map[string]any)["containers"].([]any); c[1] != nil || len(c) != 2 {
		t.Errorf("Delete of a list item: %v", c)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a.b[0]", `a["80"]`, "a[b.c]", `x['y']`, "", "[0][1]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			return
		}
		back, err := Parse(p.String())
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not parse: %v", s, p.String(), err)
		}
		if !back.Equal(p) {
			t.Fatalf("round trip of %q: %v != %v", s, back, p)
		}
	})
}

// TestSetErrors: Set words its errors as KubeVela's field path setter
// does, naming the bare segment.
func TestSetErrors(t *testing.T) {
	obj := map[string]any{"spec": map[string]any{"list": []any{"a"}, "s": "x"}}
	for _, tt := range []struct{ path, want string }{
		{"spec.list[3]", "index 3 out of range"},
		{"spec.list.k", "index k out of range"},
		{"spec[0]", "index 0 into an object"},
		{"spec.s.t", "t is not an object or list"},
	} {
		err := Set(obj, MustParse(tt.path), "v")
		if err == nil || err.Error() != tt.want {
			t.Errorf("Set(%s) error = %v, want %q", tt.path, err, tt.want)
		}
	}
	if err := Set(obj, nil, "v"); err == nil || err.Error() != "empty field path" {
		t.Errorf("Set of the empty path: %v", err)
	}
}

func TestParseErrorText(t *testing.T) {
	_, err := Parse("spec[.test")
	if err == nil || err.Error() != `unterminated [ in "spec[.test"` {
		t.Errorf("Parse error = %v", err)
	}
}

func TestPrefixStrings(t *testing.T) {
	var got []string
	for s := range New("a", 0, "b.c").PrefixStrings() {
		got = append(got, s)
	}
	if diff := cmp.Diff([]string{"a[0][b.c]", "a[0]", "a", ""}, got); diff != "" {
		t.Errorf("PrefixStrings (-want +got):\n%s", diff)
	}
	for s := range New("a", "b").PrefixStrings() {
		if s != "a.b" {
			t.Errorf("first prefix = %q", s)
		}
		break
	}
}

// TestIsNumber: isNumber agrees with strconv.Atoi, which decides how
// Parse reads a bracket.
func TestIsNumber(t *testing.T) {
	for _, s := range []string{"", "0", "80", "-1", "+5", "+-5", "--5", "5-", "1e3", "0x10", "99999999999999999999", "a", " 1", "-", "+"} {
		_, err := strconv.Atoi(s)
		if got := isNumber(s); got != (err == nil) {
			t.Errorf("isNumber(%q) = %v, Atoi says %v", s, got, err == nil)
		}
	}
	p := New("metadata", "labels", "app")
	if n := testing.AllocsPerRun(100, func() { _ = p.String() }); n > 1 {
		t.Errorf("String of a plain path allocates %v times, want 1 (the result)", n)
	}
}
