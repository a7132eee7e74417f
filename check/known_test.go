package check

import (
	"context"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/tree"
)

// memStore is a store in memory.
type memStore struct {
	mu sync.Mutex
	m  map[cache.Key][]byte
}

func (s *memStore) Get(k cache.Key) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.m[k]
	return d, ok
}

func (s *memStore) GetString(k cache.Key) (string, bool) {
	d, ok := s.Get(k)
	return string(d), ok
}

func (s *memStore) Put(k cache.Key, data []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[cache.Key][]byte{}
	}
	s.m[k] = data
	return nil
}

// cachedRun runs drydock.yaml with st keeping the golden comparisons' state
// (files written before now count as old) and renders (a render cache
// hit's objects carry their digests, manifest.Object.Sums) from rc, when
// set, and returns the result and how many golden files the suite's
// comparison knew unchanged without reading.
func cachedRun(t *testing.T, st store, rc ...*cache.Store) (*Result, int) {
	t.Helper()
	cfg, err := LoadConfig("drydock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	known := -1
	var renders *cache.Store
	if len(rc) > 0 {
		renders = rc[0]
	}
	res := Run(context.Background(), cfg, Options{testStore: st, Cache: renders,
		goldenStart:  func(time.Time) time.Time { return time.Now().Add(time.Hour) },
		goldenReport: func(_ string, rep *golden.Report) { known = rep.Known }})
	return res, known
}

// TestGoldenKnown: with a store, a golden file unchanged since the last
// comparison, rendered from an unchanged object, is not read again; each
// change that could make a golden finding (the render, a golden file
// edited with its size and time kept, deleted, a stale one added, the
// suite's config, the store's record) gives the findings of a run
// without the store.
func TestGoldenKnown(t *testing.T) {
	const objects = 2 // two Deployments
	cart := strings.ReplaceAll(strings.ReplaceAll(shopApp("nginx:1.25", 2), "shop", "cart"), "name: web", "name: api")
	tests := []struct {
		name   string
		change func(t *testing.T, st *memStore)
		// known are the files the run after the change knows unchanged,
		// again the run after it.
		known, again int
	}{
		{"nothing changed", nil, objects, objects},
		{"a rendered object changed", func(t *testing.T, _ *memStore) {
			writeFiles(t, ".", map[string]string{"shop.yaml": shopApp("nginx:1.26", 2)})
		}, objects - 1, objects - 1},
		{"a golden file edited, its size and modification time kept", func(t *testing.T, _ *memStore) {
			p := filepath.Join("golden", "local", "default", "deployment.apps_web.yaml")
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, ".", map[string]string{filepath.ToSlash(p): strings.Replace(string(data), "nginx:1.25", "nginx:1.24", 1)})
			if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, objects - 1, objects - 1},
		{"a golden file deleted", func(t *testing.T, _ *memStore) {
			if err := os.Remove(filepath.Join("golden", "local", "default", "deployment.apps_api.yaml")); err != nil {
				t.Fatal(err)
			}
		}, objects - 1, objects - 1},
		{"a stale golden file", func(t *testing.T, _ *memStore) {
			writeFiles(t, ".", map[string]string{"golden/local/default/configmap_old.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: old, namespace: default}\n"})
			f, err := os.OpenFile(filepath.Join("golden", tree.OwnershipFile), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("local/default/configmap_old.yaml\n"); err != nil {
				t.Fatal(err)
			}
		}, objects, objects},
		{"an object no longer renders", func(t *testing.T, _ *memStore) {
			writeFiles(t, ".", map[string]string{"cart.yaml": "# moved away\n"})
		}, objects - 1, objects - 1},
		{"the suite's config changed", func(t *testing.T, _ *memStore) {
			writeFiles(t, ".", map[string]string{"drydock.yaml": "suites: [{name: s, inputs: [shop.yaml, cart.yaml], golden: golden, validate: false, ignore: [{path: spec.replicas}]}]\n"})
		}, 0, objects},
		{"the store's record corrupted", func(t *testing.T, st *memStore) {
			for k, data := range st.m {
				st.m[k] = data[:len(data)-1]
			}
		}, 0, objects},
	}
	for _, tt := range tests {
		for _, renders := range []string{"", " (renders cached)"} {
			t.Run(tt.name+renders, func(t *testing.T) { goldenKnownCase(t, objects, cart, tt.change, tt.known, tt.again, renders != "") })
		}
	}
}

// goldenKnownCase is a case of TestGoldenKnown, with renders cached or
// not.
func goldenKnownCase(t *testing.T, objects int, cart string, change func(t *testing.T, st *memStore), wantKnown, wantAgain int, renders bool) {
	res := runFiles(t, map[string]string{
		"drydock.yaml": "suites: [{name: s, inputs: [shop.yaml, cart.yaml], golden: golden, validate: false}]\n",
		"shop.yaml":    shopApp("nginx:1.25", 2),
		"cart.yaml":    cart,
	}, Options{Update: true})
	if res.ExitCode() != ExitOK {
		t.Fatalf("update: %v", summarize(res))
	}
	st := &memStore{}
	var rc []*cache.Store
	if renders {
		c, err := cache.Open(cache.Options{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		rc = append(rc, c)
	}
	if _, known := cachedRun(t, st, rc...); known != 0 {
		t.Fatalf("the first run knew %d files", known)
	}
	if _, known := cachedRun(t, st, rc...); known != objects {
		t.Fatalf("the second run knew %d files, want %d", known, objects)
	}
	if renders {
		if s := rc[0].Stats(); s.Hits == 0 {
			t.Fatalf("no render hit: %+v", s)
		}
	}
	if change != nil {
		change(t, st)
	}
	cfg, err := LoadConfig("drydock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cold := Run(context.Background(), cfg, Options{})
	warm, known := cachedRun(t, st, rc...)
	if diff := cmp.Diff(summarize(cold), summarize(warm)); diff != "" {
		t.Errorf("findings differ from a run without the store (-cold +warm):\n%s", diff)
	}
	if diff := cmp.Diff(findingDiffs(cold), findingDiffs(warm)); diff != "" {
		t.Errorf("diffs differ from a run without the store (-cold +warm):\n%s", diff)
	}
	if known != wantKnown {
		t.Errorf("knew %d golden files unchanged, want %d", known, wantKnown)
	}
	// What that run learned holds for the next.
	if _, again := cachedRun(t, st, rc...); again != wantAgain {
		t.Errorf("the next run knew %d files, want %d", again, wantAgain)
	}
}

// findingDiffs are the findings' diffs and fields.
func findingDiffs(r *Result) []string {
	var out []string
	for _, s := range r.Suites {
		for _, f := range s.Findings {
			out = append(out, f.Field+"\n"+f.Diff)
		}
	}
	return out
}

// TestGoldenKnownUpdate: drydock test --update with a store rewrites what
// a render changed and a golden file edited with its size and time kept,
// though it knew the rest unchanged: a run without the store then passes.
func TestGoldenKnownUpdate(t *testing.T) {
	res := runFiles(t, map[string]string{
		"drydock.yaml": "suites: [{name: s, inputs: [shop.yaml], golden: golden, validate: false}]\n",
		"shop.yaml":    shopApp("nginx:1.25", 2),
	}, Options{Update: true})
	if res.ExitCode() != ExitOK {
		t.Fatalf("update: %v", summarize(res))
	}
	cfg, err := LoadConfig("drydock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	st := &memStore{}
	update := func() *Result {
		return Run(context.Background(), cfg, Options{Update: true, testStore: st,
			goldenStart: func(time.Time) time.Time { return time.Now().Add(time.Hour) }})
	}
	update()
	if known := storedKnown(st); len(known) != 1 {
		t.Fatalf("the update kept %d records", len(known))
	}
	web := filepath.Join("golden", "local", "default", "deployment.apps_web.yaml")
	for _, change := range []func(){
		func() { writeFiles(t, ".", map[string]string{"shop.yaml": shopApp("nginx:1.26", 2)}) },
		func() {
			fi, err := os.Stat(web)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(web)
			writeFiles(t, ".", map[string]string{filepath.ToSlash(web): strings.Replace(string(data), "nginx:1.26", "nginx:1.20", 1)})
			if err := os.Chtimes(web, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
		},
	} {
		change()
		if got := update(); len(got.Suites[0].Updated) != 1 {
			t.Errorf("the update wrote %v, want the Deployment", got.Suites[0].Updated)
		}
		if cold := Run(context.Background(), cfg, Options{}); cold.ExitCode() != ExitOK {
			t.Errorf("after the update: %v", summarize(cold))
		}
		if got := update(); len(got.Suites[0].Updated) != 0 { // and learns the file it wrote
			t.Errorf("the next update wrote %v", got.Suites[0].Updated)
		}
		if k := storedKnown(st); len(k) != 1 || len(k[0]) != 1 {
			t.Errorf("the update knows %v; want the Deployment", k)
		}
	}
}

// storedKnown are the records of known files st keeps.
func storedKnown(st *memStore) []tree.Known {
	var out []tree.Known
	for k, data := range st.m {
		if strings.HasPrefix(string(data), knownHeader) {
			known, _ := loadKnown(st, k)
			out = append(out, known)
		}
	}
	return out
}

// countingStore counts the Puts of a memStore.
type countingStore struct {
	*memStore
	puts int
}

func (s *countingStore) Put(k cache.Key, data []byte) error {
	s.puts++
	return s.memStore.Put(k, data)
}

// TestKnownParts: the record of known files is kept in parts; a change
// of a file rewrites its part only, a change of the number of parts all
// of them; what a part that is missing, unreadable or not of the record
// held is not known; any other header is no record.
func TestKnownParts(t *testing.T) {
	for _, tt := range []struct{ n, parts int }{{0, 1}, {1, 1}, {knownPartSize, 1}, {knownPartSize + 1, 2}, {5000, 16}, {1 << 30, maxKnownParts}} {
		if got := knownParts(tt.n); got != tt.parts {
			t.Errorf("knownParts(%d) = %d, want %d", tt.n, got, tt.parts)
		}
	}
	known := func(n int, rendered byte) tree.Known {
		k := tree.Known{}
		for i := range n {
			k[fmt.Sprintf("local/team-%d/deployment.apps_web-%d.yaml", i%10, i)] = tree.KnownFile{File: tree.FileID{Size: int64(i), Ino: uint64(i)}, Rendered: tree.Digest{rendered}}
		}
		return k
	}
	key := cache.Key{1}
	st := &countingStore{memStore: &memStore{}}
	load := func() (tree.Known, int) {
		k, parts := loadKnown(st, key)
		return k, parts
	}
	if k, parts := load(); k != nil || parts != 0 {
		t.Fatalf("nothing kept loads %v in %d parts", k, parts)
	}
	all := known(3000, 1) // 8 parts
	if err := keepKnown(st, key, 0, nil, all); err != nil {
		t.Fatal(err)
	}
	if st.puts != 8+1 {
		t.Errorf("a new record took %d puts, want 8 parts and the header", st.puts)
	}
	got, parts := load()
	if diff := cmp.Diff(all, got); diff != "" || parts != 8 {
		t.Errorf("loaded %d parts (-want +got):\n%s", parts, diff)
	}
	// One file changed, one gone: their parts only.
	next := maps.Clone(all)
	p1, p2 := "local/team-3/deployment.apps_web-13.yaml", "local/team-4/deployment.apps_web-1234.yaml"
	next[p1] = tree.KnownFile{Rendered: tree.Digest{2}}
	delete(next, p2)
	st.puts = 0
	if err := keepKnown(st, key, parts, got, next); err != nil {
		t.Fatal(err)
	}
	want := 1
	if cache.PartOf(p1, 8) != cache.PartOf(p2, 8) {
		want = 2
	}
	if st.puts != want {
		t.Errorf("a change of two files took %d puts, want %d", st.puts, want)
	}
	if got, _ := load(); !maps.Equal(got, next) {
		t.Error("the changed record does not load as kept")
	}
	// The same kept from the changed paths (a comparison's Changed): the
	// same parts written, the same record loaded.
	back := maps.Clone(next)
	back[p1] = all[p1]
	st.puts = 0
	if err := keepChanged(st, key, parts, back, []string{p1}); err != nil {
		t.Fatal(err)
	}
	if st.puts != 1 {
		t.Errorf("a change of one file by its path took %d puts, want 1", st.puts)
	}
	if got, _ := load(); !maps.Equal(got, back) {
		t.Error("the record changed by path does not load as kept")
	}
	st.puts = 0
	if err := keepChanged(st, key, parts, next, []string{p1}); err != nil {
		t.Fatal(err)
	}
	// More files: more parts, all written.
	more := known(5000, 1)
	st.puts = 0
	if err := keepKnown(st, key, 8, next, more); err != nil {
		t.Fatal(err)
	}
	if got, parts := load(); st.puts != 16+1 || parts != 16 || !maps.Equal(got, more) {
		t.Errorf("grown: %d puts, %d parts, equal %t", st.puts, parts, maps.Equal(got, more))
	}
	// A part missing, unreadable, or holding another part's files.
	without := func(parts ...int) tree.Known {
		want := maps.Clone(more)
		maps.DeleteFunc(want, func(p string, _ tree.KnownFile) bool { return slices.Contains(parts, cache.PartOf(p, 16)) })
		return want
	}
	delete(st.m, cache.PartKey("known", key, 16, 3))
	if got, _ := load(); !maps.Equal(got, without(3)) {
		t.Error("a missing part: its files are known")
	}
	st.m[cache.PartKey("known", key, 16, 5)] = []byte("junk")
	if got, _ := load(); !maps.Equal(got, without(3, 5)) {
		t.Error("an unreadable part: its files are known")
	}
	st.m[cache.PartKey("known", key, 16, 7)] = st.m[cache.PartKey("known", key, 16, 8)] // part 8's files as part 7
	if got, _ := load(); !maps.Equal(got, without(3, 5, 7)) {
		t.Error("a part holding another's files: they are known")
	}
	for _, header := range []string{"", knownHeader, knownHeader + "3", knownHeader + "0", knownHeader + "512", "drydock known parts 2\n16"} {
		st.m[key] = []byte(header)
		if k, parts := load(); k != nil || parts != 0 {
			t.Errorf("header %q loads %d parts", header, parts)
		}
	}
}

// TestPartOfIsFNV: partOf hashes as hash/fnv's New32a did, so the parts
// of records kept by earlier versions are still found where they are.
func TestPartOfIsFNV(t *testing.T) {
	for _, p := range []string{"", "a.yaml", "local/team-3/deployment.apps_web-13.yaml", "ünï/cödé.yaml"} {
		for _, parts := range []int{1, 8, 16, 1000} {
			h := fnv.New32a()
			h.Write([]byte(p))
			if got, want := cache.PartOf(p, parts), int(h.Sum32()%uint32(parts)); got != want {
				t.Errorf("cache.PartOf(%q, %d) = %d, want %d", p, parts, got, want)
			}
		}
	}
}
