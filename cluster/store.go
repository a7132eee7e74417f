package cluster

import (
	"errors"
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// Entry is an object held by a fake cluster, with where it came from.
type Entry struct {
	// Object is the object; nil while it is Lazy and not decoded (see
	// Obj, which decodes it).
	Object *manifest.Object
	// Lazy, when set, is the object known by its identity and hashes: a
	// store hands it undecoded only to a LazySink.
	Lazy *Lazy
	// Source describes the writer (for `# Source:` comments), e.g.
	// "application first-vela-app, component web, step deploy2prod".
	Source string
	// Origin is the authored input that produced the object.
	Origin Origin
	// Owner is who manages the object (ApplicationOwner("default/shop"),
	// an input document): a second owner writing the same object is
	// refused. "" (observed objects) conflicts with no one.
	Owner string
	// Propagated marks what a Karmada control plane propagated to a
	// member cluster; Replicas is the member's share of a divided
	// workload (0: not divided).
	Propagated bool
	Replicas   int
}

// applicationOwner starts the Owner of what an application dispatches.
const applicationOwner = "application "

// ApplicationOwner is the Owner of the objects application app
// (namespace/name) dispatches.
func ApplicationOwner(app string) string { return applicationOwner + app }

// OwnerApplication is the application (namespace/name) an Owner names,
// and whether it names one.
func OwnerApplication(owner string) (string, bool) {
	return strings.CutPrefix(owner, applicationOwner)
}

// Origin is where an object in a fake cluster comes from in the authored
// inputs: what a finding about the object points at.
type Origin struct {
	// Pos is the component, policy, step or template that produced it.
	Pos         manifest.Pos
	Application string
	Component   string
	// Trait is the trait type that produced the object, Policy the
	// policy whose definition rendered it ("" for none).
	Trait  string
	Policy string
}

// Subject names who produced the object the way render names them:
// `application "a" component "c" trait "t"`, `application "a": policy
// "p"`; "" for an object that no application produced.
func (o Origin) Subject() string {
	if o.Application == "" {
		return ""
	}
	s := fmt.Sprintf("application %q", o.Application)
	switch {
	case o.Policy != "":
		return s + fmt.Sprintf(": policy %q", o.Policy)
	case o.Component == "":
		return s
	}
	s += fmt.Sprintf(" component %q", o.Component)
	if o.Trait != "" {
		s += fmt.Sprintf(" trait %q", o.Trait)
	}
	return s
}

// Store is the actual state of every fake cluster. Apply is the only
// write: the desired state a render computes reaches a Store through it.
//
// A store made by NewStore keeps every object. One made by NewStreamingStore
// hands each object to a Sink as it is written and keeps, for the clusters
// it is not told to keep, only what Apply's checks need (each key's owner
// and where it was named): its memory does not grow with the objects' size.
type Store struct {
	// clusters holds the kept clusters' objects.
	clusters map[string]map[manifest.Key]Entry
	// index remembers every object given, in all clusters (see heldIndex).
	index heldIndex
	sink  Sink
	keep  func(cluster string) bool
	// ways is how each cluster written to is served (last: the latest,
	// asked again by nearly every write); lazy is TakesLazy(sink), asked
	// at the first write.
	ways    map[string]*way
	last    *way
	lazy    bool
	lazySet bool
	// kinds folds the kinds met last without allocating (see foldKey).
	kinds kindFolds
}

// held is what a store remembers of every object it was given: its
// cluster, key as written, owner and where it was named.
type held struct {
	cluster string
	key     manifest.Key
	owner   string
	namePos manifest.Pos
	// next is 1 + the position of the record written before this one
	// whose folded key hashes alike (0: none).
	next int32
}

// is reports whether h holds key k, spelled as it is.
func (h *held) is(k manifest.Key) bool {
	return h.key.Name == k.Name && h.key.Kind == k.Kind && h.key.Group == k.Group
}

// heldIndex finds a store's records by cluster and case-folded key (group,
// kind and name in lower case: two keys alike but for case would share an
// output file). It is one small map from the folded key's 64-bit hash to
// the latest record of that hash, the records chained by next, kept in
// fixed blocks: for the 20,000 objects of a 10,000-application run this is
// ~3 MB where a map keyed by the folded key held ~5 MB of 176-byte slots
// and as much again of the tables it grew out of, whose first touch of
// fresh memory costs more than the hashing.
type heldIndex struct {
	seed   maphash.Seed
	heads  map[uint64]int32
	blocks [][]held
	n      int32
}

// heldBlock is how many records a block of a heldIndex holds.
const heldBlock = 1024

// at returns the record at position i.
func (x *heldIndex) at(i int32) *held { return &x.blocks[i/heldBlock][i%heldBlock] }

// hash is the hash of cluster and folded key k.
func (x *heldIndex) hash(cluster string, k manifest.Key) uint64 {
	return maphash.Comparable(x.seed, heldKey{cluster: cluster, key: k})
}

// heldKey is what heldIndex hashes: a cluster and a folded object key.
type heldKey struct {
	cluster string
	key     manifest.Key
}

// find returns the record of cluster whose key folds to fold (hashed as
// h), or nil. f folds the records' keys to compare them.
func (x *heldIndex) find(h uint64, cluster string, fold manifest.Key, f *kindFolds) *held {
	for i := x.heads[h]; i != 0; {
		r := x.at(i - 1)
		if r.cluster == cluster && r.key.Namespace == fold.Namespace && f.foldedKey(r.key) == fold {
			return r
		}
		i = r.next
	}
	return nil
}

// add records r, whose folded key hashes to h and is not held yet.
func (x *heldIndex) add(h uint64, r held) {
	if x.n%heldBlock == 0 {
		x.blocks = append(x.blocks, make([]held, 0, heldBlock))
	}
	r.next = x.heads[h]
	b := &x.blocks[len(x.blocks)-1]
	*b = append(*b, r)
	x.n++
	x.heads[h] = x.n
}

// way is how a store serves one cluster: whether it keeps its objects
// (keep) and whether they may stay Lazy (takesLazy), asked once.
type way struct {
	name      string
	keep      bool
	takesLazy bool
}

// A Sink receives a streaming store's objects as they are written. A later
// Put of the same cluster and key replaces the earlier object; the order of
// the calls is the order of the writes.
type Sink interface {
	Put(cluster string, e Entry) error
}

// NewStore returns a store of empty clusters that keeps every object.
func NewStore() *Store {
	return &Store{clusters: map[string]map[manifest.Key]Entry{}, ways: map[string]*way{},
		index: heldIndex{seed: maphash.MakeSeed(), heads: map[uint64]int32{}}}
}

// way returns how the store serves cluster, deciding it at its first
// write: keep and the sink's TakesLazy are asked once.
func (s *Store) way(cluster string) *way {
	if w := s.last; w != nil && w.name == cluster {
		return w
	}
	w := s.ways[cluster]
	if w == nil {
		if !s.lazySet {
			s.lazy, s.lazySet = TakesLazy(s.sink), true
		}
		w = &way{name: cluster, keep: s.sink == nil || s.keep(cluster)}
		// An object written to cluster may stay Lazy when the store hands it
		// to a sink that takes it and does not keep it.
		w.takesLazy = s.sink != nil && !w.keep && s.lazy
		s.ways[cluster] = w
	}
	s.last = w
	return w
}

// NewStreamingStore returns a store of empty clusters that passes every
// object it accepts to sink and keeps the objects of the clusters keep
// reports (nil: none); Get and List see only those.
func NewStreamingStore(sink Sink, keep func(cluster string) bool) *Store {
	if keep == nil {
		keep = func(string) bool { return false }
	}
	s := NewStore()
	s.sink, s.keep = sink, keep
	return s
}

// ErrConflict is wrapped by Apply's refusals of a second writer.
var ErrConflict = errors.New("conflicting objects")

// Apply writes e to the named cluster, as an API server would: the
// object's name and namespace must be valid (ValidateMeta); an object of
// the same key is replaced when the same owner (or no owner) wrote it,
// while one of another owner is an error naming both (as KubeVela refuses
// a resource another application owns), and so is an object whose key
// differs from one held only in case (they would share an output file).
// Errors start with the position of the object's name, else of its
// origin; a refused name or namespace also names the origin's subject.
// An error of the store's sink is returned as it is.
func (s *Store) Apply(cluster string, e Entry) error {
	w := s.way(cluster)
	if e.Object == nil && e.Lazy != nil && !w.takesLazy {
		e.Object = e.Lazy.Object()
	}
	if e.Object != nil { // a Lazy one is vouched for (see Lazy)
		if err := ValidateMeta(e.Object); err != nil {
			return e.metaError(err)
		}
	}
	key := e.Key()
	fold := s.kinds.foldKey(key)
	h := s.index.hash(cluster, fold)
	prev := s.index.find(h, cluster, fold, &s.kinds)
	if prev != nil {
		switch {
		case !prev.is(key):
			prevKey := prev.key
			prevKey.Namespace = key.Namespace
			return &manifest.Error{Pos: e.NamePos(), Err: fmt.Errorf("%s and %s (%s) in cluster %s differ only in case: they would share one output file: %w",
				key, prevKey, prev.namePos, cluster, ErrConflict)}
		case prev.owner != "" && e.Owner != "" && prev.owner != e.Owner:
			return &manifest.Error{Pos: e.NamePos(), Subjects: []manifest.Subject{{Kind: e.Owner}},
				Err: fmt.Errorf("%s in cluster %s is already owned by %s (%s): %w", key, cluster, prev.owner, prev.namePos, ErrConflict)}
		}
	}
	if s.sink != nil {
		if err := s.sink.Put(cluster, e); err != nil {
			return err
		}
	}
	if prev != nil {
		prev.owner, prev.namePos = e.Owner, e.NamePos()
	} else {
		s.index.add(h, held{cluster: cluster, key: key, owner: e.Owner, namePos: e.NamePos()})
	}
	if w.keep {
		m := s.clusters[cluster]
		if m == nil {
			m = map[manifest.Key]Entry{}
			s.clusters[cluster] = m
		}
		m[key] = e
	}
	return nil
}

// metaError locates ValidateMeta's refusal at the refused field and
// names who produced the object.
func (e Entry) metaError(err error) error {
	pos, field := e.NamePos(), fieldpath.Path(nil)
	var me *MetaError
	if errors.As(err, &me) {
		pos, field = e.FieldPos(me.Field), me.Field
	}
	if subject := e.Origin.Subject(); subject != "" {
		return &manifest.Error{Pos: pos, Subjects: []manifest.Subject{{Kind: subject}}, Field: field, Err: err}
	}
	return &manifest.Error{Pos: pos, Field: field, Err: fmt.Errorf("%s%w", e.Object.Item(), err)}
}

// NamePos is where the entry's object is named: its metadata.name in the
// authored input, else its origin.
func (e Entry) NamePos() manifest.Pos { return e.FieldPos(namePath) }

// namePath is metadata.name's path, made once: NamePos is asked for every
// object a store is given. (FieldPos only reads it.)
var namePath = fieldpath.New("metadata", "name")

// FieldPos is where field (or its nearest authored parent) is in the
// authored input, else the origin.
func (e Entry) FieldPos(field fieldpath.Path) manifest.Pos {
	o := e.Object
	if o == nil && e.Lazy != nil {
		// A Lazy object is decoded from a render cache entry: it has no
		// authored fields and no position of its own.
		o = e.Lazy.Decoded()
		if o == nil {
			return e.Origin.Pos
		}
	}
	if p := o.FieldPos(field); p.IsValid() {
		return p
	}
	if e.Origin.Pos.IsValid() {
		return e.Origin.Pos
	}
	return o.Pos
}

// kindFolds remembers the last few kinds folded to lower case: nearly
// every kind is spelled with capitals ("Deployment"), and a run writes
// thousands of objects of a handful of kinds, so folding each anew would
// allocate per object. (strings.ToLower allocates nothing for a string
// already in lower case, as groups and names usually are.)
type kindFolds struct {
	from, to [8]string
	next     int
}

// foldKey is k as the output tree sees it: group, kind and name in lower
// case (the kind as remembered, remembering it).
func (f *kindFolds) foldKey(k manifest.Key) manifest.Key {
	kind := k.Kind
	k, remembered := f.fold(k)
	if !remembered {
		f.from[f.next], f.to[f.next] = kind, k.Kind
		f.next = (f.next + 1) % len(f.from)
	}
	return k
}

// foldedKey is k folded as foldKey folds it; unlike foldKey it remembers
// nothing (Owner, a read, changes no state).
func (f *kindFolds) foldedKey(k manifest.Key) manifest.Key {
	k, _ = f.fold(k)
	return k
}

// fold folds k, the kind as remembered if it is (remembered).
func (f *kindFolds) fold(k manifest.Key) (folded manifest.Key, remembered bool) {
	k.Group, k.Name = strings.ToLower(k.Group), strings.ToLower(k.Name)
	for i := range f.from {
		if f.from[i] == k.Kind && f.to[i] != "" {
			k.Kind = f.to[i]
			return k, true
		}
	}
	k.Kind = strings.ToLower(k.Kind)
	return k, false
}

// Owner returns the owner of the object of key in cluster and where its
// object named it, and whether the store was given one (kept or not).
func (s *Store) Owner(cluster string, key manifest.Key) (owner string, named manifest.Pos, ok bool) {
	fold := s.kinds.foldedKey(key)
	h := s.index.find(s.index.hash(cluster, fold), cluster, fold, &s.kinds)
	if h == nil || !h.is(key) {
		return "", manifest.Pos{}, false
	}
	return h.owner, h.namePos, true
}

// Get returns the object of key in cluster.
func (s *Store) Get(cluster string, key manifest.Key) (Entry, bool) {
	e, ok := s.clusters[cluster][key]
	return e, ok
}

// Clusters returns the names of clusters holding objects, sorted (of a
// streaming store: those it keeps).
func (s *Store) Clusters() []string {
	return manifest.SortedKeys(s.clusters)
}

// Len returns how many objects the store was given and holds now, in all
// clusters (kept or not).
func (s *Store) Len() int {
	return int(s.index.n)
}

// List returns a cluster's objects ordered by key.
func (s *Store) List(cluster string) []Entry {
	m := s.clusters[cluster]
	keys := manifest.SortedObjectKeys(m)
	out := make([]Entry, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}
