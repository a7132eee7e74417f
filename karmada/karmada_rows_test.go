package karmada

import (
	"encoding/json"
	"testing"

	"github.com/drydock-dev/drydock/cluster"
)

// TestClusterMatchesKarmadaRows runs karmadaClusterMatchesRows. As in
// Karmada's ClusterMatches, an affinity that does not decode or validate
// matches nothing.
func TestClusterMatchesKarmadaRows(t *testing.T) {
	c := &cluster.Cluster{Name: "cluster1", Labels: map[string]string{"foo": "bar"},
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

// TestMatchZonesKarmadaRows are the rows of Karmada's Test_matchZones
// (pkg/util/selector_test.go at f8fdd02).
func TestMatchZonesKarmadaRows(t *testing.T) {
	tests := []struct {
		name     string
		operator string
		values   []string
		zones    []string
		want     bool
	}{
		{"empty zones for In operator", "In", []string{"foo"}, nil, false},
		{"overlapping zones for In operator", "In", []string{"foo"}, []string{"foo", "bar"}, true},
		{"all zones for In operator", "In", []string{"foo", "bar"}, []string{"foo", "bar"}, true},
		{"empty zones for NotIn operator", "NotIn", []string{"foo"}, nil, true},
		{"partial zones for NotIn operator", "NotIn", []string{"foo"}, []string{"foo", "bar"}, false},
		{"empty zones for Exists operator", "Exists", nil, nil, false},
		{"empty zones for DoesNotExist operator", "DoesNotExist", nil, nil, true},
		{"unknown operator", "Gt", nil, []string{"foo"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := FieldRequirement{Key: "zone", Operator: tt.operator, Values: tt.values}
			if got := zonesMatch(r, tt.zones); got != tt.want {
				t.Errorf("zonesMatch = %t, want %t", got, tt.want)
			}
		})
	}
}

// TestClusterFieldsKarmadaRows are the rows of Karmada's
// Test_extractClusterFields (pkg/util at f8fdd02), through field
// selectors: a cluster's provider and region are matchable fields only
// when set.
func TestClusterFieldsKarmadaRows(t *testing.T) {
	exists := func(key string) *Affinity {
		return &Affinity{FieldSelector: []FieldRequirement{{Key: key, Operator: "In", Values: []string{"foo", "bar"}}}}
	}
	tests := []struct {
		name             string
		c                *cluster.Cluster
		provider, region bool
	}{
		{"empty", &cluster.Cluster{Name: "c"}, false, false},
		{"provider is set", &cluster.Cluster{Name: "c", Provider: "foo"}, true, false},
		{"region is set", &cluster.Cluster{Name: "c", Region: "foo"}, false, true},
		{"all are set", &cluster.Cluster{Name: "c", Provider: "foo", Region: "bar"}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exists("provider").Matches(tt.c); got != tt.provider {
				t.Errorf("provider matches = %t, want %t", got, tt.provider)
			}
			if got := exists("region").Matches(tt.c); got != tt.region {
				t.Errorf("region matches = %t, want %t", got, tt.region)
			}
		})
	}
}
