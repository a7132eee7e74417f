package render

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"regexp"
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

// TestRevisionHash: docs/divergences.md, "app.oam.dev/app-revision-hash":
// drydock hashes the application spec with FNV-64a, 1 to 16 hex digits.
// It follows the spec, not how it was written, nor the metadata.
func TestRevisionHash(t *testing.T) {
	hash := func(doc string) string {
		app, err := ParseApplication(decodeOne(t, "a.yaml", doc))
		if err != nil {
			t.Fatal(err)
		}
		h := app.RevisionHash()
		if again := app.RevisionHash(); again != h {
			t.Errorf("RevisionHash changed from %s to %s", h, again)
		}
		return h
	}
	base := hash(appHead + "  components:\n  - {name: c, type: worker, properties: {image: x, cmd: [a]}}\n")
	relabeled := hash("apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: b, namespace: prod, labels: {team: a}}\nspec:\n" +
		"  components:\n  - type: worker\n    properties:\n      cmd: [a]\n      image: x\n    name: c\n")
	changed := hash(appHead + "  components:\n  - {name: c, type: worker, properties: {image: y, cmd: [a]}}\n")
	empty := hash(appHead + "  components: []\n")

	h := fnv.New64a()
	spec, _ := json.Marshal(map[string]any{"components": []any{}})
	_, _ = h.Write(spec)
	want := fmt.Sprintf("%x", h.Sum64())

	hex := regexp.MustCompile(`^[0-9a-f]{1,16}$`)
	for _, h := range []string{base, changed, empty} {
		if !hex.MatchString(h) {
			t.Errorf("hash %q is not 1 to 16 hex digits", h)
		}
	}
	if base != relabeled {
		t.Errorf("the same spec hashes to %s and %s", base, relabeled)
	}
	if base == changed {
		t.Errorf("different specs hash to %s", base)
	}
	if diff := cmp.Diff(want, empty); diff != "" {
		t.Errorf("hash of an empty spec (-want +got):\n%s", diff)
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
