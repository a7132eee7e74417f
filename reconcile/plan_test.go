package reconcile

import (
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// TestComparePlaces: a plan's changes are ordered by cluster, then by
// key (namespace, group, kind, name).
func TestComparePlaces(t *testing.T) {
	a := place{"local", manifest.Key{Namespace: "a", Kind: "Service", Name: "z"}}
	tests := []struct {
		x, y place
		want int
	}{
		{a, a, 0},
		{a, place{"member1", manifest.Key{}}, -1},
		{place{"member1", manifest.Key{}}, a, 1},
		{a, place{"local", manifest.Key{Namespace: "b", Kind: "A", Name: "a"}}, -1},
		{a, place{"local", manifest.Key{Namespace: "a", Group: "apps", Kind: "Deployment", Name: "a"}}, -1},
		{place{"local", manifest.Key{Namespace: "a", Kind: "Service", Name: "zz"}}, a, 1},
	}
	for _, tt := range tests {
		if got := comparePlaces(tt.x, tt.y); got != tt.want {
			t.Errorf("comparePlaces(%v, %v) = %d, want %d", tt.x, tt.y, got, tt.want)
		}
	}
}

func TestCount(t *testing.T) {
	p := &Plan{Changes: []Change{{Action: Create}, {Action: Delete}, {Action: Create}}}
	for a, want := range map[Action]int{Create: 2, Update: 0, Delete: 1} {
		if got := p.Count(a); got != want {
			t.Errorf("Count(%s) = %d, want %d", a, got, want)
		}
	}
}
