package manifest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFormat: the printer writes each located error's position (rewritten
// by rel) before its text and its related places after its message,
// inside the text of the errors that wrap it.
func TestFormat(t *testing.T) {
	at := func(line int, msg string) *Error { return At(Pos{File: "/abs/a.yaml", Line: line, Col: 1}, "%s", msg) }
	tmpl := &Error{Pos: Pos{File: "/abs/a.yaml", Line: 2, Col: 3}, Subjects: []Subject{{Kind: "application", Name: "a"}},
		Related: []Related{{Pos: Pos{File: "/abs/t.cue", Line: 5}, What: "template"}, {What: "deploy step \"d\""}}, Err: errors.New("boom")}
	rel := func(p Pos) Pos { p.File = p.File[len("/abs/"):]; return p }
	tests := []struct {
		name string
		err  error
		want string
		// plain is the error's own text: no positions (related places
		// without one are notes, kept).
		plain string
	}{
		{"nil", nil, "", ""},
		{"plain", errors.New("x"), "x", "x"},
		{"located", at(3, "bad"), "a.yaml:3:1: bad", "bad"},
		{"related note", &Error{Pos: Pos{File: "/abs/a.yaml", Line: 9}, Err: errors.New("dup"),
			Related: []Related{{Pos: Pos{File: "/abs/a.yaml", Line: 8}, What: "first at", Note: "; renamed"}, {What: "a note", Note: ", noted"}}},
			"a.yaml:9: dup (first at a.yaml:8; renamed) (a note, noted)", "dup (a note, noted)"},
		{"related", tmpl, `a.yaml:2:3: application "a": boom (template t.cue:5) (deploy step "d")`, `application "a": boom (deploy step "d")`},
		{"wrapped", fmt.Errorf("load: %w", at(3, "bad")), "load: a.yaml:3:1: bad", "load: bad"},
		{"joined", errors.Join(at(1, "x"), errors.New("y"), at(2, "z")), "a.yaml:1:1: x\ny\na.yaml:2:1: z", "x\ny\nz"},
		{"list", Join(at(4, "b"), at(1, "a")), "a.yaml:1:1: a\na.yaml:4:1: b", "a\nb"},
		{"marked", Mark(errors.New("kind"), at(3, "bad")), "a.yaml:3:1: bad", "bad"},
		{"nested", At(Pos{File: "/abs/b.yaml", Line: 1}, "in: %w", at(3, "bad")), "b.yaml:1: in: a.yaml:3:1: bad", "in: bad"},
		{"repeated context", fmt.Errorf("bad: %w", at(3, "bad")), "bad: a.yaml:3:1: bad", "bad: bad"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Format(tt.err, rel)); diff != "" {
				t.Errorf("Format (-want +got):\n%s", diff)
			}
			if tt.err != nil && tt.err.Error() != tt.plain {
				t.Errorf("Error() = %q, want %q", tt.err.Error(), tt.plain)
			}
		})
	}
}
