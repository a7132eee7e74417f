package tree

import (
	"bytes"
	"encoding/binary"
	"errors"
	"maps"
	"slices"
)

// Known is what comparisons found of a directory's files that were equal
// to their rendered files, by tree path: an Updater (or a golden
// comparison) given it does not read a file whose FileID and rendered
// object's digest are the ones recorded (PutDigest), and what it learned
// is the next one's. The caller keeps one Known per directory (and per
// way of comparing, such as a golden comparison's mask).
type Known map[string]KnownFile

// KnownFile is a golden file that compared equal to a rendered object.
type KnownFile struct {
	// File is the golden file's identity when it was read (never racy:
	// see FileID.Racy).
	File FileID
	// Rendered is the digest of the object it was equal to.
	Rendered Digest
}

// knownMagic starts a marshalled Known (and names its version).
const knownMagic = "drydock known files 1\n"

// ErrBadKnown is returned by ParseKnown for data that is not a marshalled
// Known.
var ErrBadKnown = errors.New("not a record of known files")

// Marshal encodes k (its paths sorted: equal records encode alike).
func (k Known) Marshal() []byte {
	b := append([]byte(knownMagic), binary.AppendUvarint(nil, uint64(len(k)))...)
	for _, p := range slices.Sorted(maps.Keys(k)) {
		f := k[p]
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
		b = binary.AppendVarint(b, f.File.Size)
		b = binary.AppendVarint(b, f.File.ModNs)
		b = binary.AppendVarint(b, f.File.ChangeNs)
		b = binary.AppendUvarint(b, f.File.Ino)
		b = binary.AppendUvarint(b, f.File.Dev)
		b = append(b, f.Rendered[:]...)
	}
	return b
}

// ParseKnown decodes what Marshal encoded; anything else (truncated,
// extended, another version) is ErrBadKnown.
func ParseKnown(data []byte) (Known, error) {
	r := knownReader{data: data}
	if !bytes.HasPrefix(data, []byte(knownMagic)) {
		return nil, ErrBadKnown
	}
	r.data = data[len(knownMagic):]
	n := r.uvarint()
	if n > uint64(len(r.data)) { // every entry takes more than a byte
		return nil, ErrBadKnown
	}
	k := make(Known, n)
	for range n {
		p := string(r.bytes(int(min(r.uvarint(), uint64(len(r.data)+1)))))
		var f KnownFile
		f.File.Size, f.File.ModNs, f.File.ChangeNs = r.varint(), r.varint(), r.varint()
		f.File.Ino, f.File.Dev = r.uvarint(), r.uvarint()
		copy(f.Rendered[:], r.bytes(len(f.Rendered)))
		if _, dup := k[p]; dup || r.bad {
			return nil, ErrBadKnown
		}
		k[p] = f
	}
	if r.bad || len(r.data) > 0 {
		return nil, ErrBadKnown
	}
	return k, nil
}

// knownReader reads a marshalled Known; bad says it was short.
type knownReader struct {
	data []byte
	bad  bool
}

func (r *knownReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.bad, r.data = true, nil
		return 0
	}
	r.data = r.data[n:]
	return v
}

func (r *knownReader) varint() int64 {
	v, n := binary.Varint(r.data)
	if n <= 0 {
		r.bad, r.data = true, nil
		return 0
	}
	r.data = r.data[n:]
	return v
}

func (r *knownReader) bytes(n int) []byte {
	if n > len(r.data) {
		r.bad, r.data = true, nil
		return nil
	}
	b := r.data[:n]
	r.data = r.data[n:]
	return b
}
