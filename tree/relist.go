package tree

import (
	"encoding/binary"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// A warm comparison of a large golden directory changes the content of a
// few files, not which files there are. As git's untracked cache does, a
// listing records what it saw of the directory's structure (its shape:
// each directory's identity and times, the OwnershipFile's FileID) with
// what it found, and the next comparison (ListAgain) takes what it found
// without walking the directory or reading the OwnershipFile when the
// shape is as recorded. Creating, removing or renaming an entry (a swap
// to a symlink is one of these) changes its directory's modification and
// change times; an edit in place changes neither, nor the listing. As
// for a golden file's FileID, a shape whose times lie within the racy
// window of when it was seen (FileID.Racy) proves nothing: a change in
// the same clock tick could leave them as they were.
//
// What the listing found is recorded against the Known the comparison
// learned (its paths are listed files, most of them owned): the record
// holds only the listed files that Known does not name, the unowned
// (extra) ones, and a fingerprint of Known's paths, so that a Known that
// is not the one recorded (a part lost, another run's) is never taken
// for it.

// listShape is what a listing saw of the structure of its directory.
type listShape struct {
	// since is when the listing began.
	since time.Time
	// ownership is the OwnershipFile's FileID (hasOwnership false: there
	// was none).
	ownership    FileID
	hasOwnership bool
	// dirs are the directories listed ("." the root), each stat'ed before
	// its entries were read.
	dirs []shapeDir
	// links are the symbolic links the listing let be (neither .yaml
	// files nor leading to a directory): their targets can change with
	// no change of the directory, so they are checked again.
	links []string
	// bad says some identity could not be had: nothing is recorded.
	bad bool
}

// shapeDir is a listed directory (a tree path) and its identity.
type shapeDir struct {
	rel string
	id  FileID
}

// dirID is the FileID of the directory fi describes (false when fi is not
// one or the system gives no change time and inode).
func dirID(fi fs.FileInfo) (FileID, bool) {
	if fi == nil || !fi.IsDir() {
		return FileID{}, false
	}
	id, ok := sysID(fi)
	id.Size, id.ModNs = fi.Size(), fi.ModTime().UnixNano()
	return id, ok
}

// addDir records the directory at full (tree path rel), before its
// entries are read.
func (s *listShape) addDir(full, rel string) {
	fi, err := os.Lstat(full)
	id, ok := dirID(fi)
	if err != nil || !ok {
		s.bad = true
		return
	}
	s.dirs = append(s.dirs, shapeDir{rel: rel, id: id})
}

// racy reports whether a recorded identity lies within the racy window of
// since (see FileID.Racy).
func (s *listShape) racy() bool {
	if s.hasOwnership && s.ownership.Racy(s.since) {
		return true
	}
	for _, d := range s.dirs {
		if d.id.Racy(s.since) {
			return true
		}
	}
	return false
}

// unchanged reports whether the directory at root still has the shape s:
// every directory and the OwnershipFile as recorded and not racy, every
// link still not one the listing refuses.
func (s *listShape) unchanged(root string) bool {
	if s.bad || s.racy() {
		return false
	}
	fi, err := os.Lstat(filepath.Join(root, OwnershipFile))
	if s.hasOwnership {
		id, ok := StatID(fi)
		if err != nil || !ok || id != s.ownership {
			return false
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	for _, d := range s.dirs {
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(d.rel)))
		id, ok := dirID(fi)
		if err != nil || !ok || id != d.id {
			return false
		}
	}
	for _, rel := range s.links {
		full := filepath.Join(root, filepath.FromSlash(rel))
		if fi, err := os.Lstat(full); err != nil || fi.Mode()&fs.ModeSymlink == 0 || checkSymlink(full, rel, false) != nil {
			return false
		}
	}
	return true
}

// GivenPaths are the paths of a Known as it was given to a comparison that
// changes it in place (see golden.Comparer): Has reports whether it held p,
// All yields each path it held.
type GivenPaths struct {
	Has func(p string) bool
	All func(yield func(p string) bool)
}

// keySet is a fingerprint of a set of paths: their number and the sum and
// xor of their hashes (independent of the order they come in).
type keySet struct{ n, sum, xor uint64 }

// keysOf is the fingerprint of known's paths. It is taken of every warm
// comparison's Known (tens of thousands of paths): each is hashed eight
// bytes at a time.
func keysOf(known Known) keySet {
	var s keySet
	for p := range known {
		h := pathHash(p)
		s.n++
		s.sum += h
		s.xor ^= h
	}
	return s
}

// pathHash is a 64-bit hash of p (a multiply-xorshift of its 8-byte
// words, its length mixed in): not cryptographic, but two different paths
// agree by chance only.
func pathHash(p string) uint64 {
	const m = 0x9e3779b97f4a7c15
	h := uint64(len(p)) * m
	for ; len(p) >= 8; p = p[8:] {
		w := uint64(p[0]) | uint64(p[1])<<8 | uint64(p[2])<<16 | uint64(p[3])<<24 |
			uint64(p[4])<<32 | uint64(p[5])<<40 | uint64(p[6])<<48 | uint64(p[7])<<56
		h = (h ^ w) * m
		h ^= h >> 29
	}
	var w uint64
	for i := 0; i < len(p); i++ {
		w |= uint64(p[i]) << (8 * i)
	}
	h = (h ^ w ^ 0xff) * m
	h ^= h >> 32
	return h * m
}

// listRecordMagic starts a recorded listing (and names its version).
const listRecordMagic = "drydock listing 1\n"

// listRecord is a recorded listing: its directory (root), its shape, and
// what it found beside the paths of the Known it was recorded with (keys):
// the owned files Known does not name (true: there, false: listed in the
// OwnershipFile only) and the extra files (unowned, named by Known or not).
type listRecord struct {
	root  string
	shape listShape
	keys  keySet
	owned map[string]bool
	extra map[string]bool
}

// Record is what the listing found, for ListAgain to take again, recorded
// with known: the Known the comparison learned (every path of it a file
// the listing holds), as the next one will be given it. It is nil when
// the listing cannot be taken again: a missing directory, an identity not
// had, a directory or the OwnershipFile changed too recently to tell a
// later change (racy), or a path of known not listed.
func (l *Listing) Record(known Known) []byte {
	g := l.g
	if g == nil || g.shape.bad || g.shape.racy() {
		return nil
	}
	for p := range known {
		if !g.has(p) {
			return nil
		}
	}
	r := listRecord{root: g.root, shape: g.shape, keys: keysOf(known), owned: map[string]bool{}, extra: g.extra}
	g.eachOwned(func(p string, there bool) {
		if _, ok := known[p]; !ok || !there {
			r.owned[p] = there
		}
	})
	return r.marshal()
}

// eachOwned calls f with each file drydock owns that the listing knows of
// and whether it is there.
func (g *listedDir) eachOwned(f func(p string, there bool)) {
	for p, there := range g.owned.listed {
		f(p, there)
	}
	if g.given == nil || g.owned.listed == nil {
		return
	}
	g.given.All(func(p string) bool {
		if _, ok := g.owned.listed[p]; !ok && !g.extra[p] {
			f(p, true)
		}
		return true
	})
}

// ListAgain is List for a directory listed before (record, what the last
// listing's Record returned, may be nil), begun at since (when the
// comparison began, as its Known's racy files are told), given known, the Known of the
// comparison (as recorded), and given, its paths as given while the
// comparison changes it: when nothing in the directory's structure
// changed since the record and known's paths are the ones recorded, the
// listing is the recorded one, not walked again. Such a listing (the
// files it holds named by given) is for a comparison only, over which
// given keeps answering as known was given.
func ListAgain(dir string, since time.Time, record []byte, known Known, given GivenPaths) (*Listing, error) {
	done, err := completeInterrupted(dir)
	if err != nil {
		return nil, err
	}
	if len(done) == 0 && record != nil {
		if g := reuse(dir, record, known, given); g != nil {
			return &Listing{dir: dir, g: g}, nil
		}
	}
	return newListingSince(dir, done, since)
}

// TakenAgain reports whether the listing is the one recorded (ListAgain),
// not walked: its Record, with the Known it was given, is that record.
func (l *Listing) TakenAgain() bool { return l.g != nil && l.g.given != nil }

// reuse is the recorded listing of dir, nil when it does not hold.
func reuse(dir string, record []byte, known Known, given GivenPaths) *listedDir {
	r, ok := parseListRecord(record)
	if !ok {
		return nil
	}
	root, err := resolveRoot(dir)
	if err != nil || root != r.root || keysOf(known) != r.keys || !r.shape.unchanged(root) {
		return nil
	}
	g := &listedDir{root: root, extra: r.extra, shape: r.shape, given: &given}
	if r.shape.hasOwnership {
		g.owned.listed = r.owned
	}
	return g
}

func (r *listRecord) marshal() []byte {
	b := []byte(listRecordMagic)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	id := func(f FileID) {
		b = binary.AppendVarint(b, f.Size)
		b = binary.AppendVarint(b, f.ModNs)
		b = binary.AppendVarint(b, f.ChangeNs)
		b = binary.AppendUvarint(b, f.Ino)
		b = binary.AppendUvarint(b, f.Dev)
	}
	str(r.root)
	b = binary.AppendVarint(b, r.shape.since.UnixNano())
	if r.shape.hasOwnership {
		b = append(b, 1)
		id(r.shape.ownership)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(r.shape.dirs)))
	for _, d := range r.shape.dirs {
		str(d.rel)
		id(d.id)
	}
	b = binary.AppendUvarint(b, uint64(len(r.shape.links)))
	for _, l := range r.shape.links {
		str(l)
	}
	b = binary.AppendUvarint(b, r.keys.n)
	b = binary.AppendUvarint(b, r.keys.sum)
	b = binary.AppendUvarint(b, r.keys.xor)
	b = binary.AppendUvarint(b, uint64(len(r.owned)))
	for _, p := range slices.Sorted(maps.Keys(r.owned)) {
		str(p)
		if r.owned[p] {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(r.extra)))
	for _, p := range slices.Sorted(maps.Keys(r.extra)) {
		str(p)
	}
	return b
}

// parseListRecord decodes what marshal encoded; false for anything else
// (another version, truncated, extended, a path that is not valid).
func parseListRecord(data []byte) (listRecord, bool) {
	if len(data) < len(listRecordMagic) || string(data[:len(listRecordMagic)]) != listRecordMagic {
		return listRecord{}, false
	}
	rd := knownReader{data: string(data[len(listRecordMagic):])}
	count := func() int { // every item takes a byte at least
		return int(min(rd.uvarint(), uint64(len(rd.data)+1)))
	}
	str := func() string { return rd.bytes(count()) }
	flag := func() bool {
		b := rd.bytes(1)
		if len(b) == 1 && b[0] > 1 {
			rd.bad = true
		}
		return len(b) == 1 && b[0] == 1
	}
	id := func() FileID {
		var f FileID
		f.Size, f.ModNs, f.ChangeNs = rd.varint(), rd.varint(), rd.varint()
		f.Ino, f.Dev = rd.uvarint(), rd.uvarint()
		return f
	}
	var r listRecord
	r.root = str()
	r.shape.since = time.Unix(0, rd.varint())
	if r.shape.hasOwnership = flag(); r.shape.hasOwnership {
		r.shape.ownership = id()
	}
	for n := count(); n > 0 && !rd.bad; n-- {
		d := shapeDir{rel: str(), id: id()}
		r.shape.dirs = append(r.shape.dirs, d)
	}
	for n := count(); n > 0 && !rd.bad; n-- {
		r.shape.links = append(r.shape.links, str())
	}
	r.keys = keySet{n: rd.uvarint(), sum: rd.uvarint(), xor: rd.uvarint()}
	r.owned = map[string]bool{}
	for n := count(); n > 0 && !rd.bad; n-- {
		p := str()
		r.owned[p] = flag()
		if validPath(p, false) != nil {
			rd.bad = true
		}
	}
	r.extra = map[string]bool{}
	for n := count(); n > 0 && !rd.bad; n-- {
		p := str()
		r.extra[p] = true
		if validPath(p, false) != nil {
			rd.bad = true
		}
	}
	if rd.bad || len(rd.data) != 0 || r.root == "" || len(r.shape.dirs) == 0 {
		return listRecord{}, false
	}
	return r, true
}
