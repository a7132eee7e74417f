package cache

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// packOf is n entries, each its name repeated.
func packOf(n int, tag string) map[Key]string {
	m := map[Key]string{}
	for i := range n {
		name := strconv.Itoa(i)
		m[key(name)] = strings.Repeat(name+tag, i%7)
	}
	return m
}

func TestPack(t *testing.T) {
	s := open(t, Options{})
	pk := key("pack")
	if p := s.GetPack(pk); p != nil || p.Len() != 0 {
		t.Fatal("a pack on an empty store")
	}
	if _, ok := (*Pack)(nil).Get(key("0")); ok {
		t.Fatal("nil pack hit")
	}
	for _, n := range []int{0, 1, 100} {
		want := packOf(n, "x")
		if err := s.PutPack(pk, want); err != nil {
			t.Fatal(err)
		}
		p := s.GetPack(pk)
		if p == nil || p.Len() != n {
			t.Fatalf("%d entries: pack %v of %d", n, p != nil, p.Len())
		}
		got := maps.Collect(p.All())
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%d entries: All (-want +got):\n%s", n, diff)
		}
		for k, v := range want {
			if e, ok := p.Get(k); !ok || e != v {
				t.Fatalf("Get = %q, %v; want %q", e, ok, v)
			}
		}
		if e, ok := p.Get(key("absent")); ok {
			t.Fatalf("absent key: %q", e)
		}
		// Index and At: the entries by ascending key; Lookup is Get
		// with the index.
		keys := slices.SortedFunc(maps.Keys(want), compareKeys)
		for i, k := range keys {
			if j, ok := p.Index(k); !ok || j != i {
				t.Fatalf("Index = %d, %v; want %d", j, ok, i)
			}
			if gk, e := p.At(i); gk != k || e != want[k] {
				t.Fatalf("At(%d) = %x, %q; want %x, %q", i, gk, e, k, want[k])
			}
			if j, e, ok := p.Lookup(k); !ok || j != i || e != want[k] {
				t.Fatalf("Lookup = %d, %q, %v; want %d, %q", j, e, ok, i, want[k])
			}
		}
		if _, ok := p.Index(key("absent")); ok {
			t.Fatal("Index of an absent key")
		}
	}
	// Entries past bigEntry are written header and data apart.
	big := map[Key]string{key("big"): strings.Repeat("b", 3*bigEntry)}
	s.PutPack(pk, big)
	if diff := cmp.Diff(big, maps.Collect(s.GetPack(pk).All())); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff(Stats{Hits: 202, PackHits: 202, Puts: 4, Packs: 4}, s.Stats()); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
}

// TestPackCorrupt flips bytes of a pack file and truncates it: every
// one reads as no pack, the file is removed, and the next PutPack writes
// it again.
func TestPackCorrupt(t *testing.T) {
	s := open(t, Options{})
	pk, want := key("pack"), packOf(5, "y")
	s.PutPack(pk, want)
	p := s.path(pk)
	good, _ := os.ReadFile(p)
	check := func(what string, bad []byte) {
		t.Helper()
		os.WriteFile(p, bad, 0o666)
		if got := s.GetPack(pk); got != nil {
			t.Fatalf("%s: read a pack of %d", what, got.Len())
		}
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s: corrupt pack kept", what)
		}
		s.PutPack(pk, want)
		if diff := cmp.Diff(want, maps.Collect(s.GetPack(pk).All())); diff != "" {
			t.Fatalf("%s: not rebuilt: %s", what, diff)
		}
	}
	for i := range good {
		bad := bytes.Clone(good)
		bad[i] ^= 0x10
		check(fmt.Sprintf("byte %d flipped", i), bad)
	}
	for n := range len(good) {
		check(fmt.Sprintf("truncated at %d", n), good[:n])
	}
	if c := s.Stats().Corrupt; c != 2*len(good) {
		t.Errorf("Corrupt = %d, want %d", c, 2*len(good))
	}
}

// TestPackLayout: an entry whose checksum holds but whose bytes are no
// pack (a bug, another format) reads as no pack.
func TestPackLayout(t *testing.T) {
	row := func(k Key, end uint32) []byte { return binary.LittleEndian.AppendUint32(k[:], end) }
	head := func(n uint32) []byte { return binary.LittleEndian.AppendUint32([]byte(packMagic), n) }
	lo, hi := key("a"), key("b")
	if compareKeys(lo, hi) > 0 {
		lo, hi = hi, lo
	}
	good := bytes.Join([][]byte{head(2), row(lo, 1), row(hi, 3), []byte("xyz")}, nil)
	for name, data := range map[string][]byte{
		"empty":            nil,
		"other magic":      bytes.Join([][]byte{[]byte("drydock\x00pack\x02"), good[len(packMagic):]}, nil),
		"count too large":  bytes.Join([][]byte{head(3), good[len(packMagic)+4:]}, nil),
		"keys unsorted":    bytes.Join([][]byte{head(2), row(hi, 1), row(lo, 3), []byte("xyz")}, nil),
		"key twice":        bytes.Join([][]byte{head(2), row(lo, 1), row(lo, 3), []byte("xyz")}, nil),
		"ends decrease":    bytes.Join([][]byte{head(2), row(lo, 2), row(hi, 1), []byte("xyz")}, nil),
		"end past entries": bytes.Join([][]byte{head(2), row(lo, 1), row(hi, 4), []byte("xyz")}, nil),
		"bytes after":      bytes.Join([][]byte{head(2), row(lo, 1), row(hi, 2), []byte("xyz")}, nil),
	} {
		s := open(t, Options{})
		s.Put(key("p"), data)
		if p := s.GetPack(key("p")); p != nil {
			t.Errorf("%s: read as a pack of %d", name, p.Len())
		}
	}
	s := open(t, Options{})
	s.Put(key("p"), good)
	p := s.GetPack(key("p"))
	if diff := cmp.Diff(map[Key]string{lo: "x", hi: "yz"}, maps.Collect(p.All())); diff != "" {
		t.Error(diff)
	}
}

// TestPackProcesses has two processes write and read one pack at once:
// every pack read is one of the packs written, whole.
func TestPackProcesses(t *testing.T) {
	dir := t.TempDir()
	a, b := packHelper(dir, "a"), packHelper(dir, "b")
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Run(); err != nil {
		t.Fatal(err)
	}
	if err := a.Wait(); err != nil {
		t.Fatal(err)
	}
	s := open(t, Options{Dir: dir})
	got := maps.Collect(s.GetPack(key("pack")).All())
	if !cmp.Equal(got, packOf(300, "a")) && !cmp.Equal(got, packOf(300, "b")) {
		t.Errorf("pack of %d entries is neither writer's", len(got))
	}
}

// TestPackEviction: a pack counts towards the size cap as an entry.
func TestPackEviction(t *testing.T) {
	dir := t.TempDir()
	s := open(t, Options{Dir: dir, MaxBytes: 1000, TrimEvery: -1})
	s.PutPack(key("pack"), map[Key]string{key("x"): strings.Repeat("x", 2000)})
	s.Close()
	if s.Stats().Evicted != 1 {
		t.Fatalf("Evicted = %d, want 1", s.Stats().Evicted)
	}
	if p := open(t, Options{Dir: dir}).GetPack(key("pack")); p != nil {
		t.Fatal("pack past the cap kept")
	}
}

// TestPackReplacedWhileRead: a pack read (mapped, on Linux) keeps its
// entries when another writer replaces or removes its file.
func TestPackReplacedWhileRead(t *testing.T) {
	s := open(t, Options{})
	first := packOf(50, "first")
	s.PutPack(key("pack"), first)
	p := s.GetPack(key("pack"))
	s.PutPack(key("pack"), packOf(80, "second"))
	if diff := cmp.Diff(first, maps.Collect(p.All())); diff != "" {
		t.Fatalf("replaced: %s", diff)
	}
	q := s.GetPack(key("pack"))
	os.Remove(s.path(key("pack")))
	if diff := cmp.Diff(packOf(80, "second"), maps.Collect(q.All())); diff != "" {
		t.Fatalf("removed: %s", diff)
	}
}

// TestGetString: GetString gives what Get gives, counted as Get counts;
// an entry that does not verify (bytes flipped, cut short, shorter than
// a header) is removed, counted corrupt and a miss.
func TestGetString(t *testing.T) {
	s := open(t, Options{})
	k := key("record")
	if got, ok := s.GetString(k); ok || got != "" {
		t.Fatalf("empty store: %q, %v", got, ok)
	}
	for _, data := range []string{"", "x", strings.Repeat("record", 1000), strings.Repeat("b", 3*bigEntry)} {
		if err := s.Put(k, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, ok := s.GetString(k); !ok || got != data {
			t.Fatalf("GetString of %d bytes: %d bytes, %v", len(data), len(got), ok)
		}
	}
	if diff := cmp.Diff(Stats{Hits: 4, Misses: 1, Puts: 4}, s.Stats()); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	p := s.path(k)
	good, _ := os.ReadFile(p)
	for i, bad := range [][]byte{
		append(append([]byte{}, good[:len(good)-1]...), good[len(good)-1]^1),
		good[:len(good)-1],
		good[:3],
	} {
		os.WriteFile(p, bad, 0o666)
		if got, ok := s.GetString(k); ok {
			t.Fatalf("bad entry %d: read %d bytes", i, len(got))
		}
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("bad entry %d kept", i)
		}
	}
	if st := s.Stats(); st.Corrupt != 3 || st.Misses != 4 {
		t.Errorf("stats after bad entries: %+v, want 3 corrupt, 4 misses", st)
	}
}

// TestMapBudget: a store maps files (GetPack, GetString) only within its
// bounds and reads them past them, giving the same bytes; a mapping
// refused by its checksum is released and no longer counted.
func TestMapBudget(t *testing.T) {
	s, err := Open(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var keys []Key
	for i := range 5 {
		k := NewHasher("budget").String(strconv.Itoa(i)).Key()
		if err := s.Put(k, []byte("entry "+strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	s.mapped.maxMaps = 3
	for i, k := range keys {
		got, ok := s.GetString(k)
		if !ok || got != "entry "+strconv.Itoa(i) {
			t.Fatalf("GetString #%d = %q, %v", i, got, ok)
		}
	}
	if want := min(int64(3), int64(len(keys))); mapsFiles && s.mapped.maps != want || !mapsFiles && s.mapped.maps != 0 {
		t.Errorf("%d files mapped, want at most %d", s.mapped.maps, s.mapped.maxMaps)
	}
	// A corrupt entry mapped within the bounds is released.
	s.mapped.maxMaps = 100
	before := s.mapped.maps
	path := s.path(keys[0])
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.GetString(keys[0]); ok {
		t.Fatal("a corrupt entry was read")
	}
	if s.mapped.maps != before {
		t.Errorf("%d files mapped after a corrupt one, want %d", s.mapped.maps, before)
	}
}
