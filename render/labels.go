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

// AnnotationAppSharedBy lists the applications sharing an object
// ("namespace/name", comma-separated; the first owns it): what KubeVela's
// shared-resource policy writes.
const AnnotationAppSharedBy = "app.oam.dev/shared-by"

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

// RevisionNum is the number of the revision rendered (1 unless Revision
// says otherwise).
func (a *Application) RevisionNum() int { return max(a.Revision, 1) }

// RevisionName is the name of the revision rendered (the appRevision
// label's value): <name>-v<RevisionNum>.
func (a *Application) RevisionName() string { return fmt.Sprintf("%s-v%d", a.Name, a.RevisionNum()) }
