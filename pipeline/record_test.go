package pipeline

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRecord: each switch of Inputs.Record fills its record of Result,
// and the others stay nil.
func TestRecord(t *testing.T) {
	tests := []struct {
		name   string
		record Record
		want   []string
	}{
		{name: "none", want: nil},
		{name: "trace", record: Record{Trace: true}, want: []string{"trace"}},
		{name: "validate", record: Record{Validate: &Validation{}}, want: []string{"validation"}},
		{name: "status", record: Record{Status: true}, want: []string{"status"}},
		{name: "placement", record: Record{Placement: true}, want: []string{"placement"}},
		{name: "app state", record: Record{AppState: true}, want: []string{"app state"}},
		{name: "all", record: Record{Trace: true, Validate: &Validation{}, Status: true, Placement: true, AppState: true, Provenance: true},
			want: []string{"trace", "validation", "status", "placement", "app state"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Run(context.Background(), Inputs{Paths: []string{"../examples/vela-karmada"}, ClustersFromInputs: true, Record: tt.record})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if res.Trace != nil {
				got = append(got, "trace")
				if len(res.Trace.Applications) != res.Applications {
					t.Errorf("%d traces of %d applications", len(res.Trace.Applications), res.Applications)
				}
			}
			if res.Validation != nil {
				got = append(got, "validation")
			}
			if res.Status != nil {
				got = append(got, "status")
				if len(res.Status.Components) == 0 {
					t.Error("no component's status")
				}
			}
			if res.Placement != nil {
				got = append(got, "placement")
				explained := 0
				for _, c := range res.Clusters.Clusters() {
					for _, e := range res.Clusters.List(c) {
						if res.Placement.Of(c, e.Object.Key()) != nil {
							explained++
						}
					}
				}
				if explained == 0 {
					t.Error("no object's placement explained")
				}
			}
			if res.AppState != nil {
				got = append(got, "app state")
				if len(res.AppState.RevisionHashes) != res.Applications || len(res.AppState.Resources) != res.Applications {
					t.Errorf("app state %+v of %d applications", res.AppState, res.Applications)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			provenance := false
			for _, c := range res.Clusters.Clusters() {
				for _, e := range res.Clusters.List(c) {
					provenance = provenance || e.Object.Provenance != nil
				}
			}
			if provenance != tt.record.Provenance {
				t.Errorf("objects carry provenance: %v, want %v", provenance, tt.record.Provenance)
			}
		})
	}
}
