package schemas

import (
	"slices"
	"testing"
)

func TestAPIVersions(t *testing.T) {
	api, err := LoadKubeAPI("1.30")
	if err != nil {
		t.Fatal(err)
	}
	got := api.APIVersions()
	for _, want := range []string{"v1", "v1/ConfigMap", "apps/v1", "apps/v1/Deployment", "networking.k8s.io/v1/Ingress"} {
		if !slices.Contains(got, want) {
			t.Errorf("APIVersions() of 1.30 lacks %q", want)
		}
	}
	if slices.Contains(got, "extensions/v1beta1/Ingress") {
		t.Error("APIVersions() of 1.30 holds extensions/v1beta1/Ingress, removed in 1.22")
	}
	if !slices.IsSorted(got) {
		t.Error("APIVersions() is not sorted")
	}
}
