package pipeline

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/karmada/override"
	"github.com/drydock-dev/drydock/karmada/propagation"
	"github.com/drydock-dev/drydock/manifest"
)

// A Karmada control plane holds resource templates and policies; placement
// decides which members each template reaches, overrides rewrite it per
// member. The inputs form one control plane (templates and policies among
// the inputs, every inventory cluster but `local` that names no other
// control plane as members); an inventory cluster that members name with
// the drydock.dev/karmada-control-plane annotation is another, holding
// what KubeVela dispatched to it.
type controlPlane struct {
	// name is the inventory cluster ("" for the inputs' control plane).
	name      string
	members   []*cluster.Cluster
	templates []*manifest.Object
	sources   []string
	origins   []cluster.Origin
	owners    []string
	props     []*propagation.Policy
	ovs       []*override.Policy
	// inContext puts an error about an object in context (what
	// dispatched it to this control plane).
	inContext func(*manifest.Object, error) error
}

// asAuthored leaves an error about an authored input as it is.
func asAuthored(_ *manifest.Object, err error) error { return err }

// karmadaPolicies parses the propagation and override policies among objs
// and returns the rest (the templates). Invalid policies are bad input;
// where gives the context an error about an object is reported in.
func karmadaPolicies(objs []*manifest.Object, where func(*manifest.Object, error) error) (templates []*manifest.Object, props []*propagation.Policy, ovs []*override.Policy, err error) {
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
		return nil, nil, nil, inputError(err)
	}
	return templates, props, ovs, nil
}

// placed is what one template becomes: a copy per member, or a warning.
type placed struct {
	writes  []cluster.Entry
	targets []string
	warning string
	err     error
}

// propagate places every template of cp and writes the overridden copies
// into the members' fake clusters, template by template in order as
// they are ready. Templates no policy matches are warnings; a failing
// override is bad input (Karmada would fail the Work).
func propagate(ctx context.Context, store *cluster.Store, cp *controlPlane, workers int) ([]string, error) {
	var warnings []string
	var errs []error
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ordered(ctx, len(cp.templates), workers, renderWindow*workers, func() struct{} { return struct{}{} }, func(_ struct{}, i int) placed {
		return cp.place(i)
	}, func(_ int, r placed) {
		if r.warning != "" {
			warnings = append(warnings, r.warning)
		}
		if r.err != nil {
			errs = append(errs, r.err)
		}
		for j, e := range r.writes {
			if err := store.Apply(r.targets[j], e); err != nil {
				errs = append(errs, err)
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := manifest.Join(errs...); err != nil {
		return nil, inputError(err)
	}
	return warnings, nil
}

// place schedules template i, claims it for each target and overrides it.
func (cp *controlPlane) place(i int) placed {
	var r placed
	t := cp.templates[i]
	p := propagation.Select(t, cp.props)
	if p == nil {
		r.warning = fmt.Sprintf("%s: %s: no PropagationPolicy or ClusterPropagationPolicy%s selects it; it reaches no member cluster", t.Pos, t.Key(), cp.where())
		return r
	}
	if err := propagation.CheckTemplate(t); err != nil {
		r.err = cp.inContext(t, err)
		return r
	}
	if p.SuspendAll {
		r.warning = fmt.Sprintf("%s: %s: %s suspends dispatching: it reaches no member cluster", t.Pos, t.Key(), p)
		return r
	}
	d, err := propagation.Schedule(t, p, cp.members)
	if errors.Is(err, propagation.ErrUnschedulable) {
		r.warning = fmt.Sprintf("%s: %s: %s: Karmada's scheduler cannot place it (%v); it reaches no member cluster", t.Pos, t.Key(), p, err)
		return r
	}
	if err != nil {
		r.err = cp.inContext(t, err)
		return r
	}
	for _, target := range d.Targets {
		if slices.Contains(p.SuspendOn, target.Cluster.Name) {
			r.warning = fmt.Sprintf("%s: %s: %s suspends dispatching to %s", t.Pos, t.Key(), p, strings.Join(p.SuspendOn, ", "))
			continue
		}
		obj := propagation.Claim(t, d, target)
		out, applied, err := override.Apply(obj, target.Cluster, cp.ovs)
		if err != nil {
			r.err = cp.inContext(t, err)
			return r
		}
		propagation.Finish(out)
		r.writes = append(r.writes, cluster.Entry{Object: out, Source: karmadaSource(cp, i, d, target, applied), Origin: cp.origins[i], Owner: cp.owners[i]})
		r.targets = append(r.targets, target.Cluster.Name)
	}
	return r
}

func (cp *controlPlane) where() string {
	if cp.name == "" {
		return ""
	}
	return fmt.Sprintf(" in Karmada control plane %q", cp.name)
}

// karmadaSource is the provenance of a propagated object: the template,
// the propagation policy and every override rule applied, in order.
func karmadaSource(cp *controlPlane, i int, d propagation.Decision, t propagation.Target, applied []override.Applied) string {
	p := d.Policy
	parts := []string{cp.sources[i]}
	if cp.name != "" {
		parts = append(parts, "via Karmada control plane "+cp.name)
	}
	pol := "propagated by " + p.String()
	if d.Affinity != "" {
		pol += fmt.Sprintf(" (cluster affinity %q)", d.Affinity)
	}
	if p.Scheduling == propagation.Divided && t.Replicas > 0 {
		pol += fmt.Sprintf(" (%d replicas)", t.Replicas)
	}
	parts = append(parts, pol)
	if len(applied) > 0 {
		names := make([]string, len(applied))
		for k, a := range applied {
			names[k] = a.String()
		}
		parts = append(parts, "overrides "+strings.Join(names, ", "))
	}
	return strings.Join(parts, ", ")
}
