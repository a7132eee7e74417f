package manifest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPosOf: the place an error is about is read from its chain, never
// from its text.
func TestPosOf(t *testing.T) {
	located := Errorf(Pos{File: "app.yaml", Line: 3, Col: 5}, nil, "bad")
	tests := []struct {
		name string
		err  error
		want Pos
	}{
		{"text is never parsed", errors.New("app.yaml:14:11: component \"api\": bad"), Pos{}},
		{"no position", errors.New("something broke"), Pos{}},
		{"Error", located, Pos{File: "app.yaml", Line: 3, Col: 5}},
		{"wrapped Error", fmt.Errorf("load: %w", located), Pos{File: "app.yaml", Line: 3, Col: 5}},
		{"Error without a place", fmt.Errorf("b.yaml:7:1: %w", Errorf(Pos{}, nil, "bad")), Pos{}},
		{"inner Error with a place", Join(errors.New("x"), located), Pos{File: "app.yaml", Line: 3, Col: 5}},
		{"a package's own positioned error", positioned{Pos{File: "ad/metadata.yaml", Line: 2}}, Pos{File: "ad/metadata.yaml", Line: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := PosOf(tt.err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PosOf(%q) (-want +got):\n%s", tt.err, diff)
			}
		})
	}
}

// positioned is a package's own error type that knows its place.
type positioned struct{ pos Pos }

func (p positioned) Error() string { return "bad" }
func (p positioned) Position() Pos { return p.pos }
