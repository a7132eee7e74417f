package check

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

func TestErrorPos(t *testing.T) {
	located := manifest.Errorf(manifest.Pos{File: "app.yaml", Line: 3, Col: 5}, nil, "bad")
	tests := []struct {
		name string
		err  error
		want manifest.Pos
	}{
		{"text is never parsed", errors.New("app.yaml:14:11: component \"api\": bad"), manifest.Pos{}},
		{"no position", errors.New("something broke"), manifest.Pos{}},
		{"manifest.Error", located, manifest.Pos{File: "app.yaml", Line: 3, Col: 5}},
		{"wrapped manifest.Error", fmt.Errorf("load: %w", located), manifest.Pos{File: "app.yaml", Line: 3, Col: 5}},
		{"manifest.Error without a place", fmt.Errorf("b.yaml:7:1: %w", manifest.Errorf(manifest.Pos{}, nil, "bad")), manifest.Pos{}},
		{"inner manifest.Error with a place", manifest.Join(errors.New("x"), located), manifest.Pos{File: "app.yaml", Line: 3, Col: 5}},
		{"a package's own positioned error", positioned{manifest.Pos{File: "ad/metadata.yaml", Line: 2}}, manifest.Pos{File: "ad/metadata.yaml", Line: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, errorPos(tt.err)); diff != "" {
				t.Errorf("errorPos(%q) (-want +got):\n%s", tt.err, diff)
			}
		})
	}
}

// positioned is a package's own error type that knows its place.
type positioned struct{ pos manifest.Pos }

func (p positioned) Error() string          { return "bad" }
func (p positioned) Position() manifest.Pos { return p.pos }
