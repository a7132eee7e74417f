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

// noResources are a lean entry's resource policies: none (dispatch only
// reads them).
var noResources = &resourcekeeper.Resources{}

// apply writes r's objects in workflow order; the application owns what
// it writes. hit, when set, is the render cache entry r came from: the
// object carries the hashes it holds (manifest.Object.Sums) while it is
// dispatched, and only then, since nothing changes a written object's
// data before it reaches the sinks (a copy, such as a shared resource's,
// has none). When r is nil, hit is a lean entry (see leanOf) and all
// there is: its Application only named, the writes' origins and sources
// as it holds them, the objects decoded (cached.objects) unless lazy,
// when each is written as a Lazy entry (cachedWrite.lazyObject), decoded
// only if a stage asks.
func (a *applier) apply(r *workflow.AppResult, hit *cached, lazy bool) error {
	var appKey string
	var n int
	resources := noResources
	if r != nil {
		appKey, n, resources = r.App.Namespace+"/"+r.App.Name, len(r.Writes), r.Resources
	} else {
		appKey, n = hit.namespace+"/"+hit.name, len(hit.ws)
	}
	owner := cluster.ApplicationOwner(appKey)
	for i := range n {
		e := cluster.Entry{Owner: owner}
		var target string
		switch {
		case r == nil:
			w := &hit.ws[i]
			target = w.cluster
			e.Source, e.Origin = w.leanParts()
			if lazy {
				e.Lazy = w.lazyObject()
			} else {
				e.Object = manifest.New(hit.writes[i].Resource.Object)
			}
		default:
			w := r.Writes[i]
			target = w.Cluster
			e.Source = source(r.App, w)
			e.Object = manifest.New(w.Resource.Object)
			e.Origin = origin(r.App, w)
			e.Object.Provenance = w.Resource.Provenance
			graftAuthored(r.App, w, e.Object)
			var me *cluster.MetaError
			if err := cluster.ValidateMeta(e.Object); errors.As(err, &me) {
				e.Origin.Pos = metaValuePos(r.App, w, me, e.Origin.Pos)
			}
		}
		if hit != nil && e.Object != nil {
			e.Object.Sums = hit.ws[i].lazy.Sums
		}
		written, err := a.keeper.Dispatch(target, e, appKey, resources)
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
