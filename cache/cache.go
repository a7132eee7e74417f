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
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash"
)

// Key identifies an entry: the SHA-256 of the parts it was built from.
type Key [sha256.Size]byte

// Hasher builds a Key from parts, each length-prefixed so that no two
// different sequences of parts give the same key.
type Hasher struct{ h hash.Hash }

// NewHasher returns a Hasher whose key starts from kind, the name of what
// is cached ("render", "golden"), so keys of different kinds never meet.
func NewHasher(kind string) *Hasher {
	h := &Hasher{h: sha256.New()}
	h.String(kind)
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
func (h *Hasher) String(s string) *Hasher { return h.Bytes([]byte(s)) }

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

// ErrNotImplemented is returned by the skeleton until the store lands.
var ErrNotImplemented = errors.New("cache: not implemented")

// Store is an open cache directory. A nil *Store is a store that holds
// nothing (--no-cache): Get always misses and Put does nothing. Its
// methods are safe for concurrent use.
type Store struct {
	opts Options
}

// Open opens (creating it when missing) the store in o.Dir.
func Open(o Options) (*Store, error) { return nil, ErrNotImplemented }

// DefaultDir is drydock's directory under the user's cache directory
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux).
func DefaultDir() (string, error) { return "", ErrNotImplemented }

// Get returns the entry of k, and false when there is none or it does
// not verify (it is then removed).
func (s *Store) Get(k Key) ([]byte, bool) { return nil, false }

// Put stores data as the entry of k. A failure to write is returned but
// is never a reason to fail a render: callers report it as a warning.
func (s *Store) Put(k Key, data []byte) error { return nil }

// Close evicts past the size cap and releases the store.
func (s *Store) Close() error { return nil }

// Stats counts what a store saw since it was opened.
type Stats struct {
	Hits, Misses, Puts, Corrupt, Evicted int
}

// Stats returns the counts so far.
func (s *Store) Stats() Stats { return Stats{} }

// BuildID identifies the running drydock build (the Go build ID of the
// executable), part of every key: a different build never reads another
// one's entries.
func BuildID() string { return "" }
