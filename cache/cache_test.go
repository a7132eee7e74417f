package cache

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func key(s string) Key { return NewHasher("test").String(s).Key() }

func open(t *testing.T, max int64) *Store {
	t.Helper()
	s, err := Open(Options{Dir: t.TempDir(), MaxBytes: max})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRoundTrip: what Put stores, Get returns; another key misses.
func TestRoundTrip(t *testing.T) {
	s := open(t, 0)
	for _, data := range [][]byte{nil, []byte("x"), bytes.Repeat([]byte("abc"), 100000)} {
		k := key(string(data))
		if err := s.Put(k, data); err != nil {
			t.Fatal(err)
		}
		got, ok := s.Get(k)
		if !ok || !bytes.Equal(got, data) {
			t.Fatalf("Get after Put of %d bytes: %v, %d bytes", len(data), ok, len(got))
		}
	}
	if _, ok := s.Get(key("other")); ok {
		t.Error("a key never put hits")
	}
	if diff := cmp.Diff(Stats{Hits: 3, Misses: 1, Puts: 3}, s.Stats()); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
}

// TestKeyParts: the parts' boundaries are part of the key.
func TestKeyParts(t *testing.T) {
	a := NewHasher("k").String("ab").String("c").Key()
	b := NewHasher("k").String("a").String("bc").Key()
	c := NewHasher("j").String("ab").String("c").Key()
	if a == b || a == c {
		t.Error("different parts give one key")
	}
	if a != NewHasher("k").Bytes([]byte("ab")).String("c").Key() {
		t.Error("String and Bytes of the same part differ")
	}
}

// TestNilStore: a nil store holds nothing and fails nothing (--no-cache).
func TestNilStore(t *testing.T) {
	var s *Store
	if err := s.Put(key("a"), []byte("a")); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(key("a")); ok {
		t.Error("nil store hits")
	}
	if err := errors.Join(s.Close(), s.Evict()); err != nil {
		t.Fatal(err)
	}
	if s.Stats() != (Stats{}) || s.Dir() != "" {
		t.Error("nil store counts")
	}
}

// TestCorrupt: an entry changed at any byte, cut at any length, or
// grown, is a miss; it is removed, and the next Put writes it again.
func TestCorrupt(t *testing.T) {
	s := open(t, 0)
	k := key("a")
	data := []byte("the rendered objects")
	if err := s.Put(k, data); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(s.path(k))
	if err != nil {
		t.Fatal(err)
	}
	var bad [][]byte
	for i := range good {
		b := bytes.Clone(good)
		b[i] ^= 0x20
		bad = append(bad, b, good[:i])
	}
	bad = append(bad, append(bytes.Clone(good), 'x'))
	for i, b := range bad {
		if err := os.WriteFile(s.path(k), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := s.Get(k); ok {
			t.Fatalf("corruption %d hits: %q", i, got)
		}
		if _, err := os.Stat(s.path(k)); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("corruption %d: entry not removed (%v)", i, err)
		}
	}
	if got := s.Stats().Corrupt; got != len(bad) {
		t.Errorf("Corrupt = %d, want %d", got, len(bad))
	}
	if err := s.Put(k, data); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.Get(k); !ok || !bytes.Equal(got, data) {
		t.Error("entry not rebuilt")
	}
}

// TestConcurrent: goroutines writing and reading the same keys only ever
// see whole entries (run with -race).
func TestConcurrent(t *testing.T) {
	s := open(t, 0)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				k := key(fmt.Sprint(i % 5))
				want := bytes.Repeat([]byte(fmt.Sprint(i%5)), 4096)
				if err := s.Put(k, want); err != nil {
					errs <- err
					return
				}
				if got, ok := s.Get(k); ok && !bytes.Equal(got, want) {
					errs <- fmt.Errorf("worker %d read another entry's data", w)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if s.Stats().Corrupt != 0 {
		t.Errorf("concurrent writes gave %d corrupt entries", s.Stats().Corrupt)
	}
}

// TestProcesses: two processes writing one store at once (this test
// binary, run again as a writer) leave only entries that verify.
func TestProcesses(t *testing.T) {
	if dir := os.Getenv("DRYDOCK_CACHE_WRITER"); dir != "" {
		s, err := Open(Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 200 {
			if err := s.Put(key(fmt.Sprint(i%7)), bytes.Repeat([]byte{byte(i % 7)}, 10000+i)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return
	}
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for range 2 {
		c := exec.Command(os.Args[0], "-test.run", "^TestProcesses$")
		c.Env = append(os.Environ(), "DRYDOCK_CACHE_WRITER="+dir)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, c)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 7 {
		got, ok := s.Get(key(fmt.Sprint(i)))
		if !ok || len(got) < 10000 || bytes.Count(got, []byte{byte(i)}) != len(got) {
			t.Errorf("entry %d: ok %v, %d bytes", i, ok, len(got))
		}
	}
}

// TestKilledWriter: a writer killed mid-Put leaves a temporary file, never
// an entry; eviction removes temporary files over an hour old and nothing
// that is not the store's.
func TestKilledWriter(t *testing.T) {
	s := open(t, 1)
	k := key("a")
	shard := filepath.Dir(s.path(k))
	if err := os.MkdirAll(shard, 0o755); err != nil {
		t.Fatal(err)
	}
	torn := filepath.Join(shard, tmpPrefix+"123")
	if err := os.WriteFile(torn, encode([]byte("half"))[:20], 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(torn, old, old); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(shard, tmpPrefix+"456")
	mine := filepath.Join(shard, "README")
	for _, p := range []string{fresh, mine} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := s.Get(k); ok {
		t.Fatal("a temporary file reads as an entry")
	}
	if err := s.Evict(); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{torn: false, fresh: true, mine: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s kept = %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}

// TestEvict: past the cap the least recently used entries go first; a
// hit renews an entry older than touchAfter.
func TestEvict(t *testing.T) {
	data := bytes.Repeat([]byte("x"), 1000)
	s := open(t, int64(3*(headerSize+len(data))))
	for i := range 5 {
		if err := s.Put(key(fmt.Sprint(i)), data); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-time.Duration(10-i) * time.Hour) // 0 is the oldest
		if err := os.Chtimes(s.path(key(fmt.Sprint(i))), at, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := s.Get(key("0")); !ok { // renews 0
		t.Fatal("miss")
	}
	if err := s.Evict(); err != nil {
		t.Fatal(err)
	}
	var kept []string
	for i := range 5 {
		if _, err := os.Stat(s.path(key(fmt.Sprint(i)))); err == nil {
			kept = append(kept, fmt.Sprint(i))
		}
	}
	if diff := cmp.Diff("0 3 4", strings.Join(kept, " ")); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	if s.Stats().Evicted != 2 {
		t.Errorf("Evicted = %d", s.Stats().Evicted)
	}
}

// TestCloseEvicts: Close evicts once the writes since the last look pass
// an eighth of the cap.
func TestCloseEvicts(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("y"), 1000)
	for i := range 4 {
		s, err := Open(Options{Dir: dir, MaxBytes: int64(2 * (headerSize + len(data)))})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Put(key(fmt.Sprint(i)), data); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-time.Duration(10-i) * time.Hour)
		_ = os.Chtimes(s.path(key(fmt.Sprint(i))), at, at)
		if err := errors.Join(s.Close(), s.Close()); err != nil {
			t.Fatal(err)
		}
	}
	s, _ := Open(Options{Dir: dir})
	var kept int
	for i := range 4 {
		if _, ok := s.Get(key(fmt.Sprint(i))); ok {
			kept++
		}
	}
	if kept != 2 {
		t.Errorf("%d entries kept, want 2 (the cap)", kept)
	}
}

// TestBuildID: the test binary's ID is `go tool buildid`'s.
func TestBuildID(t *testing.T) {
	out, err := exec.Command("go", "tool", "buildid", os.Args[0]).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	if diff := cmp.Diff("go:"+strings.TrimSpace(string(out)), BuildID()); diff != "" {
		t.Errorf("BuildID (-want +got):\n%s", diff)
	}
}

// TestFindBuildID: the string form other formats carry; nothing found
// in bytes without one.
func TestFindBuildID(t *testing.T) {
	if got := findBuildID([]byte("junk\xff Go build ID: \"a/b/c/d\"\n \xffmore")); got != "a/b/c/d" {
		t.Errorf("string form: %q", got)
	}
	if got := findBuildID([]byte("\x04\x00\x00\x00Go\x00\x00abc")); got != "" {
		t.Errorf("truncated note: %q", got)
	}
}

// BenchmarkGet: a hit among 10,000 entries of 2 KB (a warm render of
// 10,000 applications does 10,000 of these).
func BenchmarkGet(b *testing.B) {
	s, err := Open(Options{Dir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	data := bytes.Repeat([]byte("z"), 2048)
	keys := make([]Key, 10000)
	for i := range keys {
		keys[i] = key(fmt.Sprint(i))
		if err := s.Put(keys[i], data); err != nil {
			b.Fatal(err)
		}
	}
	i := 0
	for b.Loop() {
		if _, ok := s.Get(keys[i%len(keys)]); !ok {
			b.Fatal("miss")
		}
		i++
	}
}
