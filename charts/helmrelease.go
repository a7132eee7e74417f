package charts

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	chart "helm.sh/helm/v4/pkg/chart/v2"

	"github.com/drydock-dev/drydock/charts/helm"
	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// hrSpec is the part of a HelmRelease's spec (helm.toolkit.fluxcd.io v2,
// v2beta2, v2beta1) the controller reads.
type hrSpec struct {
	Chart *struct {
		Spec chartSpec `json:"spec"`
	} `json:"chart"`
	ChartRef        *crossRef   `json:"chartRef"`
	ReleaseName     string      `json:"releaseName"`
	TargetNamespace string      `json:"targetNamespace"`
	Suspend         bool        `json:"suspend"`
	KubeConfig      any         `json:"kubeConfig"`
	ValuesFrom      []valuesRef `json:"valuesFrom"`
	Install         struct {
		CRDs                    string `json:"crds"`
		DisableHooks            bool   `json:"disableHooks"`
		DisableSchemaValidation bool   `json:"disableSchemaValidation"`
		CreateNamespace         bool   `json:"createNamespace"`
	} `json:"install"`
	Test               testSpec         `json:"test"`
	PostRenderers      []map[string]any `json:"postRenderers"`
	PostRenderStrategy string           `json:"postRenderStrategy"`
	CommonMetadata     *commonMetadata  `json:"commonMetadata"`
}

// chartSpec is a HelmChart's spec, or a HelmRelease's spec.chart.spec
// template of one.
type chartSpec struct {
	Chart                    string   `json:"chart"`
	Version                  string   `json:"version"`
	SourceRef                crossRef `json:"sourceRef"`
	ValuesFiles              []string `json:"valuesFiles"`
	ValuesFile               string   `json:"valuesFile"` // v2beta1/v2beta2, merged before valuesFiles
	IgnoreMissingValuesFiles bool     `json:"ignoreMissingValuesFiles"`
}

type crossRef struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

type commonMetadata struct {
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
}

// CRD policies of install.crds (helm-controller's v2.CRDsPolicy).
const (
	crdsSkip          = "Skip"
	crdsCreate        = "Create"
	crdsCreateReplace = "CreateReplace"
)

// crdPolicy is helm-controller's crdPolicyOrDefault: "" is Create.
func crdPolicy(p string) (string, error) {
	switch p {
	case "":
		return crdsCreate, nil
	case crdsSkip, crdsCreate, crdsCreateReplace:
		return p, nil
	}
	return p, fmt.Errorf("invalid CRD policy '%s', valid values are '%s', '%s' or '%s'", p, crdsSkip, crdsCreate, crdsCreateReplace)
}

// decodeSpec reads o's spec into v through JSON, as the API server's
// typed clients see it.
func decodeSpec(o *manifest.Object, v any) error {
	b, err := json.Marshal(o.Data["spec"])
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// chartDesc is how Sources name a chart: "podinfo 6.7.1".
func chartDesc(ch *chart.Chart) string {
	if ch.Metadata == nil {
		return "?"
	}
	return ch.Metadata.Name + " " + ch.Metadata.Version
}

// helmRelease renders one HelmRelease into its final objects.
func (r *run) helmRelease(o *manifest.Object) ([]Output, error) {
	var s hrSpec
	if err := decodeSpec(o, &s); err != nil {
		return nil, r.fail(o, "spec", "%w", err)
	}
	if r.skip(o, s.Suspend, s.KubeConfig) {
		return nil, nil
	}
	policy, err := crdPolicy(s.Install.CRDs)
	if err != nil {
		return nil, r.fail(o, "spec.install.crds", "%w", err)
	}
	ch, field, err := r.chart(o, s)
	if err != nil {
		return nil, r.fail(o, field, "%w", err)
	}
	values, err := r.values(o, s)
	if err != nil {
		return nil, err
	}
	ns := releaseNamespace(o.Namespace(), s.TargetNamespace)
	rendered, err := helm.Render(ch, helm.Options{
		ReleaseName:          shortenName(releaseName(o.Name(), s.ReleaseName, s.TargetNamespace)),
		Namespace:            ns,
		Values:               values,
		Capabilities:         helm.Capabilities{KubeVersion: r.cl.KubeVersion, APIVersions: r.cl.APIVersions},
		IncludeCRDs:          policy != crdsSkip,
		DisableHooks:         s.Install.DisableHooks,
		SkipSchemaValidation: s.Install.DisableSchemaValidation,
	})
	if err != nil {
		return nil, r.fail(o, "spec", "chart %s: %w", chartDesc(ch), err)
	}
	objs, err := r.finish(o, s, ns, rendered)
	if err != nil {
		return nil, r.fail(o, "spec.postRenderers", "chart %s: %w", chartDesc(ch), err)
	}
	prefix := fmt.Sprintf("HelmRelease %s/%s, chart %s", o.Namespace(), o.Name(), chartDesc(ch))
	var out []Output
	if s.TargetNamespace != "" && s.Install.CreateNamespace {
		out = append(out, Output{Object: namespaceObject(ns), Source: prefix + ", install.createNamespace", By: o})
	}
	for _, ro := range objs {
		out = append(out, Output{Object: ro.Object, Source: prefix + ", " + templateDesc(ro), By: o})
	}
	return out, nil
}

// templateDesc names a rendered object's template ("template
// podinfo/templates/deployment.yaml", "crd podinfo/crds/x.yaml", "hook
// post-install, template …").
func templateDesc(o helm.Object) string {
	switch {
	case o.CRD:
		return "crd " + o.Template
	case len(o.Hooks) > 0:
		return "hook " + strings.Join(o.Hooks, ",") + ", template " + o.Template
	}
	return "template " + o.Template
}

// namespaceObject is the Namespace Helm's install creates for
// install.createNamespace (helm.sh/helm/v4 pkg/action/install.go).
func namespaceObject(ns string) *manifest.Object {
	return manifest.New(map[string]any{
		"apiVersion": "v1",
		"kind":       "Namespace",
		"metadata":   map[string]any{"name": ns, "labels": map[string]any{"name": ns}},
	})
}

// chart resolves the HelmRelease's chart (spec.chart or spec.chartRef)
// from the cache; field names the spec field an error is about.
func (r *run) chart(o *manifest.Object, s hrSpec) (*chart.Chart, string, error) {
	switch {
	case s.ChartRef != nil:
		ref := *s.ChartRef
		if ref.Namespace == "" {
			ref.Namespace = o.Namespace()
		}
		switch ref.Kind {
		case "OCIRepository":
			ch, err := r.ociChart(ref)
			return ch, "spec.chartRef", err
		case "HelmChart":
			hc := r.source("HelmChart", ref.Namespace, ref.Name)
			if hc == nil {
				return nil, "spec.chartRef", r.missing("HelmChart", ref.Namespace, ref.Name)
			}
			var cs chartSpec
			if err := decodeSpec(hc, &cs); err != nil {
				return nil, "spec.chartRef", fmt.Errorf("HelmChart %s/%s: %w", ref.Namespace, ref.Name, err)
			}
			ch, err := r.templateChart(ref.Namespace, cs)
			return ch, "spec.chartRef", err
		}
		return nil, "spec.chartRef.kind", fmt.Errorf("chartRef kind %q is not OCIRepository or HelmChart", ref.Kind)
	case s.Chart != nil:
		ch, err := r.templateChart(o.Namespace(), s.Chart.Spec)
		return ch, "spec.chart.spec", err
	}
	return nil, "spec", errors.New("neither spec.chart nor spec.chartRef is set")
}

// ociChart is the chart of an OCIRepository (spec.url, spec.ref: digest,
// else semver, else tag, "latest" by default).
func (r *run) ociChart(ref crossRef) (*chart.Chart, error) {
	src := r.source("OCIRepository", ref.Namespace, ref.Name)
	if src == nil {
		return nil, r.missing("OCIRepository", ref.Namespace, ref.Name)
	}
	url := manifest.String(src.Data, "spec", "url")
	version := ociVersion(manifest.Map(src.Data, "spec", "ref"))
	return r.c.Cache.Chart(source.ChartRef{RepoURL: url, Name: path.Base(url), Version: version})
}

// ociVersion is the version an OCIRepository's spec.ref asks for.
func ociVersion(ref map[string]any) string {
	for _, k := range []string{"digest", "semver", "tag"} {
		if v, _ := ref[k].(string); v != "" {
			return v
		}
	}
	return "latest"
}

// templateChart is the chart a HelmChart spec (or a HelmRelease's
// spec.chart.spec) builds in namespace: from a HelmRepository by name and
// version, or a path in a GitRepository or Bucket; with valuesFiles merged
// into its default values as source-controller's builders do.
func (r *run) templateChart(namespace string, cs chartSpec) (*chart.Chart, error) {
	ref := cs.SourceRef
	if ref.Namespace == "" {
		ref.Namespace = namespace
	}
	files := cs.ValuesFiles
	if cs.ValuesFile != "" {
		files = append([]string{cs.ValuesFile}, files...)
	}
	switch ref.Kind {
	case "HelmRepository":
		repo := r.source("HelmRepository", ref.Namespace, ref.Name)
		if repo == nil {
			return nil, r.missing("HelmRepository", ref.Namespace, ref.Name)
		}
		url := manifest.String(repo.Data, "spec", "url")
		ch, err := r.c.Cache.Chart(source.ChartRef{RepoURL: url, Name: cs.Chart, Version: cs.Version})
		if err != nil || len(files) == 0 {
			return ch, err
		}
		vals, err := mergeChartValues(ch, files, cs.IgnoreMissingValuesFiles)
		return withValues(ch, vals), err
	case "GitRepository", "Bucket":
		dir, err := r.sourceDir(ref)
		if err != nil {
			return nil, err
		}
		path, err := securePath(dir, cs.Chart)
		if err != nil {
			return nil, fmt.Errorf("chart %q: %w", cs.Chart, err)
		}
		ch, err := r.c.chartDir(path)
		if err != nil || len(files) == 0 {
			return ch, err
		}
		vals, err := mergeFileValues(dir, files, cs.IgnoreMissingValuesFiles)
		return withValues(ch, vals), err
	}
	return nil, fmt.Errorf("sourceRef kind %q is not HelmRepository, GitRepository or Bucket", ref.Kind)
}

// withValues is ch with other default values, leaving the cached chart
// as it is.
func withValues(ch *chart.Chart, vals map[string]any) *chart.Chart {
	if vals == nil {
		return ch
	}
	c := *ch
	c.Values = vals
	return &c
}

// sourceDir is the local directory of a GitRepository, OCIRepository or
// Bucket (its spec.url, when the object is on the cluster, helps the
// cache find it).
func (r *run) sourceDir(ref crossRef) (string, error) {
	url := ""
	if src := r.source(ref.Kind, ref.Namespace, ref.Name); src != nil {
		url = manifest.String(src.Data, "spec", "url")
	}
	return r.c.Cache.Dir(ref.Kind, ref.Namespace, ref.Name, url)
}

// securePath joins rel to dir without leaving it (securejoin's contract:
// ".." stops at dir).
func securePath(dir, rel string) (string, error) {
	return filepath.Join(dir, filepath.Clean("/"+filepath.FromSlash(rel))), nil
}

// values composes the release's values (valuesFrom, then spec.values).
func (r *run) values(o *manifest.Object, s hrSpec) (map[string]any, error) {
	spec, err := jsonValues(manifest.Map(o.Data, "spec")["values"])
	if err != nil {
		return nil, r.fail(o, "spec.values", "%w", err)
	}
	lookup := func(kind, name string) *manifest.Object {
		return r.lookup(manifest.Key{Kind: kind, Namespace: o.Namespace(), Name: name})
	}
	warn := func(msg string) { r.warnf(o, "%s", msg) }
	vals, err := valuesFromReferences(lookup, o.Namespace(), spec, s.ValuesFrom, warn)
	if err != nil {
		return nil, r.fail(o, "spec.valuesFrom", "%w", err)
	}
	return vals, nil
}

// hookKept reports whether a hook object is still on the cluster after a
// successful install, and the tests helm-controller then runs when
// spec.test.enable is set: it runs (pre-install or post-install; a test
// hook, test or test-success, only under tests and past their name
// filters, as Helm's ReleaseTesting applies them) and no hook-succeeded
// delete policy removes it.
func hookKept(ho helm.Object, t testSpec) bool {
	runs := slices.Contains(ho.Hooks, "pre-install") || slices.Contains(ho.Hooks, "post-install") ||
		(t.Enable && (slices.Contains(ho.Hooks, "test") || slices.Contains(ho.Hooks, "test-success")) && t.selects(ho.Object.Name()))
	if !runs {
		return false
	}
	for p := range strings.SplitSeq(ho.Object.Annotations()["helm.sh/hook-delete-policy"], ",") {
		if strings.TrimSpace(p) == "hook-succeeded" {
			return false
		}
	}
	return true
}

// testSpec is a HelmRelease's spec.test.
type testSpec struct {
	Enable  bool         `json:"enable"`
	Filters []testFilter `json:"filters"`
}

// testFilter is one of spec.test.filters.
type testFilter struct {
	Name    string `json:"name"`
	Exclude bool   `json:"exclude"`
}

// selects reports whether the test hook name runs: not excluded, and
// included when any filter includes.
func (t testSpec) selects(name string) bool {
	var include []string
	for _, f := range t.Filters {
		switch {
		case f.Exclude && f.Name == name:
			return false
		case !f.Exclude:
			include = append(include, f.Name)
		}
	}
	return len(include) == 0 || slices.Contains(include, name)
}
