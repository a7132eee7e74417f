package cluster

import (
	"encoding/json"
	"testing"
)

// TestClusterMatchesKarmadaRows runs karmadaClusterMatchesRows. As in
// Karmada's ClusterMatches, an affinity that does not decode or validate
// matches nothing.
func TestClusterMatchesKarmadaRows(t *testing.T) {
	c := &Cluster{Name: "cluster1", Labels: map[string]string{"foo": "bar"},
		Zones: []string{"zone1", "zone2", "zone3"}, Region: "region1", Provider: "provider1"}
	for _, tt := range karmadaClusterMatchesRows {
		t.Run(tt.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal([]byte(tt.affinity), &m); err != nil {
				t.Fatal(err)
			}
			got := false
			if a, err := DecodeAffinity(m); err == nil && a.Validate() == nil {
				got = a.Matches(c)
			}
			if got != tt.want {
				t.Errorf("matches = %t, want %t (affinity %s)", got, tt.want, tt.affinity)
			}
		})
	}
}
