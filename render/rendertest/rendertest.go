// Package rendertest holds what the tests of KubeVela's policy packages
// (render/policy, render/resourcekeeper, overrides/kubevela) share: an
// Application parsed from a few lines of spec, its policies as a deploy
// step hands them over, and an error's text and place as a user sees
// them. Only tests import it.
package rendertest

import (
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// App parses an Application named a from app.yaml whose spec is spec
// (YAML lines indented by two spaces); a parse error fails the test.
func App(t testing.TB, spec string) *render.Application {
	t.Helper()
	doc := "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n" + spec
	objs, err := manifest.Decode("app.yaml", []byte(doc), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	app, err := render.ParseApplication(objs[0])
	if err != nil {
		t.Fatal(err)
	}
	return app
}

// Policies are pointers to app's policies, in order, as a deploy step
// hands them over.
func Policies(app *render.Application) []*render.Policy {
	out := make([]*render.Policy, len(app.Policies))
	for i := range app.Policies {
		out[i] = &app.Policies[i]
	}
	return out
}

// ErrText is err's full message with its places (manifest.Format), ""
// for no error.
func ErrText(err error) string { return manifest.Format(err, nil) }

// ErrPos is where err says it arose (manifest.PosOf), "" for nowhere.
func ErrPos(err error) string {
	if p, ok := manifest.PosOf(err); ok {
		return p.String()
	}
	return ""
}
