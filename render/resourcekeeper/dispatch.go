package resourcekeeper

import (
	"fmt"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// Keeper writes applications' objects to the fake clusters as KubeVela's
// resource keeper dispatches them (pkg/resourcekeeper dispatch, the
// apply options of pkg/utils/apply), checking each against the object
// already there:
//
//   - An object another application controls (its app.oam.dev/name and
//     namespace labels) is refused, unless both share it: a
//     shared-resource policy selects it in the writer and the owner wrote
//     it shared. A sharer that is not the owner only adds itself to the
//     owner's app.oam.dev/shared-by annotation; the owner's object stays.
//   - An object no application controls that has a resourceVersion (one
//     read from a cluster, given with --observed) is refused unless a
//     take-over policy selects it.
//   - An object a read-only policy selects is never written; it must
//     exist.
type Keeper struct {
	out *cluster.Store
	// before is the clusters' state before the render: observed objects
	// and addons' hub objects.
	before Live
	// shared holds the objects written with a shared-by annotation, by
	// cluster and key: a later sharer patches the annotation.
	shared map[string]map[manifest.Key]cluster.Entry
}

// Live is the clusters' state before the render (workflow.Observed).
type Live interface {
	Get(cluster string, key manifest.Key) (cluster.Entry, bool)
}

// New returns a keeper writing to out over the clusters' state before.
func New(out *cluster.Store, before Live) *Keeper {
	return &Keeper{out: out, before: before, shared: map[string]map[manifest.Key]cluster.Entry{}}
}

// existing is what the keeper knows of the object already at a key.
type existing struct {
	// entry is the object, when the keeper has it (shared or observed).
	entry        *cluster.Entry
	controlledBy string // "namespace/name" of the controlling application
	sharedBy     string
	versioned    bool // it has a resourceVersion
	// named is where its writer named it.
	named manifest.Pos
}

func describe(e cluster.Entry) existing {
	labels := e.Object.Labels()
	ex := existing{entry: &e, sharedBy: sharedBy(e.Object),
		versioned: manifest.String(e.Object.Data, "metadata", "resourceVersion") != ""}
	if name, ns := labels[render.LabelAppName], labels[render.LabelAppNamespace]; name != "" && ns != "" {
		ex.controlledBy = ns + "/" + name
	}
	return ex
}

// existing returns what is at key in cluster c, and whether anything is.
func (k *Keeper) existing(c string, key manifest.Key) (existing, bool) {
	owner, named, ok := k.out.Owner(c, key)
	if !ok {
		return existing{}, false
	}
	ex := existing{}
	if e, ok := k.shared[c][key]; ok {
		ex = describe(e)
	} else if app, ok := cluster.OwnerApplication(owner); ok {
		// KubeVela labels everything an application dispatches as its own.
		ex.controlledBy = app
	} else if e, ok := k.before.Get(c, key); ok {
		ex = describe(e)
	}
	ex.named = named
	return ex, true
}

// Dispatch writes e, desired by application app (its "namespace/name")
// with resource policies res, to cluster c as KubeVela's apply options
// allow: written is false when nothing is written (a read-only object),
// err says why KubeVela refuses it or why the store does. A Lazy entry
// (cluster.Lazy) must hold an object Lazily accepts; it is decoded only
// when a policy or the object already there must be looked at.
func (k *Keeper) Dispatch(c string, e cluster.Entry, app string, res *Resources) (written bool, err error) {
	write, ok, err := k.dispatch(c, e, app, res)
	if err != nil || !ok {
		return false, err
	}
	if err := k.out.Apply(c, write); err != nil {
		return false, err
	}
	key := write.Key()
	if write.Object == nil || sharedBy(write.Object) == "" { // a Lazy one has none (Lazily)
		delete(k.shared[c], key)
		return true, nil
	}
	if k.shared[c] == nil {
		k.shared[c] = map[manifest.Key]cluster.Entry{}
	}
	k.shared[c][key] = write
	return true, nil
}

// dispatch is KubeVela's apply options over e, desired by application
// appKey: what to write (ok false: nothing, for a read-only object), or
// why KubeVela refuses it. The entry is returned by value: a pointer to
// it would be allocated for every object dispatched.
func (k *Keeper) dispatch(c string, e cluster.Entry, appKey string, res *Resources) (write cluster.Entry, ok bool, err error) {
	ex, found := k.existing(c, e.Key())
	if e.Object == nil {
		// A Lazy object (Lazily) that no policy selects and nothing is
		// at: written as it is, undecoded (what the rest would do).
		if !found && res.SharedResource == nil && res.ReadOnly == nil {
			return e, true, nil
		}
		e.Object = e.Obj()
	}
	o := e.Object
	refuse := func(format string, args ...any) error {
		return &manifest.Error{Pos: e.NamePos(), Subjects: []manifest.Subject{{Kind: e.Origin.Subject()}},
			Err: fmt.Errorf("cluster %s: %s", c, fmt.Sprintf(format, args...))}
	}
	// conflict is a refusal because of the object already there, which it
	// locates; hint says what would allow it.
	conflict := func(hint, format string, args ...any) error {
		err := refuse(format, args...).(*manifest.Error)
		if ex.named.IsValid() {
			err.Err = fmt.Errorf("%v (%s)", err.Err, ex.named)
		}
		err.Err = fmt.Errorf("%v: %w%s", err.Err, cluster.ErrConflict, hint)
		return err
	}
	shared := res.SharedResource.Matches(o)
	if shared {
		// SharedByApp: the desired object lists its sharers.
		e.Object = manifest.New(manifest.DeepCopy(o.Data).(map[string]any))
		manifest.SetNested(e.Object.Data, addSharer(ex.sharedBy, appKey), "metadata", "annotations", render.AnnotationAppSharedBy)
		e.Object.Provenance = sharerProvenance(o, e.Object, appKey)
	}
	readOnly := res.ReadOnly.Matches(o)
	if !found {
		if readOnly {
			return cluster.Entry{}, false, refuse("%s (%s) is marked as read-only but does not exist. You should check the existence of the resource or remove the read-only policy", o.Kind(), o.Name())
		}
		return e, true, nil
	}
	nonOwnerSharer := false
	if shared && ex.controlledBy != "" && ex.controlledBy != appKey {
		if ex.sharedBy == "" {
			return cluster.Entry{}, false, conflict("; a shared-resource policy of its owner would share it", "%s: application is controlled by %s but is not sharable", o.Key(), ex.controlledBy)
		}
		nonOwnerSharer = true
	}
	if !nonOwnerSharer && !readOnly {
		// MustBeControlledByApp.
		switch {
		case ex.controlledBy == "" && ex.versioned && !res.TakeOver.Matches(o):
			return cluster.Entry{}, false, conflict("; a take-over policy would let the application own it", "%s %s/%s exists but not managed by any application now", o.Kind(), o.Namespace(), o.Name())
		case ex.controlledBy != "" && ex.controlledBy != appKey:
			return cluster.Entry{}, false, conflict("", "existing object %s %s/%s is managed by other application %s", o.Kind(), o.Namespace(), o.Name(), ex.controlledBy)
		}
	}
	switch {
	case readOnly:
		return cluster.Entry{}, false, nil
	case nonOwnerSharer:
		// Only the owner's shared-by annotation changes.
		patched := *ex.entry
		patched.Object = manifest.New(manifest.DeepCopy(patched.Object.Data).(map[string]any))
		manifest.SetNested(patched.Object.Data, sharedBy(e.Object), "metadata", "annotations", render.AnnotationAppSharedBy)
		patched.Object.Provenance = sharerProvenance(ex.entry.Object, patched.Object, appKey)
		return patched, true, nil
	}
	return e, true, nil
}

// Lazily reports whether Dispatch may be given o as a Lazy entry
// (cluster.Lazy), not decoded: o carries no shared-by annotation, which
// Dispatch reads of every object it writes.
func Lazily(o *manifest.Object) bool { return sharedBy(o) == "" }

// addSharer is KubeVela's AddSharer: app joins the comma-separated list
// unless it is there already (empty entries dropped when it joins).
func addSharer(sharedBy, app string) string {
	sharers := strings.Split(sharedBy, ",")
	if slices.Contains(sharers, app) {
		return sharedBy
	}
	sharers = slices.DeleteFunc(sharers, func(s string) bool { return s == "" })
	return strings.Join(append(sharers, app), ",")
}

// sharedBy is o's app.oam.dev/shared-by annotation.
func sharedBy(o *manifest.Object) string {
	return manifest.String(o.Data, "metadata", "annotations", render.AnnotationAppSharedBy)
}

// sharerProvenance is the provenance of shared, a copy of o whose
// shared-by annotation application app's apply wrote.
func sharerProvenance(o, shared *manifest.Object, app string) manifest.Provenance {
	if o.Provenance == nil {
		return nil
	}
	p := o.Provenance.Clone()
	p.Record(o.Data, shared.Data, manifest.Origin{Stage: manifest.StageLabels, Name: "KubeVela", Detail: "shared-resource policy of application " + app, Pos: o.Pos})
	return p
}
