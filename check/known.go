package check

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// store is what a run keeps between runs in (cache.Store).
type store interface {
	Get(k cache.Key) ([]byte, bool)
	// GetString is Get of a record whose reader keeps parts of it (the
	// Known's paths): the cache maps it rather than reading it into memory
	// the process must first touch (cache.Store.GetString).
	GetString(k cache.Key) (string, bool)
	Put(k cache.Key, data []byte) error
}

// knownKey is where the store keeps what the last comparison of suite s
// with its golden directory dir (kind "golden"), or the last update of it
// ("golden-update"), learned (tree.Known): it holds only for that
// directory (by real path), the suite as configured (its mask) and this
// build. ok is false when there is no such key.
func knownKey(kind, dir string, s Suite) (cache.Key, bool) {
	real, err := manifest.RealPath(dir)
	if err != nil {
		return cache.Key{}, false
	}
	cfg, err := json.Marshal(s)
	if err != nil {
		return cache.Key{}, false
	}
	return cache.NewHasher(kind).String(real).Bytes(cfg).String(cache.BuildID()).Key(), true
}

// listingKey is where the store keeps the record of the listing of the
// golden directory made by the comparison whose Known is kept at k
// (golden.Comparer.Listed): it holds with that Known only, as the record
// itself checks.
func listingKey(k cache.Key) cache.Key {
	return cache.NewHasher("golden-listing").Bytes(k[:]).Key()
}

// The record of a Known is kept in parts, by path (partOf), so that a
// comparison that learned something of a few files of a large golden
// tree writes only their parts: at the key, a header names how many
// parts there are (knownParts of the record's size); each part is a
// tree.Known at partKey. Any part, however old, says only true things
// (a golden file with that FileID equals a rendered object with that
// digest): a part missing or unreadable is an empty one, whose files are
// read and learned again.

// knownHeader starts the header (and names the layout's version).
const knownHeader = "drydock known parts 1\n"

// knownPartSize is about how many files a part holds; maxKnownParts
// bounds their number.
const (
	knownPartSize = 512
	maxKnownParts = cache.MaxParts
)

// knownParts is how many parts a record of n files has: a power of two.
func knownParts(n int) int { return cache.PartsFor(n, knownPartSize) }

// loadKnown is what the store keeps of the comparisons of s with dir, and
// in how many parts (0: none): nothing when it keeps nothing or what it
// keeps does not read.
func loadKnown(st store, k cache.Key) (tree.Known, int) {
	data, ok := st.Get(k)
	if !ok {
		return nil, 0
	}
	rest, ok := bytes.CutPrefix(data, []byte(knownHeader))
	parts, err := strconv.Atoi(string(rest))
	if !ok || err != nil || parts < 0 || !cache.ValidParts(uint64(parts)) {
		return nil, 0
	}
	var known tree.Known
	for i := range parts {
		data, ok := st.GetString(cache.PartKey("known", k, parts, i))
		if !ok {
			continue
		}
		if known == nil {
			n, _ := tree.KnownLenString(data)
			known = make(tree.Known, n*parts)
		}
		// Parsed into the one map, its paths parts of data; a part that
		// does not read adds nothing, and a path of another part is not
		// this record's.
		_, _ = tree.ParseKnownString(data, known, func(p string) bool { return cache.PartOf(p, parts) == i })
	}
	if known == nil {
		known = tree.Known{}
	}
	return known, parts
}

// keepKnown keeps learned at k, whose record had parts parts (0: none)
// holding old: only the parts that changed are written, all of them
// (and the header) when their number changes.
func keepKnown(st store, k cache.Key, parts int, old, learned tree.Known) error {
	n := knownParts(len(learned))
	// Which parts changed, found without splitting old and learned into
	// maps (a run that changed one file rewrites one part): all when
	// their number changes.
	dirty := make([]bool, n)
	if parts == n {
		for p, f := range learned {
			if g, ok := old[p]; !ok || g != f {
				dirty[cache.PartOf(p, n)] = true
			}
		}
		for p := range old {
			if _, ok := learned[p]; !ok {
				dirty[cache.PartOf(p, n)] = true
			}
		}
	}
	return writeKnown(st, k, parts, learned, dirty)
}

// keepChanged keeps learned at k, whose record had parts parts (0: none)
// and differs from learned only at the paths changed: their parts are
// written, all of them (and the header) when their number changes.
func keepChanged(st store, k cache.Key, parts int, learned tree.Known, changed []string) error {
	n := knownParts(len(learned))
	dirty := make([]bool, n)
	if parts == n {
		for _, p := range changed {
			dirty[cache.PartOf(p, n)] = true
		}
	}
	return writeKnown(st, k, parts, learned, dirty)
}

// writeKnown writes the parts of learned marked dirty (all of them, and
// the header, when the record had another number of parts than dirty's).
func writeKnown(st store, k cache.Key, parts int, learned tree.Known, dirty []bool) error {
	n := len(dirty)
	if parts != n {
		for i := range dirty {
			dirty[i] = true
		}
	}
	now := make([]tree.Known, n)
	for p, f := range learned {
		if i := cache.PartOf(p, n); dirty[i] {
			if now[i] == nil {
				now[i] = tree.Known{}
			}
			now[i][p] = f
		}
	}
	for i := range n {
		if !dirty[i] {
			continue
		}
		if err := st.Put(cache.PartKey("known", k, n, i), now[i].Marshal()); err != nil {
			return err
		}
	}
	if parts == n {
		return nil
	}
	return st.Put(k, []byte(knownHeader+strconv.Itoa(n)))
}
