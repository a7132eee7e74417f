package cluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// modelView is a resource model as drydock keeps it: the grade and each
// range's minimum. Karmada's maxima are not kept (its estimator reads only
// the minima), so the rows' Max values are not compared.
type modelView struct {
	Grade int64
	Min   map[string]string
}

func viewModels(l []ResourceModel) []modelView {
	out := make([]modelView, len(l))
	for i, m := range l {
		out[i] = modelView{Grade: m.Grade, Min: map[string]string{}}
		for name, q := range m.Min {
			out[i].Min[name] = q.String()
		}
	}
	return out
}

// models decodes the resource models of a Cluster whose spec is given.
func models(t *testing.T, spec string) []modelView {
	t.Helper()
	objs, err := manifest.Decode("c.yaml", []byte("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: member1}\nspec: "+spec+"\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := decodeModels(objs[0])
	if err != nil {
		t.Fatal(err)
	}
	return viewModels(l)
}

// TestResourceModelsKarmadaRows are the rows of Karmada's
// TestSetDefaultClusterResourceModels and
// TestStandardizeClusterResourceModels (pkg/apis/cluster/mutation/
// mutation_test.go at f8fdd02): a Cluster without resource models gets the
// nine default grades; a Cluster's own models are sorted by grade, with
// the first grade's minimums 0. The "end with MaxInt64" row only changes a
// maximum, which drydock does not keep: its minimums must stay as given.
func TestResourceModelsKarmadaRows(t *testing.T) {
	grade := func(g int64, cpu, mem string) modelView {
		m := modelView{Grade: g, Min: map[string]string{"cpu": cpu}}
		if mem != "" {
			m.Min["memory"] = mem
		}
		return m
	}
	tests := []struct {
		name string
		spec string
		want []modelView
	}{
		{"test set default Cluster", "{}", []modelView{
			grade(0, "0", "0"), grade(1, "1", "4Gi"), grade(2, "2", "16Gi"), grade(3, "4", "32Gi"), grade(4, "8", "64Gi"),
			grade(5, "16", "128Gi"), grade(6, "32", "256Gi"), grade(7, "64", "512Gi"), grade(8, "128", "1Ti")}},
		{"sort models", "{resourceModels: [{grade: 2, ranges: [{name: cpu, min: 2, max: 9223372036854775807}]}, {grade: 1, ranges: [{name: cpu, min: 0, max: 2}]}]}",
			[]modelView{grade(1, "0", ""), grade(2, "2", "")}},
		{"start with 0", "{resourceModels: [{grade: 1, ranges: [{name: cpu, min: 1, max: 9223372036854775807}]}]}",
			[]modelView{grade(1, "0", "")}},
		{"end with MaxInt64", "{resourceModels: [{grade: 1, ranges: [{name: cpu, min: 0, max: 2}]}]}",
			[]modelView{grade(1, "0", "")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, models(t, tt.spec)); diff != "" {
				t.Errorf("models (-want +got):\n%s", diff)
			}
		})
	}
}
