package kvapi

import (
	"encoding/binary"
	"errors"
)

// Hash is the hash hashstructure v2 (FormatV2, its default FNV-64) gives
// r, computed without reflection. hashstructure walks a []byte element by
// element through reflect, each byte its own FNV hash and ordered update:
// the properties' bytes were most of an application's revision hash.
// hashstructure calls it for a RawExtension (its Hashable), so the value
// must be exactly the walk's: the type name, then per field (Raw, Object)
// its name and value mixed in and the result hardened.
func (r RawExtension) Hash() (uint64, error) {
	if r.Object != nil {
		// KubeVela never sets it when it decodes JSON, nor does drydock.
		return 0, errors.New("RawExtension.Object is set: only a nil Object hashes as KubeVela's")
	}
	var raw uint64
	for _, c := range r.Raw {
		raw = hashOrdered(raw, fnv64([]byte{c}))
	}
	h := fnv64([]byte("RawExtension"))
	h ^= hashOrdered(fnv64([]byte("Raw")), raw)
	h = hashFinish(h)
	// A nil interface hashes as the int 0 (an int64 of eight zero bytes).
	h ^= hashOrdered(fnv64([]byte("Object")), fnv64(make([]byte, 8)))
	return hashFinish(h), nil
}

// fnv64 is FNV-1 64 (hash/fnv's New64, hashstructure's default) of b.
func fnv64(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h *= 1099511628211
		h ^= uint64(c)
	}
	return h
}

// hashOrdered is hashstructure's hashUpdateOrdered: the hash of a and b
// written little-endian.
func hashOrdered(a, b uint64) uint64 {
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], a)
	binary.LittleEndian.PutUint64(buf[8:], b)
	return fnv64(buf[:])
}

// hashFinish is hashstructure's hashFinishUnordered.
func hashFinish(a uint64) uint64 {
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], a)
	return fnv64(buf[:])
}
