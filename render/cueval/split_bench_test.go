package cueval

import (
	"fmt"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"

	"github.com/drydock-dev/drydock/render/builtin"
)

// BenchmarkEvaluateWebservice is CUE's own cost of the webservice
// workload of the CLI benchmarks' applications: the template compiled
// once per recycleAfter evaluations (as an Engine's context is
// recycled), unified with parameter and context, validated and its
// output and outputs marshalled. whole compiles the template as one file,
// split as compileSplit does.
func BenchmarkEvaluateWebservice(b *testing.B) {
	d, err := builtin.Parse("webservice")
	if err != nil {
		b.Fatal(err)
	}
	src := d.RenderedTemplate() + "\ncontext: _\nparameter: _\n"
	compile := map[string]func(*cue.Context) cue.Value{
		"whole": func(c *cue.Context) cue.Value { return c.CompileString(src) },
		"split": func(c *cue.Context) cue.Value {
			v, ok := compileSplit(c, "webservice.cue", src)
			if !ok {
				b.Fatal("webservice not split")
			}
			return v
		},
	}
	for _, name := range []string{"whole", "split"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var (
				c    *cue.Context
				tmpl cue.Value
			)
			for i := 0; b.Loop(); i++ {
				if i%recycleAfter == 0 {
					c = cuecontext.New(cuecontext.EvaluatorVersion(cuecontext.EvalV2))
					tmpl = compile[name](c)
				}
				v := tmpl.Unify(c.Encode(map[string]any{
					"parameter": map[string]any{
						"image": fmt.Sprintf("registry.example.com/web:%d", i),
						"ports": []any{map[string]any{"port": 8080, "expose": true}},
						"env":   []any{map[string]any{"name": "INDEX", "value": fmt.Sprint(i)}},
					},
					"context": map[string]any{"name": fmt.Sprintf("web-%d", i), "appName": fmt.Sprintf("app-%d", i), "revision": "web-v1"},
				}))
				if err := v.Validate(); err != nil {
					b.Fatal(err)
				}
				for _, p := range []string{"output", "outputs"} {
					if _, err := v.LookupPath(cue.ParsePath(p)).MarshalJSON(); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
