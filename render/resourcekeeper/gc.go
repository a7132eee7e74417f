package resourcekeeper

import (
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// Action is what KubeVela's garbage collection does with an object an
// application no longer renders.
type Action int

// The garbage collection's actions.
const (
	// Delete deletes the object.
	Delete Action = iota
	// Keep leaves it as it is.
	Keep
	// Detach keeps it without its owner labels (Detach).
	Detach
)

// Decision is what the garbage collection does with an object, and why.
type Decision struct {
	Action Action
	Reason string
}

// Gone is an object an application wrote in the base render that the new
// render no longer writes.
type Gone struct {
	// Object holds what resource policy rules select by: its kind, name
	// and labels.
	Object *manifest.Object
	// App is the application that owned it ("namespace/name").
	App string
	// SharedBy is its app.oam.dev/shared-by annotation.
	SharedBy string
}

// Collect is KubeVela's garbage collection of g (docs/research/kubevela-gc.md):
// base and head are the applications' resource policies before and after
// the change, by "namespace/name" (an application missing from head is
// deleted), suspended the applications whose new workflow stopped at a
// suspend step.
//
// An object the application no longer renders is deleted, unless the
// garbage-collect policy recorded it in the root resource tracker (a rule
// with strategy onAppDelete or never, chosen when the object was written,
// so by the base's policy) or keeps legacy resources (keepLegacyResource,
// the new policy's); an orphan propagation detaches it. A shared object
// goes to the first remaining sharer, and the last sharer's garbage
// collection decides. A deleted application deletes what it owned except
// what a never rule or an orphan propagation detaches.
func (g Gone) Collect(base, head map[string]*Resources, suspended map[string]bool) Decision {
	app, shared := g.App, "" // shared: which sharer decided, for a shared object
	if sharers := strings.Split(g.SharedBy, ","); len(sharers) > 1 {
		// Each sharer that stops rendering it hands it to the next; the
		// last one's garbage collection decides.
		app = sharers[len(sharers)-1]
		shared = " (the last of its sharers: " + g.SharedBy + ")"
	}
	old := base[app]
	if old == nil {
		old = &Resources{}
	}
	now, updated := head[app]
	if updated && now == nil {
		now = &Resources{}
	}
	keep := func(why string) Decision {
		return Decision{Keep, "application " + app + ": " + why + shared}
	}
	detach := func(why string) Decision {
		return Decision{Detach, "application " + app + ": " + why + "; KubeVela keeps it and removes its owner labels" + shared}
	}
	strategy, rule := old.GarbageCollect.FindStrategy(g.Object)
	if updated {
		switch {
		case suspended[app]:
			return keep("its workflow is suspended, and KubeVela garbage-collects earlier revisions only once it succeeds")
		case strategy == GCOnAppDelete || strategy == GCNever:
			return keep(fmt.Sprintf("garbage-collect rule %d (strategy %s) keeps it until the application is deleted", rule, strategy))
		case now.GarbageCollect != nil && now.GarbageCollect.KeepLegacyResource:
			return keep("garbage-collect keepLegacyResource keeps what earlier revisions rendered")
		}
		if orphan, rule := now.GarbageCollect.Orphans(g.Object); orphan {
			return detach(fmt.Sprintf("no longer rendered; garbage-collect rule %d (propagation orphan)", rule))
		}
		return Decision{Delete, "application " + app + " no longer renders it (garbage-collected)" + shared}
	}
	// The application is deleted: its own last policies decide.
	if strategy == GCNever {
		return detach(fmt.Sprintf("deleted; garbage-collect rule %d (strategy never)", rule))
	}
	if orphan, rule := old.GarbageCollect.Orphans(g.Object); orphan {
		return detach(fmt.Sprintf("deleted; garbage-collect rule %d (propagation orphan)", rule))
	}
	return Decision{Delete, "application " + app + " is deleted" + shared}
}

// DetachObject removes from o what ties it to its applications, as
// KubeVela does to an object its garbage collection keeps: the owner
// labels and, for the last sharer, the shared-by annotation. The API
// server keeps no empty map.
func DetachObject(o *manifest.Object) {
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
}

// OnUpdate is what KubeVela dispatches when it updates live to desired
// under the apply-once strategy (ApplyStrategies): desired with the
// strategy's paths taken from live, which it changes, or live itself for
// the path "*". A path live lacks fails the dispatch, which leaves live
// as it is: why says so, and out is nil.
func (in *ApplyOnceStrategy) OnUpdate(live, desired *manifest.Object) (out *manifest.Object, why string) {
	for _, path := range in.Path {
		if path == "*" {
			return live, ""
		}
		fp, err := fieldpath.Parse(path)
		var v any
		ok := err == nil && len(fp) > 0
		if ok {
			v, ok = fieldpath.Get(live.Data, fp)
		}
		if !ok {
			return nil, fmt.Sprintf("apply-once path %q is not in the object in the cluster: KubeVela's dispatch fails and leaves it as it is", path)
		}
		if err := fieldpath.Set(desired.Data, fp, manifest.DeepCopy(v)); err != nil {
			return nil, fmt.Sprintf("apply-once path %q: %v: KubeVela's dispatch fails and leaves it as it is", path, err)
		}
	}
	return desired, ""
}
