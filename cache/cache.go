// Package cache is drydock's content-addressed store of results that are
// costly to compute and cheap to keep: an application's render, the state
// of a golden comparison. An entry is found by a Key, the hash of
// everything the result depends on (the bytes of the inputs, the
// definitions, the inventory, the flags, drydock's own build), so a hit is
// by construction what computing it again would give.
//
// The store is a directory (by default drydock's directory under the
// user's cache directory). It is safe for concurrent processes: an entry
// is written to a temporary file and renamed into place, and a reader
// sees a whole entry or none. Every entry carries a checksum; an entry
// that does not verify (a torn write, a disk error, a hand edit) is a
// miss, removed and written again. Past its size cap the store evicts
// the least recently used entries.
//
// It is not a database of drydock's outputs (the output tree and golden
// files are the user's), and it never holds anything a render cannot
// rebuild: removing the directory at any time loses only time.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Key identifies an entry: the SHA-256 of the parts it was built from.
type Key [sha256.Size]byte

// Hasher builds a Key from parts, each length-prefixed so that no two
// different sequences of parts give the same key.
//
// A run builds tens of thousands of keys of a few hundred bytes each: the
// parts are gathered in the Hasher itself and hashed at once by Key
// (sha256.Sum256, which allocates nothing), rather than written to a
// hash.Hash, whose state and every part written to it (an interface
// call: the bytes escape) would each be allocated. A Hasher that its
// caller does not keep (NewHasher(...).String(...).Key()) then lives on
// the caller's stack: a key costs no allocation. Parts past the first
// len(small) bytes go to a streaming hash. The key is the same either
// way: the SHA-256 of the same bytes.
type Hasher struct {
	n     int
	small [256]byte
	// h is the streaming hash once the parts outgrew small (nil before);
	// big holds a part on its way to it.
	h   hash.Hash
	big []byte
}

// NewHasher returns a Hasher whose key starts from kind, the name of what
// is cached ("render", "golden"), so keys of different kinds never meet.
func NewHasher(kind string) *Hasher {
	h := &Hasher{}
	h.String(kind)
	return h
}

// Bytes adds a part.
func (h *Hasher) Bytes(b []byte) *Hasher {
	if h.h == nil && h.n+8+len(b) <= len(h.small) {
		binary.LittleEndian.PutUint64(h.small[h.n:], uint64(len(b)))
		h.n += 8 + copy(h.small[h.n+8:], b)
		return h
	}
	h.spill(append(binary.LittleEndian.AppendUint64(h.big[:0], uint64(len(b))), b...))
	return h
}

// String adds a part.
func (h *Hasher) String(s string) *Hasher {
	if h.h == nil && h.n+8+len(s) <= len(h.small) {
		binary.LittleEndian.PutUint64(h.small[h.n:], uint64(len(s)))
		h.n += 8 + copy(h.small[h.n+8:], s)
		return h
	}
	h.spill(append(binary.LittleEndian.AppendUint64(h.big[:0], uint64(len(s))), s...))
	return h
}

// spill writes part (a length and its bytes, in big) to the streaming
// hash, started with the parts gathered when it was not. It writes
// copies only: a slice of small, or of a caller's bytes, given to the
// hash.Hash would move every Hasher, or those bytes, to the heap.
func (h *Hasher) spill(part []byte) {
	if h.h == nil {
		h.h = sha256.New()
		h.h.Write(append([]byte(nil), h.small[:h.n]...))
	}
	h.h.Write(part)
	h.big = part
}

// Key returns the key of the parts added so far (more may be added).
func (h *Hasher) Key() Key {
	if h.h == nil {
		return sha256.Sum256(h.small[:h.n])
	}
	var k Key
	h.h.Sum(k[:0])
	return k
}

// Options say where the store is and how large it may grow.
type Options struct {
	// Dir is the store's directory, created when missing. The entries
	// live in a subdirectory per entry format (FormatDir), so a drydock
	// that writes another format never meets them.
	Dir string
	// MaxBytes caps the size of the entries; past it the least recently
	// used are removed (0: DefaultMaxBytes).
	MaxBytes int64
	// TrimEvery is how often Close walks the store to enforce MaxBytes
	// (0: DefaultTrimEvery; negative: at every Close that follows a
	// Put). Walking costs a stat per entry, so a run that only hits does
	// not walk, and runs close together share one walk.
	TrimEvery time.Duration
}

// DefaultMaxBytes is the store's size cap when Options gives none.
const DefaultMaxBytes = 1 << 30

// DefaultTrimEvery is how often the store enforces its size cap when
// Options gives no interval.
const DefaultTrimEvery = time.Hour

// FormatDir is the subdirectory of Options.Dir holding this entry format.
const FormatDir = "v1"

// ErrNotImplemented was returned by the skeleton; kept for callers that
// compiled against it. No function returns it.
var ErrNotImplemented = errors.New("cache: not implemented")

// touchAfter is how old an entry's modification time must be before a
// hit refreshes it: the LRU order needs no finer grain, and a hit then
// costs no write.
const touchAfter = time.Hour

// An entry file is header + data. The header:
//
//	magic   "drydock\x00cache\x01" (14 bytes: name, format version)
//	length  uint64 little endian, len(data)
//	key     the entry's Key (32 bytes): a file renamed to another key's name does not verify
//	crc     CRC-32C of key and data, uint32 little endian
const magic = "drydock\x00cache\x01"

const headerLen = len(magic) + 8 + sha256.Size + 4

// castagnoli is made on first use, not at every drydock start.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// Store is an open cache directory. A nil *Store is a store that holds
// nothing (--no-cache): Get always misses and Put does nothing. Its
// methods are safe for concurrent use.
type Store struct {
	opts  Options
	dir   string // Dir/FormatDir
	stats struct {
		hits, misses, puts, corrupt, evicted, packs, packHits atomic.Int64
	}
	mu     sync.Mutex
	closed bool
	// mapped bounds the files mapped (GetPack, GetString), never unmapped
	// while their strings may be in use: a long-running process (--watch)
	// that reads them every iteration would otherwise grow its mappings
	// without end (and the kernel's count of them is bounded), holding
	// replaced files' pages. Past the bounds files are read, their bytes
	// the garbage collector's.
	mapped mapBudget
}

// Open opens (creating it when missing) the store in o.Dir.
func Open(o Options) (*Store, error) {
	if o.Dir == "" {
		return nil, errors.New("cache: no directory")
	}
	if o.MaxBytes == 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.TrimEvery == 0 {
		o.TrimEvery = DefaultTrimEvery
	}
	dir := filepath.Join(o.Dir, FormatDir)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return &Store{opts: o, dir: dir, mapped: mapBudget{maxBytes: maxMappedBytes, maxMaps: maxMaps}}, nil
}

// DefaultDir is drydock's directory under the user's cache directory
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux).
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("cache: %w", err)
	}
	return filepath.Join(d, "drydock"), nil
}

// Dir is the directory holding the store's entries (Options.Dir's
// format subdirectory); "" for a nil store.
func (s *Store) Dir() string {
	if s == nil {
		return ""
	}
	return s.dir
}

// path is where k's entry lives: a directory per first byte keeps
// directories small.
func (s *Store) path(k Key) string {
	h := hex.EncodeToString(k[:])
	return filepath.Join(s.dir, h[:2], h[2:])
}

// Get returns the entry of k, and false when there is none or it does
// not verify (it is then removed).
func (s *Store) Get(k Key) ([]byte, bool) {
	if s == nil {
		return nil, false
	}
	data, err := s.load(k)
	if err != nil {
		s.stats.misses.Add(1)
		return nil, false
	}
	s.stats.hits.Add(1)
	return data, true
}

// load reads the entry of k: fs.ErrNotExist when there is none, another
// error when it does not verify (it is then removed and counted
// corrupt). A hit on an entry not touched for touchAfter refreshes its
// modification time (the LRU order).
func (s *Store) load(k Key) ([]byte, error) {
	p := s.path(k)
	data, mtime, err := readEntry(p, k)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		s.stats.corrupt.Add(1)
		os.Remove(p)
		return nil, err
	}
	touch(p, mtime)
	return data, nil
}

// touch refreshes the modification time of the entry file p, last
// modified at mtime, when it is older than touchAfter.
func touch(p string, mtime time.Time) {
	if now := time.Now(); now.Sub(mtime) > touchAfter {
		os.Chtimes(p, now, now)
	}
}

// errCorrupt is an entry that does not verify.
var errCorrupt = errors.New("cache: corrupt entry")

// readEntry reads the entry file p of k. A missing file is
// fs.ErrNotExist, any other failure a corrupt entry. It reads with
// system calls rather than os.File (which registers every file with the
// network poller): a hit is an open, a stat, a read and a close.
func readEntry(p string, k Key) ([]byte, time.Time, error) {
	buf, mtime, err := readFile(p)
	if err != nil {
		return nil, time.Time{}, err
	}
	data, err := decode(buf, k)
	return data, mtime, err
}

// decode checks an entry file's bytes against k and returns its data.
func decode(buf []byte, k Key) ([]byte, error) {
	if len(buf) < headerLen || string(buf[:len(magic)]) != magic {
		return nil, errCorrupt
	}
	h := buf[len(magic):headerLen]
	n := binary.LittleEndian.Uint64(h[:8])
	if n != uint64(len(buf)-headerLen) || !bytes.Equal(h[8:8+sha256.Size], k[:]) {
		return nil, errCorrupt
	}
	data := buf[headerLen:]
	crc := crc32.Update(crc32.Checksum(k[:], castagnoli()), castagnoli(), data)
	if crc != binary.LittleEndian.Uint32(h[8+sha256.Size:]) {
		return nil, errCorrupt
	}
	return data, nil
}

// encode returns the entry file's bytes of k and data.
func encode(k Key, data []byte) []byte {
	return append(header(k, data, len(data)), data...)
}

// header returns the entry file's header of k and data, with room for
// extra bytes more.
func header(k Key, data []byte, extra int) []byte {
	buf := make([]byte, headerLen, headerLen+extra)
	copy(buf, magic)
	h := buf[len(magic):]
	binary.LittleEndian.PutUint64(h[:8], uint64(len(data)))
	copy(h[8:], k[:])
	crc := crc32.Update(crc32.Checksum(k[:], castagnoli()), castagnoli(), data)
	binary.LittleEndian.PutUint32(h[8+sha256.Size:], crc)
	return buf
}

// bigEntry is the size past which Put writes an entry's header and data
// apart rather than copying the data behind the header (a pack).
const bigEntry = 1 << 16

// Put stores data as the entry of k. A failure to write is returned but
// is never a reason to fail a render: callers report it as a warning.
// The entry is written to a temporary file beside its place and renamed
// into it, so that a reader (in this process or another) sees the whole
// entry or none, and a writer killed midway leaves only a temporary file
// (named with a leading dot, removed by the next trim once stale).
func (s *Store) Put(k Key, data []byte) error {
	if s == nil {
		return nil
	}
	p := s.path(k)
	dir := filepath.Dir(p)
	f, err := os.CreateTemp(dir, ".tmp-")
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.MkdirAll(dir, 0o777); err == nil {
			f, err = os.CreateTemp(dir, ".tmp-")
		}
	}
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if len(data) < bigEntry {
		_, err = f.Write(encode(k, data))
	} else if _, err = f.Write(header(k, data, 0)); err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cache: %w", err)
	}
	s.stats.puts.Add(1)
	return nil
}

// trimFile is the file whose modification time says when the store was
// last trimmed.
const trimFile = "trim.txt"

// Close evicts past the size cap and releases the store. It walks the
// entries only after a Put and when the last trim is older than
// Options.TrimEvery.
func (s *Store) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if s.stats.puts.Load() == 0 {
		return nil
	}
	marker := filepath.Join(s.dir, trimFile)
	if s.opts.TrimEvery > 0 {
		if fi, err := os.Stat(marker); err == nil && time.Since(fi.ModTime()) < s.opts.TrimEvery {
			return nil
		}
	}
	if err := os.WriteFile(marker, nil, 0o666); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return s.trim()
}

type entryInfo struct {
	path  string
	size  int64
	mtime time.Time
}

// trim removes the least recently used entries until the rest fit in
// MaxBytes, and temporary files older than an hour (a writer that died).
func (s *Store) trim() error {
	var entries []entryInfo
	var total int64
	subs, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	for _, sub := range subs {
		if !sub.IsDir() || !isHex(sub.Name(), 2) {
			continue
		}
		d := filepath.Join(s.dir, sub.Name())
		files, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, f := range files {
			fi, err := f.Info()
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			p := filepath.Join(d, f.Name())
			if strings.HasPrefix(f.Name(), ".tmp-") {
				if time.Since(fi.ModTime()) > time.Hour {
					os.Remove(p)
				}
				continue
			}
			if !isHex(f.Name(), 2*len(Key{})-2) {
				continue // not an entry: not the store's to remove
			}
			entries = append(entries, entryInfo{p, fi.Size(), fi.ModTime()})
			total += fi.Size()
		}
	}
	if total <= s.opts.MaxBytes {
		return nil
	}
	sort.Slice(entries, func(i, j int) bool {
		if !entries[i].mtime.Equal(entries[j].mtime) {
			return entries[i].mtime.Before(entries[j].mtime)
		}
		return entries[i].path < entries[j].path
	})
	for _, e := range entries {
		if total <= s.opts.MaxBytes {
			break
		}
		if os.Remove(e.path) == nil {
			s.stats.evicted.Add(1)
		}
		total -= e.size
	}
	return nil
}

// isHex tells whether name is n lower-case hex digits: the names the
// store gives its subdirectories and entries (path).
func isHex(name string, n int) bool {
	if len(name) != n {
		return false
	}
	for _, c := range name {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Stats counts what a store saw since it was opened.
type Stats struct {
	Hits, Misses, Puts, Corrupt, Evicted int
	// Packs counts the packs read (GetPack) that verified, PackHits the
	// hits among Hits that a pack served (Pack.Get).
	Packs, PackHits int
}

// Stats returns the counts so far.
func (s *Store) Stats() Stats {
	if s == nil {
		return Stats{}
	}
	return Stats{
		Hits: int(s.stats.hits.Load()), Misses: int(s.stats.misses.Load()),
		Puts: int(s.stats.puts.Load()), Corrupt: int(s.stats.corrupt.Load()),
		Evicted: int(s.stats.evicted.Load()),
		Packs:   int(s.stats.packs.Load()), PackHits: int(s.stats.packHits.Load()),
	}
}

var buildID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	return executableID(exe)
})

// BuildID identifies the running drydock build (the Go build ID of the
// executable), part of every key: a different build never reads another
// one's entries. It reads the first page of the executable, where the Go
// linker writes the ID; an executable without one is identified by its
// path, size and modification time. "" when even that cannot be read.
func BuildID() string { return buildID() }

const buildIDPrefix = "\xff Go build ID: \""

// executableID is the build ID of the executable at path.
func executableID(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := io.ReadFull(f, buf)
	if id, ok := parseBuildID(buf[:n]); ok {
		return id
	}
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	return fmt.Sprintf("file:%s:%d:%d", path, fi.Size(), fi.ModTime().UnixNano())
}

// parseBuildID finds the Go build ID in the first bytes of an
// executable: the ELF note the Go linker writes (name "Go", type 4) or,
// in other formats, the "\xff Go build ID" string at the start of the
// text.
func parseBuildID(b []byte) (string, bool) {
	if id, ok := elfNoteID(b); ok {
		return id, true
	}
	i := bytes.Index(b, []byte(buildIDPrefix))
	if i < 0 {
		return "", false
	}
	rest := b[i+len(buildIDPrefix):]
	j := bytes.Index(rest, []byte("\"\n \xff"))
	if j <= 0 {
		return "", false
	}
	return string(rest[:j]), true
}

// elfNoteID finds the Go build ID note: namesz 4, descsz, type 4,
// "Go\x00\x00", then descsz bytes of ID.
func elfNoteID(b []byte) (string, bool) {
	if len(b) < 4 || string(b[:4]) != "\x7fELF" {
		return "", false
	}
	for off := 0; ; {
		i := bytes.Index(b[off:], []byte("Go\x00\x00"))
		if i < 0 {
			return "", false
		}
		i += off
		off = i + 4
		if i < 12 {
			continue
		}
		h := b[i-12 : i]
		namesz := binary.LittleEndian.Uint32(h[0:4])
		descsz := binary.LittleEndian.Uint32(h[4:8])
		typ := binary.LittleEndian.Uint32(h[8:12])
		if namesz != 4 || typ != 4 || descsz == 0 || descsz > 256 || i+4+int(descsz) > len(b) {
			continue
		}
		return string(b[i+4 : i+4+int(descsz)]), true
	}
}
