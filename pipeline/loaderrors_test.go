package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestLoadErrorsTogether: one bad input hides nothing. Every file's and
// document's load error and every application's render error come back
// in one list sorted by place, marked as bad input, with the Result of
// what did load: its validation findings, at the line of the object's
// field in a k8s-objects component.
func TestLoadErrorsTogether(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.yaml": "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n    - name: web\n      type: webservice\n     properties: {}\n",
		"b.yaml": "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: b}\nspec:\n  components: [{name: web, type: webservice, propertiez: {}}]\n",
		"c.yaml": "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: c}\nspec:\n  components: [{name: web, type: nosuch}]\n" +
			"---\nkind: [\n" +
			"---\napiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: d}\nspec:\n  components:\n    - name: d\n      type: k8s-objects\n      properties:\n        objects:\n          - apiVersion: v1\n            kind: ConfigMap\n            metadata: {name: d}\n            data:\n              a: 1\n",
	})
	in := Inputs{Paths: []string{dir}, Record: Record{Validate: &Validation{}}}
	res, err := Run(context.Background(), in)
	if !errors.Is(err, ErrInput) {
		t.Fatalf("error %v is not bad input", err)
	}
	var got []string
	for _, e := range err.(manifest.Errors) {
		pos, _ := manifest.PosOf(e)
		rel, _ := filepath.Rel(dir, pos.File)
		got = append(got, fmt.Sprintf("%s:%d:%d", rel, pos.Line, pos.Col))
	}
	want := []string{"a.yaml:8:6", "b.yaml:5:46", "c.yaml:5:34", "c.yaml:8:0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s\n%s", diff, manifest.Format(err, nil))
	}
	if res == nil || res.Validation == nil {
		t.Fatal("no result, or no validation, beside the errors")
	}
	got = nil
	for _, f := range res.Validation.Findings {
		rel, _ := filepath.Rel(dir, f.Pos.File)
		got = append(got, fmt.Sprintf("%s:%d:%d %s", rel, f.Pos.Line, f.Pos.Col, f.Field))
	}
	if diff := cmp.Diff([]string{"c.yaml:22:18 data.a"}, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
