// Package charts is the stage between KubeVela's render and Karmada: on
// each fake cluster it acts as Flux's helm-controller and
// kustomize-controller would, offline. HelmReleases and Kustomizations
// (dispatched by KubeVela's helm/kustomize components, or among the plain
// inputs) are rendered from the local chart and source caches
// (charts/source) through Helm's own packages (charts/helm) and
// kustomize's (charts/kustomize) into the final objects that cluster
// receives.
package charts

import (
	"sync"

	chart "helm.sh/helm/v4/pkg/chart/v2"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// Cluster is what a controller on one cluster knows of it: Helm's
// Capabilities come from here.
type Cluster struct {
	Name string
	// KubeVersion is the inventory's kubernetesVersion ("" for the
	// default, as helm template's).
	KubeVersion string
	// APIVersions are the group/versions and group/version/Kinds the
	// cluster serves (Helm's .Capabilities.APIVersions).
	APIVersions []string
}

// Output is one final object a HelmRelease or Kustomization produces.
type Output struct {
	Object *manifest.Object
	// Source names the producer for `# Source:` and explain, e.g.
	// "HelmRelease flux-system/podinfo, chart podinfo 6.7.1, template podinfo/templates/deployment.yaml".
	Source string
	// By is the HelmRelease or Kustomization that produced Object.
	By *manifest.Object
}

// Controller reconciles the Flux objects of one cluster at a time.
type Controller struct {
	Cache *source.Cache

	// dirs are the charts loaded from source directories, by path, so
	// that a chart in a Git source is loaded once per process too.
	mu   sync.Mutex
	dirs map[string]dirChart
}

type dirChart struct {
	ch  *chart.Chart
	err error
}

// chartDir is Cache.ChartDir, once per path.
func (c *Controller) chartDir(path string) (*chart.Chart, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, ok := c.dirs[path]; ok {
		return d.ch, d.err
	}
	ch, err := c.Cache.ChartDir(path)
	if c.dirs == nil {
		c.dirs = map[string]dirChart{}
	}
	c.dirs[path] = dirChart{ch, err}
	return ch, err
}

// Reads reports whether the stage reads o: Flux HelmReleases,
// Kustomizations, their sources (HelmRepository, HelmChart,
// GitRepository, OCIRepository, Bucket), and ConfigMaps and Secrets
// (valuesFrom, postBuild.substituteFrom).
func Reads(o *manifest.Object) bool { return ReadsKind(o.APIVersion(), o.Kind()) }

// ReadsKind is Reads of an object of apiVersion and kind.
func ReadsKind(apiVersion, kind string) bool {
	group := manifest.Group(apiVersion)
	if group == "" && apiVersion != "v1" {
		return false
	}
	switch group + "/" + kind {
	case helmGroup + "/HelmRelease", kustomizeGroup + "/Kustomization",
		sourceGroup + "/HelmRepository", sourceGroup + "/HelmChart", sourceGroup + "/GitRepository",
		sourceGroup + "/OCIRepository", sourceGroup + "/Bucket",
		"/ConfigMap", "/Secret":
		return true
	}
	return false
}

// The Flux API groups.
const (
	helmGroup      = "helm.toolkit.fluxcd.io"
	kustomizeGroup = "kustomize.toolkit.fluxcd.io"
	sourceGroup    = "source.toolkit.fluxcd.io"
)
