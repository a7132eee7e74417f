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
// it writes.
func (a *applier) apply(r *workflow.AppResult) error {
	appKey := r.App.Namespace + "/" + r.App.Name
	owner := cluster.ApplicationOwner(appKey)
	for _, w := range r.Writes {
		e := cluster.Entry{Object: manifest.New(w.Resource.Object), Source: source(r.App, w), Origin: origin(r.App, w), Owner: owner}
		e.Object.Provenance = w.Resource.Provenance
		graftAuthored(r.App, w, e.Object)
		var me *cluster.MetaError
		if err := cluster.ValidateMeta(e.Object); errors.As(err, &me) {
			e.Origin.Pos = metaValuePos(r.App, w, me, e.Origin.Pos)
		}
		written, err := a.keeper.Dispatch(w.Cluster, e, appKey, r.Resources)
		if err != nil || !written {
			return err
		}
	}
	return nil
}
