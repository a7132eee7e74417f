package check

import (
	"fmt"
	"hash/fnv"
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

// Owns reports whether the shard owns the item key: an application's
// "namespace/name", a plain suite's input file by its slash path relative
// to the config's directory. The owner is a stable function of key alone
// (FNV-1a 64 of key, mod Count), so it depends neither on the order the
// inputs are read in nor on which file holds an application, and every
// key has exactly one owner among shards 1..Count. The zero Shard owns
// every key.
func (s Shard) Owns(key string) bool {
	if s.Count < 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	return int(h.Sum64()%uint64(s.Count)) == s.Index-1
}
