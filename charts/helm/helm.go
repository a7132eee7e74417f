// Package helm renders a chart as `helm template` and helm-controller's
// install do, through Helm's own packages (loader, values, capabilities,
// engine): values coalesced over the chart's, values.schema.json
// enforced, per-cluster Capabilities, CRDs and hooks as the options say.
//
// Render follows the client-only path of Helm's action.Install
// (helm.sh/helm/v4/pkg/action/install.go RunWithContext and
// action.go renderResources, as `helm template` runs them) step by
// step with the same functions: chartutil.ProcessDependencies,
// util.ToRenderValuesWithSchemaValidation, engine.Render,
// releaseutil.SortManifests with InstallOrder, chart.CRDObjects. It
// does not call action.Install itself: that package brings kubectl,
// controller-runtime, SQL drivers and a Wasm runtime into the binary
// (about 250 more packages and their init time) for code a client-only
// render never runs. The fixtures in testdata prove the output equal to
// `helm template`'s.
//
// It is not the chart cache (charts/source loads charts) and not
// helm-controller's values merging (charts does that).
package helm

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/common/util"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	"helm.sh/helm/v4/pkg/engine"
	release "helm.sh/helm/v4/pkg/release/v1"
	releaseutil "helm.sh/helm/v4/pkg/release/v1/util"

	"github.com/drydock-dev/drydock/manifest"
)

// Capabilities are one cluster's, as .Capabilities sees them.
type Capabilities struct {
	// KubeVersion is the cluster's Kubernetes version ("v1.31.2",
	// "1.31"). "" = Helm's default, as `helm template` without
	// --kube-version: Helm derives it from the k8s.io/client-go it is
	// built with (client-go 0.37 gives v1.37.0 in drydock's binary;
	// under `go test` Helm fixes it at v1.20.0).
	KubeVersion string
	// APIVersions are added to Helm's DefaultVersionSet (every
	// group/version client-go knows), as --api-versions adds them.
	APIVersions []string
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
	// SkipTests drops test hooks (helm.sh/hook: test), as
	// `helm template --skip-tests` does.
	SkipTests bool
	// IsUpgrade sets .Release.IsUpgrade instead of .Release.IsInstall
	// (`helm template --is-upgrade`, helm-controller's upgrade).
	IsUpgrade bool
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

// ErrNotInstallable is wrapped by the error about a chart whose type
// is not "application" (a library chart), as `helm template` refuses
// it.
var ErrNotInstallable = errors.New("chart is not installable")

// notInstallable is Helm's error text, wrapping ErrNotInstallable.
type notInstallable string

func (e notInstallable) Error() string { return string(e) + " charts are not installable" }
func (e notInstallable) Unwrap() error { return ErrNotInstallable }

// sortedSchemaError is Helm's error with each chart's list of schema
// violations ("- at '/age': …") sorted: Helm lists them in an order
// that changes from run to run.
type sortedSchemaError struct{ err error }

func (e sortedSchemaError) Unwrap() error { return e.err }

func (e sortedSchemaError) Error() string { return sortViolations(e.err.Error()) }

// sortViolations sorts each run of "- " lines of s.
func sortViolations(s string) string {
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && strings.HasPrefix(lines[j], "- ") {
			j++
		}
		slices.Sort(lines[i:j])
		i = max(j, i+1)
	}
	return strings.Join(lines, "\n")
}

// notesSuffix is the file Helm renders but sets apart (action.go).
const notesSuffix = "NOTES.txt"

// Render renders ch with o, in helm template's order: CRDs (when
// IncludeCRDs), then the manifests in Helm's InstallOrder, then the
// hooks (unless DisableHooks). Object.Hooks are Helm's events
// (lower-cased, "test-success" read as "test"); a hook of an event
// Helm does not know is dropped, as Helm drops it. Sprig's random
// functions are seeded by chart, release and namespace, so a render is
// reproducible (see randFuncs); everything else is Helm's. ch is not modified: Helm's dependency
// processing runs on a copy, so one loaded chart serves any number of
// renders, concurrently too. Errors keep Helm's text (a template
// error names file:line).
func Render(ch *chart.Chart, o Options) ([]Object, error) {
	if ch == nil || ch.Metadata == nil {
		return nil, errors.New("helm: no chart")
	}
	if err := checkInstallable(ch); err != nil {
		return nil, err
	}
	vals := o.Values
	if vals == nil {
		vals = map[string]any{}
	}
	name := o.ReleaseName
	if err := chartutil.ValidateReleaseName(name); err != nil {
		return nil, fmt.Errorf("release name check failed: release name %q: %w", name, err)
	}
	c := Copy(ch)
	if err := chartutil.ProcessDependencies(c, vals); err != nil {
		return nil, fmt.Errorf("chart dependencies processing failed: %w", err)
	}
	caps, err := capabilities(o.Capabilities)
	if err != nil {
		return nil, err
	}
	opts := common.ReleaseOptions{Name: name, Namespace: o.Namespace, Revision: 1, IsInstall: !o.IsUpgrade, IsUpgrade: o.IsUpgrade}
	top, err := util.ToRenderValuesWithSchemaValidation(c, vals, opts, caps, o.SkipSchemaValidation)
	if err != nil {
		return nil, sortedSchemaError{err}
	}
	if c.Metadata.KubeVersion != "" && !chartutil.IsCompatibleRange(c.Metadata.KubeVersion, caps.KubeVersion.String()) {
		return nil, fmt.Errorf("chart requires kubeVersion: %s which is incompatible with Kubernetes %s", c.Metadata.KubeVersion, caps.KubeVersion.Version)
	}
	e := engine.Engine{CustomTemplateFuncs: randFuncs(c.Name() + "\x00" + c.Metadata.Version + "\x00" + name + "\x00" + o.Namespace)}
	files, err := e.RenderWithContext(context.Background(), c, top)
	if err != nil {
		return nil, err
	}
	for k := range files {
		if strings.HasSuffix(k, notesSuffix) {
			delete(files, k)
		}
	}
	hooks, manifests, err := releaseutil.SortManifests(files, nil, releaseutil.InstallOrder)
	if err != nil {
		return nil, err
	}
	return collect(c, o, hooks, manifests)
}

// checkInstallable refuses what `helm template` refuses before
// rendering: a non-application chart, and dependencies Chart.yaml
// names that charts/ does not hold (action.CheckDependencies).
func checkInstallable(ch *chart.Chart) error {
	switch ch.Metadata.Type {
	case "", "application":
	default:
		return notInstallable(ch.Metadata.Type)
	}
	var missing []string
	for _, d := range ch.Metadata.Dependencies {
		if d == nil {
			continue
		}
		if !slices.ContainsFunc(ch.Dependencies(), func(c *chart.Chart) bool { return c.Name() == d.Name }) {
			missing = append(missing, d.Name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("an error occurred while checking for chart dependencies. You may need to run 'helm dependency build' to fetch missing dependencies: found in Chart.yaml, but missing in charts/ directory: %s", strings.Join(missing, ", "))
	}
	return nil
}

// capabilities are Helm's defaults with c's version and extra API
// versions, as action.Install builds them for a client-only render.
func capabilities(c Capabilities) (*common.Capabilities, error) {
	caps := common.DefaultCapabilities.Copy()
	if c.KubeVersion != "" {
		kv, err := common.ParseKubeVersion(c.KubeVersion)
		if err != nil {
			return nil, fmt.Errorf("invalid kube version '%s': %w", c.KubeVersion, err)
		}
		caps.KubeVersion = *kv
	}
	// A new slice: DefaultVersionSet is shared by every render.
	caps.APIVersions = slices.Concat(caps.APIVersions, common.VersionSet(c.APIVersions))
	return caps, nil
}

// collect decodes what Helm sorted into objects, in helm template's
// order.
func collect(c *chart.Chart, o Options, hooks []*release.Hook, manifests []releaseutil.Manifest) ([]Object, error) {
	var out []Object
	add := func(file, content string, hookEvents []string, crd bool) error {
		objs, err := manifest.Decode(file, []byte(content), manifest.DecodeOptions{KeepLists: true})
		if err != nil {
			return fmt.Errorf("decode rendered %s: %w", file, err)
		}
		for _, obj := range objs {
			out = append(out, Object{Object: obj, Template: file, Hooks: hookEvents, CRD: crd})
		}
		return nil
	}
	if o.IncludeCRDs {
		for _, crd := range c.CRDObjects() {
			if err := add(path.Clean(crd.Filename), string(crd.File.Data), nil, true); err != nil {
				return nil, err
			}
		}
	}
	for _, m := range manifests {
		if err := add(m.Name, m.Content, nil, false); err != nil {
			return nil, err
		}
	}
	if o.DisableHooks {
		return out, nil
	}
	for _, h := range hooks {
		if o.SkipTests && slices.Contains(h.Events, release.HookTest) {
			continue
		}
		events := make([]string, len(h.Events))
		for i, e := range h.Events {
			events[i] = e.String()
		}
		if err := add(h.Path, h.Manifest, events, false); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Copy returns a copy of ch that Helm's dependency processing may
// modify without touching ch: the Chart, its Metadata and the
// Metadata's Dependencies are copied, and so is every subchart,
// recursively, with its parent pointing at the copy. Templates, Files,
// Values and Schema stay shared (Helm only reads them, and replaces
// Values rather than writing into them).
func Copy(ch *chart.Chart) *chart.Chart {
	out := *ch
	if ch.Metadata != nil {
		md := *ch.Metadata
		if md.Dependencies != nil {
			md.Dependencies = make([]*chart.Dependency, len(ch.Metadata.Dependencies))
			for i, d := range ch.Metadata.Dependencies {
				if d != nil {
					dc := *d
					dc.Tags = slices.Clone(d.Tags)
					dc.ImportValues = slices.Clone(d.ImportValues)
					d = &dc
				}
				md.Dependencies[i] = d
			}
		}
		out.Metadata = &md
	}
	deps := ch.Dependencies()
	out.SetDependencies()
	for _, d := range deps {
		out.AddDependency(Copy(d))
	}
	return &out
}
