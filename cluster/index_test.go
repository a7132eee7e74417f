package cluster

import (
	"errors"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// lazySinkAll takes Lazy entries and keeps nothing.
type lazySinkAll struct{}

func (lazySinkAll) Put(string, Entry) error { return nil }
func (lazySinkAll) TakesLazy() bool         { return true }

// foldModel is the plain model of a store's index: a map by cluster and
// key in lower case.
type foldModel map[string]heldModel

type heldModel struct {
	key   manifest.Key
	owner string
}

func (m foldModel) id(cluster string, k manifest.Key) string {
	return strings.Join([]string{cluster, strings.ToLower(k.Group), strings.ToLower(k.Kind), k.Namespace, strings.ToLower(k.Name)}, "\x00")
}

// TestStoreIndexModel: random writes and reads of keys alike but for case,
// in two clusters and namespaces, by three owners (one of them none), give
// the refusals, owners and count of the plain model: a key spelled
// otherwise than the one held is refused, a second owner is refused, the
// same key of the same or no owner replaces the owner.
func TestStoreIndexModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	spell := func(s string) string { // s in random case
		b := []byte(s)
		for i := range b {
			if r.IntN(4) == 0 {
				b[i] ^= 'a' ^ 'A'
			}
		}
		return string(b)
	}
	for round := range 200 {
		s := NewStreamingStore(lazySinkAll{}, nil)
		model := foldModel{}
		for step := range 60 {
			cluster := []string{"local", "m1"}[r.IntN(2)]
			key := manifest.Key{Group: []string{"", "apps"}[r.IntN(2)], Kind: spell("deployment"), Namespace: []string{"a", "b"}[r.IntN(2)], Name: spell(fmt.Sprint("n", r.IntN(3)))}
			if r.IntN(3) == 0 { // a read
				owner, _, ok := s.Owner(cluster, key)
				h, found := model[model.id(cluster, key)]
				wantOK := found && h.key == key
				if ok != wantOK || (ok && owner != h.owner) {
					t.Fatalf("round %d step %d: Owner(%s, %s) = %q, %v; want %q, %v", round, step, cluster, key, owner, ok, h.owner, wantOK)
				}
				continue
			}
			owner := []string{"", "app-1", "app-2"}[r.IntN(3)]
			err := s.Apply(cluster, Entry{Lazy: &Lazy{APIVersion: "v1", Key: key}, Owner: owner})
			id := model.id(cluster, key)
			h, found := model[id]
			refused := found && (h.key != key || (h.owner != "" && owner != "" && h.owner != owner))
			if refused != (err != nil) || (err != nil && !errors.Is(err, ErrConflict)) {
				t.Fatalf("round %d step %d: Apply(%s, %s, %q) = %v; held %+v (found %v)", round, step, cluster, key, owner, err, h, found)
			}
			if !refused {
				model[id] = heldModel{key: key, owner: owner}
			}
			if s.Len() != len(model) {
				t.Fatalf("round %d step %d: Len = %d, want %d", round, step, s.Len(), len(model))
			}
		}
	}
}

// TestStoreIndexCollisions: records whose hashes collide are told apart by
// their keys (the chain is walked, not trusted).
func TestStoreIndexCollisions(t *testing.T) {
	x := heldIndex{seed: maphash.MakeSeed(), heads: map[uint64]int32{}}
	var f kindFolds
	keys := []manifest.Key{{Kind: "a", Name: "x"}, {Kind: "a", Name: "y"}, {Kind: "b", Name: "x"}}
	for i, k := range keys {
		x.add(42, held{cluster: "c", key: k, owner: fmt.Sprint(i)})
	}
	for i, k := range keys {
		r := x.find(42, "c", k, &f)
		if r == nil || r.owner != fmt.Sprint(i) {
			t.Errorf("find(%s) = %+v, want owner %d", k, r, i)
		}
	}
	if r := x.find(42, "other", keys[0], &f); r != nil {
		t.Errorf("another cluster's key found: %+v", r)
	}
	if r := x.find(43, "c", keys[0], &f); r != nil {
		t.Errorf("another hash's key found: %+v", r)
	}
}

// BenchmarkStoreApply: a streaming store given 20,000 Lazy objects (two per
// application of a 10,000-app suite), as a warm run gives them.
func BenchmarkStoreApply(b *testing.B) {
	const n = 10000
	entries := make([]Entry, 0, 2*n)
	for i := range n {
		for _, kind := range []string{"Deployment", "Service"} {
			key := manifest.Key{Group: map[string]string{"Deployment": "apps"}[kind], Kind: kind, Namespace: fmt.Sprint("team-", i%10), Name: fmt.Sprint("web-", i)}
			entries = append(entries, Entry{Lazy: &Lazy{APIVersion: "v1", Key: key}, Owner: ApplicationOwner(fmt.Sprint("team-", i%10, "/app-", i))})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		s := NewStreamingStore(lazySinkAll{}, nil)
		for _, e := range entries {
			if err := s.Apply(Local, e); err != nil {
				b.Fatal(err)
			}
		}
	}
}
