package render

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
)

// Label keys KubeVela puts on dispatched objects.
const (
	LabelAppName         = "app.oam.dev/name"
	LabelAppNamespace    = "app.oam.dev/namespace"
	LabelAppRevision     = "app.oam.dev/appRevision"
	LabelAppComponent    = "app.oam.dev/component"
	LabelComponentRev    = "app.oam.dev/revision"
	LabelAppRevisionHash = "app.oam.dev/app-revision-hash"
	LabelAppCluster      = "app.oam.dev/cluster"
	LabelResourceType    = "app.oam.dev/resourceType"
	LabelWorkloadType    = "workload.oam.dev/type"
	LabelTraitType       = "trait.oam.dev/type"
	LabelTraitResource   = "trait.oam.dev/resource"
)

// RevisionHash is a stable hash of the application spec standing in for
// KubeVela's app-revision-hash label (1 to 16 lowercase hex digits).
func (a *Application) RevisionHash() string {
	if a.revisionHash == "" {
		h := fnv.New64a()
		spec, _ := json.Marshal(a.Object.Data["spec"])
		_, _ = h.Write(spec)
		a.revisionHash = fmt.Sprintf("%x", h.Sum64())
	}
	return a.revisionHash
}

// RevisionName is the name of the application's first revision (the
// appRevision label's value).
func (a *Application) RevisionName() string { return a.Name + "-v1" }
