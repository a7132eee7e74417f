package cueval_test

import (
	"fmt"
	"testing"

	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
)

// BenchmarkRenderWebservice renders the CLI benchmarks' application (a
// webservice with a port, an env variable and a scaler trait;
// generateApps in cmd/drydock-engine/bench_test.go) with one engine, as a
// pipeline worker does: its cue.Context is recycled as in a run.
func BenchmarkRenderWebservice(b *testing.B) {
	defs := builtinDefinitions(b)
	apps := make([]*render.Application, 100)
	for i := range apps {
		apps[i] = parseApp(b, fmt.Sprintf(`apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: app-%d
  namespace: team-%d
spec:
  components:
    - name: web-%d
      type: webservice
      properties:
        image: registry.example.com/web:%d
        ports:
          - port: 8080
            expose: true
        env:
          - name: INDEX
            value: "%d"
      traits:
        - type: scaler
          properties:
            replicas: %d
`, i, i%10, i, i, i, 1+i%5))
	}
	e := cueval.New(defs)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		app := apps[i%len(apps)]
		m, err := e.RenderComponent(app, &app.Components[0], cueval.Placement{})
		if err != nil {
			b.Fatal(err)
		}
		if len(m.Auxiliaries) != 1 {
			b.Fatalf("%d auxiliaries, want the Service", len(m.Auxiliaries))
		}
	}
}
