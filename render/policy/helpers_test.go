package policy

import (
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// parseApp parses an Application named a from app.yaml whose spec is
// spec (YAML lines indented by two spaces).
func parseApp(t *testing.T, spec string) *render.Application {
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

// policies are pointers to app's policies, in order, as a deploy step
// hands them over.
func policies(app *render.Application) []*render.Policy {
	out := make([]*render.Policy, len(app.Policies))
	for i := range app.Policies {
		out[i] = &app.Policies[i]
	}
	return out
}

// errText is err's full message, "" for no error.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return manifest.Format(err, nil)
}

// errPos is where err says it arose (manifest.PosOf), "" for nowhere.
func errPos(err error) string {
	if err == nil {
		return ""
	}
	if p, ok := manifest.PosOf(err); ok {
		return p.String()
	}
	return ""
}
