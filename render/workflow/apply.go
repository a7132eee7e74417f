package workflow

import (
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
)

// Applying components: the apply-component step, and what deploy does
// for each component and placement; the writes they record; the
// PostDispatch traits after the workflow.

// applyComponent emulates the apply-component step: the component named
// by properties.component, to properties.cluster (the hub when unset) and
// properties.namespace (the Application's when unset).
//
// The result is the step's scope for its outputs: KubeVela runs the step
// as pkg/workflow/template/static/builtin-apply-component.cue, whose
// `output` and `outputs` are what oam.#ApplyComponent returns, the
// component's workload and auxiliaries as rendered (never read back, so
// without status).
func (w *workflowRun) applyComponent(s *render.WorkflowStep) (map[string]any, error) {
	name := manifest.String(s.Properties, "component")
	comp := w.app.Component(name)
	if comp == nil {
		return nil, w.stepErr(s, fieldpath.New("properties", "component"), fmt.Sprintf("component %q not found", name))
	}
	pl := cueval.Placement{Cluster: manifest.String(s.Properties, "cluster"), Namespace: manifest.String(s.Properties, "namespace"), ApplyStep: true}
	if pl.Cluster != "" {
		if err := w.checkCluster(pl.Cluster, s.Path.Child("properties").Child("cluster"), fmt.Sprintf("step %q", s.Name)); err != nil {
			return nil, err
		}
	}
	m, err := w.applyManifest(comp, pl, s.Name, nil)
	if err != nil || m == nil {
		return nil, err
	}
	scope := map[string]any{}
	if m.Workload != nil {
		scope["output"] = m.Workload.Object
	}
	outs := map[string]any{}
	for _, a := range m.Auxiliaries {
		if a.Output != "" {
			outs[a.Output] = a.Object
		}
	}
	if len(outs) > 0 {
		scope["outputs"] = outs
	}
	return scope, nil
}

func (w *workflowRun) checkCluster(name string, path render.FieldRef, who string) error {
	if _, ok := w.inv.Get(name); !ok {
		return render.Locate(&render.Error{Pos: w.pos(path), App: w.app.Name,
			Err: fmt.Errorf("%s: cluster %q is not in the inventory", who, name)})
	}
	return nil
}

// apply renders comp for a placement and records the writes. The
// component's inputs are filled first and its outputs evaluated over what
// it rendered (`output`, `outputs.<name>`).
func (w *workflowRun) apply(comp *render.Component, pl cueval.Placement, step string, policies []string) error {
	_, err := w.applyManifest(comp, pl, step, policies)
	return err
}

// applyManifest is apply, returning what the component rendered into.
func (w *workflowRun) applyManifest(comp *render.Component, pl cueval.Placement, step string, policies []string) (*cueval.ComponentManifest, error) {
	owner := fmt.Sprintf("component %q", comp.Name)
	props, _, err := w.withInputs(comp.Properties, comp.Inputs, owner, comp.Path)
	if err != nil {
		return nil, err
	}
	if len(comp.Inputs) > 0 {
		c := *comp
		c.Properties = props
		comp = &c
	}
	if comp.Type == "ref-objects" {
		if comp, err = w.refObjects(comp); err != nil {
			return nil, err
		}
	}
	target := pl.Cluster
	if target == "" {
		target = cluster.Local
	}
	pl.ClusterVersion = w.clusterVersion(target)
	m, err := w.e.RenderComponent(w.app, comp, pl)
	if err != nil {
		return nil, w.refHint(comp, err)
	}
	for _, r := range m.Objects() {
		w.write(r, step, policies)
	}
	for _, msg := range m.Warnings {
		w.warnf("%s", msg)
	}
	if w.e.HasPostDispatch(comp) {
		w.services = append(w.services, service{comp: comp, pl: pl})
	}
	if len(comp.Outputs) > 0 {
		outs := map[string]any{}
		for _, a := range m.Auxiliaries {
			if a.Output != "" {
				outs[a.Output] = a.Object
			}
		}
		scope := map[string]any{"output": m.Workload.Object, "outputs": outs}
		if err := w.evalOutputs(comp.Outputs, scope, owner); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// write records a rendered object for the cluster its app.oam.dev/cluster
// label names (the hub when it has none).
func (w *workflowRun) write(r *cueval.Resource, step string, policies []string) {
	target := manifest.String(r.Object, "metadata", "labels", render.LabelAppCluster)
	if target == "" {
		target = cluster.Local
	}
	w.writeTo(target, r, step, policies)
}

func (w *workflowRun) writeTo(target string, r *cueval.Resource, step string, policies []string) {
	w.noteOverlap(target, r)
	w.res.Writes = append(w.res.Writes, Write{Cluster: target, Resource: r, Step: step, Policies: policies})
	ns := manifest.String(r.Object, "metadata", "namespace")
	if ns == "" {
		ns = "_cluster"
	}
	w.tracef("  write %s/%s %s %s", target, ns, manifest.String(r.Object, "kind"), manifest.String(r.Object, "metadata", "name"))
}

// postDispatch renders PostDispatch traits of every applied component, as
// KubeVela does once the workflow has succeeded and components are healthy.
func (w *workflowRun) postDispatch() error {
	if len(w.services) > 0 {
		w.tracef("post-dispatch traits")
	}
	for _, s := range w.services {
		orig := w.app.Component(s.comp.Name)
		rs, err := w.e.RenderPostDispatch(w.app, orig, s.pl)
		if err != nil {
			return err
		}
		for _, r := range rs {
			w.write(r, "", nil)
		}
	}
	return nil
}

// clusterVersion is the version of cluster name: the inventory's, else
// Options.KubeVersion (as a gitVersion: v-prefixed), else unknown.
func (w *workflowRun) clusterVersion(name string) cueval.ClusterVersion {
	c, ok := w.inv.Get(name)
	if !ok {
		return cueval.ClusterVersion{}
	}
	if c.KubernetesVersion == "" && w.opts.KubeVersion != "" {
		return cueval.ParseClusterVersion("v" + strings.TrimPrefix(strings.TrimSpace(w.opts.KubeVersion), "v"))
	}
	return cueval.ParseClusterVersion(c.KubernetesVersion)
}
