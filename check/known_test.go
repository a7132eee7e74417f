package check

import (
	"context"
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
	if len(st.m) != 1 {
		t.Fatalf("the update kept %d records", len(st.m))
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
		if k, err := tree.ParseKnown(slices.Collect(maps.Values(st.m))[0]); err != nil || len(k) != 1 {
			t.Errorf("the update knows %v, %v; want the Deployment", k, err)
		}
	}
}
