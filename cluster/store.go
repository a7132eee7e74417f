package cluster

import (
	"sort"

	"github.com/drydock-dev/drydock/manifest"
)

// Entry is an object held by a fake cluster, with where it came from.
type Entry struct {
	Object *manifest.Object
	// Source describes the writer (for `# Source:` comments), e.g.
	// "application first-vela-app, component web, step deploy2prod".
	Source string
	// Origin is the authored input that produced the object.
	Origin Origin
}

// Origin is where an object in a fake cluster comes from in the authored
// inputs: what a finding about the object points at.
type Origin struct {
	// Pos is the component, policy, step or template that produced it.
	Pos         manifest.Pos
	Application string
	Component   string
}

// Store is the actual state of every fake cluster. Apply is the only
// write: the desired state a render computes reaches a Store through it.
type Store struct {
	clusters map[string]map[manifest.Key]Entry
}

// NewStore returns a store of empty clusters.
func NewStore() *Store {
	return &Store{clusters: map[string]map[manifest.Key]Entry{}}
}

// Apply writes obj to the named cluster; an object of the same key is
// replaced.
func (s *Store) Apply(cluster string, e Entry) {
	m := s.clusters[cluster]
	if m == nil {
		m = map[manifest.Key]Entry{}
		s.clusters[cluster] = m
	}
	m[e.Object.Key()] = e
}

// Get returns the object of key in cluster.
func (s *Store) Get(cluster string, key manifest.Key) (Entry, bool) {
	e, ok := s.clusters[cluster][key]
	return e, ok
}

// Clusters returns the names of clusters holding objects, sorted.
func (s *Store) Clusters() []string {
	return manifest.SortedKeys(s.clusters)
}

// List returns a cluster's objects ordered by key.
func (s *Store) List(cluster string) []Entry {
	m := s.clusters[cluster]
	keys := make([]manifest.Key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Less(keys[j]) })
	out := make([]Entry, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}
