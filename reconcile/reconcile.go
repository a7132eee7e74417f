// Package reconcile answers what a change does to every cluster: it
// reconciles a base render (the clusters' actual state) with a new render
// (the desired state) the way KubeVela's and Karmada's controllers would,
// and lists per cluster the objects created, updated and deleted, each
// with its reason, garbage collection included.
//
// What KubeVela deletes is its resource keeper's decision
// (render/resourcekeeper's Gone.Collect), made with the base's and the new
// render's resource policies; an object KubeVela detaches is an update
// that removes its owner labels. Objects are
// identified by cluster, group, kind, namespace and name, as KubeVela's
// resource trackers do (the version is ignored): an object moved to
// another cluster is a delete there and a create here.
//
// Plan.Classify marks the updates a reviewer need not read one by one:
// those that only change KubeVela's bookkeeping labels (a new application
// revision stamps every object it dispatches) and those that only change
// fields the caller's Ignore rules name; ByCluster, ByApplication and
// BookkeepingByApp count them.
package reconcile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/resourcekeeper"
	"github.com/drydock-dev/drydock/tree"
)

// Side is one render: its objects as a Recorder received them and the
// resource policies of its Applications (pipeline.Result.AppState.Resources).
type Side struct {
	Objects   *Recorder
	Resources map[string]*resourcekeeper.Resources
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
	objects map[place]*record
}

// place is where an object is: its cluster and key.
type place struct {
	cluster string
	key     manifest.Key
}

// comparePlaces orders places by cluster, then by key (Key.Less): the
// order of a Plan's changes.
func comparePlaces(a, b place) int {
	switch {
	case a.cluster != b.cluster:
		return strings.Compare(a.cluster, b.cluster)
	case a.key == b.key:
		return 0
	case a.key.Less(b.key):
		return -1
	}
	return 1
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
func NewRecorder() *Recorder { return &Recorder{objects: map[place]*record{}} }

// Put records e in cluster c.
func (r *Recorder) Put(c string, e cluster.Entry) error {
	data, err := tree.Encode(e.Object)
	if err != nil {
		return fmt.Errorf("%s %s: %w", c, e.Object.Key(), err)
	}
	rec := &record{data: data, apiVersion: e.Object.APIVersion(), path: tree.Path(c, e.Object), source: e.Source, owner: e.Owner,
		propagated: e.Propagated, replicas: e.Replicas,
		sharedBy: manifest.String(e.Object.Data, "metadata", "annotations", render.AnnotationAppSharedBy)}
	rec.selector[0], rec.selector[1] = e.Object.Kind(), e.Object.Name()
	labels := e.Object.Labels()
	for i, l := range selectorLabels {
		rec.selector[2+i] = labels[l]
	}
	r.objects[place{c, e.Object.Key()}] = rec
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
	// App is the application (namespace/name) that owns the object (the
	// new one's owner; the old one's for a delete), "" for none.
	App string
	// Noise, set by Plan.Classify, says whether the update only changes
	// KubeVela's bookkeeping (Bookkeeping) or ignored fields (Ignored).
	Noise Noise
	// Bookkeeping are the bookkeeping labels and annotations the update
	// changes, IgnoredBy the ignore rules that cover its other changes
	// (Plan.Classify; only for a Bookkeeping or Ignored update).
	Bookkeeping []KeyChange
	IgnoredBy   []string
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
	// MaxDiffLines caps each change's diff as reports show it
	// (ChangeDiff; 0: no cap).
	MaxDiffLines int
}

// ChangeDiff is c's diff as reports show it: cut after p.MaxDiffLines
// lines, with a last line saying how many were left out.
func (p *Plan) ChangeDiff(c *Change) string {
	d := c.Diff()
	if p.MaxDiffLines <= 0 {
		return d
	}
	n := 0
	for i := range len(d) {
		if d[i] != '\n' {
			continue
		}
		if n++; n == p.MaxDiffLines && i+1 < len(d) {
			rest := strings.Count(d[i+1:], "\n")
			if !strings.HasSuffix(d, "\n") {
				rest++
			}
			return d[:i+1] + fmt.Sprintf("... %d more diff lines (--max-diff-lines %d)\n", rest, p.MaxDiffLines)
		}
	}
	return d
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

// Compute reconciles base onto head: the objects that differ between the
// two renders (tree.Changes), each decided as the controllers would.
func Compute(base, head Side) (*Plan, error) {
	p := &Plan{}
	changes, unchanged := tree.Changes(base.Objects.objects, head.Objects.objects, comparePlaces,
		func(was, now *record) bool { return string(was.data) == string(now.data) })
	p.Unchanged = unchanged
	for _, c := range changes {
		if err := p.add(c.Key.cluster, c.Key.key, c.Old, c.New, base, head); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// add decides what the controllers do with an object that the new
// render adds (was nil), no longer writes (now nil) or changes.
func (p *Plan) add(c string, k manifest.Key, was, now *record, base, head Side) error {
	switch {
	case was == nil:
		p.Changes = append(p.Changes, Change{Cluster: c, Key: k, APIVersion: now.apiVersion, Path: now.path, Action: Create, Reason: now.source, Head: now.data, App: ownerApp(now)})
	case now == nil:
		return p.gone(c, k, was, base, head)
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
		p.Changes = append(p.Changes, Change{Cluster: c, Key: k, APIVersion: now.apiVersion, Path: now.path, Action: Update, Reason: reason, Base: was.data, Head: data, App: ownerApp(now)})
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
	if !strategy.Affects(resourcekeeper.ApplyOnceOnUpdate) {
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
	out, why := strategy.OnUpdate(live, desired)
	switch {
	case why != "":
		return nil, "application " + app + ": " + why, nil
	case out == live:
		return was.data, "", nil
	}
	data, err = tree.Encode(desired)
	if err != nil {
		return nil, "", fmt.Errorf("%s %s: %w", c, k, err)
	}
	return data, "", nil
}

// ownerApp is the application (namespace/name) owning r, "" for none.
func ownerApp(r *record) string {
	app, _ := cluster.OwnerApplication(r.owner)
	return app
}

// decodeRecord decodes the object r recorded.
func decodeRecord(c string, k manifest.Key, r *record) (*manifest.Object, error) {
	objs, err := manifest.Decode(r.path, r.data, manifest.DecodeOptions{})
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s %s: decode the recorded object: %w", c, k, err)
	case len(objs) != 1:
		return nil, fmt.Errorf("%s %s: the recorded object decodes to %d documents, want 1", c, k, len(objs))
	}
	return objs[0], nil
}

// gone decides what becomes of an object the new render no longer writes.
func (p *Plan) gone(c string, k manifest.Key, was *record, base, head Side) error {
	change := func(a Action, reason string, after []byte) {
		p.Changes = append(p.Changes, Change{Cluster: c, Key: k, APIVersion: was.apiVersion, Path: was.path, Action: a, Reason: reason, Base: was.data, Head: after, App: ownerApp(was)})
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
	d := resourcekeeper.Gone{Object: was.selected(), App: app, SharedBy: was.sharedBy}.Collect(base.Resources, head.Resources, head.Suspended)
	switch d.Action {
	case resourcekeeper.Keep:
		p.Kept = append(p.Kept, Kept{Cluster: c, Key: k, APIVersion: was.apiVersion, Path: was.path, Reason: d.Reason})
		return nil
	case resourcekeeper.Detach:
		o, err := decodeRecord(c, k, was)
		if err != nil {
			return err
		}
		resourcekeeper.DetachObject(o)
		after, err := tree.Encode(o)
		if err != nil {
			return fmt.Errorf("%s %s: %w", c, k, err)
		}
		change(Update, d.Reason, after)
		return nil
	}
	change(Delete, d.Reason, nil)
	return nil
}
