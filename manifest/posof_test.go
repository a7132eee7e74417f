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
		{"an Error a package's own error wraps", wrapping{located}, Pos{File: "app.yaml", Line: 3, Col: 5}},
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

// wrapping is a package's own error type that wraps a located Error.
type wrapping struct{ err error }

func (w wrapping) Error() string { return w.err.Error() }
func (w wrapping) Unwrap() error { return w.err }
