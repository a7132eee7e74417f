package check

import (
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/google/go-cmp/cmp"
)

// TestPlainDocuments pins which documents conftest's YAML parser gives a
// file's rules, and where drydock says each one is.
func TestPlainDocuments(t *testing.T) {
	type doc struct {
		Pos  string
		Data any
	}
	tests := []struct {
		name, src string
		want      []doc
	}{
		{"empty file: one null", "", []doc{{"f.yaml:1", nil}}},
		{"comment only: one null", "# nothing\n", []doc{{"f.yaml:1", nil}}},
		{"trailing separator: a null named by its line", "a: 1\n---\n", []doc{{"f.yaml:1:1", map[string]any{"a": int64(1)}}, {"f.yaml:2", nil}}},
		{"header above the first separator", "# license\n---\na: 1\n", []doc{{"f.yaml:1", nil}, {"f.yaml:3:1", map[string]any{"a": int64(1)}}}},
		{"leading separator: not a split", "---\na: 1\n", []doc{{"f.yaml:2:1", map[string]any{"a": int64(1)}}}},
		{"separator without a line break after it: not a split", "a: 1\n---", []doc{{"f.yaml:1:1", map[string]any{"a": int64(1)}}}},
		{"one part holding a sequence: its elements", "- a: 1\n- b\n", []doc{{"f.yaml:1:3", map[string]any{"a": int64(1)}}, {"f.yaml:2:3", "b"}}},
		{"a sequence among documents stays one", "a: 1\n---\n- x\n", []doc{{"f.yaml:1:1", map[string]any{"a": int64(1)}}, {"f.yaml:3:1", []any{"x"}}}},
		{"CRLF", "a: 1\r\n---\r\nb: 2\r\n", []doc{{"f.yaml:1:1", map[string]any{"a": int64(1)}}, {"f.yaml:3:1", map[string]any{"b": int64(2)}}}},
		{"a directive keeps its first separator", "%YAML 1.1\n---\na: 1\n---\nb: 2\n", []doc{{"f.yaml:3:1", map[string]any{"a": int64(1)}}, {"f.yaml:5:1", map[string]any{"b": int64(2)}}}},
		{"documents conftest drops after a commented separator are kept", "a: 1\n--- # two\nb: 2\n", []doc{{"f.yaml:1:1", map[string]any{"a": int64(1)}}, {"f.yaml:3:1", map[string]any{"b": int64(2)}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vals, err := plainDocuments("f.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			got := make([]doc, len(vals))
			for i, v := range vals {
				got[i] = doc{v.Pos.String(), v.Data}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("documents (-want +got):\n%s", d)
			}
		})
	}
}

// TestPlainDocumentsErrorLines: a YAML error in a later part is reported
// at its line in the file, not in the part.
func TestPlainDocumentsErrorLines(t *testing.T) {
	_, err := plainDocuments("f.yaml", []byte("a: 1\n---\nb: 2\n---\nc: [\n"))
	if err == nil || !strings.HasPrefix(manifest.Format(err, nil), "f.yaml:5: ") {
		t.Errorf("error %v, want it at f.yaml:5", err)
	}
}
