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
// extended, another version, paths out of order) is ErrBadKnown.
func ParseKnown(data []byte) (Known, error) {
	n, _ := KnownLen(data)
	k := make(Known, n)
	if _, err := ParseKnownInto(data, k, nil); err != nil {
		return nil, err
	}
	return k, nil
}

// KnownLen is the number of files a marshalled Known says it holds, read
// from its header (false when data does not start like one).
func KnownLen(data []byte) (int, bool) {
	rest, ok := bytes.CutPrefix(data, []byte(knownMagic))
	if !ok {
		return 0, false
	}
	n, w := binary.Uvarint(rest)
	if w <= 0 || n > uint64(len(rest)) {
		return 0, false
	}
	return int(n), true
}

// ParseKnownInto is ParseKnown into k: it adds the files of data that
// keep accepts (nil: all) and returns how many, or ErrBadKnown and adds
// nothing. The paths are cut from one string of data: a record of
// thousands of files allocates once for them, not once a path. Marshal
// writes the paths sorted, so a path not after the one before (a
// duplicate) is not its. data is read twice, checked then added, rather
// than its files kept in a slice in between: that slice would be as
// large as the map's part of them, and garbage at once.
func ParseKnownInto(data []byte, k Known, keep func(p string) bool) (int, error) {
	if !bytes.HasPrefix(data, []byte(knownMagic)) {
		return 0, ErrBadKnown
	}
	if !readKnown(data, nil) {
		return 0, ErrBadKnown
	}
	added := 0
	readKnown(data, func(p string, f KnownFile) {
		if keep == nil || keep(p) {
			k[p] = f
			added++
		}
	})
	return added, nil
}

// readKnown reads the files of data, a marshalled Known (without checking
// its magic), and reports whether it reads whole. With add, each file is
// given to it, its path cut from one string of data (made at the first).
func readKnown(data []byte, add func(p string, f KnownFile)) bool {
	var text string
	r := knownReader{data: data[len(knownMagic):]}
	n := r.uvarint()
	if n > uint64(len(r.data)) { // every entry takes more than a byte
		return false
	}
	var last []byte
	for i := range n {
		size := int(min(r.uvarint(), uint64(len(r.data)+1)))
		at := len(data) - len(r.data)
		p := r.bytes(size)
		if r.bad || i > 0 && bytes.Compare(last, p) >= 0 {
			return false
		}
		last = p
		var f KnownFile
		f.File.Size, f.File.ModNs, f.File.ChangeNs = r.varint(), r.varint(), r.varint()
		f.File.Ino, f.File.Dev = r.uvarint(), r.uvarint()
		copy(f.Rendered[:], r.bytes(len(f.Rendered)))
		if r.bad {
			return false
		}
		if add != nil {
			if text == "" {
				text = string(data)
			}
			add(text[at:at+size], f)
		}
	}
	return !r.bad && len(r.data) == 0
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
