package pipeline

import (
	"errors"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/resourcekeeper"
	"github.com/drydock-dev/drydock/render/workflow"
)

// applier hands applications' writes to KubeVela's resource keeper, which
// decides what reaches the fake clusters.
type applier struct {
	keeper *resourcekeeper.Keeper
}

func newApplier(out *cluster.Store, before workflow.Observed) *applier {
	return &applier{keeper: resourcekeeper.New(out, before)}
}

// apply writes r's objects in workflow order; the application owns what
// it writes. lean, when set, is what a lean cache entry holds of the
// Application: the writes' origins and sources (r.App is then only
// named: see leanOf). sums, when set, are the hashes of the writes'
// objects as the entry holds them: the object carries them
// (manifest.Object.Sums) while it is dispatched, and only then, since
// nothing changes a written object's data before it reaches the sinks (a
// copy, such as a shared resource's, has none). lazy, when set (with lean
// and sums), are the writes' objects as a lean entry holds them
// undecoded (cached.lazies): each is written as a Lazy entry, decoded
// only if a stage asks.
func (a *applier) apply(r *workflow.AppResult, lean *leanApp, sums []manifest.Sums, lazy []*cluster.Lazy) error {
	appKey := r.App.Namespace + "/" + r.App.Name
	owner := cluster.ApplicationOwner(appKey)
	for i, w := range r.Writes {
		e := cluster.Entry{Owner: owner}
		if lean != nil {
			e.Source = lean.sources[i]
		} else {
			e.Source = source(r.App, w)
		}
		if lazy != nil {
			e.Lazy = lazy[i]
		} else {
			e.Object = manifest.New(w.Resource.Object)
		}
		if lean != nil {
			e.Origin = lean.origins[i]
		} else {
			e.Origin = origin(r.App, w)
			e.Object.Provenance = w.Resource.Provenance
			graftAuthored(r.App, w, e.Object)
			var me *cluster.MetaError
			if err := cluster.ValidateMeta(e.Object); errors.As(err, &me) {
				e.Origin.Pos = metaValuePos(r.App, w, me, e.Origin.Pos)
			}
		}
		if sums != nil && e.Object != nil {
			e.Object.Sums = &sums[i]
		}
		written, err := a.keeper.Dispatch(w.Cluster, e, appKey, r.Resources)
		if e.Object != nil {
			e.Object.Sums = nil
		} else if o := e.Lazy.Decoded(); o != nil {
			o.Sums = nil // as a decoded hit's (Lazy.Object set them)
		}
		if err != nil || !written {
			return err
		}
	}
	return nil
}
