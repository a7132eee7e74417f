package check

import (
	"fmt"
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

// TestShardOwns: every key has exactly one owner among the n shards, the
// owner depends on the key alone, and the keys spread over the shards.
func TestShardOwns(t *testing.T) {
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("ns-%d/app-%d", i%7, i)
	}
	for _, n := range []int{1, 2, 3, 4, 7} {
		counts := make([]int, n)
		for _, k := range keys {
			owners := 0
			for i := 1; i <= n; i++ {
				if (Shard{i, n}).Owns(k) {
					owners++
					counts[i-1]++
				}
			}
			if owners != 1 {
				t.Fatalf("n=%d: %s has %d owners, want 1", n, k, owners)
			}
			if !(Shard{}).Owns(k) {
				t.Fatalf("the zero Shard does not own %s", k)
			}
		}
		for i, c := range counts {
			if want := len(keys) / n; c < want*3/4 || c > want*5/4 {
				t.Errorf("n=%d: shard %d owns %d of %d keys, want about %d", n, i+1, c, len(keys), want)
			}
		}
	}
	// The owner is a fixed function of the key: these pin it, so that a
	// change of hash (which would move applications between CI jobs and
	// their caches) is deliberate.
	pinned := []struct {
		key  string
		n    int
		want int
	}{
		{"default/web", 4, 4},
		{"prod/api", 4, 4},
		{"apps/a.yaml", 3, 3},
	}
	for _, p := range pinned {
		got := 0
		for i := 1; i <= p.n; i++ {
			if (Shard{i, p.n}).Owns(p.key) {
				got = i
			}
		}
		if got != p.want {
			t.Errorf("%s over %d: shard %d, want %d", p.key, p.n, got, p.want)
		}
	}
}
