package pipeline

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// knownApps lists what the record of known inputs of a run of in holds:
// each file (relative to dir) with its Applications' names.
func knownApps(t *testing.T, dir string, in *Inputs) []string {
	t.Helper()
	k := openKnownInputs(in, time.Now())
	var out []string
	for abs, f := range k.old {
		rel, _ := filepath.Rel(dir, abs)
		var names []string
		for _, a := range f.apps {
			names = append(names, a.key.Name)
		}
		out = append(out, rel+": "+strings.Join(names, ","))
	}
	slices.Sort(out)
	return out
}

// TestKnownInputs: which files the record of known inputs holds, and that
// a run that finds them unchanged reads none of them.
func TestKnownInputs(t *testing.T) {
	later := func(in *Inputs) { in.clock = func() time.Time { return time.Now().Add(time.Hour) } }
	inputs := func(dir string, store *cache.Store) Inputs {
		return Inputs{Paths: []string{filepath.Join(dir, "apps")}, DefinitionPaths: []string{filepath.Join(dir, "defs")}, Cache: store}
	}
	t.Run("racy files are not recorded", func(t *testing.T) {
		dir := t.TempDir()
		baseCacheFiles().write(t, dir)
		store, _ := cache.Open(cache.Options{Dir: t.TempDir()})
		in := inputs(dir, store)
		if _, err := Run(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		if got := knownApps(t, dir, &in); len(got) != 0 {
			t.Errorf("recorded %q, written just before the run", got)
		}
	})
	t.Run("only files of Applications alone in their documents", func(t *testing.T) {
		dir := t.TempDir()
		files := baseCacheFiles()
		files["apps/cm.yaml"] = cacheObserved                                   // not an Application
		files["apps/mixed.yaml"] = cacheApp("m", "x") + "---\n" + cacheObserved // and one
		files["apps/notes.txt.yaml"] = "# nothing\n"
		files.write(t, dir)
		store, _ := cache.Open(cache.Options{Dir: t.TempDir()})
		in := inputs(dir, store)
		later(&in)
		if _, err := Run(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		want := []string{"apps/a.yaml: a", "apps/b.yaml: b,c", "apps/notes.txt.yaml: "}
		if diff := cmp.Diff(want, knownApps(t, dir, &in)); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("unchanged files are not read", func(t *testing.T) {
		dir := t.TempDir()
		baseCacheFiles().write(t, dir)
		store, _ := cache.Open(cache.Options{Dir: t.TempDir()})
		in := inputs(dir, store)
		later(&in)
		want := streamOrigins(t, in)
		if len(want) != 6 {
			t.Fatalf("%d writes, want 6", len(want))
		}
		// What was recorded is now unreadable: a run that read it fails.
		for _, f := range []string{"apps/a.yaml", "apps/b.yaml"} {
			keepTimes(t, filepath.Join(dir, f), func(p string) {
				if err := os.WriteFile(p, []byte(strings.Repeat("!", int(size(t, p)))), 0o666); err != nil {
					t.Fatal(err)
				}
			})
		}
		// The write changed the files' change times: give the record the
		// identities they have now, as if it had seen them so.
		k := openKnownInputs(&in, time.Now().Add(time.Hour))
		for abs, f := range k.old {
			fi, err := os.Stat(abs)
			if err != nil {
				t.Fatal(err)
			}
			id, _ := tree.StatID(fi)
			f.id.ChangeNs = id.ChangeNs
			k.record(abs, f)
		}
		if err := k.keep(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, streamOrigins(t, in)); diff != "" {
			t.Errorf("known files read again (-want +got):\n%s", diff)
		}
	})
	t.Run("a known file changed when it must render", func(t *testing.T) {
		dir := t.TempDir()
		baseCacheFiles().write(t, dir)
		store, _ := cache.Open(cache.Options{Dir: t.TempDir()})
		in := inputs(dir, store)
		later(&in)
		k := openKnownInputs(&in, time.Now().Add(time.Hour))
		var l loaded
		l.known = k
		if err := in.files().readPaths(in.Paths, nil, &l); err != nil {
			t.Fatal(err)
		}
		if err := k.keep(); err != nil {
			t.Fatal(err)
		}
		var l2 loaded
		l2.known = openKnownInputs(&in, time.Now().Add(time.Hour))
		if err := in.files().readPaths(in.Paths, nil, &l2); err != nil {
			t.Fatal(err)
		}
		if len(l2.apps) != 3 || l2.apps[0].lazy == nil {
			t.Fatalf("apps %+v, want 3 from the record", l2.apps)
		}
		if app, err := l2.apps[0].load(); err != nil || app.Name != "a" {
			t.Fatalf("load: %v, %v", app, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "apps/a.yaml"), []byte(cacheApp("a", "uno")), 0o666); err != nil {
			t.Fatal(err)
		}
		if _, err := l2.apps[0].load(); !errors.Is(err, errInputChanged) || !errors.Is(err, ErrInput) {
			t.Errorf("load of a changed file: %v, want errInputChanged", err)
		}
	})
	t.Run("a record that does not read is none", func(t *testing.T) {
		k := &knownInputs{learned: map[string]*knownFile{"/a.yaml": {display: "a.yaml", docs: []docSum{{line: 1}}, apps: []knownApp{{}}}}}
		data := k.marshal()
		if m, err := parseKnownInputs(data); err != nil || len(m) != 1 {
			t.Fatalf("parse: %v, %v", m, err)
		}
		for i := range data {
			if _, err := parseKnownInputs(data[:i]); err == nil {
				t.Errorf("truncated at %d: parsed", i)
			}
		}
		if _, err := parseKnownInputs(append(data, 0)); err == nil {
			t.Error("extended: parsed")
		}
	})
}

func size(t *testing.T, p string) int64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// keepTimes runs change on the file p and sets its times back.
func keepTimes(t *testing.T, p string, change func(p string)) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	change(p)
	touch(t, p, fi.ModTime())
}

// originSink records what each write says of where it comes from.
type originSink struct{ lines []string }

func (s *originSink) Put(c string, e cluster.Entry) error {
	s.lines = append(s.lines, fmt.Sprintf("%s %s: source %q, origin %+v, owner %q, pos %v, data.a at %v", c, e.Object.Key(), e.Source, e.Origin, e.Owner,
		e.Object.Pos, e.Object.FieldPos(fieldpath.New("data", "a"))))
	return nil
}

// streamOrigins streams a render of in and returns what its writes say
// of their origins.
func streamOrigins(t *testing.T, in Inputs) []string {
	t.Helper()
	var s originSink
	if _, err := Stream(context.Background(), in, &s); err != nil {
		t.Fatal(err)
	}
	return s.lines
}

// TestLeanHitOrigins: a hit that does not parse its Application again
// gives each object the source, origin and owner a render gives it; an
// object copied from the Application (a raw component) keeps its
// authored positions.
func TestLeanHitOrigins(t *testing.T) {
	dir := t.TempDir()
	files := baseCacheFiles()
	files["apps/raw.yaml"] = `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: raw, namespace: shop}
spec:
  components:
  - name: cm
    type: k8s-objects
    properties:
      objects:
      - apiVersion: v1
        kind: ConfigMap
        metadata: {name: raw-cm}
        data: {a: "1"}
`
	files["apps/gc.yaml"] = `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: gc}
spec:
  components:
  - name: gc
    type: mycomp
    properties: {v: "x"}
  policies:
  - name: gc
    type: garbage-collect
    properties: {keepLegacyResource: true}
`
	files.write(t, dir)
	in := Inputs{Paths: []string{filepath.Join(dir, "apps")}, DefinitionPaths: []string{filepath.Join(dir, "defs")}}
	var cold originSink
	if _, err := Stream(context.Background(), in, &cold); err != nil {
		t.Fatal(err)
	}
	store, _ := cache.Open(cache.Options{Dir: t.TempDir()})
	in.Cache = store
	in.clock = func() time.Time { return time.Now().Add(time.Hour) }
	for run := range 3 { // cold, warm from known files, warm again
		var got originSink
		if _, err := Stream(context.Background(), in, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(cold.lines, got.lines); diff != "" {
			t.Errorf("run %d with the cache differs (-without +with):\n%s", run, diff)
		}
	}
	if st := store.Stats(); st.Hits != 2*5+2*2 {
		t.Errorf("stats %+v, want 10 hits of applications and 2 of the record's header and its one part", st)
	}
}

// TestKnownInputsParts: the record is kept in parts; a run that learned a
// file or lost one writes its part only, one that changes the number of
// parts all of them and the header; a part missing, that does not read
// or holds another part's files loses only its files.
func TestKnownInputsParts(t *testing.T) {
	for _, tt := range []struct{ n, parts int }{{0, 1}, {inputPartSize, 1}, {inputPartSize + 1, 2}, {3000, 8}, {1 << 30, maxInputParts}} {
		if got := inputParts(tt.n); got != tt.parts {
			t.Errorf("inputParts(%d) = %d, want %d", tt.n, got, tt.parts)
		}
	}
	store, err := cache.Open(cache.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	key := cache.Key{7}
	file := func(i int) *knownFile {
		return &knownFile{id: tree.FileID{Size: int64(i), Ino: uint64(i)}, display: fmt.Sprintf("apps/%d.yaml", i), docs: []docSum{{line: 1}}, apps: []knownApp{}}
	}
	abs := func(i int) string { return fmt.Sprintf("/w/apps/%d.yaml", i) }
	all := map[string]*knownFile{}
	k := &knownInputs{store: store, key: key}
	for i := range 3000 {
		k.record(abs(i), file(i))
		all[abs(i)] = file(i)
	}
	puts := func(k *knownInputs) int {
		t.Helper()
		before := store.Stats().Puts
		if err := k.keep(); err != nil {
			t.Fatal(err)
		}
		return store.Stats().Puts - before
	}
	if n := puts(k); n != 8+1 {
		t.Errorf("a new record took %d puts, want 8 parts and the header", n)
	}
	open := func() *knownInputs {
		old, parts := loadKnownInputs(store, key)
		return &knownInputs{store: store, key: key, old: old, parts: parts}
	}
	opts := cmp.AllowUnexported(knownFile{}, docSum{}, knownApp{})
	k = open()
	if diff := cmp.Diff(all, k.old, opts); diff != "" || k.parts != 8 {
		t.Fatalf("%d parts (-want +got):\n%s", k.parts, diff)
	}
	// A run: file 0 gone, file 1 read again.
	for i := 1; i < 3000; i++ {
		k.keep1(k.old[abs(i)])
	}
	k.record(abs(1), file(-1))
	want := map[int]bool{cache.PartOf(abs(0), 8): true, cache.PartOf(abs(1), 8): true}
	if n := puts(k); n != len(want) {
		t.Errorf("a run that changed two files wrote %d parts, want %d", n, len(want))
	}
	delete(all, abs(0))
	all[abs(1)] = file(-1)
	if diff := cmp.Diff(all, open().old, opts); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	// A run that finds every file as recorded writes nothing; one that
	// keeps all but one file writes its part.
	k = open()
	for _, f := range k.old {
		k.keep1(f)
	}
	if n := puts(k); n != 0 {
		t.Errorf("a run that changed nothing wrote %d parts", n)
	}
	k = open()
	for p, f := range k.old {
		if p != abs(2) {
			k.keep1(f)
		}
	}
	if n := puts(k); n != 1 {
		t.Errorf("a run that dropped one file wrote %d parts, want 1", n)
	}
	delete(all, abs(2))
	if diff := cmp.Diff(all, open().old, opts); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	without := func(parts ...int) map[string]*knownFile {
		out := maps.Clone(all)
		maps.DeleteFunc(out, func(abs string, _ *knownFile) bool { return slices.Contains(parts, cache.PartOf(abs, 8)) })
		return out
	}
	store.Put(cache.PartKey(inputsFormat, key, 8, 1), []byte("junk"))
	p3, _ := store.Get(cache.PartKey(inputsFormat, key, 8, 3))
	store.Put(cache.PartKey(inputsFormat, key, 8, 2), p3)
	if diff := cmp.Diff(without(1, 2), open().old, opts); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, header := range []string{"", inputPartsHeader, inputPartsHeader + "\x03", inputPartsHeader + "\x00", knownInputsMagic} {
		store.Put(key, []byte(header))
		if old, parts := loadKnownInputs(store, key); old != nil || parts != 0 {
			t.Errorf("header %q loads %d parts", header, parts)
		}
	}
}

// TestStatID: statID gives the identity tree.StatID gives of os.Stat's
// FileInfo, through symbolic links; none for a directory or a missing
// file.
func TestStatID(t *testing.T) {
	dir := t.TempDir()
	file, link := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "link.yaml")
	if err := os.WriteFile(file, []byte("kind: x\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, link, dir, filepath.Join(dir, "missing")} {
		var want tree.FileID
		wantOK := false
		if fi, err := os.Stat(p); err == nil {
			want, wantOK = tree.StatID(fi)
		}
		got, ok := statID(p)
		if ok != wantOK || got != want {
			t.Errorf("%s: statID = %+v, %v; want %+v, %v", filepath.Base(p), got, ok, want, wantOK)
		}
	}
}

// TestKnownInputsParse: a record reads back as marshalled, its files in
// ascending order of path (one out of order, or twice, does not read),
// in a few allocations however many files it holds: its strings are
// parts of the record's bytes, its files, documents and Applications a
// slab each.
func TestKnownInputsParse(t *testing.T) {
	files := map[string]*knownFile{}
	for i := range 2000 {
		files[fmt.Sprintf("/w/apps/%04d.yaml", i)] = &knownFile{
			id: tree.FileID{Size: int64(i), ModNs: 1, ChangeNs: 2, Ino: uint64(i), Dev: 3}, display: fmt.Sprintf("apps/%04d.yaml", i), walking: i%2 == 0,
			sum: [32]byte{byte(i)}, docs: []docSum{{line: 1, sum: [32]byte{1}}, {line: 9, sum: [32]byte{2}}},
			apps: []knownApp{{pos: manifest.Pos{File: "apps/x.yaml", Line: 1, Col: 1}, namePos: manifest.Pos{File: "apps/x.yaml", Line: 4, Col: 9}, key: manifest.Key{Group: "core.oam.dev", Kind: "Application", Namespace: "n", Name: fmt.Sprint(i)}}},
		}
	}
	files["/w/empty.yaml"] = &knownFile{display: "empty.yaml", docs: []docSum{}, apps: []knownApp{}}
	data := marshalKnownInputs(files)
	got, err := parseKnownInputs(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(files, got, cmp.AllowUnexported(knownFile{}, knownApp{}, docSum{})); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	record := string(data)
	if n := leastAllocs(func() { parseKnownEntries(record) }); n > 100 {
		t.Errorf("a record of %d files took %v allocations", len(files), n)
	}
	two := map[string]*knownFile{"/a.yaml": {display: "a.yaml"}, "/b.yaml": {display: "b.yaml"}}
	data = marshalKnownInputs(two)
	if _, err := parseKnownInputs(data); err != nil {
		t.Fatal(err)
	}
	for _, swap := range [][2]string{{"/a.yaml", "/b.yaml"}, {"/b.yaml", "/a.yaml"}} {
		bad := []byte(strings.Replace(string(data), swap[0], swap[1], 1))
		if m, err := parseKnownInputs(bad); err == nil {
			t.Errorf("paths not ascending read: %v", slices.Collect(maps.Keys(m)))
		}
	}
}

// TestPartOfInput: the part of a file is its path's FNV-1a hash (as
// hash/fnv computes it: the parts of records already kept) modulo the
// parts.
func TestPartOfInput(t *testing.T) {
	for _, abs := range []string{"", "/", "/w/apps/a.yaml", "/dev/shm/fleet/apps/team-3/app-1234.yaml", "/é/ü.yaml"} {
		h := fnv.New32a()
		h.Write([]byte(abs))
		for _, parts := range []int{1, 2, 32, cache.MaxParts} {
			if got, want := cache.PartOf(abs, parts), int(h.Sum32()&uint32(parts-1)); got != want {
				t.Errorf("cache.PartOf(%q, %d) = %d, want %d", abs, parts, got, want)
			}
		}
	}
}
