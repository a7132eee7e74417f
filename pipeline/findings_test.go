package pipeline

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/schemas"
)

const findingsWidgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: {type: integer, maximum: 5}
`

// findingsApp is an Application of a webservice (with extra, when set,
// as a property no parameter declares) and a Widget of size, on cluster
// (none: local).
func findingsApp(name, size, extra, cluster string) string {
	props := "{image: nginx}"
	if extra != "" {
		props = "{image: nginx, " + extra + ": x}"
	}
	s := fmt.Sprintf(`apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: %s, namespace: default}
spec:
  components:
    - name: %s-web
      type: webservice
      properties: %s
    - name: %s-objs
      type: k8s-objects
      properties:
        objects:
          - {apiVersion: example.com/v1, kind: Widget, metadata: {name: %s}, spec: {size: %s}}
`, name, name, props, name, name, size)
	if cluster != "" {
		s += fmt.Sprintf("  policies:\n    - {name: where, type: topology, properties: {clusters: [%s]}}\n", cluster)
	}
	return s
}

const findingsClusters = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: east}
status: {kubernetesVersion: v1.30.1}
`

func baseFindingsFiles() cacheFiles {
	return cacheFiles{
		"apps/a.yaml":      findingsApp("a", "1", "imagee", ""),
		"apps/b.yaml":      findingsApp("b", "7", "", ""),
		"apps/c.yaml":      findingsApp("c", "2", "", "east"),
		"crds/widget.yaml": findingsWidgetCRD,
		"clusters.yaml":    findingsClusters,
	}
}

// validated is what a validating render gave, as text, and the findings
// cache's counts.
type validated struct {
	text         string
	hits, misses int
}

func validateOnce(t *testing.T, dir string, store *cache.Store, mod func(*Inputs)) validated {
	t.Helper()
	in := Inputs{
		Paths:        []string{filepath.Join(dir, "apps")},
		ClusterPaths: []string{filepath.Join(dir, "clusters.yaml")},
		Record:       Record{Validate: &Validation{CRDPaths: []string{filepath.Join(dir, "crds")}}},
		Cache:        store,
	}
	if mod != nil {
		mod(&in)
	}
	res, err := Run(context.Background(), in)
	if err != nil {
		return validated{text: "error: " + manifest.Format(err, nil)}
	}
	tr, err := Tree(res.Clusters)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, p := range tr.Paths() {
		fmt.Fprintf(&b, "--- %s\n%s", p, tr[p])
	}
	for _, f := range res.Validation.Findings {
		fmt.Fprintf(&b, "finding: %s (%s)\n", strings.ReplaceAll(f.String(), dir, "DIR"), f.Path)
	}
	fmt.Fprintf(&b, "warnings: %q\n", res.SortedWarnings())
	return validated{text: b.String(), hits: res.findingHits, misses: res.findingMisses}
}

// TestFindingsMutations changes one thing validation depends on at a
// time: a validating render from the cache warmed before the change
// gives exactly what one without a cache gives, and exactly the objects
// (and applications, for their undeclared properties) the change reaches
// are validated again. The base validates 6 objects (a Deployment and a
// Widget of each application: a's and b's on local, c's on east); a
// run asks for them and for the 3 applications' properties.
func TestFindingsMutations(t *testing.T) {
	tests := []struct {
		name         string
		files        func(cacheFiles)
		mod          func(*Inputs)
		hits, misses int
	}{
		{name: "nothing", hits: 9},
		// The version clusters without one are validated as: the objects
		// on local (a's and b's), not c's on east, nor the applications.
		{name: "default kube version", mod: func(in *Inputs) { in.Record.Validate.KubeVersion = "1.29" }, hits: 5, misses: 4},
		// east's version: an input of the render too, so every render
		// and its properties miss; c's objects miss, those on local hit.
		{name: "cluster version", files: func(f cacheFiles) { f["clusters.yaml"] = strings.Replace(findingsClusters, "v1.30.1", "v1.31.0", 1) }, hits: 4, misses: 5},
		// A CRD: every object is validated again (the set is one key),
		// the applications' properties are not.
		{name: "crd", files: func(f cacheFiles) {
			f["crds/widget.yaml"] = strings.Replace(findingsWidgetCRD, "maximum: 5", "maximum: 9", 1)
		}, hits: 3, misses: 6},
		{name: "crd moved", files: func(f cacheFiles) { f["crds/widget.yaml"] = "# moved\n" + findingsWidgetCRD }, hits: 3, misses: 6},
		{name: "strict", mod: func(in *Inputs) { in.Record.Validate.Strict = true }, misses: 9},
		// One object: b's Widget. b renders again, and its Deployment
		// changes too (the application's revision hash label).
		{name: "one object", files: func(f cacheFiles) { f["apps/b.yaml"] = findingsApp("b", "4", "", "") }, hits: 6, misses: 3},
		// An undeclared property: a renders again, its objects change
		// only by that label.
		{name: "one property", files: func(f cacheFiles) { f["apps/a.yaml"] = findingsApp("a", "1", "imagez", "") }, hits: 6, misses: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, cdir := t.TempDir(), t.TempDir()
			files := baseFindingsFiles()
			files.write(t, dir)
			warm, err := cache.Open(cache.Options{Dir: cdir})
			if err != nil {
				t.Fatal(err)
			}
			first := validateOnce(t, dir, warm, nil)
			if strings.HasPrefix(first.text, "error") || first.hits != 0 || first.misses != 9 {
				t.Fatalf("cold run: %d hits %d misses\n%s", first.hits, first.misses, first.text)
			}
			if tt.files != nil {
				tt.files(files)
				files.write(t, dir)
			}
			want := validateOnce(t, dir, nil, tt.mod)
			store, _ := cache.Open(cache.Options{Dir: cdir})
			got := validateOnce(t, dir, store, tt.mod)
			if diff := cmp.Diff(want.text, got.text); diff != "" {
				t.Errorf("warm run differs from a run without cache (-want +got):\n%s", diff)
			}
			if got.hits != tt.hits || got.misses != tt.misses {
				t.Errorf("findings cache: %d hits %d misses, want %d and %d", got.hits, got.misses, tt.hits, tt.misses)
			}
		})
	}
}

// TestFindingsBase: the base of TestFindingsMutations finds what it
// should (so that its hits are hits of findings).
func TestFindingsBase(t *testing.T) {
	dir := t.TempDir()
	baseFindingsFiles().write(t, dir)
	got := validateOnce(t, dir, nil, nil).text
	for _, want := range []string{
		`property "imagee" is not declared by ComponentDefinition "webservice"`,
		`cluster local: Widget.example.com default/b: spec.size: Invalid value: 7: spec.size in body should be less than or equal to 5`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no finding %q in\n%s", want, got)
		}
	}
}

// TestFindingsTable: the table keeps exactly the items of a whole run,
// adds a partial run's to them, and a bad table is an empty one.
func TestFindingsTable(t *testing.T) {
	store, err := cache.Open(cache.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	in := &Inputs{Cache: store, Paths: []string{"x"}, Record: Record{Validate: &Validation{}}}
	k := func(s string) cache.Key { return cache.NewHasher("t").String(s).Key() }
	m := newFindingsMemo(in, cache.Key{})
	m.put(k("a"), []byte("A"))
	m.put(k("b"), nil)
	m.misses = 2
	if err := m.save(false); err != nil {
		t.Fatal(err)
	}
	m = newFindingsMemo(in, cache.Key{})
	if diff := cmp.Diff(map[cache.Key][]byte{k("a"): []byte("A"), k("b"): {}}, tableItems(m)); diff != "" {
		t.Fatal(diff)
	}
	// A partial run that used b and added c keeps a.
	m.get(k("b"))
	m.get(k("c"))
	m.put(k("c"), []byte("C"))
	if err := m.save(true); err != nil {
		t.Fatal(err)
	}
	m = newFindingsMemo(in, cache.Key{})
	if len(tableItems(m)) != 3 {
		t.Fatalf("partial run kept %d items, want 3", len(tableItems(m)))
	}
	// A whole run that used only c keeps c.
	m.get(k("c"))
	if err := m.save(false); err != nil {
		t.Fatal(err)
	}
	if m = newFindingsMemo(in, cache.Key{}); len(tableItems(m)) != 1 || string(tableItems(m)[k("c")]) != "C" {
		t.Fatalf("whole run kept %v", tableItems(m))
	}
	// A whole run that hit everything writes nothing.
	m.get(k("c"))
	puts := store.Stats().Puts
	if err := m.save(false); err != nil || store.Stats().Puts != puts {
		t.Errorf("a run of hits wrote the table (err %v)", err)
	}
	table := m.table
	store.Put(table, []byte{5, 1, 2})
	if m = newFindingsMemo(in, cache.Key{}); tableItems(m) != nil {
		t.Errorf("bad table decoded: %v", tableItems(m))
	}
	// A partial run (a load error) with no table before keeps what it
	// found: it panicked on the nil table.
	m.get(k("d"))
	m.put(k("d"), []byte("D"))
	if err := m.save(true); err != nil {
		t.Fatal(err)
	}
	if m = newFindingsMemo(in, cache.Key{}); len(tableItems(m)) != 1 || string(tableItems(m)[k("d")]) != "D" {
		t.Errorf("partial run on no table kept %v", tableItems(m))
	}
}

// TestFindingsTableParts: a large table is kept in parts; a run that put
// or left out a few items writes their parts only, one that changes the
// number of parts writes them all and the header; a part missing, that
// does not decode or holds another part's items loses only its items.
func TestFindingsTableParts(t *testing.T) {
	for _, tt := range []struct{ n, parts int }{{0, 1}, {findingsPartSize, 1}, {findingsPartSize + 1, 2}, {5000, 8}, {1 << 30, maxFindingsParts}} {
		if got := findingsParts(tt.n); got != tt.parts {
			t.Errorf("findingsParts(%d) = %d, want %d", tt.n, got, tt.parts)
		}
	}
	store, err := cache.Open(cache.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	in := &Inputs{Cache: store, Paths: []string{"x"}, Record: Record{Validate: &Validation{}}}
	k := func(i int) cache.Key { return cache.NewHasher("t").String(strconv.Itoa(i)).Key() }
	all := map[cache.Key][]byte{}
	m := newFindingsMemo(in, cache.Key{})
	for i := range 5000 {
		m.get(k(i))
		m.put(k(i), []byte{byte(i)})
		all[k(i)] = []byte{byte(i)}
	}
	puts := func(f func() error) int {
		t.Helper()
		before := store.Stats().Puts
		if err := f(); err != nil {
			t.Fatal(err)
		}
		return store.Stats().Puts - before
	}
	if n := puts(func() error { return m.save(false) }); n != 8+1 {
		t.Errorf("a new table took %d puts, want 8 parts and the header", n)
	}
	m = newFindingsMemo(in, cache.Key{})
	if diff := cmp.Diff(all, tableItems(m)); diff != "" || m.parts != 8 {
		t.Fatalf("%d parts (-want +got):\n%s", m.parts, diff)
	}
	// A whole run: item 0 not used, 5000 new.
	for i := 1; i < 5000; i++ {
		m.get(k(i))
	}
	m.get(k(5000))
	m.put(k(5000), []byte("new"))
	want := map[int]bool{partOfItem(k(0), 8): true, partOfItem(k(5000), 8): true}
	if n := puts(func() error { return m.save(false) }); n != len(want) {
		t.Errorf("a run that changed two items wrote %d parts, want %d", n, len(want))
	}
	delete(all, k(0))
	all[k(5000)] = []byte("new")
	m = newFindingsMemo(in, cache.Key{})
	if diff := cmp.Diff(all, tableItems(m)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	// A part missing, one that does not decode, one holding another's
	// items: their items are not known, the others are.
	without := func(parts ...int) map[cache.Key][]byte {
		out := maps.Clone(all)
		maps.DeleteFunc(out, func(k cache.Key, _ []byte) bool { return slices.Contains(parts, partOfItem(k, 8)) })
		return out
	}
	store.Put(cache.PartKey(findingsFormat, m.table, 8, 1), []byte{200})
	store.Put(cache.PartKey(findingsFormat, m.table, 8, 2), func() []byte { b, _ := store.Get(cache.PartKey(findingsFormat, m.table, 8, 3)); return b }())
	if diff := cmp.Diff(without(1, 2), tableItems(newFindingsMemo(in, cache.Key{}))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Fewer items: fewer parts, all written.
	m = newFindingsMemo(in, cache.Key{})
	for i := 1; i < 100; i++ {
		if _, ok := m.get(k(i)); !ok { // in a part lost: validated again
			m.put(k(i), []byte{byte(i)})
		}
	}
	if n := puts(func() error { return m.save(false) }); n != 1+1 {
		t.Errorf("a run of 99 items took %d puts, want a part and the header", n)
	}
	if m = newFindingsMemo(in, cache.Key{}); len(tableItems(m)) != 99 || m.parts != 1 {
		t.Errorf("%d items in %d parts, want 99 in 1", len(tableItems(m)), m.parts)
	}
}

// TestFindingsItemsRoundTrip: the items give back the findings.
func TestFindingsItemsRoundTrip(t *testing.T) {
	sf := []schemas.Finding{{Field: "spec.x", Message: "m", Warning: true}, {Message: "n"}}
	got, err := decodeSchemaFindings(encodeSchemaFindings(sf))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sf, got); diff != "" {
		t.Error(diff)
	}
	of := []Finding{{Cluster: "c", Key: manifest.Key{Group: "g", Kind: "K", Namespace: "n", Name: "x"}, Path: "p", Field: "f", Message: "m", Warning: true,
		Pos: manifest.Pos{File: "a.yaml", Line: 3, Col: 4}}}
	of[0].Origin.Pos, of[0].Origin.Application, of[0].Origin.Component, of[0].Origin.Trait, of[0].Origin.Policy = manifest.Pos{File: "b", Line: 1}, "app", "comp", "tr", "pol"
	got2, err := decodeObjectFindings(encodeObjectFindings(of))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(of, got2); diff != "" {
		t.Error(diff)
	}
	if _, err := decodeSchemaFindings([]byte{9}); err == nil {
		t.Error("bad item decoded")
	}
	if _, err := decodeObjectFindings(append(encodeObjectFindings(of), 0)); err == nil {
		t.Error("item with trailing bytes decoded")
	}
}

// tableItems are the items of the table m read (nil: none).
func tableItems(m *findingsMemo) map[cache.Key][]byte {
	if m.old == nil {
		return nil
	}
	out := map[cache.Key][]byte{}
	for i := range m.old {
		p := &m.old[i]
		for j := range p.offs {
			k, b := p.item(j)
			out[k] = b
		}
	}
	return out
}

// TestFindingsTableReplaced: an item put again after a hit (its bytes did
// not decode) is kept once, with its new bytes, by a whole run and by a
// partial one; a part whose keys are not in ascending order (not one
// encodeTable writes) does not decode: it is empty.
func TestFindingsTableReplaced(t *testing.T) {
	for _, partial := range []bool{false, true} {
		store, err := cache.Open(cache.Options{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		in := &Inputs{Cache: store, Paths: []string{"x"}, Record: Record{Validate: &Validation{}}}
		k := func(s string) cache.Key { return cache.NewHasher("t").String(s).Key() }
		m := newFindingsMemo(in, cache.Key{})
		m.put(k("a"), []byte("bad"))
		m.put(k("b"), []byte("B"))
		if err := m.save(false); err != nil {
			t.Fatal(err)
		}
		m = newFindingsMemo(in, cache.Key{})
		if b, ok := m.get(k("a")); !ok || string(b) != "bad" {
			t.Fatalf("get a = %q, %v", b, ok)
		}
		m.put(k("a"), []byte("A"))
		m.get(k("b"))
		if err := m.save(partial); err != nil {
			t.Fatal(err)
		}
		m = newFindingsMemo(in, cache.Key{})
		if diff := cmp.Diff(map[cache.Key][]byte{k("a"): []byte("A"), k("b"): []byte("B")}, tableItems(m)); diff != "" {
			t.Fatalf("partial %v (-want +got):\n%s", partial, diff)
		}
		lo, hi := k("a"), k("b")
		if slices.Compare(lo[:], hi[:]) > 0 {
			lo, hi = hi, lo
		}
		part := cache.PartKey(findingsFormat, m.table, 1, 0)
		for _, tt := range []struct {
			keys []cache.Key
			n    int
		}{{[]cache.Key{lo, hi}, 2}, {[]cache.Key{hi, lo}, 0}, {[]cache.Key{lo, lo}, 0}} {
			e := &encoder{}
			e.uint(uint64(len(tt.keys)))
			for _, key := range tt.keys {
				e.b = append(e.b, key[:]...)
				e.uint(1)
				e.b = append(e.b, 'x')
			}
			store.Put(part, e.b)
			if got := tableItems(newFindingsMemo(in, cache.Key{})); len(got) != tt.n {
				t.Errorf("a part of keys %x read %d items, want %d", tt.keys, len(got), tt.n)
			}
		}
	}
}

// TestFindingsTableHeads: items whose keys share their first 8 bytes
// (what the search compares first) are each found, and a key of the same
// first bytes that the part does not hold is not.
func TestFindingsTableHeads(t *testing.T) {
	store, err := cache.Open(cache.Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	key := func(head, last byte) (k cache.Key) {
		k[0], k[31] = head, last
		return k
	}
	items := []tableItem{{key(1, 0), []byte("a")}, {key(2, 1), []byte("b")}, {key(2, 3), []byte("c")}, {key(2, 5), nil}, {key(3, 0), []byte("d")}}
	store.Put(cache.Key{9}, encodeTable(slices.Clone(items)))
	p := readTablePart(store, cache.Key{9}, func(cache.Key) bool { return true })
	for _, it := range items {
		if b, ok := p.use(it.key); !ok || string(b) != string(it.b) {
			t.Errorf("%x: %q, %v; want %q", it.key, b, ok, it.b)
		}
	}
	for _, k := range []cache.Key{key(2, 0), key(2, 2), key(2, 9), key(0, 0), key(4, 0)} {
		if b, ok := p.use(k); ok {
			t.Errorf("%x: found %q, not in the part", k, b)
		}
	}
}
