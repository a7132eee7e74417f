package cluster

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// lazySink records the entries a store passes on; takes says whether it
// takes them Lazy.
type lazySink struct {
	takes bool
	got   []Entry
}

func (s *lazySink) Put(_ string, e Entry) error { s.got = append(s.got, e); return nil }
func (s *lazySink) TakesLazy() bool             { return s.takes }

// lazyOf is a Lazy ConfigMap named name whose decodes are counted.
func lazyOf(name string, decodes *int) *Lazy {
	return &Lazy{APIVersion: "v1", Key: manifest.Key{Kind: "ConfigMap", Namespace: "ns", Name: name}, Sums: &manifest.Sums{Digested: true},
		Decode: func(*Lazy) *manifest.Object {
			*decodes++
			return manifest.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "namespace": "ns"}})
		}}
}

// TestLazyEntries: a store hands a Lazy entry undecoded only to a sink
// that takes it and only for a cluster it does not keep; any other sink,
// and the store's kept clusters, get the decoded object (once), which
// carries the Lazy's sums. A Lazy entry is keyed, refused on conflict and
// located (at its origin) as the decoded one would be.
func TestLazyEntries(t *testing.T) {
	at := manifest.Pos{File: "app.yaml", Line: 3, Col: 5}
	t.Run("lazy sink", func(t *testing.T) {
		decodes := 0
		sink := &lazySink{takes: true}
		s := NewStreamingStore(sink, nil)
		if err := s.Apply(Local, Entry{Lazy: lazyOf("a", &decodes), Owner: "application ns/x", Origin: Origin{Pos: at}}); err != nil {
			t.Fatal(err)
		}
		if decodes != 0 || len(sink.got) != 1 || sink.got[0].Object != nil {
			t.Fatalf("decodes %d, got %+v: want one undecoded entry", decodes, sink.got)
		}
		e := sink.got[0]
		if k := e.Key(); k != (manifest.Key{Kind: "ConfigMap", Namespace: "ns", Name: "a"}) {
			t.Errorf("Key() = %v", k)
		}
		if p := e.NamePos(); p != at {
			t.Errorf("NamePos() = %v, want the origin %v", p, at)
		}
		o := e.Obj()
		if o != e.Obj() || decodes != 1 || o.Name() != "a" || o.Sums == nil || !o.Sums.Digested {
			t.Errorf("Obj() decoded %d times, object %+v", decodes, o)
		}
		if p := e.NamePos(); p != at {
			t.Errorf("NamePos() after decoding = %v, want %v", p, at)
		}
		owner, named, ok := s.Owner(Local, e.Key())
		if !ok || owner != "application ns/x" || named != at {
			t.Errorf("Owner() = %q %v %v", owner, named, ok)
		}
		// A second owner is refused as for a decoded object.
		err := s.Apply(Local, Entry{Lazy: lazyOf("a", &decodes), Owner: "application ns/y", Origin: Origin{Pos: at}})
		if !errors.Is(err, ErrConflict) {
			t.Errorf("second owner: %v, want a conflict", err)
		}
	})
	t.Run("other sink", func(t *testing.T) {
		decodes := 0
		sink := &lazySink{takes: false}
		s := NewStreamingStore(sink, nil)
		if err := s.Apply(Local, Entry{Lazy: lazyOf("a", &decodes), Origin: Origin{Pos: at}}); err != nil {
			t.Fatal(err)
		}
		if decodes != 1 || sink.got[0].Object == nil || sink.got[0].Object.Name() != "a" {
			t.Errorf("decodes %d, got %+v: want the decoded object", decodes, sink.got)
		}
	})
	t.Run("kept cluster", func(t *testing.T) {
		decodes := 0
		sink := &lazySink{takes: true}
		s := NewStreamingStore(sink, func(c string) bool { return c == "hub" })
		for _, c := range []string{"hub", Local} {
			if err := s.Apply(c, Entry{Lazy: lazyOf("a", &decodes), Origin: Origin{Pos: at}}); err != nil {
				t.Fatal(err)
			}
		}
		if decodes != 1 || sink.got[0].Object == nil || sink.got[1].Object != nil {
			t.Errorf("decodes %d: want the kept cluster's decoded, the other's not", decodes)
		}
		kept, ok := s.Get("hub", manifest.Key{Kind: "ConfigMap", Namespace: "ns", Name: "a"})
		if !ok || kept.Object == nil {
			t.Errorf("kept entry %+v, %v: want its object", kept, ok)
		}
	})
	t.Run("TakesLazy", func(t *testing.T) {
		for _, c := range []struct {
			sink Sink
			want bool
		}{{nil, true}, {&lazySink{takes: true}, true}, {&lazySink{}, false}, {new(sinkList), false}} {
			if got := TakesLazy(c.sink); got != c.want {
				t.Errorf("TakesLazy(%T) = %v, want %v", c.sink, got, c.want)
			}
		}
	})
	t.Run("same as decoded", func(t *testing.T) {
		decodes := 0
		l := lazyOf("b", &decodes)
		e := Entry{Object: l.Decode(l)}
		lazy := Entry{Lazy: lazyOf("b", &decodes)}
		if diff := cmp.Diff(e.Key(), lazy.Key()); diff != "" {
			t.Errorf("keys differ: %s", diff)
		}
		if e.APIVersion() != lazy.APIVersion() {
			t.Errorf("APIVersion %q vs %q", e.APIVersion(), lazy.APIVersion())
		}
	})
}
