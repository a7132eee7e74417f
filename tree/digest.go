package tree

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"slices"
	"sync"

	"github.com/drydock-dev/drydock/manifest"
)

// Digest identifies an object's canonical file (Encode) without encoding
// it: two objects with the same digest encode to the same bytes. It is a
// hash of the object's data itself (each value with its type, map keys
// sorted), a few times cheaper than the encoding; objects that encode
// alike may still have different digests (1 and 1.0), which only costs a
// comparison.
type Digest [sha256.Size]byte

// digestBuf is the serialisation a Digest hashes, kept between calls.
var digestBuf = sync.Pool{New: func() any { return new([]byte) }}

// DigestOf returns obj's Digest; false when its data holds a value Encode
// does not know directly (it has none then).
func DigestOf(obj *manifest.Object) (Digest, bool) {
	bp := digestBuf.Get().(*[]byte)
	defer digestBuf.Put(bp)
	b, ok := appendValue((*bp)[:0], obj.Data)
	*bp = b
	if !ok {
		return Digest{}, false
	}
	return sha256.Sum256(b), true
}

// appendValue appends v's serialisation: a type tag, then the value, every
// variable-length part prefixed with its length, so that no two values
// serialise alike.
func appendValue(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, 'z'), true
	case bool:
		if x {
			return append(b, 't'), true
		}
		return append(b, 'f'), true
	case string:
		return appendString(append(b, 's'), x), true
	case int:
		return binary.LittleEndian.AppendUint64(append(b, 'i'), uint64(x)), true
	case int64:
		return binary.LittleEndian.AppendUint64(append(b, 'i'), uint64(x)), true
	case float64:
		return binary.LittleEndian.AppendUint64(append(b, 'd'), math.Float64bits(x)), true
	case []any:
		if x == nil {
			return append(b, 'z'), true
		}
		b = binary.AppendUvarint(append(b, 'l'), uint64(len(x)))
		for _, e := range x {
			var ok bool
			if b, ok = appendValue(b, e); !ok {
				return b, false
			}
		}
		return b, true
	case map[string]any:
		return appendMap(b, x)
	}
	return b, false
}

// appendMap appends a map's entries in key order.
func appendMap(b []byte, m map[string]any) ([]byte, bool) {
	if m == nil {
		return append(b, 'z'), true
	}
	var small [16]string // most objects' maps: no allocation
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = binary.AppendUvarint(append(b, 'm'), uint64(len(m)))
	for _, k := range keys {
		b = appendString(b, k)
		var ok bool
		if b, ok = appendValue(b, m[k]); !ok {
			return b, false
		}
	}
	return b, true
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}
