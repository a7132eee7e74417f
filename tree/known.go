package tree

import (
	"encoding/binary"
	"errors"
	"maps"
	"slices"
	"strings"
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
func KnownLen(data []byte) (int, bool) { return knownLen(string(data)) }

func knownLen(data string) (int, bool) {
	rest, ok := strings.CutPrefix(data, knownMagic)
	if !ok {
		return 0, false
	}
	r := knownReader{data: rest}
	n := r.uvarint()
	if r.bad || n > uint64(len(r.data)) {
		return 0, false
	}
	return int(n), true
}

// ParseKnownInto is ParseKnown into k: it adds the files of data that
// keep accepts (nil: all) and returns how many, or ErrBadKnown and adds
// nothing. The paths are cut from one string of data: a record of
// thousands of files allocates once for them, not once a path.
func ParseKnownInto(data []byte, k Known, keep func(p string) bool) (int, error) {
	return ParseKnownString(string(data), k, keep)
}

// KnownLenString is KnownLen of a record held as a string.
func KnownLenString(data string) (int, bool) { return knownLen(data) }

// ParseKnownString is ParseKnownInto for a record held as a string (a
// record mapped from the cache, cache.Store.GetString): the paths are
// cut from it, not copied. Marshal writes the paths sorted, so a path not
// after the one before (a duplicate) is not its. data is read twice,
// checked then added, rather than its files kept in a slice in between:
// that slice would be as large as the map's part of them, and garbage at
// once.
func ParseKnownString(data string, k Known, keep func(p string) bool) (int, error) {
	rest, ok := strings.CutPrefix(data, knownMagic)
	if !ok || !readKnown(rest, nil) {
		return 0, ErrBadKnown
	}
	added := 0
	readKnown(rest, func(p string, f KnownFile) {
		if keep == nil || keep(p) {
			k[p] = f
			added++
		}
	})
	return added, nil
}

// readKnown reads the files of data, a marshalled Known without its
// magic, and reports whether it reads whole; with add, each file is given
// to it, its path a part of data.
func readKnown(data string, add func(p string, f KnownFile)) bool {
	r := knownReader{data: data}
	n := r.uvarint()
	if n > uint64(len(r.data)) { // every entry takes more than a byte
		return false
	}
	var last string
	for i := range n {
		size := int(min(r.uvarint(), uint64(len(r.data)+1)))
		p := r.bytes(size)
		if r.bad || i > 0 && last >= p {
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
			add(p, f)
		}
	}
	return !r.bad && len(r.data) == 0
}

// knownReader reads a marshalled Known; bad says it was short.
type knownReader struct {
	data string
	bad  bool
}

// uvarint is binary.Uvarint of a string.
func (r *knownReader) uvarint() uint64 {
	var v uint64
	for i := 0; i < len(r.data) && i < binary.MaxVarintLen64; i++ {
		b := r.data[i]
		if i == binary.MaxVarintLen64-1 && b > 1 {
			break // overflows 64 bits
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			r.data = r.data[i+1:]
			return v
		}
	}
	r.bad, r.data = true, ""
	return 0
}

// varint is binary.Varint of a string.
func (r *knownReader) varint() int64 {
	ux := r.uvarint()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x
}

func (r *knownReader) bytes(n int) string {
	if n > len(r.data) {
		r.bad, r.data = true, ""
		return ""
	}
	b := r.data[:n]
	r.data = r.data[n:]
	return b
}
