package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLabelKeys: the keys are KubeVela's (pkg/oam/labels.go).
func TestLabelKeys(t *testing.T) {
	got := []string{LabelAppName, LabelAppNamespace, LabelAppRevision, LabelAppComponent, LabelComponentRev,
		LabelAppRevisionHash, LabelAppCluster, LabelResourceType, LabelWorkloadType, LabelTraitType, LabelTraitResource}
	want := []string{
		"app.oam.dev/name",              // oam.LabelAppName
		"app.oam.dev/namespace",         // oam.LabelAppNamespace
		"app.oam.dev/appRevision",       // oam.LabelAppRevision
		"app.oam.dev/component",         // oam.LabelAppComponent
		"app.oam.dev/revision",          // oam.LabelAppComponentRevision
		"app.oam.dev/app-revision-hash", // oam.LabelAppRevisionHash
		"app.oam.dev/cluster",           // oam.LabelAppCluster
		"app.oam.dev/resourceType",      // oam.LabelOAMResourceType
		"workload.oam.dev/type",         // oam.WorkloadTypeLabel
		"trait.oam.dev/type",            // oam.TraitTypeLabel
		"trait.oam.dev/resource",        // oam.TraitResource
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("label keys (-want +got):\n%s", diff)
	}
}

// TestRevisionHash: the application carries the hash it is given
// (render/revision computes KubeVela's; render/workflow sets it), none
// before.
func TestRevisionHash(t *testing.T) {
	app := &Application{Name: "shop"}
	if h := app.RevisionHash(); h != "" {
		t.Errorf("RevisionHash before SetRevisionHash = %q, want none", h)
	}
	app.SetRevisionHash("1c3d847600ac0514")
	if diff := cmp.Diff("1c3d847600ac0514", app.RevisionHash()); diff != "" {
		t.Errorf("RevisionHash (-want +got):\n%s", diff)
	}
}

// TestRevisionName: the first revision of an Application is <name>-v1
// (KubeVela's utils.ConstructRevisionName(name, 1)).
func TestRevisionName(t *testing.T) {
	app := &Application{Name: "shop"}
	if diff := cmp.Diff("shop-v1", app.RevisionName()); diff != "" {
		t.Errorf("RevisionName (-want +got):\n%s", diff)
	}
}
