package cueval

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestContextUseOf(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      contextUse
	}{
		{"none", "patch: spec: replicas: parameter.replicas", contextUse{fields: map[string]bool{}}},
		{"selectors", `output: metadata: {name: context.name, labels: "app": context.appName}
x: "\(context.revision)"`, contextUse{fields: map[string]bool{"name": true, "appName": true, "revision": true}}},
		{"output", "if context.output.spec.replicas != _|_ {x: 1}", contextUse{fields: map[string]bool{"output": true}}},
		{"quoted selector", `x: context."name"`, contextUse{fields: map[string]bool{"name": true}}},
		{"bare", "x: context", contextUse{all: true, fields: map[string]bool{}}},
		{"index", `x: context["output"]`, contextUse{all: true, fields: map[string]bool{}}},
		{"alias", "let c = context\nx: c.output", contextUse{all: true, fields: map[string]bool{}}},
		{"paren", "x: (context).output", contextUse{all: true, fields: map[string]bool{}}},
		{"field named context", "context: output: spec: replicas: int", contextUse{all: true, fields: map[string]bool{}}},
		{"nested field named context", `x: context: "y"`, contextUse{all: true, fields: map[string]bool{}}},
		{"context of context", `x: context.context`, contextUse{all: true, fields: map[string]bool{"context": true}}},
		{"does not parse", "x: {", contextUse{all: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := contextUseOf(tc.src)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(contextUse{})); diff != "" {
				t.Errorf("contextUseOf(%q) (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}
