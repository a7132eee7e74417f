package manifest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/fieldpath"
)

// TestFieldPosKeysWithDots: a key holding dots (a label) is one segment
// of the path its position is recorded under, so it is found as written
// and never mistaken for nested keys.
func TestFieldPosKeysWithDots(t *testing.T) {
	in := "metadata:\n  labels:\n    app.kubernetes.io/name: web\n    app: other\n"
	objs, err := Decode("o.yaml", []byte(in), DecodeOptions{KeyPositions: true})
	if err != nil {
		t.Fatal(err)
	}
	o := objs[0]
	label := fieldpath.New("metadata", "labels", "app.kubernetes.io/name")
	got := map[string]string{
		"value":  o.FieldPos(label).String(),
		"key":    o.KeyPos(label).String(),
		"nested": o.FieldPos(fieldpath.New("metadata", "labels", "app", "kubernetes")).String(),
	}
	want := map[string]string{"value": "o.yaml:3:29", "key": "o.yaml:3:5", "nested": "o.yaml:4:10"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
	if !o.HasField(label) || o.HasField(fieldpath.New("metadata", "labels", "app.kubernetes.io")) {
		t.Error("HasField does not take the label key as one segment")
	}
	if o := New(nil); o.FieldPos(label) != o.Pos || o.HasField(label) {
		t.Error("an object without positions has a field position")
	}
}

// TestPlaceFields: a rendered object's fields take the positions their
// provenance records; a map takes its first leaf's; authored ones stay.
func TestPlaceFields(t *testing.T) {
	at := func(line int) Pos { return Pos{File: "app.yaml", Line: line} }
	o := New(map[string]any{"spec": map[string]any{"a": int64(1), "b": []any{"x"}}})
	o.SetFieldPos(fieldpath.New("spec", "a"), at(9))
	o.Provenance = Provenance{
		"spec.a":    {{Stage: StageProperty, Pos: at(2)}},
		"spec.b[0]": {{Stage: StageTrait, Pos: at(3)}},
	}
	o.PlaceFields()
	got := map[string]string{}
	for _, p := range []string{"spec", "spec.a", "spec.b", "spec.b[0]"} {
		got[p] = o.FieldPos(fieldpath.MustParse(p)).String()
	}
	want := map[string]string{"spec": "app.yaml:3", "spec.a": "app.yaml:9", "spec.b": "app.yaml:3", "spec.b[0]": "app.yaml:3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
	(&Object{}).PlaceFields() // no provenance: nothing to place
}

// TestInputProvenanceAndChangedLeaf: an authored object's leaves are
// set by its input at their lines; ChangedLeaf names the first that
// differs, by path.
func TestInputProvenanceAndChangedLeaf(t *testing.T) {
	objs, err := Decode("in.yaml", []byte("data:\n  a.b: x\n  k: 1\n"), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := objs[0].InputProvenance()
	chain := p.Chain(fieldpath.New("data", "a.b"))
	if len(chain) != 1 || chain[0].Stage != StageInput || chain[0].Pos.String() != "in.yaml:2:8" || chain[0].Value != "x" {
		t.Errorf("input provenance of data[a.b] = %+v", chain)
	}
	if o, ok := p.Last(fieldpath.New("data", "k")); !ok || o.Value != int64(1) {
		t.Errorf("Last(data.k) = %+v %v", o, ok)
	}
	if _, ok := p.Last(fieldpath.New("data", "missing")); ok {
		t.Error("Last of a missing leaf is ok")
	}
	changed := map[string]any{"data": map[string]any{"a.b": "y", "k": int64(1)}}
	if leaf, ok := ChangedLeaf(objs[0].Data, changed); !ok || leaf.String() != "data[a.b]" {
		t.Errorf("ChangedLeaf = %s %v", leaf, ok)
	}
	fewer := map[string]any{"data": map[string]any{"a.b": "x"}}
	if leaf, ok := ChangedLeaf(objs[0].Data, fewer); !ok || leaf.String() != "data.k" {
		t.Errorf("ChangedLeaf of a removed leaf = %s %v", leaf, ok)
	}
	if _, ok := ChangedLeaf(objs[0].Data, objs[0].Data); ok {
		t.Error("ChangedLeaf of equal data found a change")
	}
	if p.Clone() == nil || Provenance(nil).Clone() != nil {
		t.Error("Clone")
	}
}

// TestFieldErrorPaths: a nested decoder's field error is prefixed by
// where its value sits; label keys are one segment.
func TestFieldErrorPaths(t *testing.T) {
	_, err := DecodeLabelSelector(map[string]any{"matchLabels": map[string]any{"app.kubernetes.io/name": int64(1)}})
	if err == nil || err.Error() != `matchLabels[app.kubernetes.io/name]: Invalid value: "integer": must be of type string` {
		t.Errorf("error = %v", err)
	}
	if got := PrefixError(fieldpath.New("spec"), &FieldError{Msg: "m"}).Error(); got != "spec: m" {
		t.Errorf("PrefixError of a pathless error = %q", got)
	}
	if got := (&FieldError{Msg: "m"}).Error(); got != "m" {
		t.Errorf("pathless FieldError = %q", got)
	}
}
