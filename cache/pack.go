package cache

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"iter"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"
	"unsafe"
)

// A Pack is a set of entries kept as one entry of the store: a run that
// uses thousands of entries (a warm render of a large suite) reads them
// with one file read where a hit on each would cost a file each (an
// open, a stat, a read and a close). A pack is written whole (PutPack),
// as any entry is: to a temporary file renamed into place, so that
// concurrent runs each see one whole pack, and the last writer's wins.
// It is verified whole by the entry's checksum when read; a pack that
// does not verify is removed and read as none. A pack is a place, not a
// source of truth: an entry found in it is the entry PutPack was given
// under its key, as Get would give it. Packs count towards the size cap
// like any entry.
//
// A nil *Pack holds nothing.
type Pack struct {
	s *Store
	// data is the pack's bytes (packMagic, count, index, entries), a
	// string so that the entries given out are parts of it.
	data string
	n    int
}

// The bytes of a pack (the data of its store entry):
//
//	magic  packMagic
//	count  uint32 little endian
//	index  count rows of key (32 bytes) and end (uint32 little endian,
//	       where the entry's bytes end in entries), ascending by key
//	entries the entries' bytes, in the index's order
const packMagic = "drydock\x00pack\x01"

const packRow = len(Key{}) + 4

// GetPack returns the pack stored under k; nil when there is none, or it
// does not verify (it is then removed). Where the system maps files
// (Linux), the pack is mapped rather than read and stays mapped: its
// entries are parts of the page cache's pages, which the process need
// not copy (on a virtual machine, memory a process touches first costs
// more than reading it). That is safe because the store never writes a
// file in place: a pack replaced or removed while mapped stays as it was
// for the reader. Past the store's bounds of mappings (mapBudget) the
// pack is read instead. Reading a pack counts neither a
// hit nor a miss (Stats.Packs counts it); its entries count as hits when
// found (Pack.Get).
func (s *Store) GetPack(k Key) *Pack {
	if s == nil {
		return nil
	}
	var p *Pack
	if _, ok := s.mapEntry(k, func(data []byte) (ok bool) { p, ok = parsePack(data); return ok }); !ok {
		return nil
	}
	s.stats.packs.Add(1)
	p.s = s
	return p
}

// GetString is Get for a record whose reader keeps parts of it as
// strings (the known inputs' parts): the entry is mapped as a pack is
// (GetPack) rather than copied into memory the process must first
// touch, and stays mapped (read past the store's bounds, as GetPack's
// packs are). Hits and misses count as Get's; an entry
// that does not verify is removed, as Get removes it.
func (s *Store) GetString(k Key) (string, bool) {
	if s == nil {
		return "", false
	}
	data, ok := s.mapEntry(k, nil)
	if !ok {
		s.stats.misses.Add(1)
		return "", false
	}
	s.stats.hits.Add(1)
	return unsafe.String(unsafe.SliceData(data), len(data)), true
}

// mapEntry maps the entry of k (mapBudget.mapFile) and verifies it: its
// checksum, then valid when given. It returns the entry's data and
// whether there is one that verifies; one that does not is released,
// counted corrupt and removed.
func (s *Store) mapEntry(k Key, valid func(data []byte) bool) ([]byte, bool) {
	path := s.path(k)
	buf, mtime, err := s.mapped.mapFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err == nil {
		var data []byte
		if data, err = decode(buf, k); err == nil && (valid == nil || valid(data)) {
			touch(path, mtime)
			return data, true
		}
		s.mapped.unmap(buf)
	}
	s.stats.corrupt.Add(1)
	os.Remove(path)
	return nil, false
}

// The bounds of a store's mappings: a warm run of 10,000 applications
// maps about 75 files, 25 MB.
const (
	maxMappedBytes = 1 << 30
	maxMaps        = 2048
)

// mapBudget counts a store's mappings against its bounds.
type mapBudget struct {
	mu                sync.Mutex
	bytes, maps       int64
	maxBytes, maxMaps int64
	// mapped are the mappings made, by the address of their first byte.
	mapped map[*byte]bool
}

// mapFile is mapFile within the bounds, readFile past them.
func (b *mapBudget) mapFile(p string) ([]byte, time.Time, error) {
	b.mu.Lock()
	over := b.bytes >= b.maxBytes || b.maps >= b.maxMaps
	b.mu.Unlock()
	if over {
		return readFile(p)
	}
	buf, mtime, mapped, err := mapFile(p)
	if err != nil || !mapped {
		return buf, mtime, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.mapped == nil {
		b.mapped = map[*byte]bool{}
	}
	b.mapped[&buf[0]] = true
	b.bytes += int64(len(buf))
	b.maps++
	return buf, mtime, err
}

// unmap releases buf, a mapping of mapFile's that is not used (or does
// nothing to bytes it read).
func (b *mapBudget) unmap(buf []byte) {
	if len(buf) == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.mapped[&buf[0]] {
		return
	}
	delete(b.mapped, &buf[0])
	b.bytes -= int64(len(buf))
	b.maps--
	unmap(buf)
}

// parsePack checks a pack's layout (the checksum verified its bytes).
// data is not written again: the pack's strings share it.
func parsePack(data []byte) (*Pack, bool) {
	if len(data) < len(packMagic)+4 || string(data[:len(packMagic)]) != packMagic {
		return nil, false
	}
	n := binary.LittleEndian.Uint32(data[len(packMagic):])
	head := len(packMagic) + 4
	if uint64(n)*uint64(packRow) > uint64(len(data)-head) {
		return nil, false
	}
	p := &Pack{data: unsafe.String(unsafe.SliceData(data), len(data)), n: int(n)}
	body := uint64(len(data) - head - p.n*packRow)
	var end uint64
	for i := range p.n {
		e := uint64(p.end(i))
		if e < end || e > body || (i > 0 && p.key(i-1) >= p.key(i)) {
			return nil, false
		}
		end = e
	}
	if end != body {
		return nil, false
	}
	return p, true
}

func (p *Pack) row(i int) string {
	off := len(packMagic) + 4 + i*packRow
	return p.data[off : off+packRow]
}

func (p *Pack) key(i int) string { return p.row(i)[:len(Key{})] }

func (p *Pack) end(i int) int {
	r := p.row(i)[len(Key{}):]
	return int(uint32(r[0]) | uint32(r[1])<<8 | uint32(r[2])<<16 | uint32(r[3])<<24)
}

// entry is the i-th entry's bytes.
func (p *Pack) entry(i int) string {
	body := p.data[len(packMagic)+4+p.n*packRow:]
	start := 0
	if i > 0 {
		start = p.end(i - 1)
	}
	return body[start:p.end(i)]
}

// Len is the number of entries in the pack.
func (p *Pack) Len() int {
	if p == nil {
		return 0
	}
	return p.n
}

// Get returns the entry of k in the pack. A hit counts as the store's
// (Stats.Hits and Stats.PackHits); a miss is not counted: the caller
// asks the store next (Store.Get), which counts it.
func (p *Pack) Get(k Key) (string, bool) {
	_, e, ok := p.Lookup(k)
	return e, ok
}

// Lookup is Get that also says where the entry is: its index in the
// pack's ascending order of keys (Index's, At's), so that a caller can
// mark the entries it used in a slice of Len rather than a map by key.
func (p *Pack) Lookup(k Key) (i int, entry string, ok bool) {
	i, ok = p.Index(k)
	if !ok {
		return 0, "", false
	}
	if p.s != nil {
		p.s.stats.hits.Add(1)
		p.s.stats.packHits.Add(1)
	}
	return i, p.entry(i), true
}

// Index is the index of k's entry in the pack, and whether it holds k.
// It counts nothing.
func (p *Pack) Index(k Key) (int, bool) {
	if p == nil {
		return 0, false
	}
	ks := string(k[:])
	i := sort.Search(p.n, func(i int) bool { return p.key(i) >= ks })
	return i, i < p.n && p.key(i) == ks
}

// At is the key and the entry at index i (0 <= i < Len) of the pack's
// ascending order of keys. It counts nothing.
func (p *Pack) At(i int) (Key, string) {
	return Key([]byte(p.key(i))), p.entry(i)
}

// All yields the pack's entries by ascending key.
func (p *Pack) All() iter.Seq2[Key, string] {
	return func(yield func(Key, string) bool) {
		for i := range p.Len() {
			if !yield(p.At(i)) {
				return
			}
		}
	}
}

// errPackTooLarge is a pack past the 4 GiB its offsets address.
var errPackTooLarge = errors.New("cache: pack too large")

// PutPack stores entries as the pack of k, replacing the one there.
// Like Put's, a failure is never a reason to fail a render.
func (s *Store) PutPack(k Key, entries map[Key]string) error {
	if s == nil {
		return nil
	}
	keys := slices.SortedFunc(maps.Keys(entries), func(a, b Key) int { return compareKeys(a, b) })
	size := len(packMagic) + 4 + len(keys)*packRow
	body := 0
	for _, key := range keys {
		body += len(entries[key])
	}
	if uint64(body) > 1<<32-1 || uint64(len(keys)) > 1<<32-1 { // uint64: int is 32 bits on some platforms
		return errPackTooLarge
	}
	b := make([]byte, 0, size+body)
	b = append(b, packMagic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(keys)))
	end := 0
	for _, key := range keys {
		end += len(entries[key])
		b = append(b, key[:]...)
		b = binary.LittleEndian.AppendUint32(b, uint32(end))
	}
	for _, key := range keys {
		b = append(b, entries[key]...)
	}
	return s.Put(k, b)
}

func compareKeys(a, b Key) int {
	switch {
	case string(a[:]) < string(b[:]):
		return -1
	case string(a[:]) > string(b[:]):
		return 1
	}
	return 0
}

// MaxParts bounds the number of parts of a record kept in parts (the
// golden Known, the findings table, the known inputs): a run that
// changes one item rewrites one part, not the whole record.
const MaxParts = 256

// PartsFor is how many parts a record of n items, about size a part,
// has: a power of two, at most MaxParts.
func PartsFor(n, size int) int {
	parts := 1
	for parts*size < n && parts < MaxParts {
		parts *= 2
	}
	return parts
}

// PartOf is the part of parts (a number PartsFor gives) that holds the
// item named s: its 32-bit FNV-1a hash (hash/fnv's New32a, without its
// allocations: a run asks it of every item) modulo parts.
func PartOf(s string, parts int) int {
	const offset32, prime32 = 2166136261, 16777619
	h := uint32(offset32)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= prime32
	}
	return int(h % uint32(parts))
}

// PartKey is where part i of parts of the record at k is kept; domain
// names the kind of record (a Hasher's domain).
func PartKey(domain string, k Key, parts, i int) Key {
	return NewHasher(domain).String("part").Bytes(k[:]).String(strconv.Itoa(parts) + "/" + strconv.Itoa(i)).Key()
}

// ValidParts reports whether n is a number of parts PartsFor gives.
func ValidParts(n uint64) bool { return n >= 1 && n <= MaxParts && n&(n-1) == 0 }
