package cueval_test

import (
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/render/cueval"
)

const helmchartApp = `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: shop
  namespace: prod
spec:
  components:
    - name: web
      type: helmchart
      properties:
        chart:
          source: podinfo
          repoURL: https://stefanprodan.github.io/podinfo
          version: "6.11.1"
`

// TestHelmchartNoChartCache: without a chart cache the helmchart
// component is refused, naming the chart, its repository and version
// and how to vendor it; nothing is downloaded.
func TestHelmchartNoChartCache(t *testing.T) {
	app := parseApp(t, helmchartApp)
	_, err := renderFirst(t, withDefs(t), app, cueval.Placement{})
	if err == nil {
		t.Fatal("rendered without a chart cache")
	}
	for _, want := range []string{`ComponentDefinition "helmchart": helm.#Render: chart "podinfo" of repository https://stefanprodan.github.io/podinfo version "6.11.1"`, "no chart cache", "helm pull podinfo --repo https://stefanprodan.github.io/podinfo --version 6.11.1 -d DIR", "--charts DIR"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
