package cluster

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestApplyFoldsKinds: keys differing only in case collide however often
// their kinds were folded before (the store remembers a few folded kinds:
// here more kinds than it remembers, written again after they were
// forgotten), keys in different clusters do not and Owner finds a key only as
// it was spelled, in a store that keeps its objects or passes them on.
func TestApplyFoldsKinds(t *testing.T) {
	obj := func(group, kind, name string) *manifest.Object {
		return manifest.New(map[string]any{"apiVersion": group + "/v1", "kind": kind, "metadata": map[string]any{"name": name, "namespace": "default"}})
	}
	var kinds []string
	for i := range 12 {
		kinds = append(kinds, fmt.Sprintf("Kind%c", 'A'+i))
	}
	type write struct{ cluster, group, kind, name string }
	var writes []write
	for _, name := range []string{"a", "b"} {
		for _, k := range kinds {
			writes = append(writes, write{"m1", "example.com", k, name})
		}
	}
	writes = append(writes,
		write{"m1", "example.com", "KINDA", "a"},  // kind differs in case from a held one
		write{"m1", "example.com", "kindl", "b"},  // the last kind, remembered
		write{"m1", "Example.com", "KindA", "a"},  // the group differs in case
		write{"m2", "example.com", "KINDA", "a"},  // another cluster: no conflict
		write{"m1", "example.com", "KindA", "a"},  // the same key again: replaced
		write{"m1", "example.com", "Kinda", "zz"}, // new
	)
	want := []string{
		"KINDA.example.com default/a and KindA.example.com default/a (m1-KindA-a) in cluster m1 differ only in case",
		"kindl.example.com default/b and KindL.example.com default/b (m1-KindL-b) in cluster m1 differ only in case",
		"KindA.Example.com default/a and KindA.example.com default/a (m1-KindA-a) in cluster m1 differ only in case",
	}
	for _, streaming := range []bool{false, true} { // kept or passed on, alike
		t.Run(fmt.Sprint("streaming ", streaming), func(t *testing.T) {
			s := NewStore()
			if streaming {
				s = NewStreamingStore(discard{}, nil)
			}
			var got []string
			for _, w := range writes {
				pos := manifest.Pos{File: w.cluster + "-" + w.kind + "-" + w.name}
				err := s.Apply(w.cluster, Entry{Object: obj(w.group, w.kind, w.name), Origin: Origin{Pos: pos}, Owner: "o"})
				if err != nil {
					msg, _, _ := strings.Cut(err.(*manifest.Error).Err.Error(), ": they would")
					got = append(got, msg)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("refusals (-want +got):\n%s", diff)
			}
			if n := s.Len(); n != 2*len(kinds)+2 {
				t.Errorf("Len = %d, want %d", n, 2*len(kinds)+2)
			}
			for _, tt := range []struct {
				cluster string
				key     manifest.Key
				ok      bool
			}{
				{"m1", manifest.Key{Group: "example.com", Kind: "KindA", Namespace: "default", Name: "a"}, true},
				{"m1", manifest.Key{Group: "example.com", Kind: "KINDA", Namespace: "default", Name: "a"}, false},
				{"m2", manifest.Key{Group: "example.com", Kind: "KINDA", Namespace: "default", Name: "a"}, true},
				{"m2", manifest.Key{Group: "example.com", Kind: "KindA", Namespace: "default", Name: "a"}, false},
				{"m1", manifest.Key{Group: "example.com", Kind: "Kinda", Namespace: "default", Name: "zz"}, true},
				{"m1", manifest.Key{Group: "example.com", Kind: "KindA", Namespace: "other", Name: "a"}, false},
			} {
				if _, _, ok := s.Owner(tt.cluster, tt.key); ok != tt.ok {
					t.Errorf("Owner(%s, %s) ok = %v, want %v", tt.cluster, tt.key, ok, tt.ok)
				}
			}
		})
	}
}

// lazyCounter takes Lazy entries and counts how often it is asked.
type lazyCounter struct{ asked int }

func (l *lazyCounter) Put(string, Entry) error { return nil }
func (l *lazyCounter) TakesLazy() bool {
	l.asked++
	return true
}

// TestStreamingStoreAsksOnce: a streaming store asks keep about each
// cluster, and its sink whether it takes Lazy entries, once, not per
// object; what it decides per cluster holds for all its objects.
func TestStreamingStoreAsksOnce(t *testing.T) {
	sink := &lazyCounter{}
	kept := map[string]int{}
	s := NewStreamingStore(sink, func(c string) bool { kept[c]++; return c == "hub" })
	decoded := map[string]int{}
	for i := range 10 {
		for _, c := range []string{"hub", "m1", "m1"} {
			key := manifest.Key{Kind: "ConfigMap", Namespace: "default", Name: fmt.Sprint("c", i)}
			l := &Lazy{APIVersion: "v1", Key: key, Decode: func(*Lazy) *manifest.Object {
				decoded[c]++
				return manifest.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": key.Name, "namespace": "default"}})
			}}
			if err := s.Apply(c, Entry{Lazy: l}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if diff := cmp.Diff(map[string]int{"hub": 1, "m1": 1}, kept); diff != "" {
		t.Errorf("keep asked (-want +got):\n%s", diff)
	}
	if sink.asked != 1 {
		t.Errorf("TakesLazy asked %d times, want 1", sink.asked)
	}
	// The kept cluster's objects are decoded (Get returns them); the
	// other's stay Lazy.
	if diff := cmp.Diff(map[string]int{"hub": 10}, decoded); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	if got := len(s.List("hub")); got != 10 {
		t.Errorf("hub holds %d objects, want 10", got)
	}
}

// discard is a Sink that keeps nothing.
type discard struct{}

func (discard) Put(string, Entry) error { return nil }
