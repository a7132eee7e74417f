package charts

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/charts/helm"
	"github.com/drydock-dev/drydock/charts/kustomize"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// Origin labels helm-controller puts on every object of a release
// (internal/postrender.NewOriginLabels, and on CRDs
// internal/action/crds.go setOriginVisitor).
const (
	labelHelmName      = helmGroup + "/name"
	labelHelmNamespace = helmGroup + "/namespace"
)

// finish turns what Helm rendered into what stays on the cluster after
// helm-controller's install:
//   - CRDs (crds/, rendered unless install.crds is Skip) keep only
//     CustomResourceDefinitions, with the origin labels and nothing else;
//   - hooks keep only those an install runs and does not delete (hookKept);
//   - the rest, and the kept hooks unless postRenderStrategy is nohooks, go
//     through spec.postRenderers, then spec.commonMetadata (v2), then the
//     origin labels, as helm-controller's BuildPostRenderers chains them;
//   - namespaced objects without a namespace land in the release's, as
//     Helm's kube client builds them.
func (r *run) finish(o *manifest.Object, s hrSpec, ns string, rendered []helm.Object) ([]helm.Object, error) {
	origin := map[string]string{labelHelmName: o.Name(), labelHelmNamespace: o.Namespace()}
	scope := map[string]bool{}
	var crds, rest []helm.Object
	for _, ro := range rendered {
		switch {
		case ro.CRD:
			if manifest.Group(ro.Object.APIVersion()) != "apiextensions.k8s.io" || ro.Object.Kind() != "CustomResourceDefinition" {
				r.warnf(o, "ignoring %s in the chart's crds/ directory (%s): it is reserved for CustomResourceDefinitions", ro.Object.Key(), ro.Template)
				continue
			}
			if manifest.String(ro.Object.Data, "spec", "scope") == "Cluster" {
				scope[manifest.String(ro.Object.Data, "spec", "group")+"/"+manifest.String(ro.Object.Data, "spec", "names", "kind")] = true
			}
			setMetadata(ro.Object, "labels", origin)
			crds = append(crds, ro)
		case len(ro.Hooks) > 0 && !hookKept(ro, s.Test):
		default:
			rest = append(rest, ro)
		}
	}
	rest, err := r.postRender(o, s, rest, origin)
	if err != nil {
		return nil, err
	}
	out := append(crds, rest...)
	for _, ro := range out {
		k := ro.Object.Key()
		if k.Namespace == "" && !cluster.IsClusterScopedKind(k.Group, k.Kind) && !scope[k.Group+"/"+k.Kind] {
			manifest.SetNested(ro.Object.Data, ns, "metadata", "namespace")
		}
	}
	return out, nil
}

// postRender runs the HelmRelease's post-renderers over objs (hooks among
// them only when postRenderStrategy is not nohooks).
func (r *run) postRender(o *manifest.Object, s hrSpec, objs []helm.Object, origin map[string]string) ([]helm.Object, error) {
	noHooks := s.PostRenderStrategy == "nohooks"
	var sel []helm.Object
	for _, ro := range objs {
		if len(ro.Hooks) == 0 || !noHooks {
			sel = append(sel, ro)
		}
	}
	sel, err := r.kustomizePostRenderers(o, sel)
	if err != nil {
		return nil, err
	}
	cm := s.CommonMetadata
	if o.APIVersion() != helmGroup+"/v2" {
		cm = nil // only v2 has commonMetadata
	}
	for _, ro := range sel {
		if cm != nil {
			setMetadata(ro.Object, "labels", cm.Labels)
			setMetadata(ro.Object, "annotations", cm.Annotations)
		}
		setMetadata(ro.Object, "labels", origin)
	}
	if !noHooks {
		return sel, nil
	}
	out := sel
	for _, ro := range objs {
		if len(ro.Hooks) > 0 {
			out = append(out, ro)
		}
	}
	return out, nil
}

// kustomizePostRenderers applies spec.postRenderers[].kustomize in order
// (charts/kustomize.PostRender); an object keeps the template and hooks
// of the rendered object of its key, or of its place when a patch renamed
// it.
func (r *run) kustomizePostRenderers(o *manifest.Object, objs []helm.Object) ([]helm.Object, error) {
	spec := manifest.Map(o.Data, "spec")
	if len(objs) == 0 || spec["postRenderers"] == nil {
		return objs, nil
	}
	in := make([]*manifest.Object, len(objs))
	byKey := make(map[manifest.Key]helm.Object, len(objs))
	for i, ro := range objs {
		in[i] = ro.Object
		byKey[ro.Object.Key()] = ro
	}
	out, err := kustomize.PostRender(in, spec)
	if err != nil {
		return nil, err
	}
	res := make([]helm.Object, len(out))
	for i, po := range out {
		ro, ok := byKey[po.Key()]
		if !ok && len(out) == len(objs) {
			ro = objs[i]
		}
		ro.Object = po
		res[i] = ro
	}
	return res, nil
}

// setMetadata sets each of kv in o's metadata.labels or .annotations,
// creating the map, as kustomize's label and annotation transformers with
// the fieldSpec metadata/<field>, create: true do.
func setMetadata(o *manifest.Object, field string, kv map[string]string) {
	if len(kv) == 0 {
		return
	}
	md, _ := o.Data["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		o.Data["metadata"] = md
	}
	m, _ := md[field].(map[string]any)
	if m == nil {
		m = map[string]any{}
		md[field] = m
	}
	for k, v := range kv {
		m[k] = v
	}
}

// mergeChartValues is source-controller's mergeChartValues for a chart
// from a HelmRepository: each of paths, a file of the chart (values.yaml
// being its default values), merged in order into the values that replace
// the chart's defaults.
func mergeChartValues(ch *chart.Chart, paths []string, ignoreMissing bool) (map[string]any, error) {
	merged := map[string]any{}
	for _, p := range paths {
		name := filepath.ToSlash(filepath.Clean(p))
		if name == "values.yaml" {
			merged = mergeMaps(merged, ch.Values)
			continue
		}
		var data []byte
		for _, f := range ch.Files {
			if f.Name == name {
				data = f.Data
				break
			}
		}
		if data == nil {
			if ignoreMissing {
				continue
			}
			return nil, fmt.Errorf("failed to merge chart values: no values file found at path '%s'", p)
		}
		vals := map[string]any{}
		if err := yaml.Unmarshal(data, &vals); err != nil {
			return nil, fmt.Errorf("failed to merge chart values: unmarshaling values from '%s' failed: %w", p, err)
		}
		merged = mergeMaps(merged, vals)
	}
	return merged, nil
}

// mergeFileValues is source-controller's mergeFileValues for a chart in
// a Git or Bucket source: paths relative to the source's root dir.
func mergeFileValues(dir string, paths []string, ignoreMissing bool) (map[string]any, error) {
	merged := map[string]any{}
	for _, p := range paths {
		file, err := securePath(dir, p)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(file)
		if err != nil {
			if ignoreMissing && errors.Is(err, os.ErrNotExist) {
				continue
			}
			return nil, fmt.Errorf("no values file found at path '%s' (reference '%s')", strings.TrimPrefix(file, dir), p)
		}
		vals := map[string]any{}
		if err := yaml.Unmarshal(data, &vals); err != nil {
			return nil, fmt.Errorf("unmarshaling values from '%s' failed: %w", p, err)
		}
		merged = mergeMaps(merged, vals)
	}
	return merged, nil
}
