package cueval

// KubeVela's vela/helm provider (helm.#Render), which the built-in
// helmchart ComponentDefinition imports, run offline: the chart comes
// from the chart cache, never the network, and is rendered by Helm's own
// packages (charts/helm). What the provider returns is what KubeVela's
// controller would: kubevela/kubevela pkg/cue/cuex/providers/helm
// (commit 5a44b5f), helm.go Render, read through install.go,
// postrender.go, manifest.go, values.go and chart_fetch.go.

import (
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/parser"
	"github.com/Masterminds/semver/v3"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/charts/helm"
	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// helmImport is the package the helmchart template imports.
const helmImport = "vela/helm"

// helmPackage is KubeVela's CUE of vela/helm, copied unchanged.
//
//go:embed vela/helm.cue
var helmPackage string

// Helm is what helm.#Render reads besides its parameters.
type Helm struct {
	// Charts is the chart cache; nil: no chart renders (an error says
	// how to vendor it).
	Charts *source.Cache
	// Hub returns an object the hub cluster holds now (valuesFrom's
	// ConfigMaps and Secrets, which KubeVela reads from the control
	// plane wherever the chart is deployed); nil: none.
	Hub func(key manifest.Key) (map[string]any, bool)
	// KubeVersion is the hub's Kubernetes version (v1.30.2), the
	// chart's .Capabilities.KubeVersion: KubeVela's provider installs
	// the release with the controller's own client, on the hub,
	// whichever cluster the component is for (provider.go
	// getActionConfig, dryrun.go getKubeVersion). "" is Helm's default.
	KubeVersion string
}

// SetHelm sets what templates importing vela/helm render charts with.
func (e *Engine) SetHelm(h Helm) { e.helm, e.helmRenders, e.helmSources = h, nil, nil }

// compileWithHelm compiles src, a template importing vela/helm, with
// KubeVela's package for it (as render/stepexec builds vela/* imports).
func (e *Engine) compileWithHelm(d *render.Definition, src string) cue.Value {
	f, err := parser.ParseFile(d.TemplateFile, src)
	if err != nil {
		// CompileString reports the syntax error with its position.
		return e.ctx.CompileString(src, cue.Filename(d.TemplateFile))
	}
	pkg := &build.Instance{PkgName: "helm", ImportPath: helmImport}
	pf, err := parser.ParseFile(helmImport, helmPackage)
	if err != nil {
		panic(err) // the embedded package is KubeVela's, and parses
	}
	if err := pkg.AddSyntax(pf); err != nil {
		panic(err)
	}
	bi := build.NewContext().NewInstance("", nil)
	bi.Imports = []*build.Instance{pkg}
	if err := bi.AddSyntax(f); err != nil {
		return e.ctx.CompileString(src, cue.Filename(d.TemplateFile))
	}
	return e.ctx.BuildInstance(bi)
}

// resolveHelm runs every helm.#Render of v (a field whose #provider is
// "helm"), filling its $returns, as kubevela/pkg cue/cuex/compiler.go
// Resolve runs a template's provider calls.
func (e *Engine) resolveHelm(d *render.Definition, v cue.Value) (cue.Value, error) {
	done := map[string]bool{}
	for {
		call, ok := nextHelmCall(v, done)
		if !ok {
			return v, nil
		}
		p := call.Path()
		done[p.String()] = true
		do, _ := call.LookupPath(cue.ParsePath("#do")).String()
		if do != "render" {
			return v, fmt.Errorf("%s: vela/helm has no action %q", p, do)
		}
		params, err := call.LookupPath(cue.MakePath(cue.Str("$params"))).MarshalJSON()
		if err != nil {
			return v, fmt.Errorf("%s: helm.#Render $params: %w", p, err)
		}
		returns, err := e.helmRender(params)
		if err != nil {
			return v, manifest.At(render.TokenPos(call.Pos()), "%s %q: %v", d.Kind, d.Name, err)
		}
		v = v.FillPath(p, map[string]any{"$returns": returns})
	}
}

// nextHelmCall finds the first field, children before parents, whose
// #provider is "helm" and that has not run.
func nextHelmCall(v cue.Value, done map[string]bool) (cue.Value, bool) {
	var found cue.Value
	var walk func(x cue.Value) bool
	walk = func(x cue.Value) bool {
		if strings.Contains(x.Path().String(), "#") || done[x.Path().String()] {
			return false
		}
		if it, err := x.Fields(cue.Optional(true), cue.Hidden(true)); err == nil {
			for it.Next() {
				// context and parameter are data: no call in them.
				if top := len(x.Path().Selectors()) == 0; top && (it.Selector().String() == "context" || it.Selector().String() == "parameter") {
					continue
				}
				if walk(it.Value()) {
					return true
				}
			}
		}
		if prov, _ := x.LookupPath(cue.ParsePath("#provider")).String(); prov == "helm" {
			found = x
			return true
		}
		return false
	}
	ok := walk(v)
	return found, ok
}

// helmParams are helm.#Render's $params (types.go RenderParams), decoded
// as cuex decodes them: through JSON, numbers float64
// (kubevela/pkg v1.10.0 cue/cuex/runtime/provider.go GenericProviderFn).
type helmParams struct {
	Chart   helmChart `json:"chart"`
	Release *struct {
		Name      string `json:"name,omitempty"`
		Namespace string `json:"namespace,omitempty"`
	} `json:"release,omitempty"`
	Values     any              `json:"values,omitempty"`
	ValuesFrom []helmValuesFrom `json:"valuesFrom,omitempty"`
	Context    *helmContext     `json:"context,omitempty"`
}

type helmChart struct {
	Source  string `json:"source"`
	RepoURL string `json:"repoURL,omitempty"`
	Version string `json:"version,omitempty"`
}

type helmValuesFrom struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace,omitempty"`
	Key       string `json:"key,omitempty"`
	Optional  bool   `json:"optional,omitempty"`
}

type helmContext struct {
	AppName      string `json:"appName"`
	AppNamespace string `json:"appNamespace"`
	Name         string `json:"name"`
	Namespace    string `json:"namespace"`
}

// helmRender is helm.go Render as the controller runs it (not its
// admission dry-run): release name and namespace, the chart, values,
// the release's manifest as KubeVela returns it.
func (e *Engine) helmRender(raw []byte) (map[string]any, error) {
	var p helmParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("helm.#Render $params: %w", err)
	}
	appNS := ""
	if p.Context != nil {
		appNS = p.Context.AppNamespace
	}
	releaseName, releaseNS := "release", appNS
	if p.Release != nil {
		if p.Release.Name != "" {
			releaseName = p.Release.Name
		}
		if p.Release.Namespace != "" {
			releaseNS = p.Release.Namespace
		}
	}
	if releaseNS == "" {
		releaseNS = "default"
	}
	if appNS == "" {
		appNS = releaseNS
	}
	ref, err := chartRef(p.Chart)
	if err != nil {
		return nil, fmt.Errorf("helm.#Render: failed to fetch chart: %w", err)
	}
	if e.helm.Charts == nil {
		return nil, fmt.Errorf("helm.#Render: chart %s: no chart cache: drydock never downloads a chart; vendor it (%s) and pass --charts DIR", describeRef(p.Chart, ref), vendorCommand(p.Chart))
	}
	ch, err := e.helm.Charts.Chart(ref)
	if err != nil {
		// The cache's error names the chart and how to vendor it.
		return nil, fmt.Errorf("helm.#Render: failed to fetch chart: %w", err)
	}
	values, err := mergeHelmValues(e.helm.Hub, p.Values, p.ValuesFrom, appNS, releaseNS)
	if err != nil {
		return nil, fmt.Errorf("helm.#Render: failed to merge values: %w", err)
	}
	// A component renders again (each placement, its PostDispatch
	// traits); the same release of the same chart renders once.
	key, err := json.Marshal([]any{ref, releaseName, releaseNS, p.Context, values})
	if err != nil {
		return nil, fmt.Errorf("helm.#Render: values: %w", err)
	}
	if r, ok := e.helmRenders[string(key)]; ok {
		e.noteHelmSources(r)
		return map[string]any{"resources": r.resources}, nil
	}
	objs, err := helm.Render(ch, helm.Options{
		ReleaseName:  releaseName,
		Namespace:    releaseNS,
		Values:       values,
		Capabilities: helm.Capabilities{KubeVersion: e.helm.KubeVersion},
		// The release's manifest (what Render returns) never holds the
		// chart's crds/ nor its hooks: Helm installs those itself.
		IncludeCRDs:  false,
		DisableHooks: true,
	})
	if err != nil {
		return nil, fmt.Errorf("helm.#Render: chart %s: %w", describeRef(p.Chart, ref), err)
	}
	r := helmRelease{sources: map[manifest.Key]string{}}
	chartName := fmt.Sprintf("chart %s %s", ch.Name(), ch.Metadata.Version)
	if p.Context != nil {
		chartName = fmt.Sprintf("helmchart %s, %s", p.Context.Name, chartName)
	}
	r.resources = helmResources(objs, p.Context, releaseName, releaseNS, func(obj map[string]any, template string) {
		src := chartName + ", release secret"
		if template != "" {
			src = chartName + ", template " + template
		}
		r.sources[manifest.New(obj).Key()] = src
	})
	if e.helmRenders == nil {
		e.helmRenders = map[string]helmRelease{}
	}
	e.helmRenders[string(key)] = r
	e.noteHelmSources(r)
	return map[string]any{"resources": r.resources}, nil
}

// helmRelease is one rendered release: $returns.resources, and what
// produced each of them (chart, version, template file) by object key.
type helmRelease struct {
	resources []any
	sources   map[manifest.Key]string
}

// noteHelmSources keeps r's producers for the provenance of the outputs
// the component renders next.
func (e *Engine) noteHelmSources(r helmRelease) {
	if e.helmSources == nil {
		e.helmSources = map[manifest.Key]string{}
	}
	for k, v := range r.sources {
		e.helmSources[k] = v
	}
}

// Chart source kinds (chart_fetch.go detectChartSourceType).
const (
	chartOCI  = "oci"
	chartURL  = "url"
	chartRepo = "repo"
)

// chartSourceType is chart_fetch.go detectChartSourceType.
func chartSourceType(src string) string {
	switch {
	case strings.HasPrefix(src, "oci://"):
		return chartOCI
	case strings.HasSuffix(src, ".tgz"), strings.HasSuffix(src, ".tar.gz"):
		return chartURL
	case strings.HasPrefix(src, "http://"), strings.HasPrefix(src, "https://"):
		return chartURL
	}
	return chartRepo
}

// chartRef is the cache's name for the chart KubeVela fetches
// (chart_fetch.go fetchOCIChart, fetchURLChart, fetchRepoChart):
//   - oci://host/path/name pulls host/path/name:version: repository
//     oci://host/path, chart name;
//   - a URL (…/name-version.tgz) downloads that package, version
//     ignored: the Helm repository is the URL's directory, name and
//     version the file's, as `helm package` names it;
//   - anything else is a chart of the Helm repository repoURL, which
//     is then required.
func chartRef(c helmChart) (source.ChartRef, error) {
	switch chartSourceType(c.Source) {
	case chartOCI:
		dir, name := path.Split(strings.TrimSuffix(c.Source, "/"))
		return source.ChartRef{RepoURL: strings.TrimSuffix(dir, "/"), Name: name, Version: c.Version}, nil
	case chartURL:
		u, err := url.Parse(c.Source)
		if err != nil {
			return source.ChartRef{}, fmt.Errorf("chart source %q: %w", c.Source, err)
		}
		file := path.Base(u.Path)
		u.Path = strings.TrimSuffix(path.Dir(u.Path), "/")
		u.RawQuery, u.Fragment = "", ""
		name, version := packageNameVersion(file)
		return source.ChartRef{RepoURL: u.String(), Name: name, Version: version}, nil
	}
	if c.RepoURL == "" {
		return source.ChartRef{}, errors.New("repoURL is required for repository-based charts")
	}
	return source.ChartRef{RepoURL: strings.TrimSuffix(c.RepoURL, "/"), Name: c.Source, Version: c.Version}, nil
}

// packageNameVersion splits a chart package's file name, name-version.tgz,
// at the first dash whose rest is a semantic version; "" when none is.
func packageNameVersion(file string) (name, version string) {
	base := strings.TrimSuffix(strings.TrimSuffix(file, ".tgz"), ".tar.gz")
	for i := 0; i < len(base); i++ {
		if base[i] != '-' {
			continue
		}
		if _, err := semver.StrictNewVersion(strings.TrimPrefix(base[i+1:], "v")); err == nil {
			return base[:i], base[i+1:]
		}
	}
	return base, ""
}

// describeRef names a chart for an error: source, repository, version.
func describeRef(c helmChart, ref source.ChartRef) string {
	s := fmt.Sprintf("%q", c.Source)
	if chartSourceType(c.Source) == chartRepo {
		s += fmt.Sprintf(" of repository %s", ref.RepoURL)
	}
	if ref.Version != "" {
		s += fmt.Sprintf(" version %q", ref.Version)
	} else {
		s += " (latest version)"
	}
	return s
}

// vendorCommand is the helm command that would fetch the chart into DIR.
func vendorCommand(c helmChart) string {
	version := ""
	if c.Version != "" {
		version = " --version " + c.Version
	}
	switch chartSourceType(c.Source) {
	case chartOCI:
		return "helm pull " + c.Source + version + " -d DIR"
	case chartURL:
		return "helm pull " + c.Source + " -d DIR"
	}
	return "helm pull " + c.Source + " --repo " + c.RepoURL + version + " -d DIR"
}

// defaultValuesKey is the key valuesFrom reads when it names none
// (values.go).
const defaultValuesKey = "values.yaml"

// errValueSourceMissing marks a missing ConfigMap/Secret or key: what
// optional skips (values.go valueSourceMissingError).
var errValueSourceMissing = errors.New("not found")

// errCrossNamespaceValuesFrom is values.go's.
var errCrossNamespaceValuesFrom = errors.New("cross-namespace valuesFrom sources are not permitted")

// mergeHelmValues is values.go mergeValues: each valuesFrom source in
// order over the ones before it, then the inline values over them all,
// each merge Helm's CoalesceTables (maps deep-merged, lists replaced, a
// null in the newer source deleting the key). A missing optional source
// is skipped; any other failure, and a missing required source, fails.
func mergeHelmValues(hub func(manifest.Key) (map[string]any, bool), inline any, from []helmValuesFrom, appNS, releaseNS string) (map[string]any, error) {
	acc := map[string]any{}
	for _, src := range from {
		values, err := loadHelmValues(hub, src, appNS, releaseNS)
		if err != nil {
			if src.Optional && errors.Is(err, errValueSourceMissing) {
				continue
			}
			return nil, fmt.Errorf("failed to load values from %s %q: %w", src.Kind, src.Name, err)
		}
		acc = coalesceTables(values, acc)
	}
	if m, ok := inline.(map[string]any); ok {
		acc = coalesceTables(manifest.DeepCopy(m).(map[string]any), acc)
	}
	return acc, nil
}

// loadHelmValues is values.go loadValuesFromSource with its
// loadConfigMapValues and loadSecretValues: the source's namespace (the
// release's by default, else the application's or the release's only),
// the key's text in .data parsed as YAML.
func loadHelmValues(hub func(manifest.Key) (map[string]any, bool), src helmValuesFrom, appNS, releaseNS string) (map[string]any, error) {
	if src.Kind != "ConfigMap" && src.Kind != "Secret" {
		return nil, fmt.Errorf("unsupported values source kind: %s", src.Kind)
	}
	ns := releaseNS
	if src.Namespace != "" {
		if src.Namespace != releaseNS && src.Namespace != appNS {
			return nil, fmt.Errorf("%w: %s %q requested namespace %q but Application is in %q and release is in %q",
				errCrossNamespaceValuesFrom, src.Kind, src.Name, src.Namespace, appNS, releaseNS)
		}
		ns = src.Namespace
	}
	key := src.Key
	if key == "" {
		key = defaultValuesKey
	}
	var obj map[string]any
	ok := false
	if hub != nil {
		obj, ok = hub(manifest.Key{Kind: src.Kind, Namespace: ns, Name: src.Name})
	}
	if !ok {
		return nil, fmt.Errorf("%s %s/%s %w on the hub (--observed)", src.Kind, ns, src.Name, errValueSourceMissing)
	}
	text, found, err := valuesText(obj, src.Kind, key)
	if err != nil {
		return nil, fmt.Errorf("%s %s/%s key %q: %w", src.Kind, ns, src.Name, key, err)
	}
	if !found {
		if _, binary := manifest.Map(obj, "binaryData")[key]; binary && src.Kind == "ConfigMap" {
			return nil, fmt.Errorf("ConfigMap %s/%s key %q is in binaryData; valuesFrom requires a textual YAML value in .data", ns, src.Name, key)
		}
		return nil, fmt.Errorf("%s %s/%s key %q %w in .data", src.Kind, ns, src.Name, key, errValueSourceMissing)
	}
	var values map[string]any
	if err := yaml.Unmarshal([]byte(text), &values); err != nil {
		return nil, fmt.Errorf("%s %s/%s key %q: invalid YAML: %w", src.Kind, ns, src.Name, key, err)
	}
	return values, nil
}

// valuesText is the text of key in obj's .data: a Secret's base64
// decoded, its stringData (which the API server folds into data) first.
func valuesText(obj map[string]any, kind, key string) (string, bool, error) {
	if kind == "Secret" {
		if s, ok := manifest.Map(obj, "stringData")[key].(string); ok {
			return s, true, nil
		}
		s, ok := manifest.Map(obj, "data")[key].(string)
		if !ok {
			return "", false, nil
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return "", false, fmt.Errorf("not base64: %w", err)
		}
		return string(b), true, nil
	}
	s, ok := manifest.Map(obj, "data")[key].(string)
	return s, ok, nil
}

// coalesceTables is Helm's chartutil.CoalesceTables (v3.14.4
// pkg/chartutil/coalesce.go coalesceTablesFullKey, merge false), which
// KubeVela's mergeValues calls, without its warnings: dst wins; a null
// in dst deletes the key src has; a table never replaces a non-table
// nor the reverse.
func coalesceTables(dst, src map[string]any) map[string]any {
	if src == nil {
		return dst
	}
	if dst == nil {
		return src
	}
	for key, val := range src {
		dv, ok := dst[key]
		switch {
		case ok && dv == nil:
			delete(dst, key)
		case !ok:
			dst[key] = val
		default:
			vt, vok := val.(map[string]any)
			dt, dok := dv.(map[string]any)
			if vok && dok {
				coalesceTables(dt, vt)
			}
		}
	}
	return dst
}

// helmResources are $returns.resources: the release manifest's objects
// (no hooks, no crds/) as postrender.go's velaLabelPostRenderer leaves
// them (KubeVela's labels and owner annotation, Helm's ownership
// annotations, the release namespace on namespaced kinds without one),
// then as manifest.go parseManifestResources reads them back (nulls,
// empty maps and empty lists dropped; CRDs, then Namespaces, then the
// rest), then the release's Secret of its first revision, which
// helm.go Render adds for KubeVela to track
// (release_secrets.go listReleaseSecretNames finds it after install).
func helmResources(objs []helm.Object, vctx *helmContext, releaseName, releaseNS string, note func(obj map[string]any, template string)) []any {
	var crds, namespaces, others []any
	for _, o := range objs {
		if len(o.Hooks) > 0 || o.CRD || o.Object == nil {
			continue
		}
		obj := manifest.DeepCopy(o.Object.Data).(map[string]any)
		if len(obj) == 0 {
			continue
		}
		postRender(obj, vctx, releaseName, releaseNS)
		obj, _ = NormalizeNumbers(cleanResource(obj)).(map[string]any)
		note(obj, o.Template)
		switch manifest.String(obj, "kind") {
		case "CustomResourceDefinition":
			crds = append(crds, obj)
		case "Namespace":
			namespaces = append(namespaces, obj)
		default:
			others = append(others, obj)
		}
	}
	out := append(append(crds, namespaces...), others...)
	if vctx != nil {
		secret := map[string]any{
			"apiVersion": "v1",
			"kind":       "Secret",
			"metadata": map[string]any{
				// Helm's secrets storage driver names a revision
				// sh.helm.release.v1.<release>.v<revision>.
				"name":      "sh.helm.release.v1." + releaseName + ".v1",
				"namespace": releaseNS,
				"labels":    velaLabels(vctx),
			},
			"type": "helm.sh/release.v1",
		}
		note(secret, "")
		out = append(out, secret)
	}
	return out
}

func velaLabels(vctx *helmContext) map[string]any {
	return map[string]any{
		"app.oam.dev/name":      vctx.AppName,
		"app.oam.dev/namespace": vctx.AppNamespace,
		"app.oam.dev/component": vctx.Name,
	}
}

// postRender is velaLabelPostRenderer.Run on one object.
func postRender(obj map[string]any, vctx *helmContext, releaseName, releaseNS string) {
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	if vctx != nil {
		labels, _ := meta["labels"].(map[string]any)
		if labels == nil {
			labels = map[string]any{}
			meta["labels"] = labels
		}
		for k, v := range velaLabels(vctx) {
			labels[k] = v
		}
	}
	if releaseNS != "" && manifest.String(meta, "namespace") == "" && !clusterScopedKind(manifest.String(obj, "kind")) {
		meta["namespace"] = releaseNS
	}
	ann, _ := meta["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
		meta["annotations"] = ann
	}
	if vctx != nil {
		ann["app.oam.dev/owner"] = "helm-provider"
	}
	if releaseName != "" {
		ann["meta.helm.sh/release-name"] = releaseName
	}
	if releaseNS != "" {
		ann["meta.helm.sh/release-namespace"] = releaseNS
	}
}

// clusterScopedKind is manifest.go isClusterScopedKindStaticFallback:
// what the provider knows is cluster-scoped without the controller's
// RESTMapper, which drydock does not have.
func clusterScopedKind(kind string) bool {
	switch kind {
	case "CustomResourceDefinition", "Namespace", "ClusterRole", "ClusterRoleBinding",
		"PersistentVolume", "StorageClass", "VolumeAttachment", "CSIDriver", "CSINode",
		"PriorityClass", "RuntimeClass", "IngressClass", "MutatingWebhookConfiguration",
		"ValidatingWebhookConfiguration", "APIService", "FlowSchema",
		"PriorityLevelConfiguration", "Node", "ComponentStatus":
		return true
	}
	return false
}

// cleanResource is manifest.go cleanResource: nulls dropped, and maps and
// lists left empty by that (or empty already); a map inside a list stays
// even when empty.
func cleanResource(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		switch t := v.(type) {
		case nil:
		case map[string]any:
			if c := cleanResource(t); len(c) > 0 {
				out[k] = c
			}
		case []any:
			var items []any
			for _, it := range t {
				switch x := it.(type) {
				case nil:
				case map[string]any:
					items = append(items, cleanResource(x))
				default:
					items = append(items, x)
				}
			}
			if len(items) > 0 {
				out[k] = items
			}
		default:
			out[k] = v
		}
	}
	return out
}
