package manifest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/fieldpath"
)

func TestError(t *testing.T) {
	sentinel := errors.New("invalid")
	err := &Error{
		Pos:      Pos{File: "app.yaml", Line: 7, Col: 9},
		Subjects: []Subject{{Kind: "application", Name: "shop"}, {Kind: "component", Name: "web"}, {Kind: "trait", Name: "scaler"}},
		Field:    fieldpath.New("spec", "components", 0, "traits", 0, "properties", "replicas"),
		Err:      fmtErr(sentinel),
	}
	const text = `application "shop" component "web" trait "scaler": invalid: replicas must be an int`
	if diff := cmp.Diff(text, err.Error()); diff != "" {
		t.Errorf("Error, without the position (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("app.yaml:7:9: "+text, Format(err, nil)); diff != "" {
		t.Errorf("Format (-want +got):\n%s", diff)
	}
	if !errors.Is(err, sentinel) {
		t.Error("Error does not unwrap to its sentinel")
	}
	if pos, ok := PosOf(fmtWrap(err)); !ok || pos != err.Pos {
		t.Errorf("PosOf = %v, %v", pos, ok)
	}
}

func fmtErr(s error) error  { return fmt.Errorf("%w: replicas must be an int", s) }
func fmtWrap(e error) error { return fmt.Errorf("context: %w", e) }

func TestJoin(t *testing.T) {
	at := func(line int, msg string) error {
		return &Error{Pos: Pos{File: "a.yaml", Line: line, Col: 1}, Err: errors.New(msg)}
	}
	if Join() != nil || Join(nil, nil) != nil {
		t.Error("Join of nothing is not nil")
	}
	one := at(3, "x")
	if Join(nil, one) != one {
		t.Error("Join of one error is not that error")
	}
	early := at(2, "early")
	got := Join(at(9, "late"), errors.New("nowhere"), early, at(9, "late"), Join(at(5, "mid"), at(2, "early")))
	const want = "a.yaml:2:1: early\na.yaml:5:1: mid\na.yaml:9:1: late\nnowhere"
	if diff := cmp.Diff(want, Format(got, nil)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("early\nmid\nlate\nnowhere", got.Error()); diff != "" {
		t.Errorf("Error, without positions (-want +got):\n%s", diff)
	}
	if !errors.Is(got, errors.Unwrap(early)) {
		t.Error("a joined list does not unwrap to its errors")
	}
}

// TestJoinMarked: a list marked as a class (as a package marks the list
// of its errors) joins as its errors, each of the class, sorted with the
// others: a list never holds a list.
func TestJoinMarked(t *testing.T) {
	kind := errors.New("bad input")
	at := func(line int) error { return At(Pos{File: "a.yaml", Line: line, Col: 1}, "e%d", line) }
	got := Join(at(4), Mark(kind, Join(at(9), at(1))))
	var list Errors
	if !errors.As(got, &list) || len(list) != 3 {
		t.Fatalf("Join = %#v, want a flat list of 3", got)
	}
	for i, want := range []bool{true, false, true} { // lines 1, 4, 9
		if got := errors.Is(list[i], kind); got != want {
			t.Errorf("element %d (%s): of the kind %t, want %t", i, Format(list[i], nil), got, want)
		}
	}
	if diff := cmp.Diff("a.yaml:1:1: e1\na.yaml:4:1: e4\na.yaml:9:1: e9", Format(got, nil)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestMark(t *testing.T) {
	kind := errors.New("bad input")
	inner := At(Pos{File: "a.yaml", Line: 3, Col: 1}, "broken")
	err := Mark(kind, inner)
	if !errors.Is(err, kind) || err.Error() != "broken" || Format(err, nil) != "a.yaml:3:1: broken" {
		t.Errorf("Mark = %q (is kind: %t), want the text unchanged and of the kind", err, errors.Is(err, kind))
	}
	if pos, ok := PosOf(err); !ok || pos.Line != 3 {
		t.Errorf("PosOf(Mark(...)) = %v, %t: the position is lost", pos, ok)
	}
	if Mark(kind, err) != err || Mark(kind, nil) != nil {
		t.Error("Mark must leave an error of the kind, and nil, as they are")
	}
}

// TestKeySubject: an object as a subject is its kind and its name, and
// prints as its key.
func TestKeySubject(t *testing.T) {
	for _, k := range []Key{
		{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"},
		{Kind: "Namespace", Name: "shop"},
	} {
		s := KeySubject(k)
		if s.String() != k.String() || strings.Contains(s.Kind, " ") || s.Name == "" {
			t.Errorf("KeySubject(%v) = %#v, printing %q", k, s, s)
		}
	}
}

// TestSub: the positions under a field, re-rooted, graft onto another
// object as if it had been authored there.
func TestSub(t *testing.T) {
	src := "spec:\n  objects:\n    - kind: A\n      spec: {x: 1}\n    - kind: B\n      list: [7]\n"
	objs, err := Decode("in.yaml", []byte(src), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sub := objs[0].Sub(fieldpath.New("spec", "objects", 1))
	if sub == nil || sub.Pos.Line != 5 {
		t.Fatalf("Sub = %+v, want one at line 5", sub)
	}
	o := New(map[string]any{"kind": "B"})
	o.Graft(nil, sub)
	for _, tc := range []struct {
		path fieldpath.Path
		want string
	}{
		{fieldpath.New("kind"), "in.yaml:5:13"},
		{fieldpath.New("list", 0), "in.yaml:6:14"},
		{fieldpath.New("metadata", "labels"), ""}, // not authored: o's own (none)
	} {
		if got := o.FieldPos(tc.path).String(); got != tc.want {
			t.Errorf("FieldPos(%s) = %q, want %q", tc.path, got, tc.want)
		}
	}
	if objs[0].Sub(fieldpath.New("spec", "objects", 7)) != nil || objs[0].Sub(nil) != nil {
		t.Error("Sub of an unauthored field, or of the root, is not nil")
	}
}
