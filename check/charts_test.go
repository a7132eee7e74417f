package check

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	chartsource "github.com/drydock-dev/drydock/charts/source"
)

// TestWithCharts: test --charts come after a suite's charts:, --source
// replaces the suite's source of the same name.
func TestWithCharts(t *testing.T) {
	tests := []struct {
		name              string
		suite, more, want chartsource.Config
	}{
		{"none", chartsource.Config{}, chartsource.Config{}, chartsource.Config{}},
		{"suite alone", chartsource.Config{Charts: []string{"a"}, Sources: map[string]string{"s": "d"}}, chartsource.Config{},
			chartsource.Config{Charts: []string{"a"}, Sources: map[string]string{"s": "d"}}},
		{"flags after the suite's", chartsource.Config{Charts: []string{"a"}, Sources: map[string]string{"s": "d", "t": "e"}},
			chartsource.Config{Charts: []string{"b"}, Sources: map[string]string{"s": "x"}},
			chartsource.Config{Charts: []string{"a", "b"}, Sources: map[string]string{"s": "x", "t": "e"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			suiteSources := map[string]string{}
			for k, v := range tt.suite.Sources {
				suiteSources[k] = v
			}
			got := withCharts(tt.suite, tt.more)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("withCharts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(suiteSources, tt.suite.Sources, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("the suite's sources changed (-want +got):\n%s", diff)
			}
		})
	}
}
