package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/resourcekeeper"
	"github.com/drydock-dev/drydock/render/workflow"
	"github.com/drydock-dev/drydock/schemas"
	"github.com/drydock-dev/drydock/tree"
)

const cacheDef = `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata:
  name: mycomp
spec:
  workload:
    definition: {apiVersion: v1, kind: ConfigMap}
  schematic:
    cue:
      template: |
        output: {
          apiVersion: "v1"
          kind: "ConfigMap"
          metadata: name: context.name
          data: {v: parameter.v, n: parameter.n, f: parameter.f}
        }
        parameter: {v: string, n: *1 | int, f: *1.5 | number}
`

const cacheUnused = `apiVersion: core.oam.dev/v1beta1
kind: TraitDefinition
metadata:
  name: unused
spec:
  schematic:
    cue:
      template: |
        patch: metadata: labels: x: "y"
`

func cacheApp(name, v string) string {
	return fmt.Sprintf(`apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: %s
spec:
  components:
  - name: %s
    type: mycomp
    properties: {v: %q, n: 3}
  - name: %s-web
    type: webservice
    properties: {image: "nginx:1", port: 80}
    traits:
    - type: scaler
      properties: {replicas: 2}
`, name, name, v, name)
}

const cacheClusters = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: east
  labels: {region: east}
`

const cacheObserved = `apiVersion: v1
kind: ConfigMap
metadata: {name: seen, namespace: default}
data: {a: "1"}
`

// cacheInputs writes the files of a render into dir.
type cacheFiles map[string]string

func (f cacheFiles) write(t *testing.T, dir string) {
	t.Helper()
	for name, text := range f {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o777)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func baseCacheFiles() cacheFiles {
	return cacheFiles{
		"apps/a.yaml":      cacheApp("a", "one"),
		"apps/b.yaml":      cacheApp("b", "two") + "---\n" + cacheApp("c", "three"),
		"defs/comp.yaml":   cacheDef,
		"defs/unused.yaml": cacheUnused,
		"clusters.yaml":    cacheClusters,
		"observed.yaml":    cacheObserved,
	}
}

// renderOnce renders the files in dir with store (nil: none) and returns
// its tree and warnings as text.
func renderOnce(t *testing.T, dir string, store *cache.Store, mod func(*Inputs)) string {
	t.Helper()
	in := Inputs{
		Paths:           []string{filepath.Join(dir, "apps")},
		DefinitionPaths: []string{filepath.Join(dir, "defs")},
		ClusterPaths:    []string{filepath.Join(dir, "clusters.yaml")},
		ObservedPaths:   []string{filepath.Join(dir, "observed.yaml")},
		Record:          Record{AppState: true, Trace: true},
		Cache:           store,
	}
	if mod != nil {
		mod(&in)
	}
	res, err := Run(context.Background(), in)
	if err != nil {
		return "error: " + err.Error()
	}
	tr, err := Tree(res.Clusters)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range tr.Paths() {
		fmt.Fprintf(&b, "--- %s\n%s", p, tr[p])
	}
	fmt.Fprintf(&b, "warnings: %q\nstate: %v\ntrace: %v\n", res.SortedWarnings(), res.AppState.RevisionHashes, res.Trace)
	return b.String()
}

// TestCacheMutations changes one input at a time: a render from the cache
// warmed before the change equals a render without a cache, and the
// applications the change reaches miss while the others hit.
func TestCacheMutations(t *testing.T) {
	tests := []struct {
		name   string
		files  func(cacheFiles)
		disk   func(t *testing.T, dir string)
		mod    func(*Inputs)
		misses int // of the applications (3 unless apps says)
		apps   int
		// record is 1 when the record of known inputs misses.
		record int
		// store changes the cache directory (dir) before the warm run;
		// pack is the render pack's file.
		store func(t *testing.T, dir, pack string)
		// noPack: the pack serves nothing (store removed or broke it).
		noPack bool
	}{
		{name: "nothing", misses: 0},
		{name: "app bytes", files: func(f cacheFiles) { f["apps/a.yaml"] = cacheApp("a", "uno") }, misses: 1},
		{name: "app moved down a line", files: func(f cacheFiles) { f["apps/a.yaml"] = "\n" + f["apps/a.yaml"] }, misses: 1},
		{name: "other app in the same file", files: func(f cacheFiles) { f["apps/b.yaml"] = cacheApp("b", "dos") + "---\n" + cacheApp("c", "three") }, misses: 1},
		{name: "app in a file moved down", files: func(f cacheFiles) {
			f["apps/b.yaml"] = cacheApp("b", "two") + "# one line more\n---\n" + cacheApp("c", "three")
		}, misses: 2}, // b's bytes and c's position
		{name: "definition used", files: func(f cacheFiles) { f["defs/comp.yaml"] = strings.Replace(cacheDef, "*1.5", "*2.5", 1) }, misses: 3},
		{name: "definition unused", files: func(f cacheFiles) { f["defs/unused.yaml"] = strings.Replace(cacheUnused, `"y"`, `"z"`, 1) }, misses: 3},
		{name: "inventory", files: func(f cacheFiles) { f["clusters.yaml"] = strings.Replace(cacheClusters, "east", "west", 2) }, misses: 3},
		{name: "observed", files: func(f cacheFiles) { f["observed.yaml"] = strings.Replace(cacheObserved, `"1"`, `"2"`, 1) }, misses: 3},
		{name: "kube version", mod: func(in *Inputs) { in.Workflow.KubeVersion = "1.29" }, misses: 3},
		{name: "stop at suspend", mod: func(in *Inputs) { in.Workflow.StopAtSuspend = true }, misses: 3},
		{name: "no trace", mod: func(in *Inputs) { in.Record.Trace = false }, misses: 3},
		{name: "base revision", mod: func(in *Inputs) { in.BaseRevisions = map[string]string{"default/a": "x"} }, misses: 1},
		// The record of known inputs (inputknown.go): a file is read
		// again whenever its identity changed.
		{name: "file touched", disk: func(t *testing.T, dir string) {
			touch(t, filepath.Join(dir, "apps/a.yaml"), time.Now().Add(time.Minute))
		}, misses: 0},
		{name: "bytes changed, size and mtime kept", disk: func(t *testing.T, dir string) {
			p := filepath.Join(dir, "apps/a.yaml")
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(cacheApp("a", "uno")), 0o666); err != nil { // as long as "one"
				t.Fatal(err)
			}
			touch(t, p, fi.ModTime())
		}, misses: 1},
		{name: "file renamed", disk: func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "apps/a.yaml"), filepath.Join(dir, "apps/z.yaml")); err != nil {
				t.Fatal(err)
			}
		}, misses: 1},
		{name: "file moved over another", disk: func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "apps/a.yaml"), filepath.Join(dir, "apps/b.yaml")); err != nil {
				t.Fatal(err)
			}
		}, misses: 1, apps: 1},
		{name: "file deleted", disk: func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "apps/a.yaml")); err != nil {
				t.Fatal(err)
			}
		}, misses: 0, apps: 2},
		{name: "file in a new directory", disk: func(t *testing.T, dir string) {
			os.MkdirAll(filepath.Join(dir, "apps/sub"), 0o777)
			if err := os.Rename(filepath.Join(dir, "apps/a.yaml"), filepath.Join(dir, "apps/sub/a.yaml")); err != nil {
				t.Fatal(err)
			}
		}, misses: 1},
		{name: "field validation", mod: func(in *Inputs) { in.FieldValidation = schemas.FieldWarn }, misses: 3, record: 1},
		// The render pack: the entries of the last run in one file.
		// Without it, or with a pack that does not verify, the entries'
		// own files serve; without them, the pack alone does.
		{name: "pack removed", store: func(t *testing.T, _, pack string) {
			if err := os.Remove(pack); err != nil {
				t.Fatal(err)
			}
		}, noPack: true},
		{name: "pack truncated", store: func(t *testing.T, _, pack string) {
			fi, err := os.Stat(pack)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(pack, fi.Size()-1); err != nil {
				t.Fatal(err)
			}
		}, noPack: true},
		{name: "pack byte flipped", store: func(t *testing.T, _, pack string) {
			b, err := os.ReadFile(pack)
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)/2] ^= 0x20
			if err := os.WriteFile(pack, b, 0o666); err != nil {
				t.Fatal(err)
			}
		}, noPack: true},
		{name: "pack only", store: func(t *testing.T, dir, pack string) {
			// Every entry file but the pack and the record of known
			// inputs (its header and its part) removed.
			removed := 0
			filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
				if err != nil || !fi.Mode().IsRegular() || p == pack {
					return nil
				}
				if b, err := os.ReadFile(p); err == nil && !bytes.Contains(b, []byte(knownInputsMagic)) && !bytes.Contains(b, []byte(inputPartsHeader)) && os.Remove(p) == nil {
					removed++
				}
				return nil
			})
			if removed < 3 {
				t.Fatalf("%d files removed, want the 3 entries at least", removed)
			}
		}},
		{name: "pack and app bytes", files: func(f cacheFiles) { f["apps/a.yaml"] = cacheApp("a", "uno") }, store: func(t *testing.T, _, pack string) {
			if err := os.Remove(pack); err != nil {
				t.Fatal(err)
			}
		}, misses: 1, noPack: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, cdir := t.TempDir(), t.TempDir()
			files := baseCacheFiles()
			files.write(t, dir)
			warm, err := cache.Open(cache.Options{Dir: cdir})
			if err != nil {
				t.Fatal(err)
			}
			// The files are not racy when the runs start an hour later.
			later := func(in *Inputs) { in.clock = func() time.Time { return time.Now().Add(time.Hour) } }
			first := renderOnce(t, dir, warm, later)
			if strings.HasPrefix(first, "error") {
				t.Fatal(first)
			}
			if tt.files != nil {
				tt.files(files)
				files.write(t, dir)
			}
			if tt.disk != nil {
				tt.disk(t, dir)
			}
			if tt.store != nil {
				pack := entryPath(warm, packKey(&Inputs{Paths: []string{filepath.Join(dir, "apps")},
					DefinitionPaths: []string{filepath.Join(dir, "defs")},
					ClusterPaths:    []string{filepath.Join(dir, "clusters.yaml")},
					ObservedPaths:   []string{filepath.Join(dir, "observed.yaml")}}))
				tt.store(t, cdir, pack)
			}
			want := renderOnce(t, dir, nil, tt.mod)
			store, _ := cache.Open(cache.Options{Dir: cdir})
			got := renderOnce(t, dir, store, func(in *Inputs) {
				later(in)
				if tt.mod != nil {
					tt.mod(in)
				}
			})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("warm render differs from a render without cache (-want +got):\n%s", diff)
			}
			apps := 3
			if tt.apps != 0 {
				apps = tt.apps
			}
			// The record of known inputs is two Gets more: its header and
			// its one part (a header that misses: one).
			if st := store.Stats(); st.Misses != tt.misses+tt.record || st.Hits != apps-tt.misses+2*(1-tt.record) {
				t.Errorf("hits %d misses %d; want %d misses of %d (record missed: %d)", st.Hits, st.Misses, tt.misses, apps, tt.record)
			}
			packHits := apps - tt.misses
			if tt.noPack {
				packHits = 0
			}
			if st := store.Stats(); st.PackHits != packHits {
				t.Errorf("%d hits from the pack, want %d", st.PackHits, packHits)
			}
			// The pack now holds what this run used: the next run reads
			// every entry from it and writes nothing.
			again, _ := cache.Open(cache.Options{Dir: cdir})
			if got := renderOnce(t, dir, again, func(in *Inputs) {
				later(in)
				if tt.mod != nil {
					tt.mod(in)
				}
			}); got != want {
				t.Errorf("third render differs from a render without cache:\n%s", cmp.Diff(want, got))
			}
			if st := again.Stats(); st.PackHits != apps || st.Misses != 0 || st.Puts != 0 {
				t.Errorf("third run: %+v; want %d hits from the pack, no miss, nothing written", st, apps)
			}
		})
	}
}

// entryPath is where s keeps the entry of k.
func entryPath(s *cache.Store, k cache.Key) string {
	h := hex.EncodeToString(k[:])
	return filepath.Join(s.Dir(), h[:2], h[2:])
}

// touch sets the modification time of p to t.
func touch(t *testing.T, p string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(p, at, at); err != nil {
		t.Fatal(err)
	}
}

// TestCacheOff: the runs whose render reads what a key does not cover
// neither read nor write the cache.
func TestCacheOff(t *testing.T) {
	for name, mod := range map[string]func(*Inputs){
		"provenance": func(in *Inputs) { in.Record.Provenance = true },
		"status":     func(in *Inputs) { in.Record.Status = true },
		"definitions given": func(in *Inputs) {
			defs, err := LoadDefinitions(in.DefinitionPaths, false)
			if err != nil {
				t.Fatal(err)
			}
			in.Definitions = defs
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			baseCacheFiles().write(t, dir)
			store, _ := cache.Open(cache.Options{Dir: t.TempDir()})
			renderOnce(t, dir, store, mod)
			if st := store.Stats(); st != (cache.Stats{}) {
				t.Errorf("stats %+v, want none", st)
			}
		})
	}
}

// TestCacheEntryRoundTrip: an entry gives back the writes' values with
// their Go types.
func TestCacheEntryRoundTrip(t *testing.T) {
	obj := map[string]any{"a": 1, "b": int64(2), "c": 1.0, "d": "x", "e": nil, "f": []any{true, false, map[string]any{}}, "g": []any{}, "h": map[string]any(nil), "i": []any(nil)}
	e := &encoder{}
	if err := e.value(obj); err != nil {
		t.Fatal(err)
	}
	d := newDecoder(e.b)
	if diff := cmp.Diff(any(obj), d.value()); diff != "" {
		t.Error(diff)
	}
	if err := (&encoder{}).value(map[string]any{"x": int32(1)}); err == nil {
		t.Error("int32 encoded")
	}
	if _, err := decodeEntry([]byte{1, 2, 3}); err == nil {
		t.Error("bad entry decoded")
	}
}

// TestCacheEntryBadObject: an entry whose object encoding (read past,
// length-prefixed) does not decode is refused when its objects are
// decoded (the application then renders again), and a Lazy decode of it
// stops the run naming the object, rather than check an object it does
// not have.
func TestCacheEntryBadObject(t *testing.T) {
	obj := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a", "namespace": "ns"}}
	r := &workflow.AppResult{App: &render.Application{Name: "app", Namespace: "ns", Object: manifest.New(nil)}, Resources: &resourcekeeper.Resources{},
		Writes: []workflow.Write{{Cluster: "local", Resource: &cueval.Resource{Component: "c", Object: obj}}}}
	b, err := encodeEntry(r, "")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := decodeEntry(b); err != nil || cmp.Diff(obj, c.writes[0].Resource.Object) != "" {
		t.Fatalf("good entry: %v", err)
	}
	v := &encoder{}
	if err := v.value(obj); err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(b, v.b)
	if i < 0 {
		t.Fatal("the object's encoding is not in the entry")
	}
	b[i] = 0xff // a tag no value has
	if _, err := decodeEntry(b); err == nil {
		t.Error("an entry whose object does not decode decoded")
	}
	c, err := decodeEntryString(string(b))
	if err != nil {
		t.Fatal(err) // the rest reads: the object is read past
	}
	if !c.lazily() || len(c.ws) != 1 {
		t.Fatalf("lazily() = %v, %d writes", c.lazily(), len(c.ws))
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "ConfigMap ns/a") {
			t.Errorf("Lazy decode of a bad object: recovered %v", r)
		}
	}()
	c.ws[0].lazyObject().Object()
}

func TestSplitDocs(t *testing.T) {
	lines := func(data string) []int {
		var out []int
		for _, d := range splitDocs([]byte(data)) {
			out = append(out, d.line)
		}
		return out
	}
	for _, tt := range []struct {
		data string
		want []int
	}{
		{"a: 1\n", []int{1}},
		{"---\na: 1\n---\nb: 2\n", []int{1, 3}},
		{"# c\n---\na: |\n  ---x\n  --- \n---\r\nb: 2", []int{1, 2, 6}},
		{"a: '---'\n----\n--- # c\nb: 1\n", []int{1, 3}},
	} {
		if diff := cmp.Diff(tt.want, lines(tt.data)); diff != "" {
			t.Errorf("%q: %s", tt.data, diff)
		}
	}
}

// sharingApp is an Application that shares its ConfigMap (a
// shared-resource policy), with a webservice component when web.
func sharingApp(name string, web bool) string {
	webComp := ""
	if web {
		webComp = fmt.Sprintf("  - name: %s-web\n    type: webservice\n    properties: {image: \"nginx:1\"}\n", name)
	}
	return fmt.Sprintf(`apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: %s
spec:
  components:
  - name: shared
    type: mycomp
    properties: {v: "same"}
%s  policies:
  - {name: share, type: shared-resource, properties: {rules: [{selector: {resourceTypes: [ConfigMap]}}]}}
`, name, webComp)
}

// sharingRun writes baseCacheFiles and two sharing applications (web:
// sharingApp's) into a new directory and returns a streamed run of them
// through store into the sink new makes, validating or not.
func sharingRun(t *testing.T, web, validate bool, store *cache.Store) func(sink cluster.Sink) *Result {
	dir := t.TempDir()
	files := baseCacheFiles()
	files["apps/s.yaml"] = sharingApp("s1", web) + "---\n" + sharingApp("s2", web)
	files.write(t, dir)
	return func(sink cluster.Sink) *Result {
		in := Inputs{
			Paths:           []string{filepath.Join(dir, "apps")},
			DefinitionPaths: []string{filepath.Join(dir, "defs")},
			ClusterPaths:    []string{filepath.Join(dir, "clusters.yaml")},
			ObservedPaths:   []string{filepath.Join(dir, "observed.yaml")},
			Cache:           store,
		}
		if validate {
			in.Record.Validate = &Validation{}
		}
		res, err := Stream(context.Background(), in, sink)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
}

// sumsSink checks each object it is given: the hashes it carries
// (manifest.Object.Sums) are its data's.
type sumsSink struct {
	t       *testing.T
	carried int
	objs    []*manifest.Object
}

func (s *sumsSink) Put(c string, e cluster.Entry) error {
	s.objs = append(s.objs, e.Object)
	if e.Object.Sums == nil {
		return nil
	}
	s.carried++
	enc := &encoder{}
	if err := enc.value(e.Object.Data); err != nil {
		s.t.Fatal(err)
	}
	d, ok := tree.DigestOf(e.Object)
	want := manifest.Sums{Content: sha256.Sum256(enc.b), Digest: d, Digested: ok}
	if *e.Object.Sums != want {
		s.t.Errorf("%s %s carries sums that are not its data's", c, e.Object.Key())
	}
	return nil
}

// TestCacheSums: a render cache hit's objects carry their hashes to the
// sinks (lean entries and the others, validating or not), hashes of
// their data as the sinks get it (a shared resource's copy that another
// application's sharing annotates has none), and only while they are
// dispatched.
func TestCacheSums(t *testing.T) {
	for _, validate := range []bool{false, true} {
		t.Run(fmt.Sprintf("validate=%t", validate), func(t *testing.T) {
			store, err := cache.Open(cache.Options{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			stream := sharingRun(t, true, validate, store)
			run := func() *sumsSink {
				sink := &sumsSink{t: t}
				stream(sink)
				return sink
			}
			if cold := run(); cold.carried != 0 {
				t.Errorf("a cold run's objects carried %d sums", cold.carried)
			}
			warm := run()
			// Every object but the observed one and the shared
			// ConfigMap's copies each sharer annotates; the sharers'
			// Deployments come from entries that are not lean.
			if want := len(warm.objs) - 3; warm.carried != want {
				t.Errorf("%d of %d objects carried sums, want %d", warm.carried, len(warm.objs), want)
			}
			for _, o := range warm.objs {
				if o.Sums != nil {
					t.Errorf("%s still carries sums after the run", o.Key())
				}
			}
		})
	}
}

// TestRenderPackPartial: a whole run writes back exactly the entries it
// used; a partial one (Inputs.Only) adds what it rendered to the pack's
// others; a run that used only the pack's entries writes nothing.
func TestRenderPackPartial(t *testing.T) {
	dir, cdir := t.TempDir(), t.TempDir()
	files := baseCacheFiles()
	files.write(t, dir)
	later := func(in *Inputs) { in.clock = func() time.Time { return time.Now().Add(time.Hour) } }
	packLen := func(mod func(*Inputs)) (int, cache.Stats) {
		t.Helper()
		store, _ := cache.Open(cache.Options{Dir: cdir})
		if got := renderOnce(t, dir, store, func(in *Inputs) { later(in); mod(in) }); strings.HasPrefix(got, "error") {
			t.Fatal(got)
		}
		base, delta := packLens(t, cdir, dir)
		return base + delta, store.Stats()
	}
	whole := func(*Inputs) {}
	only := func(in *Inputs) { in.Only = map[string]bool{"default/a": true} }
	if n, _ := packLen(whole); n != 3 {
		t.Fatalf("cold run: pack of %d, want 3", n)
	}
	files["apps/a.yaml"] = cacheApp("a", "uno")
	files.write(t, dir)
	if n, st := packLen(only); n != 4 || st.Misses != 1 {
		t.Fatalf("partial run: pack of %d (%+v), want the 3 before and a's new entry", n, st)
	}
	if n, st := packLen(only); n != 4 || st.Puts != 0 || st.PackHits != 1 {
		t.Fatalf("partial run again: pack of %d (%+v), want it as it was and nothing written", n, st)
	}
	if n, st := packLen(whole); n != 3 || st.PackHits != 3 {
		t.Fatalf("whole run: pack of %d (%+v), want the 3 entries used, all from the pack", n, st)
	}
	// Other paths are another scope: their own pack.
	if n, _ := packLen(func(in *Inputs) { in.Paths = []string{filepath.Join(dir, "apps/a.yaml")} }); n != 3 {
		t.Fatalf("run of other paths changed the pack: %d entries", n)
	}
}

// packLens are the numbers of entries of the base pack and the delta of
// renderOnce's inputs in dir, in the store in cdir.
func packLens(t *testing.T, cdir, dir string) (base, delta int) {
	t.Helper()
	s, err := cache.Open(cache.Options{Dir: cdir})
	if err != nil {
		t.Fatal(err)
	}
	k := packKey(&Inputs{Paths: []string{filepath.Join(dir, "apps")},
		DefinitionPaths: []string{filepath.Join(dir, "defs")},
		ClusterPaths:    []string{filepath.Join(dir, "clusters.yaml")},
		ObservedPaths:   []string{filepath.Join(dir, "observed.yaml")}})
	return s.GetPack(k).Len(), s.GetPack(deltaKey(k)).Len()
}

// TestRenderPackDelta: an edit of one application of many writes its
// entry to the delta and leaves the base pack as it was, until the
// delta or the base's unused entries pass an eighth of the base: the
// base is then written again with the entries used, the delta emptied.
// Every run renders what a run without a cache does.
func TestRenderPackDelta(t *testing.T) {
	dir, cdir := t.TempDir(), t.TempDir()
	files := baseCacheFiles()
	delete(files, "apps/b.yaml")
	for i := range 20 {
		files[fmt.Sprintf("apps/app%d.yaml", i)] = cacheApp(fmt.Sprintf("app%d", i), "v")
	}
	files.write(t, dir)
	later := func(in *Inputs) { in.clock = func() time.Time { return time.Now().Add(time.Hour) } }
	basePath := func() string {
		s, _ := cache.Open(cache.Options{Dir: cdir})
		return entryPath(s, packKey(&Inputs{Paths: []string{filepath.Join(dir, "apps")},
			DefinitionPaths: []string{filepath.Join(dir, "defs")},
			ClusterPaths:    []string{filepath.Join(dir, "clusters.yaml")},
			ObservedPaths:   []string{filepath.Join(dir, "observed.yaml")}}))
	}
	run := func(step string) cache.Stats {
		t.Helper()
		store, _ := cache.Open(cache.Options{Dir: cdir})
		got := renderOnce(t, dir, store, later)
		if want := renderOnce(t, dir, nil, nil); got != want {
			t.Fatalf("%s: warm render differs from a render without cache:\n%s", step, cmp.Diff(want, got))
		}
		return store.Stats()
	}
	run("cold")
	if b, d := packLens(t, cdir, dir); b != 21 || d != 0 {
		t.Fatalf("cold: base %d delta %d, want 21 and 0", b, d)
	}
	baseBytes, err := os.ReadFile(basePath())
	if err != nil {
		t.Fatal(err)
	}
	// 21/8: two edits go to the delta, the third compacts.
	for i, want := range []struct{ base, delta int }{{21, 1}, {21, 2}, {21, 0}} {
		files[fmt.Sprintf("apps/app%d.yaml", i)] = cacheApp(fmt.Sprintf("app%d", i), "w")
		files.write(t, dir)
		st := run(fmt.Sprintf("edit %d", i))
		if st.Misses != 1 || st.PackHits != 20 {
			t.Errorf("edit %d: %+v, want 1 miss and 20 hits from the packs", i, st)
		}
		b, d := packLens(t, cdir, dir)
		if b != want.base || d != want.delta {
			t.Errorf("edit %d: base %d delta %d, want %d and %d", i, b, d, want.base, want.delta)
		}
		now, _ := os.ReadFile(basePath())
		if compacted := !bytes.Equal(now, baseBytes); compacted != (want.delta == 0) {
			t.Errorf("edit %d: base written again: %v", i, compacted)
		}
	}
	// Nothing changed: nothing written, every entry from the packs.
	if st := run("again"); st.Puts != 0 || st.PackHits != 21 || st.Misses != 0 {
		t.Errorf("unchanged run: %+v", st)
	}
}

// lazyRecorder is a sink that takes Lazy entries (cluster.LazySink): it
// records each entry and whether it came undecoded.
type lazyRecorder struct {
	entries []cluster.Entry
	lazy    int
}

func (s *lazyRecorder) TakesLazy() bool { return true }
func (s *lazyRecorder) Put(c string, e cluster.Entry) error {
	if e.Object == nil {
		s.lazy++
	}
	s.entries = append(s.entries, e)
	return nil
}

// TestCacheLazy: a warm streamed run hands a sink that takes them the
// lean hits' plain objects undecoded (cluster.Lazy), and each decodes to
// the object the cold run gave, with the same key, apiVersion, origin and
// source; the objects of entries that are not lean (resource policies),
// and a shared resource's copy, come decoded. Validating, the schemas
// stage decodes only the objects it has findings of (to locate them),
// and the findings are the cold run's.
func TestCacheLazy(t *testing.T) {
	for _, validate := range []bool{false, true} {
		t.Run(fmt.Sprintf("validate=%t", validate), func(t *testing.T) {
			store, err := cache.Open(cache.Options{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			stream := sharingRun(t, false, validate, store)
			run := func() (*lazyRecorder, *Result) {
				sink := &lazyRecorder{}
				res := stream(sink)
				return sink, res
			}
			cold, coldRes := run()
			if cold.lazy != 0 {
				t.Errorf("a cold run gave %d Lazy entries", cold.lazy)
			}
			warm, warmRes := run()
			// All but the observed object and the two sharers' ConfigMaps.
			if want := len(warm.entries) - 3; warm.lazy != want {
				t.Errorf("%d of %d entries came Lazy, want %d", warm.lazy, len(warm.entries), want)
			}
			if len(warm.entries) != len(cold.entries) {
				t.Fatalf("warm run gave %d entries, cold %d", len(warm.entries), len(cold.entries))
			}
			found := map[manifest.Key]bool{}
			if validate {
				if diff := cmp.Diff(coldRes.Validation, warmRes.Validation); diff != "" {
					t.Errorf("findings (-cold +warm):\n%s", diff)
				}
				for _, f := range warmRes.Validation.Findings {
					found[f.Key] = true
				}
				if len(found) == 0 {
					t.Error("no findings: the test means to locate some")
				}
			}
			for i, w := range warm.entries {
				if w.Object == nil && (w.Lazy.Decoded() != nil) != found[w.Key()] {
					t.Errorf("entry %d %v: decoded before the sink %v, has findings %v", i, w.Key(), w.Lazy.Decoded() != nil, found[w.Key()])
				}
				c := cold.entries[i]
				if w.Key() != c.Key() || w.APIVersion() != c.APIVersion() || w.Source != c.Source || w.Owner != c.Owner {
					t.Errorf("entry %d: warm %v %q %q %q, cold %v %q %q %q", i, w.Key(), w.APIVersion(), w.Source, w.Owner, c.Key(), c.APIVersion(), c.Source, c.Owner)
				}
				if diff := cmp.Diff(c.Origin, w.Origin); diff != "" {
					t.Errorf("entry %d %v origin (-cold +warm):\n%s", i, c.Key(), diff)
				}
				if diff := cmp.Diff(c.Object.Data, w.Obj().Data); diff != "" {
					t.Errorf("entry %d %v data (-cold +warm):\n%s", i, c.Key(), diff)
				}
			}
		})
	}
}

// TestCacheEntryLean: a lean entry decodes into two allocations (the
// entry and its writes) whatever its writes hold, and the parts it reads
// through decode as encoded: each write's source and origin
// (cachedWrite.leanParts) as leanOf gives them, the writes (writesOf)
// and objects (objects) as rendered.
func TestCacheEntryLean(t *testing.T) {
	app := &render.Application{Name: "app", Namespace: "ns", Object: manifest.New(nil)}
	var writes []workflow.Write
	for _, name := range []string{"a", "b", "c"} {
		obj := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "namespace": "ns"}}
		writes = append(writes, workflow.Write{Cluster: "local", Step: "deploy", Policies: []string{"p"},
			Resource: &cueval.Resource{Component: "comp-" + name, Trait: "t", Output: "o", Object: obj}})
	}
	r := &workflow.AppResult{App: app, Resources: &resourcekeeper.Resources{}, Writes: writes}
	lean := leanOf(r)
	if lean == nil {
		t.Fatal("entry not lean")
	}
	b, err := encodeEntry(r, "rev")
	if err != nil {
		t.Fatal(err)
	}
	entry := string(b)
	var c *cached
	if n := allocsUnder(t, "decodeEntryString", func() { c, err = decodeEntryString(entry) }); err != nil || n != 2 {
		t.Fatalf("decodeEntryString: %d allocations, %v; want 2", n, err)
	}
	if !c.lean || c.name != "app" || c.namespace != "ns" || c.revision != "rev" || !c.lazily() {
		t.Fatalf("decoded %+v", c)
	}
	for i := range c.ws {
		source, o := c.ws[i].leanParts()
		if source != lean.sources[i] || o != lean.origins[i] {
			t.Errorf("write %d: source %q origin %+v, want %q %+v", i, source, o, lean.sources[i], lean.origins[i])
		}
		if l := c.ws[i].lazyObject(); l.Key != manifest.New(writes[i].Resource.Object).Key() || l.APIVersion != "v1" {
			t.Errorf("write %d: lazy %v %s", i, l.Key, l.APIVersion)
		}
	}
	if err := c.objects(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(writes, c.writes); diff != "" {
		t.Error(diff)
	}
	if c.lazily() {
		t.Error("lazily() after the objects were decoded")
	}
}

// TestRenderPackSave: save writes exactly the packs (or nothing) that a
// map of every entry used by key would have made it write (packModel,
// the bookkeeping before renderPack marked the base's entries by index):
// random bases, deltas and uses, whole and partial runs, entries used
// twice and from several goroutines (under -race).
func TestRenderPackSave(t *testing.T) {
	rng := rand.New(rand.NewPCG(46, 1))
	keyOf := func(i int) cache.Key { return cache.NewHasher("test").String(strconv.Itoa(i)).Key() }
	const keys = 48
	outcomes := map[string]int{}
	for round := range 400 {
		stores := [2]*cache.Store{}
		for j := range stores {
			s, err := cache.Open(cache.Options{Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			stores[j] = s
		}
		packK := keyOf(-1)
		// A base of up to all the keys, or none; a delta of a few, or none;
		// either may hold a key the other holds, with other bytes.
		packs := []struct {
			key  cache.Key
			n    int
			kind string
		}{{packK, keys, "base"}, {deltaKey(packK), keys / 4, "delta"}}
		for _, pk := range packs {
			if rng.IntN(6) == 0 {
				continue
			}
			entries := map[cache.Key]string{}
			for range rng.IntN(pk.n + 1) {
				i := rng.IntN(keys)
				entries[keyOf(i)] = fmt.Sprintf("%s %d", pk.kind, i)
			}
			for _, s := range stores {
				if err := s.PutPack(pk.key, entries); err != nil {
					t.Fatal(err)
				}
			}
		}
		p, m := openRenderPack(stores[0], packK), newPackModel(stores[1], packK)
		partial := rng.IntN(3) == 0
		var uses []int
		if rng.IntN(2) == 0 {
			// A run like the last: every entry the packs hold, and a few
			// more.
			for i := range keys {
				if _, from, _ := m.p.get(keyOf(i)); from != fromStore {
					uses = append(uses, i)
				}
			}
			rng.Shuffle(len(uses), func(i, j int) { uses[i], uses[j] = uses[j], uses[i] })
		}
		for range rng.IntN(4) {
			uses = append(uses, rng.IntN(keys))
		}
		if rng.IntN(2) == 0 {
			for range rng.IntN(2 * keys) {
				uses = append(uses, rng.IntN(keys))
			}
		}
		concurrent := round%2 == 1
		use := func(i int, forceStore bool) {
			key := keyOf(i)
			b, from, at := p.get(key)
			if from == fromStore || forceStore {
				b, from, at = fmt.Sprintf("fresh %d", i), fromStore, 0
			}
			p.use(key, b, from, at)
		}
		if concurrent {
			// Each key as a run uses it: from where get found it.
			var wg sync.WaitGroup
			for w := range 4 {
				wg.Go(func() {
					for j := w; j < len(uses); j += 4 {
						use(uses[j], false)
					}
				})
			}
			wg.Wait()
			for _, i := range uses {
				m.use(keyOf(i), fmt.Sprintf("fresh %d", i), false)
			}
		} else {
			// Sometimes a key used from a pack is used again as written
			// (as put would): the first use counts.
			for _, i := range uses {
				force := rng.IntN(8) == 0
				use(i, force)
				m.use(keyOf(i), fmt.Sprintf("fresh %d", i), force)
			}
		}
		if err := (&appKeys{pack: p}).save(stores[0], partial); err != nil {
			t.Fatal(err)
		}
		outcome, err := m.save(stores[1], partial)
		if err != nil {
			t.Fatal(err)
		}
		outcomes[fmt.Sprintf("%s, partial %t", outcome, partial)]++
		name := fmt.Sprintf("round %d (partial %t, concurrent %t, %d uses)", round, partial, concurrent, len(uses))
		if got, want := stores[0].Stats().Puts, stores[1].Stats().Puts; got != want {
			t.Fatalf("%s: %d packs written, want %d", name, got, want)
		}
		for _, pk := range packs {
			got, want := stores[0].GetPack(pk.key), stores[1].GetPack(pk.key)
			if (got == nil) != (want == nil) {
				t.Fatalf("%s: %s pack %v, want %v", name, pk.kind, got != nil, want != nil)
			}
			if diff := cmp.Diff(maps.Collect(want.All()), maps.Collect(got.All())); diff != "" {
				t.Fatalf("%s: %s pack (-want +got):\n%s", name, pk.kind, diff)
			}
		}
	}
	// Every way save may go was taken.
	for _, o := range []string{"nothing, partial false", "nothing, partial true", "delta, partial false", "delta, partial true",
		"base, partial false", "base, partial true", "base and empty delta, partial false", "base and empty delta, partial true"} {
		if outcomes[o] == 0 {
			t.Errorf("no round wrote %s: %v", o, outcomes)
		}
	}
}

// packModel is the render pack's bookkeeping as it was before usedBase:
// every entry used, by key.
type packModel struct {
	p             *renderPack // its packs only
	used          map[cache.Key]string
	from          map[cache.Key]int
	inBase, fresh int
}

func newPackModel(s *cache.Store, key cache.Key) *packModel {
	return &packModel{p: openRenderPack(s, key), used: map[cache.Key]string{}, from: map[cache.Key]int{}}
}

// use is a hit (or, forceStore, a write) of key; fresh is its bytes
// when neither pack holds it.
func (m *packModel) use(key cache.Key, fresh string, forceStore bool) {
	b, from, _ := m.p.get(key)
	if from == fromStore || forceStore {
		b, from = fresh, fromStore
	}
	if _, ok := m.used[key]; ok {
		return
	}
	m.used[key], m.from[key] = b, from
	switch from {
	case fromBase:
		m.inBase++
	case fromStore:
		m.fresh++
	}
}

// save is the old save; outcome says what it wrote.
func (m *packModel) save(s *cache.Store, partial bool) (outcome string, err error) {
	p := m.p
	delta := map[cache.Key]string{}
	if partial {
		if m.fresh == 0 {
			return "nothing", nil
		}
		for key, b := range p.delta.All() {
			delta[key] = b
		}
	}
	for key, b := range m.used {
		if m.from[key] != fromBase {
			delta[key] = b
		}
	}
	unused := p.base.Len() - m.inBase
	if partial {
		unused = 0
	} else if m.fresh == 0 && unused == 0 && len(delta) == p.delta.Len() {
		return "nothing", nil
	}
	if limit := p.base.Len() / 8; p.base != nil && unused <= limit && len(delta) <= limit {
		return "delta", s.PutPack(p.deltaKey, delta)
	}
	base := m.used
	if partial {
		base = make(map[cache.Key]string, p.base.Len()+len(delta))
		for key, b := range p.base.All() {
			base[key] = b
		}
		maps.Copy(base, delta)
	}
	outcome = "base"
	err = s.PutPack(p.key, base)
	if err == nil && p.delta.Len() > 0 {
		outcome = "base and empty delta"
		err = s.PutPack(p.deltaKey, nil)
	}
	return outcome, err
}

// TestAppendPosPart: an application's key holds its position as it
// did when fmt made it, so that the keys, and the entries kept under
// them, stay the same.
func TestAppendPosPart(t *testing.T) {
	for _, pos := range []manifest.Pos{
		{}, {File: "a.yaml"}, {File: "apps/team-1/app-1.yaml", Line: 1}, {File: "a.yaml", Line: 12, Col: 3},
		{File: "a.yaml", Col: 7}, {Line: 4, Col: 2}, {File: "ü/b.yaml", Line: -1, Col: 1 << 40},
	} {
		want := fmt.Sprintf("%d:%d:%s", pos.Line, pos.Col, pos.String())
		if got := string(appendPosPart([]byte("x"), pos)); got != "x"+want {
			t.Errorf("%#v: %q, want %q", pos, got, "x"+want)
		}
	}
}

// TestCachedWriteLayout: a cachedWrite pads only at its end (a warm run
// holds 20,000 of them): its size is its fields' rounded up to its
// alignment.
func TestCachedWriteLayout(t *testing.T) {
	typ := reflect.TypeFor[cachedWrite]()
	var sum uintptr
	for f := range typ.Fields() {
		sum += f.Type.Size()
	}
	if align := uintptr(typ.Align()); typ.Size() != (sum+align-1)/align*align {
		t.Errorf("cachedWrite is %d bytes, its fields %d: reorder them", typ.Size(), sum)
	}
}

// TestCacheEntrySums: an entry's sums decode in place, as parts of the
// entry's string (no copy per write), to the object's hashes; a sum not
// digested reads with a zero Digest whatever it held; a Digested byte
// that is not a bool refuses the entry.
func TestCacheEntrySums(t *testing.T) {
	obj := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a", "namespace": "ns"}}
	r := &workflow.AppResult{App: &render.Application{Name: "app", Namespace: "ns", Object: manifest.New(nil)}, Resources: &resourcekeeper.Resources{},
		Writes: []workflow.Write{{Cluster: "local", Resource: &cueval.Resource{Component: "c", Object: obj}}}}
	b, err := encodeEntry(r, "")
	if err != nil {
		t.Fatal(err)
	}
	entry := string(b)
	c, err := decodeEntryString(entry)
	if err != nil {
		t.Fatal(err)
	}
	v := &encoder{}
	if err := v.value(obj); err != nil {
		t.Fatal(err)
	}
	want := objectSums(obj, v.b)
	got := c.ws[0].lazy.Sums
	if got == nil || *got != want || !want.Digested {
		t.Fatalf("sums %+v, want %+v (digested)", got, want)
	}
	start, at := uintptr(unsafe.Pointer(unsafe.StringData(entry))), uintptr(unsafe.Pointer(got))
	if at < start || at+unsafe.Sizeof(*got) > start+uintptr(len(entry)) {
		t.Error("the sums are not a part of the entry")
	}
	// Not digested: its Digest is not kept.
	e := &encoder{}
	e.sums(manifest.Sums{Digest: [32]byte{1, 2, 3}, Content: [32]byte{4}})
	if s := (&decoder{s: string(e.b)}).sums(); *s != (manifest.Sums{Content: [32]byte{4}}) {
		t.Errorf("undigested sums read %+v", *s)
	}
	// The Digested byte of the entry's sums: 2 is no bool.
	i := bytes.Index(b, want.Digest[:]) + len(want.Digest)
	if b[i] != 1 {
		t.Fatal("the Digested byte is not after the Digest")
	}
	b[i] = 2
	if _, err := decodeEntryString(string(b)); err == nil {
		t.Error("an entry with a Digested byte of 2 decoded")
	}
}

// TestCacheUntraced: a run that records no traces keeps entries without
// them (no run that reads them records traces: Record.Trace is part of
// the key), and renders from them what a run without cache does; a run
// that records traces keeps them, and renders them from its entries.
func TestCacheUntraced(t *testing.T) {
	dir, cdir := t.TempDir(), t.TempDir()
	baseCacheFiles().write(t, dir)
	for _, trace := range []bool{false, true} {
		mod := func(in *Inputs) { in.Record.Trace = trace }
		store, _ := cache.Open(cache.Options{Dir: cdir})
		want := renderOnce(t, dir, nil, mod)
		for _, run := range []string{"cold", "warm"} {
			if got := renderOnce(t, dir, store, mod); got != want {
				t.Fatalf("trace %t, %s run differs from a run without cache:\n%s", trace, run, cmp.Diff(want, got))
			}
		}
		if st := store.Stats(); st.PackHits == 0 {
			t.Fatalf("trace %t: the warm run did not read the pack: %+v", trace, st)
		}
		s, _ := cache.Open(cache.Options{Dir: cdir})
		k := packKey(&Inputs{Paths: []string{filepath.Join(dir, "apps")},
			DefinitionPaths: []string{filepath.Join(dir, "defs")},
			ClusterPaths:    []string{filepath.Join(dir, "clusters.yaml")},
			ObservedPaths:   []string{filepath.Join(dir, "observed.yaml")}})
		p := s.GetPack(k)
		if p.Len() == 0 {
			t.Fatalf("trace %t: no pack", trace)
		}
		for _, b := range p.All() {
			c, err := decodeEntryString(b)
			if err != nil {
				t.Fatal(err)
			}
			if (len(c.trace) > 0) != trace {
				t.Errorf("trace %t: an entry keeps %d trace lines", trace, len(c.trace))
			}
		}
	}
}
