// Package helm renders a chart as `helm template` and helm-controller's
// install do, through Helm's own packages (loader, values, capabilities,
// engine): values coalesced over the chart's, values.schema.json
// enforced, per-cluster Capabilities, CRDs and hooks as the options say.
package helm

import (
	"errors"

	chart "helm.sh/helm/v4/pkg/chart/v2"

	"github.com/drydock-dev/drydock/manifest"
)

// Capabilities are one cluster's, as .Capabilities sees them.
type Capabilities struct {
	KubeVersion string   // "" = Helm's default
	APIVersions []string // added to Helm's defaults
}

// Options are one release's.
type Options struct {
	ReleaseName, Namespace string
	// Values are the user's values, coalesced over the chart's own.
	Values       map[string]any
	Capabilities Capabilities
	// IncludeCRDs renders the chart's crds/ directory first.
	IncludeCRDs bool
	// DisableHooks drops hook objects; otherwise they are returned,
	// marked.
	DisableHooks bool
	// SkipSchemaValidation skips values.schema.json.
	SkipSchemaValidation bool
}

// Object is one rendered object.
type Object struct {
	Object *manifest.Object
	// Template is the chart-relative template file, as Helm's
	// `# Source:` line names it (e.g. "podinfo/templates/deployment.yaml").
	Template string
	// Hooks are the helm.sh/hook events, nil for a plain manifest.
	Hooks []string
	// CRD marks an object from the chart's crds/ directory.
	CRD bool
}

// Render renders ch with o, in helm template's order.
func Render(ch *chart.Chart, o Options) ([]Object, error) {
	return nil, errors.New("helm: not implemented")
}
