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
		{"file:line:col", errors.New("app.yaml:14:11: component \"api\": bad"), manifest.Pos{File: "app.yaml", Line: 14, Col: 11}},
		{"file:line", errors.New("apps/app.yaml:2: invalid YAML near line 2"), manifest.Pos{File: "apps/app.yaml", Line: 2}},
		{"no position", errors.New("something broke"), manifest.Pos{}},
		{"not a line number", errors.New("addon x: y: z"), manifest.Pos{}},
		{"line 0", errors.New("a.yaml:0:1: x"), manifest.Pos{}},
		{"manifest.Error", located, manifest.Pos{File: "app.yaml", Line: 3, Col: 5}},
		{"wrapped manifest.Error", fmt.Errorf("load: %w", located), manifest.Pos{File: "app.yaml", Line: 3, Col: 5}},
		{"manifest.Error without a place", fmt.Errorf("b.yaml:7:1: %w", manifest.Errorf(manifest.Pos{}, nil, "bad")), manifest.Pos{File: "b.yaml", Line: 7, Col: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, errorPos(tt.err)); diff != "" {
				t.Errorf("errorPos(%q) (-want +got):\n%s", tt.err, diff)
			}
		})
	}
}
