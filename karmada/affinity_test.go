package karmada

import (
	"testing"

	"github.com/drydock-dev/drydock/cluster"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

func decodeAffinity(t *testing.T, src string) *Affinity {
	t.Helper()
	objs, err := manifest.Decode("a.yaml", []byte("a: "+src), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := objs[0].Data["a"].(map[string]any)
	a, err := DecodeAffinity(m)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAffinityMatches(t *testing.T) {
	clusters := []*cluster.Cluster{
		{Name: "m1", Labels: map[string]string{"env": "prod"}, Provider: "aws", Region: "us-east-1", Zones: []string{"us-east-1a", "us-east-1b"}},
		{Name: "m2", Labels: map[string]string{"env": "dev"}, Provider: "gcp", Region: "europe-west1", Zones: []string{"europe-west1-b"}},
		{Name: "m3"},
	}
	tests := []struct {
		name string
		src  string
		want []string // names of the matching clusters
	}{
		{"absent", "null", []string{"m1", "m2", "m3"}},
		{"empty", "{}", []string{"m1", "m2", "m3"}},
		{"names", "{clusterNames: [m2, m3]}", []string{"m2", "m3"}},
		{"exclude wins", "{clusterNames: [m1, m2], exclude: [m1], labelSelector: {}}", []string{"m2"}},
		{"labels", "{labelSelector: {matchLabels: {env: prod}}}", []string{"m1"}},
		{"labels and names ANDed", "{clusterNames: [m2], labelSelector: {matchLabels: {env: prod}}}", nil},
		{"invalid label selector matches nothing", "{labelSelector: {matchExpressions: [{key: env, operator: In}]}}", nil},
		{"provider In", "{fieldSelector: {matchExpressions: [{key: provider, operator: In, values: [aws, gcp]}]}}", []string{"m1", "m2"}},
		{"region NotIn, empty field", "{fieldSelector: {matchExpressions: [{key: region, operator: NotIn, values: [us-east-1]}]}}", []string{"m2", "m3"}},
		{"expressions ANDed", "{fieldSelector: {matchExpressions: [{key: provider, operator: In, values: [aws, gcp]}, {key: region, operator: NotIn, values: [us-east-1]}]}}", []string{"m2"}},
		{"zone In is any overlap", "{fieldSelector: {matchExpressions: [{key: zone, operator: In, values: [us-east-1b, elsewhere]}]}}", []string{"m1"}},
		{"zone NotIn", "{fieldSelector: {matchExpressions: [{key: zone, operator: NotIn, values: [us-east-1a]}]}}", []string{"m2", "m3"}},
		{"zone Exists", "{fieldSelector: {matchExpressions: [{key: zone, operator: Exists}]}}", []string{"m1", "m2"}},
		{"invalid field value matches nothing", "{fieldSelector: {matchExpressions: [{key: region, operator: NotIn, values: ['a b']}]}}", nil},
		{"unknown operator matches nothing", "{fieldSelector: {matchExpressions: [{key: provider, operator: Like, values: [aws]}]}}", nil},
		{"empty fieldSelector", "{fieldSelector: {}}", []string{"m1", "m2", "m3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := decodeAffinity(t, tt.src)
			var got []string
			for _, c := range clusters {
				if a.Matches(c) {
					got = append(got, c.Name)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestAffinityDecodeAndValidate(t *testing.T) {
	tests := []struct {
		src, decodeErr, validateErr string
	}{
		{"{fieldSelector: {matchExpressions: [{key: zone, operator: In, values: [a]}]}}", "", ""},
		{"{fieldSelector: {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In}]}}", "",
			`fieldSelector.matchExpressions[0].key: unsupported key "topology.kubernetes.io/zone", must be provider, region, or zone`},
		{"{fieldSelector: {matchExpressions: [{key: region, operator: Exists}]}}", "",
			`fieldSelector.matchExpressions[0].operator: unsupported operator "Exists", must be In or NotIn`},
		{"{fieldSelector: {matchExpressions: [{operator: In}]}}", "fieldSelector.matchExpressions[0].key: Required value", ""},
		{"{clusterNames: member1}", `clusterNames: Invalid value: "string": must be of type array`, ""},
		{"{labelSelector: {matchLabels: []}}", `labelSelector.matchLabels: Invalid value: "array": must be of type object`, ""},
	}
	for _, tt := range tests {
		objs, err := manifest.Decode("a.yaml", []byte("a: "+tt.src), manifest.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := DecodeAffinity(objs[0].Data["a"].(map[string]any))
		if diff := cmp.Diff(tt.decodeErr, errString(err)); diff != "" {
			t.Errorf("%s: decode error -want +got:\n%s", tt.src, diff)
			continue
		}
		if err == nil {
			if diff := cmp.Diff(tt.validateErr, errString(a.Validate())); diff != "" {
				t.Errorf("%s: Validate -want +got:\n%s", tt.src, diff)
			}
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
