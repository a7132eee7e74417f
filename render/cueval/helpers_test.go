package cueval_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
)

// cueDef parses a definition in the `vela def` format from <name>.cue:
// its type ("component", "trait", "policy"), its attributes (CUE struct
// fields, may be empty) and its template, which may use package strings.
// The template's first line is line 6 of the file.
func cueDef(t *testing.T, name, typ, attrs, tmpl string) *render.Definition {
	t.Helper()
	imports := ""
	if strings.Contains(tmpl, "strings.") {
		imports = `import "strings"`
	}
	src := fmt.Sprintf("%s\n%q: {\n\ttype: %q\n\tattributes: {%s}\n}\ntemplate: {\n%s\n}\n", imports, name, typ, attrs, tmpl)
	ds, err := render.ParseCUEDefinitions(name+".cue", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return ds[0]
}

// parseApp parses the Application in doc (app.yaml).
func parseApp(t testing.TB, doc string) *render.Application {
	t.Helper()
	objs, err := manifest.Decode("app.yaml", []byte(doc), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	app, err := render.ParseApplication(objs[0])
	if err != nil {
		t.Fatal(err)
	}
	app.SetRevisionHash(testRevisionHash)
	return app
}

// testRevisionHash stands for the application-revision hash the workflow
// computes (render/revision): the engine only copies it into labels.
const testRevisionHash = "5ceecfbe58dde83a"

// withDefs is the built-in definitions plus defs.
func withDefs(t *testing.T, defs ...*render.Definition) *render.Definitions {
	t.Helper()
	set := builtinDefinitions(t).Clone()
	for _, d := range defs {
		set.Add(d)
	}
	return set
}

// renderFirst renders the first component of app with a new engine.
func renderFirst(t *testing.T, defs *render.Definitions, app *render.Application, pl cueval.Placement) (*cueval.ComponentManifest, error) {
	t.Helper()
	return cueval.New(defs).RenderComponent(app, &app.Components[0], pl)
}

// obj reads one object written as YAML, numbers as the engine's
// objects hold them (whole numbers int64).
func obj(t *testing.T, doc string) map[string]any {
	t.Helper()
	objs, err := manifest.Decode("want.yaml", []byte(doc), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return objs[0].Data
}

// out is one rendered object with its provenance: trait type and output
// name ("" for the workload).
type out struct {
	Trait, Output string
	Object        map[string]any
}

// bare is r without the labels and namespace the OAM contract adds
// (TestContract checks those), and with a name KubeVela generated
// (assembleTrait: <component>-<trait type>-<hash>) shown as
// <component>-<trait type>-*, as KubeVela's TestSetOAMContract checks
// only its prefix.
func bare(comp string, r *cueval.Resource) out {
	o := manifest.DeepCopy(r.Object).(map[string]any)
	if md, ok := o["metadata"].(map[string]any); ok {
		delete(md, "labels")
		delete(md, "namespace")
		prefix := comp + "-" + strings.ToLower(r.Trait) + "-"
		if name, _ := md["name"].(string); r.Trait != "" && strings.HasPrefix(name, prefix) && name != prefix {
			md["name"] = prefix + "*"
		}
	}
	return out{Trait: r.Trait, Output: r.Output, Object: o}
}

// bareAll is bare of every object of m, the workload first.
func bareAll(m *cueval.ComponentManifest) []out {
	var outs []out
	for _, r := range m.Objects() {
		outs = append(outs, bare(m.Name, r))
	}
	return outs
}

// errText is err's message ("" for nil). Positions are part of the
// message; when err carries a manifest.Error, its position must be the
// one the message starts with.
func errText(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	msg := manifest.Format(err, nil)
	if p, ok := manifest.PosOf(err); ok && !strings.HasPrefix(msg, p.String()+": ") {
		t.Errorf("error %q: manifest.PosOf gives %s", msg, p)
	}
	return msg
}
