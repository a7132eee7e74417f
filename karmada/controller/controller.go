// Package controller is Karmada's controller as drydock emulates it: for
// every resource template of a control plane it selects the propagation
// policy, schedules the template onto member clusters, claims a copy per
// member, applies the override policies and finishes the copy as a Work
// would, writing the copies into the members' fake clusters.
//
// A control plane is the inputs' (their templates and policies, parsed by
// Parse before anything renders, for every member the inventory does not
// put under another control plane) or an inventory cluster that members
// name with the drydock.dev/karmada-control-plane annotation, holding
// what KubeVela dispatched to it. Run propagates them all, in that order.
package controller

import (
	"context"
	"errors"
	"fmt"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/karmada/propagation"
	"github.com/drydock-dev/drydock/manifest"
	override "github.com/drydock-dev/drydock/overrides/karmada"
)

// ErrInvalid is wrapped by every error about what the control planes
// hold: an invalid policy or template, a failing override, a copy the
// member's fake cluster refuses.
var ErrInvalid = errors.New("invalid Karmada input")

// invalid marks err as ErrInvalid without changing its message.
func invalid(err error) error { return manifest.Mark(ErrInvalid, err) }

// Authored is the inputs' control plane: the resource templates and the
// propagation and override policies among the inputs.
type Authored struct {
	templates []*manifest.Object
	props     []*propagation.Policy
	ovs       []*override.Policy
}

// Parse sorts the inputs' objects into policies and resource templates
// (every object that is not a policy). Every invalid policy is reported.
func Parse(objs []*manifest.Object) (*Authored, error) {
	templates, props, ovs, err := policies(objs, asAuthored)
	if err != nil {
		return nil, err
	}
	return &Authored{templates: templates, props: props, ovs: ovs}, nil
}

// HasTemplates tells whether the inputs hold a resource template.
func (a *Authored) HasTemplates() bool { return a != nil && len(a.templates) > 0 }

// empty tells whether a holds nothing for Karmada.
func (a *Authored) empty() bool {
	return a == nil || len(a.templates) == 0 && len(a.props) == 0 && len(a.ovs) == 0
}

// Options steer Run.
type Options struct {
	// Authored is the inputs' control plane (nil: it holds nothing).
	Authored *Authored
	// PlainToHub applies the inputs' templates to the hub (cluster.Local),
	// as kubectl apply would, when the inputs hold no Karmada policy:
	// inputs of plain manifests. Beside Applications they are what the
	// clusters hold already (the KubeVela corpus's usage-configmap renders
	// its ConfigMap nowhere), so it is set only when there is none. Beside
	// Karmada policies a template none selects lands nowhere, with a
	// warning, as on karmada-apiserver.
	PlainToHub bool
	// Explain fills Result.Placements.
	Explain bool
	// Each, when set, calls place(i) for every i in [0, n), concurrently
	// if it likes, and calls the commit each returns in index order from
	// one goroutine, stopping early once ctx is done; nil calls them one
	// after another.
	Each func(ctx context.Context, n int, place func(i int) (commit func()))
}

// Result is what Run left besides the copies written into the members.
type Result struct {
	// Warnings are notes about templates that reach no member, in
	// control plane and template order.
	Warnings []string
	// Works are what Karmada leaves in members without dispatching, and
	// what it keeps when a Work goes.
	Works Works
	// Placements explain where objects went (with Options.Explain).
	Placements *Placements
}

// Works is what a diff needs of Karmada's Works beyond the objects they
// carry, by member cluster and object key.
type Works struct {
	// Frozen are objects Karmada leaves in a member as they are, without
	// dispatching the template: its policy suspends dispatching there, its
	// scheduling fails (the binding keeps its clusters), or no policy
	// selects it any more (the binding stays until the template goes).
	Frozen map[string]map[manifest.Key]string
	// Preserved are objects whose policy sets preserveResourcesOnDeletion:
	// they stay in the member when their Work goes.
	Preserved map[string]map[manifest.Key]string
}

// Run propagates the templates of every control plane into store: the
// inputs' (opts.Authored) first, then each control plane of inv, reading
// what store holds in it. It stops at the first control plane that fails;
// the error wraps ErrInvalid, unless it is ctx's.
func Run(ctx context.Context, store *cluster.Store, inv *cluster.Inventory, opts Options) (*Result, error) {
	res := &Result{}
	if opts.Explain {
		res.Placements = &Placements{byKey: map[string]*propagation.Explanation{}}
	}
	if a := opts.Authored; !a.empty() {
		cp := &controlPlane{members: inv.Members(""), templates: a.templates, props: a.props, ovs: a.ovs, inContext: asAuthored, plainToHub: opts.PlainToHub, placements: res.Placements}
		for _, t := range a.templates {
			cp.sources = append(cp.sources, "template "+t.Pos.String())
			cp.origins = append(cp.origins, cluster.Origin{Pos: t.Pos})
			cp.owners = append(cp.owners, "input "+t.Pos.String())
		}
		if err := propagate(ctx, store, cp, opts.Each, res); err != nil {
			return nil, err
		}
	}
	for _, name := range inv.ControlPlanes() {
		cp, err := dispatched(store, inv, name, res.Placements)
		if err != nil {
			return nil, err
		}
		if err := propagate(ctx, store, cp, opts.Each, res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// asAuthored leaves an error about an authored input as it is.
func asAuthored(_ *manifest.Object, err error) error { return err }

// policies parses the propagation and override policies among objs and
// returns the rest (the templates). Invalid policies are ErrInvalid;
// where gives the context an error about an object is reported in.
func policies(objs []*manifest.Object, where func(*manifest.Object, error) error) (templates []*manifest.Object, props []*propagation.Policy, ovs []*override.Policy, err error) {
	var errs []error
	for _, o := range objs {
		switch {
		case propagation.IsPolicy(o):
			p, err := propagation.Parse(o)
			if err != nil {
				errs = append(errs, where(o, err))
				continue
			}
			props = append(props, p)
		case override.IsPolicy(o):
			p, err := override.Parse(o)
			if err != nil {
				errs = append(errs, where(o, err))
				continue
			}
			ovs = append(ovs, p)
		default:
			templates = append(templates, o)
		}
	}
	if err := manifest.Join(errs...); err != nil { // every invalid policy
		return nil, nil, nil, invalid(err)
	}
	return templates, props, ovs, nil
}

// dispatched is what the workflow left in the control plane cluster name:
// its policies and templates, for its members. Rendered objects have no
// position of their own: errors about them point at what produced them
// and name it.
func dispatched(store *cluster.Store, inv *cluster.Inventory, name string, placements *Placements) (*controlPlane, error) {
	entries := store.List(name)
	objs := make([]*manifest.Object, 0, len(entries))
	byObject := map[*manifest.Object]cluster.Entry{}
	for _, e := range entries {
		if !e.Object.Pos.IsValid() {
			e.Object.Pos = e.Origin.Pos
		}
		e.Object.PlaceFields()
		objs = append(objs, e.Object)
		byObject[e.Object] = e
	}
	where := func(o *manifest.Object, err error) error {
		e := byObject[o]
		if e.Source == "" {
			return err
		}
		return fmt.Errorf("%w (dispatched to Karmada control plane %q by %s)", err, name, e.Source)
	}
	templates, props, ovs, err := policies(objs, where)
	if err != nil {
		return nil, err
	}
	cp := &controlPlane{name: name, members: inv.Members(name), templates: templates, props: props, ovs: ovs, inContext: where, placements: placements}
	for _, t := range templates {
		cp.sources = append(cp.sources, byObject[t].Source)
		cp.origins = append(cp.origins, byObject[t].Origin)
		cp.owners = append(cp.owners, byObject[t].Owner)
	}
	return cp, nil
}

// propagate places every template of cp and writes the overridden copies
// into the members' fake clusters, template by template in order as
// they are ready. Templates no policy matches are warnings; a failing
// override is ErrInvalid (Karmada would fail the Work).
func propagate(ctx context.Context, store *cluster.Store, cp *controlPlane, each func(context.Context, int, func(int) func()), res *Result) error {
	if each == nil {
		each = oneByOne
	}
	var warnings []string
	var errs []error
	each(ctx, len(cp.templates), func(i int) func() {
		r := cp.place(i)
		return func() {
			if r.warning != "" {
				warnings = append(warnings, r.warning)
			}
			if r.err != nil {
				errs = append(errs, r.err)
			}
			res.Works.record(&r)
			cp.explained(&r)
			for j, e := range r.writes {
				if err := store.Apply(r.targets[j], e); err != nil {
					errs = append(errs, err)
				}
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := manifest.Join(errs...); err != nil {
		return invalid(err)
	}
	res.Warnings = append(res.Warnings, warnings...)
	return nil
}

// oneByOne is Options.Each's default: place and commit, in turn.
func oneByOne(ctx context.Context, n int, place func(int) func()) {
	for i := 0; i < n && ctx.Err() == nil; i++ {
		place(i)()
	}
}

// addWhy records why at cluster c and key k of *m, making the maps.
func addWhy(m *map[string]map[manifest.Key]string, c string, k manifest.Key, why string) {
	if *m == nil {
		*m = map[string]map[manifest.Key]string{}
	}
	if (*m)[c] == nil {
		(*m)[c] = map[manifest.Key]string{}
	}
	(*m)[c][k] = why
}

// record files r's frozen and preserved copies.
func (w *Works) record(r *placed) {
	for _, c := range r.frozen {
		addWhy(&w.Frozen, c, r.key, r.frozenWhy)
	}
	if r.preserved != "" {
		for _, c := range r.targets {
			addWhy(&w.Preserved, c, r.key, r.preserved)
		}
	}
}
