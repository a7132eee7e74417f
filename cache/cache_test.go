package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func key(s string) Key { return NewHasher("test").String(s).Key() }

func data(s string, n int) []byte { return bytes.Repeat([]byte(s), n) }

func open(t testing.TB, o Options) *Store {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestHasherParts(t *testing.T) {
	// Length prefixes: moving a byte between parts changes the key.
	a := NewHasher("k").String("ab").String("c").Key()
	b := NewHasher("k").String("a").String("bc").Key()
	c := NewHasher("j").String("ab").String("c").Key()
	if a == b || a == c {
		t.Fatal("different parts gave one key")
	}
	if a != NewHasher("k").String("ab").Bytes([]byte("c")).Key() {
		t.Fatal("same parts gave different keys")
	}
}

// TestHasherStream: a key is the SHA-256 of its parts, each after its
// length (uint64 little endian), whether the Hasher gathers them or
// streams them (parts past its small buffer), and Key may be asked midway: keys
// stay those of earlier builds, which the store's entries are under.
func TestHasherStream(t *testing.T) {
	big := strings.Repeat("x", len(Hasher{}.small)+1)
	cases := [][]string{
		{"k"},
		{"k", "", "ab"},
		{"k", big},
		{"k", "a", big, "b"},
		{"k", strings.Repeat("y", len(Hasher{}.small)/2), strings.Repeat("z", len(Hasher{}.small)/2), "c"},
		{"k", strings.Repeat("y", len(Hasher{}.small)-8-1-8)},   // just fits
		{"k", strings.Repeat("y", len(Hasher{}.small)-8-1-8+1)}, // just does not
	}
	for _, parts := range cases {
		var stream []byte
		h := NewHasher(parts[0])
		hb := NewHasher(parts[0])
		for i, p := range parts {
			stream = binary.LittleEndian.AppendUint64(stream, uint64(len(p)))
			stream = append(stream, p...)
			if i > 0 {
				h.String(p)
				hb.Bytes([]byte(p))
			}
			if want := Key(sha256.Sum256(stream)); h.Key() != want || hb.Key() != want {
				t.Fatalf("%d parts of %d bytes: key is not the stream's SHA-256", i+1, len(stream))
			}
		}
	}
}

func TestGetPut(t *testing.T) {
	s := open(t, Options{})
	if _, ok := s.Get(key("a")); ok {
		t.Fatal("hit on an empty store")
	}
	for _, d := range [][]byte{nil, []byte("x"), data("abc", 10000)} {
		if err := s.Put(key("a"), d); err != nil {
			t.Fatal(err)
		}
		got, ok := s.Get(key("a"))
		if !ok || !bytes.Equal(got, d) {
			t.Fatalf("Get = %q, %v; want %q", got, ok, d)
		}
	}
	if diff := cmp.Diff(Stats{Hits: 3, Misses: 1, Puts: 3}, s.Stats()); diff != "" {
		t.Error(diff)
	}
	// A reopened store (another process) reads it.
	s2 := open(t, Options{Dir: filepath.Dir(s.Dir())})
	if got, ok := s2.Get(key("a")); !ok || !bytes.Equal(got, data("abc", 10000)) {
		t.Fatal("reopened store misses")
	}
}

func TestNilStore(t *testing.T) {
	var s *Store
	if err := s.Put(key("a"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(key("a")); ok {
		t.Fatal("nil store hit")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s.Stats() != (Stats{}) || s.Dir() != "" {
		t.Fatal("nil store has stats or a directory")
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(Options{}); err == nil {
		t.Error("Open without a directory succeeded")
	}
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o666)
	if _, err := Open(Options{Dir: f}); err == nil {
		t.Error("Open of a file succeeded")
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	t.Setenv("HOME", "/x/home")
	d, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join("/x/cache", "drydock"); d != want {
		t.Errorf("DefaultDir = %q, want %q", d, want)
	}
}

// TestCorruptEveryByte flips each byte of an entry file, and truncates
// it at each length: every one is a miss, the file is removed, and the
// next Put writes it again.
func TestCorruptEveryByte(t *testing.T) {
	s := open(t, Options{})
	k, d := key("a"), []byte("the rendered application")
	if err := s.Put(k, d); err != nil {
		t.Fatal(err)
	}
	p := s.path(k)
	good, _ := os.ReadFile(p)
	check := func(what string, bad []byte) {
		t.Helper()
		os.WriteFile(p, bad, 0o666)
		if got, ok := s.Get(k); ok {
			t.Fatalf("%s: hit %q", what, got)
		}
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s: corrupt entry kept", what)
		}
		if err := s.Put(k, d); err != nil {
			t.Fatal(err)
		}
		if got, ok := s.Get(k); !ok || !bytes.Equal(got, d) {
			t.Fatalf("%s: not rebuilt", what)
		}
	}
	for i := range good {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(good)
			bad[i] ^= x
			check(fmt.Sprintf("byte %d ^ %#x", i, x), bad)
		}
	}
	for n := range len(good) {
		check(fmt.Sprintf("truncated at %d", n), good[:n])
	}
	check("a byte appended", append(bytes.Clone(good), 0))
	// Another key's entry renamed to k's name.
	s.Put(key("b"), d)
	other, _ := os.ReadFile(s.path(key("b")))
	check("another key's entry", other)
	st := s.Stats()
	if want := 3*len(good) + len(good) + 2; st.Corrupt != want {
		t.Errorf("Corrupt = %d, want %d", st.Corrupt, want)
	}
}

// TestConcurrent has goroutines write and read the same and different
// keys at once; every hit holds exactly what was put under its key.
func TestConcurrent(t *testing.T) {
	s := open(t, Options{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				name := strconv.Itoa(i % 20)
				want := data(name, 1000)
				if g%2 == 0 {
					if err := s.Put(key(name), want); err != nil {
						t.Error(err)
					}
				}
				if got, ok := s.Get(key(name)); ok && !bytes.Equal(got, want) {
					t.Errorf("key %s: wrong data", name)
				}
			}
		}()
	}
	wg.Wait()
	if c := s.Stats().Corrupt; c != 0 {
		t.Errorf("%d corrupt entries", c)
	}
}

// The helper processes of TestProcesses and TestKilledWriter.
func TestMain(m *testing.M) {
	switch os.Getenv("DRYDOCK_CACHE_HELPER") {
	case "write":
		s, err := Open(Options{Dir: os.Getenv("DRYDOCK_CACHE_DIR"), TrimEvery: -1, MaxBytes: 1 << 40})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		n, _ := strconv.Atoi(os.Getenv("DRYDOCK_CACHE_N"))
		for i := 0; n == 0 || i < n; i++ {
			name := strconv.Itoa(i % 50)
			want := data(name, 20000)
			if err := s.Put(key(name), want); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if got, ok := s.Get(key(name)); ok && !bytes.Equal(got, want) {
				fmt.Fprintln(os.Stderr, "wrong data")
				os.Exit(1)
			}
		}
		s.Close()
		os.Exit(0)
	case "pack":
		// TestPackProcesses: write a pack, read it, over and over.
		s, err := Open(Options{Dir: os.Getenv("DRYDOCK_CACHE_DIR")})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		mine, tags := packOf(300, os.Getenv("DRYDOCK_CACHE_TAG")), []string{"a", "b"}
		for range 100 {
			if err := s.PutPack(key("pack"), mine); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			got := maps.Collect(s.GetPack(key("pack")).All())
			if !maps.Equal(got, packOf(300, tags[0])) && !maps.Equal(got, packOf(300, tags[1])) {
				fmt.Fprintln(os.Stderr, "a pack of", len(got), "entries is neither writer's")
				os.Exit(1)
			}
		}
		if c := s.Stats().Corrupt; c != 0 {
			fmt.Fprintln(os.Stderr, c, "corrupt packs")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func packHelper(dir, tag string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), "DRYDOCK_CACHE_HELPER=pack", "DRYDOCK_CACHE_DIR="+dir, "DRYDOCK_CACHE_TAG="+tag)
	cmd.Stderr = os.Stderr
	return cmd
}

func helper(dir string, n int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), "DRYDOCK_CACHE_HELPER=write", "DRYDOCK_CACHE_DIR="+dir, "DRYDOCK_CACHE_N="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	return cmd
}

func checkAll(t *testing.T, dir string) int {
	t.Helper()
	s := open(t, Options{Dir: dir})
	hits := 0
	for i := range 50 {
		name := strconv.Itoa(i)
		if got, ok := s.Get(key(name)); ok {
			hits++
			if !bytes.Equal(got, data(name, 20000)) {
				t.Fatalf("key %s: wrong data", name)
			}
		}
	}
	if c := s.Stats().Corrupt; c != 0 {
		t.Fatalf("%d corrupt entries", c)
	}
	return hits
}

// TestProcesses runs two writer processes on one store at once.
func TestProcesses(t *testing.T) {
	dir := t.TempDir()
	a, b := helper(dir, 500), helper(dir, 500)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Run(); err != nil {
		t.Fatal(err)
	}
	if err := a.Wait(); err != nil {
		t.Fatal(err)
	}
	if n := checkAll(t, dir); n != 50 {
		t.Errorf("%d of 50 entries", n)
	}
}

// TestKilledWriter kills a writer mid-Put: no entry it leaves verifies
// wrongly, and the temporary files it leaves are not entries.
func TestKilledWriter(t *testing.T) {
	dir := t.TempDir()
	for _, after := range []time.Duration{5 * time.Millisecond, 20 * time.Millisecond, 60 * time.Millisecond} {
		cmd := helper(dir, 0)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(after)
		cmd.Process.Kill()
		cmd.Wait()
		checkAll(t, dir)
	}
}

// TestEvictionOrder: past the cap, Close removes the least recently used
// entries first; a hit makes an entry recent.
func TestEvictionOrder(t *testing.T) {
	dir := t.TempDir()
	size := int64(headerLen + 1000)
	s := open(t, Options{Dir: dir, MaxBytes: 3 * size, TrimEvery: -1})
	old := time.Now().Add(-10 * time.Hour)
	for i, name := range []string{"a", "b", "c", "d", "e"} {
		s.Put(key(name), data(name, 1000))
		at := old.Add(time.Duration(i) * time.Minute)
		os.Chtimes(s.path(key(name)), at, at)
	}
	if _, ok := s.Get(key("a")); !ok { // a is now the most recent
		t.Fatal("miss")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, Options{Dir: dir, MaxBytes: 3 * size})
	var kept []string
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		if _, ok := s.Get(key(name)); ok {
			kept = append(kept, name)
		}
	}
	if diff := cmp.Diff([]string{"a", "d", "e"}, kept); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
}

// TestTrimInterval: a store trimmed recently does not walk again; one
// that only hits never walks.
func TestTrimInterval(t *testing.T) {
	dir := t.TempDir()
	s := open(t, Options{Dir: dir, MaxBytes: 1})
	s.Put(key("a"), []byte("x"))
	s.Close() // first trim: the cap removes a
	if s.Stats().Evicted != 1 {
		t.Fatalf("Evicted = %d, want 1", s.Stats().Evicted)
	}
	s = open(t, Options{Dir: dir, MaxBytes: 1})
	s.Put(key("b"), []byte("x"))
	s.Close() // trimmed a moment ago: b stays
	if _, ok := open(t, Options{Dir: dir}).Get(key("b")); !ok {
		t.Fatal("b evicted within the trim interval")
	}
}

// TestStaleTemp: a trim removes temporary files a dead writer left.
func TestStaleTemp(t *testing.T) {
	s := open(t, Options{TrimEvery: -1})
	s.Put(key("a"), []byte("x"))
	tmp := filepath.Join(filepath.Dir(s.path(key("a"))), ".tmp-123")
	os.WriteFile(tmp, []byte("partial"), 0o666)
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(tmp, old, old)
	s.Close()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Error("stale temporary file kept")
	}
}

// TestTrimOnlyEntries: a trim past the cap removes the store's entries
// and never a file it did not name (one dropped in a shard directory, one
// in a directory of another name).
func TestTrimOnlyEntries(t *testing.T) {
	s := open(t, Options{MaxBytes: 1, TrimEvery: -1})
	s.Put(key("a"), []byte("x"))
	shard := filepath.Dir(s.path(key("a")))
	other := filepath.Join(s.Dir(), "notes")
	if err := os.MkdirAll(other, 0o777); err != nil {
		t.Fatal(err)
	}
	foreign := []string{filepath.Join(shard, "README"), filepath.Join(other, "ab")}
	for _, p := range foreign {
		if err := os.WriteFile(p, []byte("mine"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.path(key("a"))); !os.IsNotExist(err) {
		t.Error("the entry past the cap was kept")
	}
	for _, p := range foreign {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestBuildID: the running test binary's ID is what go tool buildid
// reports, and parseBuildID reads the non-ELF form too.
func TestBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skip("go tool buildid:", err)
	}
	if want := string(bytes.TrimSpace(out)); BuildID() != want {
		t.Errorf("BuildID = %q, want %q", BuildID(), want)
	}
	id, ok := parseBuildID([]byte("\xcf\xfa\xed\xfe....\xff Go build ID: \"abc/def\"\n \xff..."))
	if !ok || id != "abc/def" {
		t.Errorf("parseBuildID = %q, %v", id, ok)
	}
	if _, ok := parseBuildID([]byte("\x7fELF no id")); ok {
		t.Error("parseBuildID found an ID in none")
	}
	// An executable without an ID is still identified.
	f := filepath.Join(t.TempDir(), "exe")
	os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755)
	if id := executableID(f); id == "" || id == BuildID() {
		t.Errorf("executableID = %q", id)
	}
}

// BenchmarkGet10k is the cost of a hit in a store of 10,000 entries of
// 4 KiB (a warm run of a 10,000-app suite looks up each once).
func BenchmarkGet10k(b *testing.B) {
	s := open(b, Options{})
	keys := make([]Key, 10000)
	d := data("x", 4096)
	for i := range keys {
		keys[i] = key(strconv.Itoa(i))
		s.Put(keys[i], d)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, ok := s.Get(keys[i%len(keys)]); !ok {
			b.Fatal("miss")
		}
	}
}

// TestHasherAllocs: a key of parts that fit the Hasher's buffer, the
// Hasher not kept, costs no allocation; of more, not one per part.
// testing.AllocsPerRun counts the whole process's: the fewest of a few
// rounds is the Hasher's (other goroutines only add to them).
func TestHasherAllocs(t *testing.T) {
	b := []byte("bytes")
	s := strings.Repeat("s", 50)
	var k Key
	least := func(f func()) float64 {
		n := testing.AllocsPerRun(20, f)
		for range 4 {
			n = min(n, testing.AllocsPerRun(20, f))
		}
		return n
	}
	if n := least(func() { k = NewHasher("k").String(s).Bytes(b).String(s).Key() }); n != 0 {
		t.Errorf("%v allocations for a key of 4 small parts", n)
	}
	n := least(func() {
		h := NewHasher("k")
		for range 30 {
			h.String(s).Bytes(b)
		}
		k = h.Key()
	})
	if n > 15 {
		t.Errorf("%v allocations for a key of 60 small parts", n)
	}
	_ = k
}
