package controller

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/karmada/propagation"
	"github.com/drydock-dev/drydock/manifest"
	override "github.com/drydock-dev/drydock/overrides/karmada"
	"github.com/drydock-dev/drydock/schemas"
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
	// plainToHub applies the templates no policy selects to the hub, as
	// kubectl apply would: inputs of plain manifests. Beside Applications
	// they are what the clusters hold already (the KubeVela corpus's
	// usage-configmap renders its ConfigMap nowhere).
	plainToHub bool
	// placements, when set, receive the explanation of every placement
	// (Result.Placements).
	placements *Placements
}

// placed is what one template becomes: a copy per member, or a warning.
type placed struct {
	writes  []cluster.Entry
	targets []string
	warning string
	err     error
	// key is the template's (and its copies').
	key manifest.Key
	// frozen are members whose copy Karmada leaves as it is, and why.
	frozen    []string
	frozenWhy string
	// preserved names the policy that keeps the copies in their members
	// when their Works go (preserveResourcesOnDeletion).
	preserved string
	// placement explains where the template went (controlPlane.placements).
	placement *propagation.Explanation
}

// place schedules template i, claims it for each target and overrides it.
func (cp *controlPlane) place(i int) placed {
	t := cp.templates[i]
	r := placed{key: t.Key()}
	// Karmada sees the template as karmada-apiserver stores it, with the
	// defaults of its kind.
	stored, defaults := propagation.Default(t)
	p := propagation.Select(stored, cp.props)
	if p == nil {
		r.frozen, r.frozenWhy = cp.memberNames(), "no policy selects its template; Karmada keeps the binding, and what it propagated, until the template is deleted"
		// Beside Karmada policies the inputs are a Karmada control plane:
		// a template none selects lands nowhere, as on karmada-apiserver.
		if !cp.plainToHub || len(cp.props) > 0 || len(cp.ovs) > 0 {
			r.warning = fmt.Sprintf("%s: %s: no PropagationPolicy or ClusterPropagationPolicy%s selects it; it reaches no member cluster", t.Pos, t.Key(), cp.where())
			return r
		}
		// Plain manifests alone: applied to the hub, as kubectl apply
		// would.
		r.writes = append(r.writes, cluster.Entry{Object: kubectlApplied(t), Source: cp.sources[i], Origin: cp.origins[i], Owner: cp.owners[i]})
		r.targets = append(r.targets, cluster.Local)
		return r
	}
	if err := propagation.CheckTemplate(stored); err != nil {
		r.err = cp.inContext(t, err)
		return r
	}
	d, err := propagation.Schedule(stored, p, cp.members)
	if cp.placements != nil {
		r.placement = explainPlacement(stored, cp, p, d, err)
	}
	if errors.Is(err, propagation.ErrUnschedulable) {
		r.warning = fmt.Sprintf("%s: %s: %s: Karmada's scheduler cannot place it (%s); it reaches no member cluster", t.Pos, t.Key(), p, manifest.Format(err, nil))
		if len(cp.members) == 0 {
			r.warning += "; the inventory has no member cluster: give Cluster objects with --clusters"
		}
		r.frozen, r.frozenWhy = cp.memberNames(), p.String()+": Karmada's scheduler cannot place it, and the binding keeps its earlier clusters"
		return r
	}
	if err != nil {
		r.err = cp.inContext(t, err)
		return r
	}
	if d.Empty != "" {
		r.warning = fmt.Sprintf("%s: %s: %s: %s; it reaches no member cluster", t.Pos, t.Key(), p, d.Empty)
	}
	if p.Preserve {
		r.preserved = p.String() + " sets preserveResourcesOnDeletion"
	}
	if p.SuspendAll {
		r.warning = fmt.Sprintf("%s: %s: %s suspends dispatching: it reaches no member cluster", t.Pos, t.Key(), p)
		for _, target := range d.Targets {
			r.frozen = append(r.frozen, target.Cluster.Name)
		}
		r.frozenWhy = p.String() + " suspends dispatching: Karmada leaves the member's object as it is"
		return r
	}
	for _, target := range d.Targets {
		if slices.Contains(p.SuspendOn, target.Cluster.Name) {
			r.warning = fmt.Sprintf("%s: %s: %s suspends dispatching to %s", t.Pos, t.Key(), p, strings.Join(p.SuspendOn, ", "))
			r.frozen = append(r.frozen, target.Cluster.Name)
			r.frozenWhy = p.String() + " suspends dispatching to it: Karmada leaves the member's object as it is"
			continue
		}
		obj := propagation.Claim(stored, d, target)
		if stored.Provenance != nil {
			obj.Provenance = stored.Provenance.Clone()
			obj.Provenance.Record(stored.Data, obj.Data, manifest.Origin{Stage: manifest.StageKarmada, Name: p.String(), Detail: "placement on " + target.Cluster.Name, Pos: p.PlacementPos})
		}
		out, applied, err := override.Apply(obj, target.Cluster, cp.ovs)
		if err != nil {
			r.err = cp.inContext(t, err)
			return r
		}
		// The defaults still at karmada-apiserver's value are left out:
		// the member's API server sets them again.
		defaults.Elide(out)
		var claimed map[string]any
		if out.Provenance != nil {
			claimed = manifest.DeepCopy(out.Data).(map[string]any)
		}
		if err := propagation.Finish(out); err != nil {
			// Karmada's prune fails: the Work is not created.
			r.err = cp.inContext(t, &manifest.Error{Pos: t.Pos, Subjects: []manifest.Subject{{Kind: t.Key().String()}},
				Err: fmt.Errorf("on cluster %s: Karmada cannot prune it for its Work: %w", target.Cluster.Name, err)})
			return r
		}
		if claimed != nil {
			out.Provenance.Record(claimed, out.Data, manifest.Origin{Stage: manifest.StageKarmada, Name: "Karmada", Detail: "Work on " + target.Cluster.Name, Pos: p.Pos})
		}
		out.Graft(nil, t) // a finding about the copy points into the template
		e := cluster.Entry{Object: out, Source: karmadaSource(cp, i, d, target, applied), Origin: cp.origins[i], Owner: cp.owners[i], Propagated: true}
		if d.Policy.Scheduling == propagation.Divided {
			e.Replicas = int(target.Replicas)
		}
		r.writes = append(r.writes, e)
		r.targets = append(r.targets, target.Cluster.Name)
	}
	return r
}

func (cp *controlPlane) memberNames() []string {
	names := make([]string, len(cp.members))
	for i, m := range cp.members {
		names[i] = m.Name
	}
	return names
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

// kubectlApplied is a plain manifest as kubectl apply creates it: a
// namespaced kind without a namespace lands in default.
func kubectlApplied(t *manifest.Object) *manifest.Object {
	if t.Namespace() != "" {
		return t
	}
	api, err := schemas.LoadKubeAPI(schemas.DefaultKubeVersion())
	if err != nil {
		return t
	}
	if served, namespaced := api.Serves(t.APIVersion(), t.Kind()); !served || !namespaced {
		return t
	}
	data := manifest.DeepCopy(t.Data).(map[string]any)
	o := &manifest.Object{Data: data, Pos: t.Pos}
	o.Graft(nil, t)
	manifest.SetNested(data, "default", "metadata", "namespace")
	if t.Provenance != nil {
		o.Provenance = t.Provenance.Clone()
		o.Provenance.Record(t.Data, o.Data, manifest.Origin{Stage: manifest.StageLabels, Name: "kubectl apply", Detail: "default namespace", Pos: t.Pos})
	}
	return o
}
