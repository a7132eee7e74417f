package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
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

// TestReadPlain: files conftest skips in a directory are named in a
// note, "-" reads standard input (YAML, or as --parser says), hidden
// directories are walked, .git is not (with a note).
func TestReadPlain(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.yaml": "a: 1\n", "README.md": "x\n", "policy/p.rego": "package p\n", ".hidden/b.toml": "b = 2\n", ".git/c.json": "{}",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs, _, err := readPlain(plainInput{paths: []string{"-"}, stdin: strings.NewReader("c = 3\n")})
	if err != nil || len(docs) != 1 || docs[0].doc != "c = 3" {
		t.Fatalf("stdin as YAML: %v, %v; want the string \"c = 3\"", docs, err)
	}
	docs, _, err = readPlain(plainInput{paths: []string{"-"}, stdin: strings.NewReader("c = 3\n"), parser: "toml"})
	if err != nil || len(docs) != 1 || !cmp.Equal(docs[0].obj.Data, map[string]any{"c": int64(3)}) {
		t.Fatalf("stdin as TOML: %v, %v; want {c: 3}", docs, err)
	}
	// --parser toml reads every file as TOML, as conftest's
	// ParseConfigurationsAs: a.yaml is refused.
	if _, _, err = readPlain(plainInput{paths: []string{dir}, parser: "toml"}); err == nil || !strings.Contains(err.Error(), "a.yaml: toml") {
		t.Errorf("a.yaml read as TOML: %v, want its error", err)
	}
	docs, notes, err := readPlain(plainInput{paths: []string{dir, "-"}, stdin: strings.NewReader("c: 3\n")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range docs {
		got = append(got, d.origin.Pos.File)
	}
	want := []string{filepath.Join(dir, ".hidden/b.toml"), filepath.Join(dir, "a.yaml"), "-"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("documents' files (-want +got):\n%s", d)
	}
	wantNotes := []string{
		dir + ": its .git directory is not read (git's own files, which conftest would walk)",
		"2 files in the input directories have no parser and were not checked, as conftest skips them: " + filepath.Join(dir, "README.md") + ", " + filepath.Join(dir, "policy/p.rego"),
	}
	if d := cmp.Diff(wantNotes, notes); d != "" {
		t.Errorf("notes (-want +got):\n%s", d)
	}
	if _, _, err := readPlain(plainInput{paths: []string{"-"}}); err == nil {
		t.Error("- without standard input: no error")
	}
}
