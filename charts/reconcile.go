package charts

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/drydock-dev/drydock/charts/kustomize"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// ErrCycle is wrapped by the error about a Flux object that is produced
// again, differently, by what it (indirectly) produces, or by two
// producers; ErrDepth by the one about producers nested too deep.
var (
	ErrCycle = errors.New("produced twice")
	ErrDepth = errors.New("producers nested too deep")
)

// errNotOnCluster is wrapped by the error about a source a producer
// names that is not on the cluster (yet).
var errNotOnCluster = errors.New("not on cluster")

// missing is the error about the Flux source kind namespace/name not
// being on the cluster.
func (r *run) missing(kind, namespace, name string) error {
	return fmt.Errorf("%s %s/%s is %w %s", kind, namespace, name, errNotOnCluster, r.cl.Name)
}

// waiting reports whether err may go away once other producers have put
// their objects on the cluster: a source, a valuesFrom or a substituteFrom
// object that is not there.
func waiting(err error) bool {
	return errors.Is(err, errNotOnCluster) || errors.Is(err, errResourceNotFound) || errors.Is(err, kustomize.ErrSubstituteFrom)
}

// maxDepth bounds how deep producers may nest (a Kustomization producing a
// Kustomization producing a HelmRelease is depth 3).
const maxDepth = 32

// run is one Reconcile: the cluster's objects (inputs and everything
// produced so far) and the producers still to reconcile.
type run struct {
	c  *Controller
	cl Cluster
	// objects are the cluster's objects by key, with who produced each
	// (nil for an input).
	objects map[manifest.Key]entry
	// pending are the producers not reconciled yet, in the order they
	// reached the cluster.
	pending  []*manifest.Object
	depth    map[*manifest.Object]int
	outputs  []Output
	warnings []string
	errs     []error
	// waiting are the producers that failed for want of an object not on
	// the cluster; tried is how many objects it held when they were last
	// tried.
	waiting []failed
	tried   int
}

type failed struct {
	obj      *manifest.Object
	err      error
	warnings []string
}

type entry struct {
	obj *manifest.Object
	by  *manifest.Object
}

// Reconcile renders every HelmRelease and Kustomization among objs (all
// the objects of cl the stage reads) into their final objects, in a
// stable order. Warnings say what was skipped and why.
//
// Producers are reconciled until none is left (a fixpoint): the Flux
// objects they produce (a Kustomization's HelmReleases, HelmRepositories
// and Kustomizations; a chart's) join the cluster and are reconciled in
// turn, and so are the ConfigMaps and Secrets they produce, seen by
// valuesFrom and substituteFrom. Kustomizations go first, so that every
// HelmRelease sees the values objects Kustomizations produce, as the real
// controllers do once they have converged; and a producer that names a
// source, valuesFrom or substituteFrom object not on the cluster is tried
// again once others have added objects, until nothing changes. Outputs are grouped by
// producer, in the order the producers were reconciled, each group in the
// tool's order. A produced object that is already on the cluster is an
// error wrapping ErrCycle, unless it is the same object but for the owner
// labels (a Kustomization that manages itself and its GitRepository, as
// flux bootstrap's flux-system does): then it is not output again. Errors of one producer do not
// stop the others: all are returned, joined, with the outputs of the
// producers that rendered.
func (c *Controller) Reconcile(ctx context.Context, cl Cluster, objs []*manifest.Object) ([]Output, []string, error) {
	r := &run{c: c, cl: cl, objects: map[manifest.Key]entry{}, depth: map[*manifest.Object]int{}}
	for _, o := range objs {
		r.objects[o.Key()] = entry{obj: o}
		if producer(o) {
			r.pending = append(r.pending, o)
		}
	}
	r.tried = len(r.objects)
	for {
		if err := r.drain(ctx); err != nil {
			return r.outputs, r.warnings, err
		}
		if len(r.waiting) == 0 || len(r.objects) == r.tried {
			break
		}
		// Objects were added since the waiting producers were tried.
		r.tried = len(r.objects)
		for _, w := range r.waiting {
			r.pending = append(r.pending, w.obj)
		}
		r.waiting = nil
	}
	for _, w := range r.waiting {
		r.warnings = append(r.warnings, w.warnings...)
		r.errs = append(r.errs, w.err)
	}
	return r.outputs, r.warnings, manifest.Join(r.errs...)
}

// drain reconciles the pending producers; one that waits for an object
// not on the cluster yet is set aside with its warnings.
func (r *run) drain(ctx context.Context) error {
	for len(r.pending) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		o := r.next()
		nwarn := len(r.warnings)
		var out []Output
		var err error
		if o.Kind() == "Kustomization" {
			out, err = r.kustomization(o)
		} else {
			out, err = r.helmRelease(o)
		}
		switch {
		case err != nil && waiting(err):
			warned := slices.Clone(r.warnings[nwarn:])
			r.warnings = r.warnings[:nwarn]
			r.waiting = append(r.waiting, failed{o, err, warned})
		case err != nil:
			r.errs = append(r.errs, err)
		default:
			r.add(o, out)
		}
	}
	return nil
}

// producer reports whether o is a HelmRelease or a Kustomization.
func producer(o *manifest.Object) bool {
	switch manifest.Group(o.APIVersion()) + "/" + o.Kind() {
	case helmGroup + "/HelmRelease", kustomizeGroup + "/Kustomization":
		return true
	}
	return false
}

// next takes the first pending Kustomization, else the first HelmRelease.
func (r *run) next() *manifest.Object {
	i := 0
	for j, o := range r.pending {
		if o.Kind() == "Kustomization" {
			i = j
			break
		}
	}
	o := r.pending[i]
	r.pending = append(r.pending[:i], r.pending[i+1:]...)
	return o
}

// add puts what by produced on the cluster.
func (r *run) add(by *manifest.Object, out []Output) {
	for _, po := range out {
		k := po.Object.Key()
		if prev, ok := r.objects[k]; ok {
			if sameObject(prev.obj, po.Object) {
				continue // a Kustomization managing itself and its source, or an object written twice the same
			}
			r.errs = append(r.errs, r.duplicate(by, k, prev))
			continue
		}
		r.objects[k] = entry{obj: po.Object, by: by}
		r.outputs = append(r.outputs, po)
		if producer(po.Object) {
			d := r.depth[by] + 1
			if d >= maxDepth {
				r.errs = append(r.errs, r.fail(by, "", "%w: %s is %d producers deep", ErrDepth, k, d+1))
				continue
			}
			r.depth[po.Object] = d
			r.pending = append(r.pending, po.Object)
		}
	}
}

// sameObject reports whether a and b are the same object but for the
// owner labels the controllers add (a Kustomization that applies the
// very files it was read from, as flux bootstrap's flux-system does).
func sameObject(a, b *manifest.Object) bool {
	return reflect.DeepEqual(withoutOwnerLabels(a.Data), withoutOwnerLabels(b.Data))
}

// withoutOwnerLabels is data with neither controller's owner labels,
// copied only as deep as needed.
func withoutOwnerLabels(data map[string]any) map[string]any {
	md, _ := data["metadata"].(map[string]any)
	labels, _ := md["labels"].(map[string]any)
	if labels == nil {
		return data
	}
	l := make(map[string]any, len(labels))
	for k, v := range labels {
		switch k {
		case labelKustomizeName, labelKustomizeNamespace, labelHelmName, labelHelmNamespace:
		default:
			l[k] = v
		}
	}
	m := make(map[string]any, len(md))
	for k, v := range md {
		m[k] = v
	}
	if len(l) == 0 {
		delete(m, "labels")
	} else {
		m["labels"] = l
	}
	d := make(map[string]any, len(data))
	for k, v := range data {
		d[k] = v
	}
	d["metadata"] = m
	return d
}

// duplicate is the error about by producing k, which prev already is.
func (r *run) duplicate(by *manifest.Object, k manifest.Key, prev entry) error {
	first := "an input"
	if prev.by != nil {
		first = subject(prev.by).String()
	}
	err := r.fail(by, "", "%w: %s is on the cluster already (%s); one object must have one producer", ErrCycle, k, first)
	if p := prev.obj.Pos; p.IsValid() {
		err.Related = append(err.Related, manifest.Related{What: "first at", Pos: p})
	} else if prev.by != nil && prev.by.Pos.IsValid() {
		err.Related = append(err.Related, manifest.Related{What: "first producer at", Pos: prev.by.Pos})
	}
	return err
}

// lookup is the object k names on the cluster, nil when there is none.
func (r *run) lookup(k manifest.Key) *manifest.Object {
	return r.objects[k].obj
}

// source is the Flux source of kind namespace/name on the cluster.
func (r *run) source(kind, namespace, name string) *manifest.Object {
	return r.lookup(manifest.Key{Group: sourceGroup, Kind: kind, Namespace: namespace, Name: name})
}

// subject names a producer in errors: `HelmRelease ns/name`.
func subject(o *manifest.Object) manifest.Subject {
	return manifest.Subject{Kind: o.Kind(), Name: o.Namespace() + "/" + o.Name(), Bare: true}
}

// fail is an error about producer o, at field (a spec path) when its
// position is known.
func (r *run) fail(o *manifest.Object, field, format string, args ...any) *manifest.Error {
	pos := o.Pos
	var path fieldpath.Path
	if field != "" {
		if p, err := fieldpath.Parse(field); err == nil {
			path = p
			pos = o.FieldPos(p)
		}
	}
	e := manifest.Errorf(pos, []manifest.Subject{subject(o)}, format, args...)
	e.Field = path
	return e
}

// warnf records a warning about producer o.
func (r *run) warnf(o *manifest.Object, format string, args ...any) {
	msg := subject(o).String() + ": " + fmt.Sprintf(format, args...)
	if o.Pos.IsValid() {
		msg = o.Pos.String() + ": " + msg
	}
	r.warnings = append(r.warnings, msg)
}

// skip reports (and warns) when a producer is not rendered here: it is
// suspended, or applies to a remote cluster through spec.kubeConfig.
func (r *run) skip(o *manifest.Object, suspend bool, kubeConfig any) bool {
	switch {
	case suspend:
		r.warnf(o, "spec.suspend is true: not rendered")
		return true
	case kubeConfig != nil:
		r.warnf(o, "spec.kubeConfig applies it to a remote cluster: not rendered on cluster %s", r.cl.Name)
		return true
	}
	return false
}
