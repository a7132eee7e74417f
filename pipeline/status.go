package pipeline

import (
	"sort"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/workflow"
)

// ComponentStatus is what `vela status` shows of a component in one
// cluster: its definition's health and message evaluated against the
// objects as the cluster holds them (the observed object at a key, else
// the dispatched one), and its traits'.
type ComponentStatus struct {
	Application, Component, Cluster string
	render.Status
	Traits []TraitStatus
}

// TraitStatus is a trait's health and message.
type TraitStatus struct {
	Type string
	render.Status
}

// statuses evaluates the status of every component of r in every
// cluster it was dispatched to; observed are the clusters' objects before
// the render.
func statuses(defs *render.Definitions, r *workflow.AppResult, observed workflow.Observed) []ComponentStatus {
	type key struct{ comp, cluster string }
	type objs struct {
		output  map[string]any
		outputs map[string]any
		byTrait map[string]map[string]any // trait type -> its outputs
	}
	found := map[key]*objs{}
	var order []key
	for _, w := range r.Writes {
		res := w.Resource
		if res.Component == "" || res.Policy != "" {
			continue
		}
		k := key{res.Component, w.Cluster}
		o := found[k]
		if o == nil {
			o = &objs{outputs: map[string]any{}, byTrait: map[string]map[string]any{}}
			found[k] = o
			order = append(order, k)
		}
		live := res.Object
		if observed != nil {
			if e, ok := observed.Get(w.Cluster, manifest.New(res.Object).Key()); ok {
				live = e.Object.Data
			}
		}
		switch {
		case res.Trait == "":
			o.output = live
		case res.Trait == cueval.AuxiliaryWorkload:
			o.outputs[res.Output] = live
		default:
			if o.byTrait[res.Trait] == nil {
				o.byTrait[res.Trait] = map[string]any{}
			}
			o.byTrait[res.Trait][res.Output] = live
			o.outputs[res.Output] = live
		}
	}
	var out []ComponentStatus
	for _, k := range order {
		o := found[k]
		comp := r.App.Component(k.comp)
		if comp == nil {
			continue
		}
		ctx := func(outputs map[string]any) map[string]any {
			return map[string]any{"name": comp.Name, "appName": r.App.Name, "namespace": r.App.Namespace, "cluster": k.cluster,
				"output": o.output, "outputs": outputs}
		}
		cs := ComponentStatus{Application: r.App.Namespace + "/" + r.App.Name, Component: comp.Name, Cluster: k.cluster, Status: render.Status{Healthy: true}}
		if d := defs.Get(render.KindComponent, comp.Type); d != nil {
			cs.Status = render.EvalStatus(d.Status, ctx(o.outputs), comp.Properties)
		}
		for _, t := range comp.Traits {
			d := defs.Get(render.KindTrait, t.Type)
			if d == nil || (d.Status == render.StatusSpec{}) {
				continue
			}
			outputs := o.byTrait[t.Type]
			if outputs == nil {
				outputs = map[string]any{}
			}
			cs.Traits = append(cs.Traits, TraitStatus{Type: t.Type, Status: render.EvalStatus(d.Status, ctx(outputs), t.Properties)})
		}
		out = append(out, cs)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Cluster < out[j].Cluster })
	return out
}
