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
// labels; an object a read-only policy selects was never owned, so never
// deleted. A deleted Application deletes what it owned except what a
// never rule or an orphan propagation keeps (detached). Objects are
// identified by cluster, group, kind, namespace and name, as KubeVela's
// resource trackers do (the version is ignored): an object moved to
// another cluster is a delete there and a create here.
package reconcile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/policy"
)

// Side is one render: the final state of its fake clusters and the
// resource policies of its Applications (pipeline.Result's Clusters and
// Resources).
type Side struct {
	Clusters  *cluster.Store
	Resources map[string]*policy.Resources
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

// Kept is an object no longer rendered that the controllers leave in its
// cluster, and why.
type Kept struct {
	Cluster    string
	Key        manifest.Key
	APIVersion string
	Path       string
	Reason     string
}

// Plan is what the change does, per cluster: its Changes sorted by
// cluster and key, the objects Kept though no longer rendered, and how
// many objects stay as they are.
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
	clusters := slices.Clone(base.Clusters.Clusters())
	for _, c := range head.Clusters.Clusters() {
		if !slices.Contains(clusters, c) {
			clusters = append(clusters, c)
		}
	}
	slices.Sort(clusters)
	for _, c := range clusters {
		entries := map[manifest.Key]*[2]*cluster.Entry{}
		for i, s := range []*cluster.Store{base.Clusters, head.Clusters} {
			for _, e := range s.List(c) {
				pair := entries[e.Object.Key()]
				if pair == nil {
					pair = &[2]*cluster.Entry{}
					entries[e.Object.Key()] = pair
				}
				pair[i] = &e
			}
		}
		for _, k := range manifest.SortedObjectKeys(entries) {
			if err := p.add(c, k, entries[k], base, head); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

func (p *Plan) add(c string, k manifest.Key, pair *[2]*cluster.Entry, base, head Side) error {
	was, now := pair[0], pair[1]
	var before, after []byte
	var err error
	if was != nil {
		if before, err = golden.Encode(was.Object); err != nil {
			return fmt.Errorf("%s %s: %w", c, k, err)
		}
	}
	if now != nil {
		if after, err = golden.Encode(now.Object); err != nil {
			return fmt.Errorf("%s %s: %w", c, k, err)
		}
	}
	switch {
	case was == nil:
		p.Changes = append(p.Changes, Change{Cluster: c, Key: k, APIVersion: now.Object.APIVersion(), Path: golden.ObjectPath(c, now.Object), Action: Create, Reason: now.Source, Head: after})
	case now == nil:
		p.gone(c, k, was, before, base, head)
	case string(before) == string(after):
		p.Unchanged++
	default:
		p.Changes = append(p.Changes, Change{Cluster: c, Key: k, APIVersion: now.Object.APIVersion(), Path: golden.ObjectPath(c, now.Object), Action: Update, Reason: now.Source, Base: before, Head: after})
	}
	return nil
}

// gone decides what becomes of an object the new render no longer writes.
func (p *Plan) gone(c string, k manifest.Key, was *cluster.Entry, before []byte, base, head Side) {
	apiVersion, path := was.Object.APIVersion(), golden.ObjectPath(c, was.Object)
	change := func(a Action, reason string, after []byte) {
		p.Changes = append(p.Changes, Change{Cluster: c, Key: k, APIVersion: apiVersion, Path: path, Action: a, Reason: reason, Base: before, Head: after})
	}
	app, ok := strings.CutPrefix(was.Owner, "application ")
	if !ok {
		change(Delete, "no longer written (was: "+was.Source+")", nil)
		return
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
		p.Kept = append(p.Kept, Kept{Cluster: c, Key: k, APIVersion: apiVersion, Path: path, Reason: "application " + app + ": " + why})
	}
	detach := func(why string) {
		o := manifest.New(manifest.DeepCopy(was.Object.Data).(map[string]any))
		labels := o.Labels()
		delete(labels, render.LabelAppName)
		delete(labels, render.LabelAppNamespace)
		setLabels(o, labels)
		after, err := golden.Encode(o)
		if err != nil { // o is was.Object less two labels
			panic(err)
		}
		change(Update, "application "+app+": "+why+"; KubeVela keeps it and removes its owner labels", after)
	}
	if old.ReadOnly.Matches(was.Object) {
		keep("read-only policy: KubeVela never owned it, so never deletes it")
		return
	}
	strategy, rule := old.GarbageCollect.FindStrategy(was.Object)
	if updated {
		switch {
		case strategy == policy.GCOnAppDelete || strategy == policy.GCNever:
			keep(fmt.Sprintf("garbage-collect rule %d (strategy %s) keeps it until the application is deleted", rule, strategy))
			return
		case now.GarbageCollect != nil && now.GarbageCollect.KeepLegacyResource:
			keep("garbage-collect keepLegacyResource keeps what earlier revisions rendered")
			return
		}
		if orphan, rule := now.GarbageCollect.Orphans(was.Object); orphan {
			detach(fmt.Sprintf("no longer rendered; garbage-collect rule %d (propagation orphan)", rule))
			return
		}
		change(Delete, "application "+app+" no longer renders it (garbage-collected)", nil)
		return
	}
	// The application is deleted: its own last policies decide.
	if strategy == policy.GCNever {
		detach(fmt.Sprintf("deleted; garbage-collect rule %d (strategy never)", rule))
		return
	}
	if orphan, rule := old.GarbageCollect.Orphans(was.Object); orphan {
		detach(fmt.Sprintf("deleted; garbage-collect rule %d (propagation orphan)", rule))
		return
	}
	change(Delete, "application "+app+" is deleted", nil)
}

// setLabels replaces o's labels (none: the field goes).
func setLabels(o *manifest.Object, labels map[string]string) {
	meta, _ := o.Data["metadata"].(map[string]any)
	if meta == nil {
		return
	}
	if len(labels) == 0 {
		delete(meta, "labels")
		return
	}
	m := make(map[string]any, len(labels))
	for k, v := range labels {
		m[k] = v
	}
	meta["labels"] = m
}
