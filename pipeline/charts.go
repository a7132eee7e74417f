package pipeline

import (
	"context"
	"fmt"
	"slices"

	"github.com/drydock-dev/drydock/charts"
	chartsource "github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/schemas"
)

// releaseStage is the provenance stage of what by produced.
func releaseStage(by *manifest.Object) manifest.Stage {
	if by.Kind() == "Kustomization" {
		return manifest.StageKustomize
	}
	return manifest.StageHelm
}

// chartStage is the charts stage (package charts) between KubeVela's
// render and Karmada: as a sink in front of the caller's, it keeps the
// objects of every cluster the stage reads (HelmReleases, Kustomizations,
// their sources, ConfigMaps and Secrets) and the custom resources each
// cluster serves, as they are written, whether the store keeps that
// cluster or streams it; reconcile then renders the releases of the
// clusters that received one into their final objects.
type chartStage struct {
	next cluster.Sink
	cfg  chartsource.Config
	// objs are the entries the stage reads, by cluster and key; crds the
	// group/versions and group/version/Kinds the CRDs among a cluster's
	// objects serve.
	objs map[string]map[manifest.Key]cluster.Entry
	crds map[string]map[string]bool
	// dirty are the clusters that received a release since they were
	// last reconciled.
	dirty map[string]bool
	// writing is set while the stage applies its own outputs: they are
	// final objects, not more inputs.
	writing bool
	// rendered are the releases reconciled on a Karmada control plane:
	// their outputs propagate as templates, so the copies Karmada
	// propagates of the releases themselves are not rendered again.
	rendered map[manifest.Key]bool
	ctrl     *charts.Controller
	apis     map[string][]string // by schemas version
	// provenance gives the outputs their provenance (Record.Provenance).
	provenance bool
	// configured is set when the run has chart or source caches: only
	// then can a release render, and read ConfigMaps and Secrets
	// (valuesFrom, substituteFrom). Without them the stage keeps none,
	// so that its memory does not grow with the applications' objects;
	// a release then fails on its chart or source first, as with them.
	configured bool
}

// TakesLazy: the stage decodes only the objects it keeps
// (cluster.LazySink).
func (s *chartStage) TakesLazy() bool { return cluster.TakesLazy(s.next) }

// newChartStage is the stage in front of next, rendering from cache (nil:
// cfg's, opened when a release is first met).
func newChartStage(next cluster.Sink, cfg chartsource.Config, cache *chartsource.Cache, provenance bool) *chartStage {
	var ctrl *charts.Controller
	if cache != nil {
		ctrl = &charts.Controller{Cache: cache}
	}
	return &chartStage{next: next, cfg: cfg, ctrl: ctrl, provenance: provenance,
		objs: map[string]map[manifest.Key]cluster.Entry{}, crds: map[string]map[string]bool{},
		dirty: map[string]bool{}, rendered: map[manifest.Key]bool{}, apis: map[string][]string{},
		configured: cache != nil || len(cfg.Charts)+len(cfg.Sources)+len(cfg.Repositories) > 0}
}

// Put keeps what the stage reads and passes e on.
func (s *chartStage) Put(c string, e cluster.Entry) error {
	if !s.writing {
		s.keep(c, e)
	}
	if s.next == nil {
		return nil
	}
	return s.next.Put(c, e)
}

func (s *chartStage) keep(c string, e cluster.Entry) {
	// By kind, so that a Lazy object is decoded only when it is kept.
	v, kind := e.APIVersion(), e.Key().Kind
	reads := charts.ReadsKind(v, kind) && (s.configured || !isConfigDataKind(v, kind))
	crd := schemas.IsCRDKind(v, kind)
	if !reads && !crd {
		return
	}
	o := e.Obj()
	e.Object = o
	switch {
	case reads:
		m := s.objs[c]
		if m == nil {
			m = map[manifest.Key]cluster.Entry{}
			s.objs[c] = m
		}
		m[o.Key()] = e
		if isRelease(o) {
			s.dirty[c] = true
		}
	default: // a CRD
		m := s.crds[c]
		if m == nil {
			m = map[string]bool{}
			s.crds[c] = m
		}
		for _, gv := range crdAPIVersions(o) {
			m[gv] = true
		}
	}
}

// isConfigDataKind tells whether an object of apiVersion and kind is a
// ConfigMap or a Secret.
func isConfigDataKind(apiVersion, kind string) bool {
	return apiVersion == "v1" && (kind == "ConfigMap" || kind == "Secret")
}

// isRelease tells whether o is what Flux's controllers reconcile: a
// HelmRelease or a Kustomization.
func isRelease(o *manifest.Object) bool {
	switch o.Key().Group {
	case "helm.toolkit.fluxcd.io":
		return o.Kind() == "HelmRelease"
	case "kustomize.toolkit.fluxcd.io":
		return o.Kind() == "Kustomization"
	}
	return false
}

// crdAPIVersions are the group/versions (and group/version/Kinds) a
// CustomResourceDefinition serves.
func crdAPIVersions(o *manifest.Object) []string {
	spec, _ := o.Data["spec"].(map[string]any)
	group, _ := spec["group"].(string)
	names, _ := spec["names"].(map[string]any)
	kind, _ := names["kind"].(string)
	versions, _ := spec["versions"].([]any)
	var out []string
	for _, v := range versions {
		m, _ := v.(map[string]any)
		name, _ := m["name"].(string)
		if served, _ := m["served"].(bool); !served || name == "" || group == "" {
			continue
		}
		out = append(out, group+"/"+name, group+"/"+name+"/"+kind)
	}
	return out
}

// reconcile renders the releases of every cluster that received one since
// its last reconcile, in cluster order, and applies their outputs into
// out, each owned by its release. On a Karmada control plane the outputs
// are templates (reconcile runs before Karmada's controller). A release
// that does not render (a chart not in the cache, values its schema
// refuses) is bad input: its error is returned in bad and the others'
// outputs are written all the same; err stops the run.
func (s *chartStage) reconcile(ctx context.Context, inv *cluster.Inventory, out *cluster.Store, controlPlanes map[string]bool) (warnings []string, bad []error, err error) {
	for _, c := range manifest.SortedKeys(s.dirty) {
		delete(s.dirty, c)
		entries := s.objs[c]
		var objs []*manifest.Object
		for _, k := range manifest.SortedObjectKeys(entries) {
			if isRelease(entries[k].Object) && s.rendered[k] && !controlPlanes[c] {
				continue // rendered on its control plane
			}
			objs = append(objs, entries[k].Object)
		}
		if !slices.ContainsFunc(objs, isRelease) {
			continue
		}
		if s.ctrl == nil {
			cache, err := chartsource.Open(s.cfg)
			if err != nil {
				return nil, nil, inputError(fmt.Errorf("charts: %w", err))
			}
			s.ctrl = &charts.Controller{Cache: cache}
		}
		cl, err := s.cluster(inv, c)
		if err != nil {
			return nil, nil, err
		}
		outs, notes, err := s.ctrl.Reconcile(ctx, cl, objs)
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		if err != nil {
			bad = append(bad, inputError(err))
		}
		warnings = append(warnings, notes...)
		if err := s.apply(c, out, entries, outs); err != nil {
			return nil, nil, err
		}
		if controlPlanes[c] {
			for _, o := range objs {
				if isRelease(o) {
					s.rendered[o.Key()] = true
				}
			}
		}
	}
	return warnings, bad, nil
}

// apply writes the outputs of cluster c into out: each owned by the
// release that produced it, from the origin of the input it comes from
// (a release a Kustomization produced has that Kustomization's).
func (s *chartStage) apply(c string, out *cluster.Store, entries map[manifest.Key]cluster.Entry, outs []charts.Output) error {
	s.writing = true
	defer func() { s.writing = false }()
	produced := map[manifest.Key]cluster.Entry{}
	for _, o := range outs {
		by, ok := entries[o.By.Key()]
		if p, isOutput := produced[o.By.Key()]; !ok && isOutput {
			by = p
		}
		e := cluster.Entry{Object: o.Object, Source: o.Source, Origin: by.Origin, Owner: releaseOwner(o.By)}
		if e.Origin == (cluster.Origin{}) {
			e.Origin.Pos = o.By.Pos
		}
		if by.Source != "" {
			e.Source += " (" + by.Source + ")"
		}
		if s.provenance && o.Object.Provenance == nil {
			o.Object.Provenance = manifest.ProducedBy(o.Object.Data, manifest.Origin{Stage: releaseStage(o.By), Name: o.Source, Pos: e.Origin.Pos})
		}
		if err := out.Apply(c, e); err != nil {
			if _, located := manifest.PosOf(err); located {
				return inputError(err)
			}
			return err
		}
		produced[o.Object.Key()] = cluster.Entry{Origin: e.Origin, Source: by.Source}
	}
	return nil
}

// releaseOwner is the Owner of what a release produces: a second writer
// of one of its objects is refused, naming it.
func releaseOwner(by *manifest.Object) string {
	k := by.Key()
	if k.Namespace == "" {
		return k.Kind + " " + k.Name
	}
	return k.Kind + " " + k.Namespace + "/" + k.Name
}

// cluster is what the charts stage knows of cluster c: its Kubernetes
// version (the inventory's) and the API versions it serves (the
// built-in ones of that version, else of the newest embedded, and the
// CRDs among its objects).
func (s *chartStage) cluster(inv *cluster.Inventory, c string) (charts.Cluster, error) {
	cl := charts.Cluster{Name: c}
	if info, ok := inv.Get(c); ok {
		cl.KubeVersion = info.KubernetesVersion
	}
	version := schemas.DefaultKubeVersion()
	if cl.KubeVersion != "" {
		v, _, err := schemas.KubeVersion(cl.KubeVersion)
		if err != nil {
			return cl, inputError(fmt.Errorf("cluster %s: %w", c, err))
		}
		version = v
	}
	apis, ok := s.apis[version]
	if !ok {
		api, err := schemas.LoadKubeAPI(version)
		if err != nil {
			return cl, err
		}
		apis = api.APIVersions()
		s.apis[version] = apis
	}
	cl.APIVersions = slices.Concat(apis, manifest.SortedKeys(s.crds[c]))
	return cl, nil
}
