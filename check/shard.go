package check

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"
)

// Shard is shard Index of Count (1-based) of a config's work, so that
// Count CI jobs share it: every suite runs in every shard, which renders
// and checks only the applications it Owns (and a plain suite's files it
// Owns); a suite whose checks see all its objects at once runs whole in
// one shard (Runs). The zero Shard is everything. See docs/sharding.md.
type Shard struct {
	Index, Count int
}

// Split reports whether the shard is one of several: it checks a part of
// each suite (Shard{1, 1} and the zero Shard check everything).
func (s Shard) Split() bool { return s.Count > 1 }

// First reports whether the shard is the first (or the only) one: where
// what cannot be split, such as the definition tests, runs.
func (s Shard) First() bool { return s.Index <= 1 }

// Splits reports whether suite s can be split by application or file:
// not when its checks see a cluster's (or every) object at once, as
// combined rules and Gatekeeper do.
func Splits(s Suite) bool { return !s.Combine && len(s.Gatekeeper) == 0 }

// Runs reports whether the shard runs suite s: every shard runs a suite
// that Splits; one that does not runs whole in the shard that owns the
// key "suite " + its name (every shard when the Shard is not Split).
func (s Shard) Runs(suite Suite) bool {
	return !s.Split() || Splits(suite) || s.Owns("suite "+suite.Name)
}

// splits reports whether the shard checks only a part of suite s.
func (s Shard) splits(suite Suite) bool { return s.Split() && Splits(suite) }

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

// Suites returns the suites sorted by name: every one for a Count below
// 1, else those dealt to Index when the sorted suites are dealt
// round-robin to Count shards (none for an Index out of range). suites is
// not modified. Run no longer deals suites so (it splits them: Owns,
// Runs); Suites stays for callers that want whole suites per job.
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
