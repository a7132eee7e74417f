package check

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		spec string
		want Shard
		err  string
	}{
		{"", Shard{}, ""},
		{"1/1", Shard{1, 1}, ""},
		{"2/3", Shard{2, 3}, ""},
		{"3/2", Shard{}, `"3/2": want i/n with 1 <= i <= n`},
		{"0/2", Shard{}, `"0/2": want i/n with 1 <= i <= n`},
		{"1/0", Shard{}, `"1/0": want i/n with 1 <= i <= n`},
		{"1", Shard{}, `"1": want i/n with 1 <= i <= n`},
		{"a/b", Shard{}, `"a/b": want i/n with 1 <= i <= n`},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := ParseShard(tt.spec)
			msg := ""
			if err != nil {
				msg = manifest.Format(err, nil)
			}
			if diff := cmp.Diff(tt.err, msg); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("shard (-want +got):\n%s", diff)
			}
		})
	}
}

// TestShardSuites: suites are sorted by name and dealt round-robin, so
// every suite lands in exactly one shard whatever the config's order.
func TestShardSuites(t *testing.T) {
	var suites []Suite
	for _, n := range []string{"e", "b", "d", "a", "c"} {
		suites = append(suites, Suite{Name: n})
	}
	tests := []struct {
		name  string
		shard Shard
		want  []string
	}{
		{"all", Shard{}, []string{"a", "b", "c", "d", "e"}},
		{"1/1", Shard{1, 1}, []string{"a", "b", "c", "d", "e"}},
		{"1/2", Shard{1, 2}, []string{"a", "c", "e"}},
		{"2/2", Shard{2, 2}, []string{"b", "d"}},
		{"3/3", Shard{3, 3}, []string{"c"}},
		{"5/5", Shard{5, 5}, []string{"e"}},
		{"more shards than suites", Shard{7, 7}, nil},
		{"index out of range", Shard{4, 3}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range tt.shard.Suites(suites) {
				got = append(got, s.Name)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("suites (-want +got):\n%s", diff)
			}
		})
	}
	if suites[0].Name != "e" {
		t.Errorf("Suites sorted its argument: %v", suites)
	}
}
