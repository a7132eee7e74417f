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
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Key identifies an entry: the SHA-256 of the parts it was built from.
type Key [sha256.Size]byte

// String is the key in hex, the entry's file name.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Hasher builds a Key from parts, each length-prefixed so that no two
// different sequences of parts give the same key.
type Hasher struct{ h hash.Hash }

// NewHasher returns a Hasher whose key starts from kind, the name of what
// is cached ("render", "golden"), and from drydock's build (BuildID), so
// keys of different kinds or builds never meet.
func NewHasher(kind string) *Hasher {
	h := &Hasher{h: sha256.New()}
	h.String(kind)
	h.String(BuildID())
	return h
}

// Bytes adds a part.
func (h *Hasher) Bytes(b []byte) *Hasher {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	h.h.Write(n[:])
	h.h.Write(b)
	return h
}

// String adds a part.
func (h *Hasher) String(s string) *Hasher {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
	h.h.Write(n[:])
	h.h.Write([]byte(s))
	return h
}

// Int adds a number.
func (h *Hasher) Int(i int64) *Hasher {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(i))
	return h.Bytes(n[:])
}

// Key returns the key of the parts added so far.
func (h *Hasher) Key() Key {
	var k Key
	h.h.Sum(k[:0])
	return k
}

// Options say where the store is and how large it may grow.
type Options struct {
	// Dir is the store's directory, created when missing.
	Dir string
	// MaxBytes caps the size of the entries; past it the least recently
	// used are removed (0: DefaultMaxBytes).
	MaxBytes int64
}

// DefaultMaxBytes is the store's size cap when Options gives none.
const DefaultMaxBytes = 1 << 30

// version names the layout of the store's directory and of its entries:
// a new layout is a new subdirectory, never a misread entry.
const version = "v1"

// magic starts every entry; then the length of the data (8 bytes,
// little-endian), its SHA-256, and the data.
var magic = []byte("drydock-cache\x00v1\x00")

var headerSize = len(magic) + 8 + sha256.Size

// touchAfter: a hit marks its entry used (its modification time, what
// eviction orders by) only when the mark is older than this, so that a
// warm run does not write the times of every entry it reads.
const touchAfter = time.Hour

// tmpPrefix starts the names of entries being written; eviction removes
// those a killed process left behind.
const tmpPrefix = ".tmp-"

// ledger is the file each process that wrote entries appends its byte
// count to: when the sum passes an eighth of the cap, the next Close
// walks the store and evicts.
const ledger = "written"

// Store is an open cache directory. A nil *Store is a store that holds
// nothing (--no-cache): Get always misses and Put does nothing. Its
// methods are safe for concurrent use.
type Store struct {
	dir string
	max int64

	hits, misses, puts, corrupt, evicted atomic.Int64
	written                              atomic.Int64
	mu                                   sync.Mutex
	closed                               bool
}

// Open opens (creating it when missing) the store in o.Dir.
func Open(o Options) (*Store, error) {
	if o.Dir == "" {
		return nil, errors.New("cache: no directory")
	}
	dir := filepath.Join(o.Dir, version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("cache: %s is not a directory", dir)
	}
	max := o.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	return &Store{dir: dir, max: max}, nil
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

// Dir is the directory the entries are in.
func (s *Store) Dir() string {
	if s == nil {
		return ""
	}
	return s.dir
}

func (s *Store) path(k Key) string {
	name := k.String()
	return filepath.Join(s.dir, name[:2], name[2:])
}

// Get returns the entry of k, and false when there is none or it does
// not verify (it is then removed).
func (s *Store) Get(k Key) ([]byte, bool) {
	if s == nil {
		return nil, false
	}
	p := s.path(k)
	raw, mtime, err := readEntry(p)
	if err != nil {
		s.misses.Add(1)
		return nil, false
	}
	data, ok := decode(raw)
	if !ok {
		s.corrupt.Add(1)
		s.misses.Add(1)
		_ = os.Remove(p)
		return nil, false
	}
	s.hits.Add(1)
	if time.Since(mtime) > touchAfter {
		now := time.Now()
		_ = os.Chtimes(p, now, now)
	}
	return data, true
}

// readEntry reads the file at p with one open and one stat.
func readEntry(p string) ([]byte, time.Time, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, time.Time{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, time.Time{}, err
	}
	buf := make([]byte, fi.Size()+1) // +1: a file that grew reads long
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, time.Time{}, err
	}
	return buf[:n], fi.ModTime(), nil
}

// decode verifies an entry and returns its data.
func decode(raw []byte) ([]byte, bool) {
	if len(raw) < headerSize || !bytes.Equal(raw[:len(magic)], magic) {
		return nil, false
	}
	n := binary.LittleEndian.Uint64(raw[len(magic):])
	data := raw[headerSize:]
	if uint64(len(data)) != n {
		return nil, false
	}
	sum := sha256.Sum256(data)
	if !bytes.Equal(sum[:], raw[len(magic)+8:headerSize]) {
		return nil, false
	}
	return data, true
}

// encode is data with its header.
func encode(data []byte) []byte {
	out := make([]byte, 0, headerSize+len(data))
	out = append(out, magic...)
	out = binary.LittleEndian.AppendUint64(out, uint64(len(data)))
	sum := sha256.Sum256(data)
	out = append(out, sum[:]...)
	return append(out, data...)
}

// Put stores data as the entry of k: written to a temporary file beside
// it and renamed into place, so that a reader sees the whole entry or
// none. A failure to write is returned but is never a reason to fail a
// render: callers report it as a warning.
func (s *Store) Put(k Key, data []byte) error {
	if s == nil {
		return nil
	}
	p := s.path(k)
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	f, err := os.CreateTemp(dir, tmpPrefix)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	entry := encode(data)
	_, werr := f.Write(entry)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("cache: %w", err)
	}
	if err := os.Rename(f.Name(), p); err != nil {
		_ = os.Remove(f.Name())
		return fmt.Errorf("cache: %w", err)
	}
	s.puts.Add(1)
	s.written.Add(int64(len(entry)))
	return nil
}

// Close records what this process wrote and, once the store has grown
// by an eighth of its cap since the last look, evicts the least recently
// used entries until it is under the cap. Close is idempotent.
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
	written := s.written.Load()
	if written == 0 {
		return nil
	}
	total, err := s.record(written)
	if err != nil {
		return err
	}
	if total < s.max/8 {
		return nil
	}
	// The ledger restarts before the walk: a concurrent writer's bytes
	// are counted again by the next one at worst.
	if err := os.Remove(filepath.Join(s.dir, ledger)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cache: %w", err)
	}
	return s.Evict()
}

// record appends written to the ledger and returns the ledger's sum.
func (s *Store) record(written int64) (int64, error) {
	p := filepath.Join(s.dir, ledger)
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return 0, fmt.Errorf("cache: %w", err)
	}
	_, werr := f.WriteString(strconv.FormatInt(written, 10) + "\n")
	if err := errors.Join(werr, f.Close()); err != nil {
		return 0, fmt.Errorf("cache: %w", err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return 0, fmt.Errorf("cache: %w", err)
	}
	var total int64
	for line := range strings.Lines(string(data)) {
		n, err := strconv.ParseInt(strings.TrimSpace(line), 10, 64)
		if err == nil && n > 0 {
			total += n
		}
	}
	return total, nil
}

// Evict removes the least recently used entries (by modification time,
// which a hit renews) until the store is under its cap, and the
// temporary files of writers that died over an hour ago. Only files
// named as entries are removed: nothing else in the directory is
// touched.
func (s *Store) Evict() error {
	if s == nil {
		return nil
	}
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var entries []entry
	var total int64
	stale := time.Now().Add(-time.Hour)
	shards, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	for _, sh := range shards {
		if !sh.IsDir() || len(sh.Name()) != 2 || !isHex(sh.Name()) {
			continue
		}
		dir := filepath.Join(s.dir, sh.Name())
		files, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, f := range files {
			info, err := f.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			p := filepath.Join(dir, f.Name())
			switch {
			case strings.HasPrefix(f.Name(), tmpPrefix):
				if info.ModTime().Before(stale) {
					_ = os.Remove(p)
				}
			case len(f.Name()) == 2*sha256.Size-2 && isHex(f.Name()):
				entries = append(entries, entry{p, info.Size(), info.ModTime()})
				total += info.Size()
			}
		}
	}
	if total <= s.max {
		return nil
	}
	sort.Slice(entries, func(i, j int) bool {
		if !entries[i].used.Equal(entries[j].used) {
			return entries[i].used.Before(entries[j].used)
		}
		return entries[i].path < entries[j].path
	})
	for _, e := range entries {
		if total <= s.max {
			break
		}
		if err := os.Remove(e.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= e.size
			s.evicted.Add(1)
		}
	}
	return nil
}

func isHex(s string) bool {
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Stats counts what a store saw since it was opened.
type Stats struct {
	Hits, Misses, Puts, Corrupt, Evicted int
}

// Stats returns the counts so far.
func (s *Store) Stats() Stats {
	if s == nil {
		return Stats{}
	}
	return Stats{Hits: int(s.hits.Load()), Misses: int(s.misses.Load()), Puts: int(s.puts.Load()), Corrupt: int(s.corrupt.Load()), Evicted: int(s.evicted.Load())}
}

var buildID = sync.OnceValue(readBuildID)

// BuildID identifies the running drydock build, part of every key: a
// different build never reads another one's entries. It is the Go build
// ID of the executable (a hash of everything it was built from, `go tool
// buildid`), read from the first pages of the file; a binary built
// without one (-ldflags=-buildid=) is identified by its module build
// information, size and modification time instead.
func BuildID() string { return buildID() }

// readSize is how much of the executable readBuildID reads: the Go build
// ID note is in its first pages (cmd/internal/buildid reads 32 KiB too).
const readSize = 32 << 10

func readBuildID() string {
	exe, err := os.Executable()
	if err != nil {
		return fallbackID("", nil)
	}
	f, err := os.Open(exe)
	if err != nil {
		return fallbackID(exe, nil)
	}
	defer f.Close()
	buf := make([]byte, readSize)
	n, _ := f.ReadAt(buf, 0)
	if id := findBuildID(buf[:n]); id != "" {
		return "go:" + id
	}
	fi, _ := f.Stat()
	return fallbackID(exe, fi)
}

// findBuildID finds the Go build ID in the start of an executable: the
// ELF note (name "Go", type 4), or the "\xff Go build ID: \"...\""
// string other formats carry at the start of their text.
func findBuildID(b []byte) string {
	if i := bytes.Index(b, []byte("\xff Go build ID: \"")); i >= 0 {
		rest := b[i+len("\xff Go build ID: \""):]
		if j := bytes.Index(rest, []byte("\"\n \xff")); j > 0 {
			return string(rest[:j])
		}
	}
	// An ELF note: namesz 4, descsz, type 4, "Go\x00\x00", desc.
	note := []byte("\x04\x00\x00\x00Go\x00\x00")
	for off := 0; ; {
		i := bytes.Index(b[off:], note)
		if i < 0 {
			return ""
		}
		i += off
		off = i + 1
		if i < 8 || binary.LittleEndian.Uint32(b[i-8:]) != 4 {
			continue
		}
		size := int(binary.LittleEndian.Uint32(b[i-4:]))
		start := i + len(note)
		if size <= 0 || size > 1024 || start+size > len(b) {
			continue
		}
		if id := b[start : start+size]; bytes.IndexByte(id, '/') > 0 {
			return string(id)
		}
	}
}

// fallbackID identifies a build without a Go build ID.
func fallbackID(exe string, fi fs.FileInfo) string {
	h := sha256.New()
	if bi, ok := debug.ReadBuildInfo(); ok {
		h.Write([]byte(bi.String()))
	}
	h.Write([]byte(exe))
	if fi != nil {
		fmt.Fprintf(h, "%d %d", fi.Size(), fi.ModTime().UnixNano())
	}
	return "exe:" + hex.EncodeToString(h.Sum(nil))
}
