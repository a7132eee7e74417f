package render

import "fmt"

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

// RevisionHash is the app.oam.dev/app-revision-hash label's value:
// KubeVela's application-revision hash, which render/revision computes and
// render/workflow sets (SetRevisionHash) once it knows what the revision
// records; "" before.
func (a *Application) RevisionHash() string { return a.revisionHash }

// SetRevisionHash records the application-revision hash.
func (a *Application) SetRevisionHash(h string) { a.revisionHash = h }

// RevisionNum is the number of the revision rendered (1 unless Revision
// says otherwise).
func (a *Application) RevisionNum() int { return max(a.Revision, 1) }

// RevisionName is the name of the revision rendered (the appRevision
// label's value): <name>-v<RevisionNum>.
func (a *Application) RevisionName() string { return fmt.Sprintf("%s-v%d", a.Name, a.RevisionNum()) }
