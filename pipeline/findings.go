package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/schemas"
)

// The findings cache (Inputs.Cache with Record.Validate). Validating an
// object is a pure function of
//
//   - drydock's build (cache.BuildID): the embedded schemas, the
//     validation's code and this format;
//   - the object's content (its encoded Data);
//   - the embedded Kubernetes version it is validated as (its cluster's);
//   - the CustomResourceDefinitions the validation knows (their bytes
//     and positions, in the order they are added: a later one of the
//     same kind replaces an earlier one, and a finding may name one's
//     place);
//   - Validation.Strict.
//
// An item's key hashes them all, so a warm run validates only the
// objects whose key changed, and does not load the embedded schemas of
// a version whose objects all hit. The properties no parameter declares
// (undeclaredProperties) are kept too, per application: their key is
// the application's render key (cache.go: its document, every other
// input, the flags) with Strict; a render hit that finds none renders
// again.
//
// A few store entries per run hold every item (a table): a hit among
// 20,000 objects would otherwise cost a file read each. The table's key
// is the run's scope (drydock's build, the paths it reads), so the
// suites of one drydock test keep their own; a whole run writes back exactly
// the items it used (the table does not grow with edits), a partial one
// (Inputs.Only, inputs that did not load) adds its items to the others.
// The table is kept in parts by item key (at the table's key, a header
// names how many: findingsParts of its size), and a part is written only
// when an item of it missed or went unused: an edit of one application
// rewrites a part of ~1,000 items, not 20,000. Any part, however old, says
// only true things (an item's key is its content's): one missing or that
// does not decode is empty, its items validated again.

// findingsFormat names the table and item layout; part of every key.
const findingsFormat = "findings/1"

// findingsMemo is a run's findings cache: it implements schemas.Memo
// for the objects and keeps the applications' undeclared properties.
type findingsMemo struct {
	store *cache.Store
	table cache.Key
	// validate is the key prefix of the objects' findings: build,
	// CRDs, strictness.
	validate cache.Key
	strict   bool

	mu sync.Mutex
	// old is the table as read: its parts (none without a table),
	// each item marked when used; fresh the items put.
	old   []tablePart
	fresh map[cache.Key][]byte
	// parts is how many parts the table had (0: none); puts the keys of
	// the items put.
	parts int
	puts  []cache.Key
	// hits and misses count the items asked for (objects and
	// applications); uncached the objects whose content the encoding
	// does not hold (validated every time).
	hits, misses, uncached int
}

// newFindingsMemo opens the findings table of a run of in (nil without a
// cache or validation). crds is the digest of the CRDs the validation
// knows (crdDigest).
func newFindingsMemo(in *Inputs, crds cache.Key) *findingsMemo {
	if in.Cache == nil || in.Record.Validate == nil {
		return nil
	}
	strict := in.Record.Validate.Strict
	// The paths a run reads are its scope: the settings are in the
	// items' keys, so a changed setting still hits what it does not
	// reach. (Suites of one configuration that read the same paths with
	// other settings take turns at one table.)
	v := in.Record.Validate
	h := cache.NewHasher(findingsFormat).String(cache.BuildID()).String("table").String(in.FromName)
	for i, list := range [][]string{in.Paths, in.ClusterPaths, in.DefinitionPaths, in.ObservedPaths, v.CRDPaths} {
		h.String(strconv.Itoa(i))
		for _, p := range list {
			h.String(p)
		}
	}
	m := &findingsMemo{store: in.Cache, table: h.Key(), strict: strict, fresh: map[cache.Key][]byte{},
		validate: cache.NewHasher(findingsFormat).String(cache.BuildID()).String("validate").Bytes(crds[:]).String(strconv.FormatBool(strict)).Key()}
	m.old, m.parts = loadTable(in.Cache, m.table)
	return m
}

// get returns the item of k, and remembers it as used.
func (m *findingsMemo) get(k cache.Key) ([]byte, bool) { return m.lookup(k, true) }

// lookup is get; a miss is counted only when countMiss.
func (m *findingsMemo) lookup(k cache.Key, countMiss bool) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var b []byte
	ok := false
	if len(m.old) > 0 {
		b, ok = m.old[partOfItem(k, len(m.old))].use(k)
	}
	if !ok {
		b, ok = m.fresh[k]
	}
	if ok {
		m.hits++
	} else if countMiss {
		m.misses++
	}
	return b, ok
}

// put keeps item b of k.
func (m *findingsMemo) put(k cache.Key, b []byte) {
	m.mu.Lock()
	m.fresh[k] = b
	m.puts = append(m.puts, k)
	if len(m.old) > 0 {
		m.old[partOfItem(k, len(m.old))].replace(k)
	}
	m.mu.Unlock()
}

// Findings implements schemas.Memo.
// An object a cache hit gives carries its content's hash (Object.Sums),
// which is not computed again.
func (m *findingsMemo) Findings(o *manifest.Object, version string, validate func() []schemas.Finding) []schemas.Finding {
	var sum [sha256.Size]byte
	if o.Sums != nil {
		sum = o.Sums.Content
	} else {
		e := &encoder{}
		if err := e.value(o.Data); err != nil {
			m.mu.Lock()
			m.uncached++
			m.mu.Unlock()
			return validate()
		}
		sum = sha256.Sum256(e.b)
	}
	k := m.findingsKey(version, sum)
	if b, ok := m.get(k); ok {
		if fs, err := decodeSchemaFindings(b); err == nil {
			return fs
		}
	}
	fs := validate()
	m.put(k, encodeSchemaFindings(fs))
	return fs
}

// findingsKey is the key of the findings of an object of content hash sum
// validated as version.
func (m *findingsMemo) findingsKey(version string, sum [sha256.Size]byte) cache.Key {
	return cache.NewHasher(findingsFormat).Bytes(m.validate[:]).String(version).Bytes(sum[:]).Key()
}

// Known implements schemas.Memo. A miss is not counted: the stream asks
// Findings next, which counts it.
func (m *findingsMemo) Known(content [sha256.Size]byte, version string) ([]schemas.Finding, bool) {
	b, ok := m.lookup(m.findingsKey(version, content), false)
	if !ok {
		return nil, false
	}
	fs, err := decodeSchemaFindings(b)
	return fs, err == nil
}

// propsKey is the key of the undeclared properties of the application
// whose render key is render.
func (m *findingsMemo) propsKey(render cache.Key) cache.Key {
	return cache.NewHasher(findingsFormat).String("undeclared").Bytes(render[:]).String(strconv.FormatBool(m.strict)).Key()
}

// props returns the kept undeclared properties of the application whose
// render key is render.
func (m *findingsMemo) props(render cache.Key) ([]Finding, bool) {
	if m == nil {
		return nil, false
	}
	b, ok := m.get(m.propsKey(render))
	if !ok {
		return nil, false
	}
	fs, err := decodeObjectFindings(b)
	return fs, err == nil
}

// putProps keeps them.
func (m *findingsMemo) putProps(render cache.Key, fs []Finding) {
	if m != nil {
		m.put(m.propsKey(render), encodeObjectFindings(fs))
	}
}

// save writes the table back when it changed: the items used (and, when
// the run was partial, the others kept before).
func (m *findingsMemo) save(partial bool) error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// A whole run keeps the items it used, a partial one all it had
	// (those put again replaced).
	keeps := func(p *tablePart, i int) bool { return p.state[i] == used || (partial && p.state[i] == unused) }
	count, dropped := len(m.fresh), false
	for i := range m.old {
		p := &m.old[i]
		for j := range p.offs {
			if keeps(p, j) {
				count++
			} else {
				dropped = true
			}
		}
	}
	if m.misses == 0 && len(m.puts) == 0 && !dropped {
		return nil
	}
	n := findingsParts(count)
	// A part changed when an item of it was put, or (a whole run) when it
	// holds fewer items than before: it holds only items it held or put.
	// The parts of the same number that did not change are not read.
	changed := make([]bool, n)
	for k := range m.fresh {
		changed[partOfItem(k, n)] = true
	}
	if m.parts == n {
		for i := range m.old {
			p := &m.old[i]
			for j := range p.offs {
				changed[i] = changed[i] || !keeps(p, j)
			}
		}
	}
	items := make([][]tableItem, n)
	for i := range m.old {
		if m.parts == n && !changed[i] {
			continue
		}
		p := &m.old[i]
		for j := range p.offs {
			if keeps(p, j) {
				k, b := p.item(j)
				items[partOfItem(k, n)] = append(items[partOfItem(k, n)], tableItem{k, b})
			}
		}
	}
	for k, b := range m.fresh {
		items[partOfItem(k, n)] = append(items[partOfItem(k, n)], tableItem{k, b})
	}
	for i := range n {
		if m.parts == n && !changed[i] {
			continue
		}
		if err := m.store.Put(cache.PartKey(findingsFormat, m.table, n, i), encodeTable(items[i])); err != nil {
			return err
		}
	}
	if m.parts == n {
		return nil
	}
	e := &encoder{b: []byte(findingsHeader)}
	e.uint(uint64(n))
	return m.store.Put(m.table, e.b)
}

// findingsHeader starts the table's header.
const findingsHeader = "drydock findings parts 1\n"

// findingsPartSize is about how many items a part holds; a table has at
// most maxFindingsParts.
const (
	findingsPartSize = 1024
	maxFindingsParts = cache.MaxParts
)

// findingsParts is how many parts a table of n items has: a power of two.
func findingsParts(n int) int { return cache.PartsFor(n, findingsPartSize) }

// partOfItem is the part of parts that holds the item of k (a hash: its
// first byte is as good as any).
func partOfItem(k cache.Key, parts int) int { return int(k[0]) & (parts - 1) }

// loadTable reads the table of key from s, and how many parts it has: a
// header that does not read is no table (nil, 0); a part missing or that
// does not decode is empty, and an item in a part it does not belong to
// is left out.
func loadTable(s *cache.Store, key cache.Key) ([]tablePart, int) {
	b, ok := s.Get(key)
	if !ok {
		return nil, 0
	}
	parts, ok := readPartsHeader(findingsHeader, b)
	if !ok {
		return nil, 0
	}
	out := make([]tablePart, parts)
	for i := range parts {
		out[i] = readTablePart(s, cache.PartKey(findingsFormat, key, parts, i), func(k cache.Key) bool { return partOfItem(k, parts) == i })
	}
	return out, parts
}

// crdDigest hashes the CRDs a validation knows, in the order they are
// added.
func crdDigest(objs []*manifest.Object) cache.Key {
	h := cache.NewHasher(findingsFormat).String("crds")
	for _, o := range objs {
		e := &encoder{}
		if err := e.value(o.Data); err != nil {
			// Not keyable: a digest no other set has (nothing hits).
			h.String("uncacheable " + err.Error())
			continue
		}
		h.String(o.Pos.String()).Bytes(e.b)
	}
	return h.Key()
}

// tableItem is an item of the table: its key and bytes.
type tableItem struct {
	key cache.Key
	b   []byte
}

// The table: a count, then each item's key, length and bytes, in key
// order (the same items make the same entry).
func encodeTable(items []tableItem) []byte {
	slices.SortFunc(items, func(a, b tableItem) int { return slices.Compare(a.key[:], b.key[:]) })
	size := binary.MaxVarintLen64
	for _, it := range items {
		size += len(it.key) + binary.MaxVarintLen64 + len(it.b)
	}
	e := &encoder{b: make([]byte, 0, size)}
	e.uint(uint64(len(items)))
	for _, it := range items {
		e.b = append(e.b, it.key[:]...)
		e.uint(uint64(len(it.b)))
		e.b = append(e.b, it.b...)
	}
	return e.b
}

// tablePart is a part of the table as read: its entry's bytes and where
// each item starts in them, by ascending key (an item is found by binary
// search, not copied into a map: a warm run reads ~20,000 of them and
// uses each once), and what the run did with each item. The search is
// among the keys' first 8 bytes (heads), side by side in memory, not
// the keys themselves, each in another place of data.
type tablePart struct {
	data  []byte
	offs  []uint32
	heads []uint64
	state []itemState
}

// itemState is what a run did with an item of the table.
type itemState uint8

const (
	unused itemState = iota
	used
	// replaced is an item put again (its bytes did not decode).
	replaced
)

// keyAt is the key of the item at off.
func (p *tablePart) keyAt(off uint32) []byte { return p.data[off : off+uint32(len(cache.Key{}))] }

// item is the i-th item's key and bytes.
func (p *tablePart) item(i int) (cache.Key, []byte) {
	off := int(p.offs[i])
	k := cache.Key(p.data[off : off+len(cache.Key{})])
	b := p.data[off+len(k):]
	l, w := binary.Uvarint(b) // checked by readTablePart
	return k, b[w : w+int(l) : w+int(l)]
}

// use returns the item of k and marks it used.
func (p *tablePart) use(k cache.Key) ([]byte, bool) {
	i, ok := p.search(k)
	if !ok {
		return nil, false
	}
	if p.state[i] == unused {
		p.state[i] = used
	}
	_, b := p.item(i)
	return b, true
}

// replace marks the item of k, if the part holds it, as put again.
func (p *tablePart) replace(k cache.Key) {
	if i, ok := p.search(k); ok {
		p.state[i] = replaced
	}
}

// search is where the item of k is in p.offs.
func (p *tablePart) search(k cache.Key) (int, bool) {
	head := binary.BigEndian.Uint64(k[:])
	i, _ := slices.BinarySearch(p.heads, head)
	for ; i < len(p.heads) && p.heads[i] == head; i++ {
		if string(p.keyAt(p.offs[i])) == string(k[:]) {
			return i, true
		}
	}
	return 0, false
}

// readTablePart reads the part of key from s, keeping the items mine
// says are its own; none, or a part that does not decode (its keys out
// of order among them), is an empty one.
func readTablePart(s *cache.Store, key cache.Key, mine func(cache.Key) bool) tablePart {
	b, ok := s.Get(key)
	if !ok || uint64(len(b)) > math.MaxUint32 { // offsets are uint32
		return tablePart{}
	}
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return tablePart{}
	}
	p := tablePart{data: b, offs: make([]uint32, 0, n), heads: make([]uint64, 0, n)}
	var last []byte
	off := k
	for ; n > 0; n-- {
		if len(b)-off < len(cache.Key{}) {
			return tablePart{}
		}
		key := b[off : off+len(cache.Key{})]
		if last != nil && bytes.Compare(last, key) >= 0 {
			return tablePart{}
		}
		last = key
		l, w := binary.Uvarint(b[off+len(key):])
		if w <= 0 || l > uint64(len(b)-off-len(key)-w) {
			return tablePart{}
		}
		if mine(cache.Key(key)) {
			p.offs = append(p.offs, uint32(off))
			p.heads = append(p.heads, binary.BigEndian.Uint64(key))
		}
		off += len(key) + w + int(l)
	}
	if off != len(b) {
		return tablePart{}
	}
	p.state = make([]itemState, len(p.offs))
	return p
}

var errBadFindings = errors.New("findings cache: bad item")

func encodeSchemaFindings(fs []schemas.Finding) []byte {
	e := &encoder{}
	e.uint(uint64(len(fs)))
	for _, f := range fs {
		e.str(f.Field)
		e.str(f.Message)
		e.bool(f.Warning)
	}
	return e.b
}

func decodeSchemaFindings(b []byte) (fs []schemas.Finding, err error) {
	d := &itemReader{b: b}
	defer func() {
		if recover() != nil || len(d.b) != 0 {
			fs, err = nil, errBadFindings
		}
	}()
	n := d.uint()
	if n > uint64(len(b)) {
		panic("bad count")
	}
	for range n {
		fs = append(fs, schemas.Finding{Field: d.str(), Message: d.str(), Warning: d.bool()})
	}
	return fs, nil
}

func (e *encoder) pos(p manifest.Pos) {
	e.str(p.File)
	e.uint(uint64(p.Line))
	e.uint(uint64(p.Col))
}

// itemReader reads what encoder wrote of an item; it panics on bad
// input, which the item's decoder recovers.
type itemReader struct{ b []byte }

func (d *itemReader) uint() uint64 {
	n, k := binary.Uvarint(d.b)
	if k <= 0 {
		panic("bad varint")
	}
	d.b = d.b[k:]
	return n
}

func (d *itemReader) str() string {
	n := d.uint()
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *itemReader) bool() bool {
	v := d.b[0]
	d.b = d.b[1:]
	return v == 1
}

func (d *itemReader) pos() manifest.Pos {
	return manifest.Pos{File: d.str(), Line: int(d.uint()), Col: int(d.uint())}
}

func encodeObjectFindings(fs []Finding) []byte {
	e := &encoder{}
	e.uint(uint64(len(fs)))
	for _, f := range fs {
		for _, s := range []string{f.Cluster, f.Key.Group, f.Key.Kind, f.Key.Namespace, f.Key.Name, f.Path, f.Field, f.Message} {
			e.str(s)
		}
		e.bool(f.Warning)
		e.pos(f.Pos)
		e.pos(f.Origin.Pos)
		for _, s := range []string{f.Origin.Application, f.Origin.Component, f.Origin.Trait, f.Origin.Policy} {
			e.str(s)
		}
	}
	return e.b
}

func decodeObjectFindings(b []byte) (fs []Finding, err error) {
	d := &itemReader{b: b}
	defer func() {
		if recover() != nil || len(d.b) != 0 {
			fs, err = nil, errBadFindings
		}
	}()
	n := d.uint()
	if n > uint64(len(b)) {
		panic("bad count")
	}
	for range n {
		var f Finding
		f.Cluster = d.str()
		f.Key = manifest.Key{Group: d.str(), Kind: d.str(), Namespace: d.str(), Name: d.str()}
		f.Path, f.Field, f.Message, f.Warning = d.str(), d.str(), d.str(), d.bool()
		f.Pos, f.Origin.Pos = d.pos(), d.pos()
		f.Origin.Application, f.Origin.Component, f.Origin.Trait, f.Origin.Policy = d.str(), d.str(), d.str(), d.str()
		fs = append(fs, f)
	}
	return fs, nil
}

// hitProps says whether an application whose render key is key (keyed:
// it has one) may be served from the render cache, and gives its
// undeclared properties: without validation it may (no properties),
// with validation only when they are kept.
func (m *findingsMemo) hitProps(in *Inputs, key cache.Key, keyed bool) ([]Finding, bool) {
	if !keyed {
		return nil, false
	}
	if in.Record.Validate == nil {
		return nil, true
	}
	return m.props(key)
}
