// Package reconcile answers what a change does to every cluster: it
// reconciles a base render (the clusters' actual state) with a new render
// (the desired state) the way KubeVela's and Karmada's controllers would,
// and lists per cluster the objects created, updated and deleted, each
// with its reason, garbage collection included.
//
// What KubeVela deletes follows its resource keeper
// (docs/research/kubevela-gc.md): an object an Application no longer
// renders is deleted, unless the Application's garbage-collect policy
// recorded it in the root resource tracker (a rule with strategy
// onAppDelete or never, chosen when the object was written, so by the
// base's policy) or keeps legacy resources (keepLegacyResource, the new
// policy's); an orphan propagation keeps the object and removes its owner
// labels. An object a read-only policy selects is never written, so never
// deleted. A shared object (shared-resource) goes to the first remaining
// sharer, and the last sharer's garbage collection decides. A deleted
// Application deletes what it owned except what a never rule or an orphan
// propagation keeps (detached). Objects are
// identified by cluster, group, kind, namespace and name, as KubeVela's
// resource trackers do (the version is ignored): an object moved to
// another cluster is a delete there and a create here.
package reconcile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/policy"
)

// Side is one render: its objects as a Recorder received them and the
// resource policies of its Applications (pipeline.Result.Resources).
type Side struct {
	Objects   *Recorder
	Resources map[string]*policy.Resources
	// Suspended names the Applications whose workflow stopped at a
	// suspend step (pipeline.Result.Suspended).
	Suspended map[string]bool
	// Frozen are member objects Karmada leaves as they are without
	// dispatching them, and Preserved those it leaves in the member when
	// their Work goes (preserveResourcesOnDeletion), by cluster and key,
	// with why (pipeline.Result.Works).
	Frozen, Preserved map[string]map[manifest.Key]string
}

// Recorder is a cluster.Sink (for pipeline.Stream) keeping of each object
// what Compute needs: its canonical encoding, writer and the fields
// garbage-collect rules select by. It holds bytes, not object trees, so a
// large render costs little memory and collector time. A later object of
// the same cluster and key replaces an earlier one, as in the clusters.
type Recorder struct {
	objects map[string]map[manifest.Key]*record
}

type record struct {
	data                     []byte
	apiVersion, path, source string
	owner                    string
	// propagated and replicas are the entry's (Karmada's propagation).
	propagated bool
	replicas   int
	// sharedBy is its app.oam.dev/shared-by annotation.
	sharedBy string
	// selector holds the object's kind, name and the values of the labels
	// in selectorLabels: what a resource policy rule selects by.
	selector [2 + len(selectorLabels)]string
}

var selectorLabels = [...]string{render.LabelAppComponent, render.LabelWorkloadType, render.LabelResourceType, render.LabelTraitType}

// selected is the part of the object resource policy rules look at.
func (r *record) selected() *manifest.Object {
	labels := map[string]any{}
	for i, l := range selectorLabels {
		if v := r.selector[2+i]; v != "" {
			labels[l] = v
		}
	}
	return manifest.New(map[string]any{"kind": r.selector[0], "metadata": map[string]any{"name": r.selector[1], "labels": labels}})
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{objects: map[string]map[manifest.Key]*record{}} }

// Put records e in cluster c.
func (r *Recorder) Put(c string, e cluster.Entry) error {
	data, err := golden.Encode(e.Object)
	if err != nil {
		return fmt.Errorf("%s %s: %w", c, e.Object.Key(), err)
	}
	m := r.objects[c]
	if m == nil {
		m = map[manifest.Key]*record{}
		r.objects[c] = m
	}
	rec := &record{data: data, apiVersion: e.Object.APIVersion(), path: golden.ObjectPath(c, e.Object), source: e.Source, owner: e.Owner,
		propagated: e.Propagated, replicas: e.Replicas,
		sharedBy: manifest.String(e.Object.Data, "metadata", "annotations", render.AnnotationAppSharedBy)}
	rec.selector[0], rec.selector[1] = e.Object.Kind(), e.Object.Name()
	labels := e.Object.Labels()
	for i, l := range selectorLabels {
		rec.selector[2+i] = labels[l]
	}
	m[e.Object.Key()] = rec
	return nil
}

// Action is what a controller does to an object.
type Action string

// The actions of a Plan.
const (
	Create Action = "create"
	Update Action = "update"
	Delete Action = "delete"
)

// Change is one object's change in one cluster.
type Change struct {
	Cluster string
	Key     manifest.Key
	// APIVersion is the object's (the new one's when it has one).
	APIVersion string
	// Path is the object's file in the output tree.
	Path   string
	Action Action
	// Reason says why: what writes the object (its component, trait,
	// policy, override), or which garbage collection deletes it.
	Reason string
	// Base and Head are the object before and after, encoded
	// canonically; nil where it does not exist.
	Base, Head []byte
}

// Kept is an object the new render would delete or change that the
// controllers leave as it is in its cluster, and why.
type Kept struct {
	Cluster    string
	Key        manifest.Key
	APIVersion string
	Path       string
	Reason     string
}

// Plan is what the change does, per cluster: its Changes sorted by
// cluster and key, the objects the controllers keep as they are, and how
// many objects the new render leaves unchanged.
type Plan struct {
	Changes   []Change
	Kept      []Kept
	Unchanged int
}

// Count is the number of changes of each action.
func (p *Plan) Count(a Action) int {
	n := 0
	for _, c := range p.Changes {
		if c.Action == a {
			n++
		}
	}
	return n
}

// Diff is the unified diff of c's object (base/ and head/ prefixed to its
// path in the output tree).
func (c *Change) Diff() string {
	from, to := "base/"+c.Path, "head/"+c.Path
	if c.Base == nil {
		from = "/dev/null"
	}
	if c.Head == nil {
		to = "/dev/null"
	}
	return golden.Unified(from, to, c.Base, c.Head)
}

// Compute reconciles base onto head.
func Compute(base, head Side) (*Plan, error) {
	p := &Plan{}
	var clusters []string
	for _, r := range []*Recorder{base.Objects, head.Objects} {
		for c := range r.objects {
			if !slices.Contains(clusters, c) {
				clusters = append(clusters, c)
			}
		}
	}
	slices.Sort(clusters)
	for _, c := range clusters {
		keys := map[manifest.Key]bool{}
		for _, r := range []*Recorder{base.Objects, head.Objects} {
			for k := range r.objects[c] {
				keys[k] = true
			}
		}
		for _, k := range manifest.SortedObjectKeys(keys) {
			if err := p.add(c, k, base.Objects.objects[c][k], head.Objects.objects[c][k], base, head); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

func (p *Plan) add(c string, k manifest.Key, was, now *record, base, head Side) error {
	switch {
	case was == nil:
		p.Changes = append(p.Changes, Change{Cluster: c, Key: k, APIVersion: now.apiVersion, Path: now.path, Action: Create, Reason: now.source, Head: now.data})
	case now == nil:
		return p.gone(c, k, was, base, head)
	case string(was.data) == string(now.data):
		p.Unchanged++
	default:
		data, why, err := applyOnce(c, k, was, now, head)
		switch {
		case err != nil:
			return err
		case why != "":
			p.Kept = append(p.Kept, Kept{Cluster: c, Key: k, APIVersion: was.apiVersion, Path: was.path, Reason: why})
			return nil
		case string(was.data) == string(data):
			p.Unchanged++
			return nil
		}
		reason := now.source
		app, byApp := cluster.OwnerApplication(now.owner)
		switch {
		case !byApp || was.owner == now.owner:
		case was.owner == "":
			reason += "; " + now.owner + " takes over an object no application owned"
		case slices.Contains(strings.Split(was.sharedBy, ","), app):
			reason += "; shared-resource: " + now.owner + " owns it now, as the first remaining of its sharers (" + was.sharedBy + ")"
		default:
			reason += "; " + was.owner + " owned it before"
		}
		if from, to := was.replicas, now.replicas; from != to && from != 0 && to != 0 {
			reason += fmt.Sprintf("; Karmada moves replicas: %d → %d in %s", from, to, c)
		}
		p.Changes = append(p.Changes, Change{Cluster: c, Key: k, APIVersion: now.apiVersion, Path: now.path, Action: Update, Reason: reason, Base: was.data, Head: data})
	}
	return nil
}

// applyOnce is what KubeVela dispatches of now over the live object was
// when an apply-once rule of now's application selects it for updates
// (ApplyStrategies): its paths taken from the live object ("*": all of
// it). A path the live object lacks fails the dispatch, which leaves the
// object as it is: why says so.
func applyOnce(c string, k manifest.Key, was, now *record, head Side) (data []byte, why string, err error) {
	app, ok := cluster.OwnerApplication(now.owner)
	res := head.Resources[app]
	if !ok || res == nil {
		return now.data, "", nil
	}
	strategy := res.ApplyOnce.FindStrategy(now.selected())
	if !strategy.Affects(policy.ApplyOnceOnUpdate) {
		return now.data, "", nil
	}
	live, err := decodeRecord(c, k, was)
	if err != nil {
		return nil, "", err
	}
	desired, err := decodeRecord(c, k, now)
	if err != nil {
		return nil, "", err
	}
	for _, path := range strategy.Path {
		if path == "*" {
			return was.data, "", nil
		}
		fp, err := fieldpath.Parse(path)
		var v any
		ok := err == nil && len(fp) > 0
		if ok {
			v, ok = fieldpath.Get(live.Data, fp)
		}
		if !ok {
			return nil, fmt.Sprintf("application %s: apply-once path %q is not in the object in the cluster: KubeVela's dispatch fails and leaves it as it is", app, path), nil
		}
		if err := fieldpath.Set(desired.Data, fp, manifest.DeepCopy(v)); err != nil {
			return nil, fmt.Sprintf("application %s: apply-once path %q: %v: KubeVela's dispatch fails and leaves it as it is", app, path, err), nil
		}
	}
	data, err = golden.Encode(desired)
	if err != nil {
		return nil, "", fmt.Errorf("%s %s: %w", c, k, err)
	}
	return data, "", nil
}

// decodeRecord decodes the object r recorded.
func decodeRecord(c string, k manifest.Key, r *record) (*manifest.Object, error) {
	objs, err := manifest.Decode(r.path, r.data, manifest.DecodeOptions{})
	if err != nil || len(objs) != 1 {
		return nil, fmt.Errorf("%s %s: decode the recorded object: %v", c, k, err)
	}
	return objs[0], nil
}

// gone decides what becomes of an object the new render no longer writes.
func (p *Plan) gone(c string, k manifest.Key, was *record, base, head Side) error {
	shared := "" // which sharer decided, for a shared object
	change := func(a Action, reason string, after []byte) {
		p.Changes = append(p.Changes, Change{Cluster: c, Key: k, APIVersion: was.apiVersion, Path: was.path, Action: a, Reason: reason + shared, Base: was.data, Head: after})
	}
	app, ok := cluster.OwnerApplication(was.owner)
	if was.propagated {
		// Karmada removes the Work, and with it the object, from a member
		// no longer in the placement or of a template no longer there,
		// unless the Work stays without dispatching or preserves it.
		karmadaKeep := func(why string) {
			p.Kept = append(p.Kept, Kept{Cluster: c, Key: k, APIVersion: was.apiVersion, Path: was.path, Reason: why})
		}
		if why := head.Frozen[c][k]; why != "" {
			karmadaKeep(why)
		} else if why := base.Preserved[c][k]; why != "" {
			karmadaKeep("Karmada no longer propagates it to " + c + ", but " + why + ": it stays")
		} else {
			change(Delete, "Karmada no longer propagates it to "+c+" (was: "+was.source+")", nil)
		}
		return nil
	}
	if !ok {
		change(Delete, "no longer written (was: "+was.source+")", nil)
		return nil
	}
	if sharers := strings.Split(was.sharedBy, ","); len(sharers) > 1 {
		// Each sharer that stops rendering it hands it to the next; the
		// last one's garbage collection decides.
		app = sharers[len(sharers)-1]
		shared = " (the last of its sharers: " + was.sharedBy + ")"
	}
	old := base.Resources[app]
	if old == nil {
		old = &policy.Resources{}
	}
	now, updated := head.Resources[app]
	if updated && now == nil {
		now = &policy.Resources{}
	}
	keep := func(why string) {
		p.Kept = append(p.Kept, Kept{Cluster: c, Key: k, APIVersion: was.apiVersion, Path: was.path, Reason: "application " + app + ": " + why + shared})
	}
	detach := func(why string) error {
		o, err := decodeRecord(c, k, was)
		if err != nil {
			return err
		}
		// The last sharer drops the shared-by annotation too; the API
		// server keeps no empty map.
		for field, key := range map[string][]string{"labels": {render.LabelAppName, render.LabelAppNamespace}, "annotations": {render.AnnotationAppSharedBy}} {
			m := manifest.Map(o.Data, "metadata", field)
			n := len(m)
			for _, k := range key {
				delete(m, k)
			}
			if n > 0 && len(m) == 0 {
				delete(manifest.Map(o.Data, "metadata"), field)
			}
		}
		after, err := golden.Encode(o)
		if err != nil {
			return fmt.Errorf("%s %s: %w", c, k, err)
		}
		change(Update, "application "+app+": "+why+"; KubeVela keeps it and removes its owner labels", after)
		return nil
	}
	sel := was.selected()
	strategy, rule := old.GarbageCollect.FindStrategy(sel)
	if updated {
		switch {
		case head.Suspended[app]:
			keep("its workflow is suspended, and KubeVela garbage-collects earlier revisions only once it succeeds")
			return nil
		case strategy == policy.GCOnAppDelete || strategy == policy.GCNever:
			keep(fmt.Sprintf("garbage-collect rule %d (strategy %s) keeps it until the application is deleted", rule, strategy))
			return nil
		case now.GarbageCollect != nil && now.GarbageCollect.KeepLegacyResource:
			keep("garbage-collect keepLegacyResource keeps what earlier revisions rendered")
			return nil
		}
		if orphan, rule := now.GarbageCollect.Orphans(sel); orphan {
			return detach(fmt.Sprintf("no longer rendered; garbage-collect rule %d (propagation orphan)", rule))
		}
		change(Delete, "application "+app+" no longer renders it (garbage-collected)", nil)
		return nil
	}
	// The application is deleted: its own last policies decide.
	if strategy == policy.GCNever {
		return detach(fmt.Sprintf("deleted; garbage-collect rule %d (strategy never)", rule))
	}
	if orphan, rule := old.GarbageCollect.Orphans(sel); orphan {
		return detach(fmt.Sprintf("deleted; garbage-collect rule %d (propagation orphan)", rule))
	}
	change(Delete, "application "+app+" is deleted", nil)
	return nil
}
