package rendertest

import (
	"errors"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

func TestApp(t *testing.T) {
	app := App(t, "  components: [{name: web, type: webservice}]\n  policies: [{name: p, type: topology, properties: {clusters: [local]}}, {name: q, type: override}]\n")
	if app.Name != "a" || len(app.Components) != 1 || len(app.Policies) != 2 {
		t.Fatalf("App = %+v", app)
	}
	pols := Policies(app)
	if len(pols) != 2 || pols[0] != &app.Policies[0] || pols[1].Name != "q" {
		t.Errorf("Policies = %v", pols)
	}
}

func TestErrTextAndPos(t *testing.T) {
	if ErrText(nil) != "" || ErrPos(nil) != "" || ErrPos(errors.New("x")) != "" {
		t.Error("no error or no place is not empty")
	}
	err := manifest.At(manifest.Pos{File: "app.yaml", Line: 3, Col: 5}, "bad")
	if got := ErrText(err); got != "app.yaml:3:5: bad" {
		t.Errorf("ErrText = %q", got)
	}
	if got := ErrPos(err); got != "app.yaml:3:5" {
		t.Errorf("ErrPos = %q", got)
	}
}
