package check

import (
	"encoding/json"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// store is what a run keeps between runs in (cache.Store).
type store interface {
	Get(k cache.Key) ([]byte, bool)
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

// loadKnown is what the store keeps of the comparisons of s with dir:
// nothing when it keeps nothing or what it keeps does not read.
func loadKnown(st store, k cache.Key) tree.Known {
	data, ok := st.Get(k)
	if !ok {
		return nil
	}
	known, err := tree.ParseKnown(data)
	if err != nil {
		return nil
	}
	return known
}
