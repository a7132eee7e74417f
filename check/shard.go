package check

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Shard is shard Index of Count (1-based) of a config's suites, so that
// Count CI jobs share them. The zero Shard is every suite.
type Shard struct {
	Index, Count int
}

// ParseShard reads "i/n" with 1 <= i <= n; "" is the zero Shard.
func ParseShard(spec string) (Shard, error) {
	if spec == "" {
		return Shard{}, nil
	}
	is, ns, ok := strings.Cut(spec, "/")
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("%q: want i/n with 1 <= i <= n", spec)
	}
	return Shard{Index: i, Count: n}, nil
}

// Suites returns the suites of the shard, sorted by name: every one for a
// Count below 1, else those dealt to Index when the sorted suites are
// dealt round-robin to Count shards (none for an Index out of range).
// suites is not modified.
func (s Shard) Suites(suites []Suite) []Suite {
	sorted := append([]Suite(nil), suites...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	if s.Count < 1 {
		return sorted
	}
	var out []Suite
	for k, suite := range sorted {
		if k%s.Count == s.Index-1 {
			out = append(out, suite)
		}
	}
	return out
}
