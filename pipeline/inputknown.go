package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// Known inputs: what a run with a render cache learned of each input
// file that holds only Applications, kept in the cache for the next run
// of the same inputs. A file whose identity (tree.FileID: size, times,
// inode, device) is the one recorded, and was not racy when recorded
// (git's racy-clean rule), is neither read, hashed nor decoded again:
// its hash, its documents' hashes and its Applications' places and names
// are those recorded, enough to key their renders. An Application of
// such a file whose entry the cache lacks reads its file when it
// renders (appSource.lazy). Only the files of Inputs.Paths on the file
// system are known; a file that loads with an error, a note, or
// anything but Applications each alone in its document is always read.

// inputsFormat names the record's layout; part of its key.
const inputsFormat = "inputs/1"

// knownInputs is a run's record of its input files: the last run's
// (old), which of them this one found as recorded (knownFile.kept) and
// what it read and recorded anew (learned). The record kept next is the
// files kept and learned: it is not gathered in a map of its own unless
// it changed, and then only its changed parts.
type knownInputs struct {
	store *cache.Store
	key   cache.Key
	// start is when the run began: a file whose times are not before it
	// (by tree.FileID.Racy's window) is not recorded.
	start time.Time
	old   map[string]*knownFile
	// kept counts the files of old found as recorded.
	kept    int
	learned map[string]*knownFile
	// parts is how many parts the record had (0: none).
	parts int
	// apps is the number of the old record's Applications: what the
	// run's lists are sized for.
	apps     int
	reserved bool
	// dir stats the files of the directory last read.
	dir dirStat
}

// knownFile is an input file as a run read it.
type knownFile struct {
	id tree.FileID
	// display is its name in positions, walking whether a directory's
	// walk found it (documents without kind are then skipped).
	display string
	walking bool
	// kept marks a file of the last run's record found as recorded.
	kept bool
	sum  [sha256.Size]byte
	docs []docSum
	apps []knownApp
}

// knownApp is an Application of a known file: where it starts, its key
// and where it is named.
type knownApp struct {
	pos, namePos manifest.Pos
	key          manifest.Key
}

// lazyApp is where an Application of a known file is read from when it
// must render: its file (by path) and the file's hash as recorded.
type lazyApp struct {
	path string
	file *knownFile
}

// openKnownInputs reads the record of in's inputs (an empty one when the
// cache has none); nil when the run keeps no record: no cache, inputs
// not on the file system, or a run the cache does not serve.
func openKnownInputs(in *Inputs, start time.Time) *knownInputs {
	// A shard's run (Inputs.Select) scans every Application for what lets
	// it change another's objects (crossObject): a known file is not
	// decoded, so a shard reads them all.
	if !in.mayCache() || in.From != nil || in.Select != nil {
		return nil
	}
	h := cache.NewHasher(inputsFormat).String(cache.BuildID())
	wd, _ := os.Getwd()
	h.String(wd).String(fmt.Sprintf("fields=%v", in.FieldValidation))
	for _, list := range [][]string{in.Paths, in.Exclude, in.Skip} {
		h.String(fmt.Sprint(len(list)))
		for _, p := range list {
			h.String(p)
		}
	}
	k := &knownInputs{store: in.Cache, key: h.Key(), start: start}
	k.old, k.parts = loadKnownInputs(in.Cache, k.key)
	for _, f := range k.old {
		k.apps += len(f.apps)
	}
	return k
}

// The record is kept in parts by path (partOfInput), so that a run that
// read one file of 10,000 again rewrites only its part: at the record's
// key a header names how many parts there are (inputParts of its size).
// Any part, however old, says only true things (a file with that
// identity holds those bytes): one missing or that does not read is
// empty, its files read again.

// inputPartsHeader starts the header.
const inputPartsHeader = "drydock known inputs parts 1\n"

// inputPartSize is about how many files a part holds; a record has at
// most maxInputParts.
const (
	inputPartSize = 512
	maxInputParts = cache.MaxParts
)

// inputParts is how many parts a record of n files has: a power of two.
func inputParts(n int) int { return cache.PartsFor(n, inputPartSize) }

// readPartsHeader is the number of parts a record's header b (magic and
// the number as a uvarint) names; false when it does not read.
func readPartsHeader(magic string, b []byte) (int, bool) {
	rest, ok := bytes.CutPrefix(b, []byte(magic))
	if !ok {
		return 0, false
	}
	n, w := binary.Uvarint(rest)
	if w <= 0 || w != len(rest) || !cache.ValidParts(n) {
		return 0, false
	}
	return int(n), true
}

// loadKnownInputs reads the record at key, and in how many parts it is
// (nil, 0: none, or a header that does not read). A file in a part it
// does not belong to is left out.
func loadKnownInputs(s *cache.Store, key cache.Key) (map[string]*knownFile, int) {
	data, ok := s.Get(key)
	if !ok {
		return nil, 0
	}
	parts, ok := readPartsHeader(inputPartsHeader, data)
	if !ok {
		return nil, 0
	}
	// The parts are parsed first and then gathered in a map sized for
	// them all: ~10,000 files added to a growing map cost it copied over
	// and over. They are mapped, not read (cache.Store.GetString): the
	// record's strings are parts of them, and ~2 MB of a 10,000-file
	// record read would be as many fresh pages of the heap to touch.
	files := make([][]knownEntry, parts)
	n := 0
	for i := range parts {
		data, ok := s.GetString(cache.PartKey(inputsFormat, key, parts, i))
		if !ok {
			continue
		}
		list, err := parseKnownEntries(data)
		if err != nil {
			continue
		}
		files[i] = list
		n += len(list)
	}
	old := make(map[string]*knownFile, n)
	for i, list := range files {
		for _, e := range list {
			if cache.PartOf(e.abs, parts) == i {
				old[e.abs] = e.file
			}
		}
	}
	return old, parts
}

// reuse returns the record of the file at abs (shown as display) when
// its identity is the one recorded, nil when it must be read.
func (k *knownInputs) reuse(abs, display string, walking bool) *knownFile {
	if k == nil {
		return nil
	}
	f := k.old[abs]
	if f == nil || f.display != display || f.walking != walking {
		return nil
	}
	if id, ok := k.dir.stat(abs); !ok || id != f.id {
		return nil
	}
	k.keep1(f)
	return f
}

// keep1 keeps f, a file of the last run's record found as recorded.
func (k *knownInputs) keep1(f *knownFile) {
	if !f.kept {
		f.kept = true
		k.kept++
	}
}

// record records f, read anew at abs.
func (k *knownInputs) record(abs string, f *knownFile) {
	if k.learned == nil {
		k.learned = map[string]*knownFile{}
	}
	k.learned[abs] = f
}

// reserve grows l's lists and sizes its map of files read, once, for
// the files and Applications of the record: appended one by one, 10,000
// of them would be copied about twice over, in memory the process
// touches for the first time.
func (k *knownInputs) reserve(l *loaded) {
	if k == nil || k.reserved {
		return
	}
	k.reserved = true
	l.sums = slices.Grow(l.sums, len(k.old))
	l.apps = slices.Grow(l.apps, k.apps)
	if l.read == nil {
		l.read = make(map[string]bool, len(k.old))
	}
}

// identify is the identity of the file at abs before it is read; false
// when it has none or it is racy (it is then not recorded).
func (k *knownInputs) identify(abs string) (tree.FileID, bool) {
	if k == nil {
		return tree.FileID{}, false
	}
	id, ok := k.dir.stat(abs)
	return id, ok && !id.Racy(k.start)
}

// done releases what reading the inputs held open (the directory of
// dirStat).
func (k *knownInputs) done() {
	if k != nil {
		k.dir.close()
	}
}

// learn records the file at abs, read with identity id, as it loaded:
// sum is its fileSum, apps the Applications it added.
func (k *knownInputs) learn(abs string, id tree.FileID, display string, walking bool, sum fileSum, apps []appSource) {
	f := &knownFile{id: id, display: display, walking: walking, sum: sum.sum, docs: sum.docs}
	for _, a := range apps {
		if a.doc == nil || a.err != nil || a.app != nil {
			return // not alone in its document: it cannot be keyed without it
		}
		f.apps = append(f.apps, knownApp{pos: a.pos, namePos: a.namePos, key: a.key})
	}
	k.record(abs, f)
}

// keep stores what this run learned, when it differs from the record.
func (k *knownInputs) keep() error {
	if k == nil || (len(k.learned) == 0 && k.kept == len(k.old)) {
		return nil
	}
	// The record now: the files kept that were not read anew, and those
	// learned.
	total := len(k.learned) + k.kept
	for abs := range k.learned {
		if f := k.old[abs]; f != nil && f.kept {
			total--
		}
	}
	n := inputParts(total)
	// A part changed when a file of it was learned, or a file of the
	// old record was not kept (or was read anew); all of them when n is
	// new. Only the changed parts are gathered.
	changed := make([]bool, n)
	for i := range changed {
		changed[i] = k.parts != n
	}
	for abs := range k.learned {
		changed[cache.PartOf(abs, n)] = true
	}
	for abs, f := range k.old {
		if !f.kept {
			changed[cache.PartOf(abs, n)] = true
		}
	}
	parts := make([]map[string]*knownFile, n)
	add := func(abs string, f *knownFile) {
		i := cache.PartOf(abs, n)
		if !changed[i] {
			return
		}
		if parts[i] == nil {
			parts[i] = map[string]*knownFile{}
		}
		parts[i][abs] = f
	}
	for abs, f := range k.old {
		if _, again := k.learned[abs]; f.kept && !again {
			add(abs, f)
		}
	}
	for abs, f := range k.learned {
		add(abs, f)
	}
	for i := range n {
		if !changed[i] {
			continue
		}
		if err := k.store.Put(cache.PartKey(inputsFormat, k.key, n, i), marshalKnownInputs(parts[i])); err != nil {
			return err
		}
	}
	if k.parts == n {
		return nil
	}
	e := &encoder{b: []byte(inputPartsHeader)}
	e.uint(uint64(n))
	return k.store.Put(k.key, e.b)
}

// appendSources appends f's Applications to apps as the sources of a
// run, read from path when they render.
func (f *knownFile) appendSources(apps []appSource, path string) []appSource {
	lazy := &lazyApp{path: path, file: f}
	for _, a := range f.apps {
		apps = append(apps, appSource{pos: a.pos, key: a.key, namePos: a.namePos, lazy: lazy})
	}
	return apps
}

// errInputChanged is a known file whose bytes are no longer those
// recorded when an Application of it renders.
var errInputChanged = errors.New("changed while drydock ran: run again")

// load reads the Application at pos from its file, which must still be
// as recorded.
func (z *lazyApp) load(pos manifest.Pos) (appSource, error) {
	data, err := manifest.ReadFile(z.path)
	if err != nil {
		return appSource{}, inputError(err)
	}
	if sha256.Sum256(data) != z.file.sum {
		return appSource{}, inputError(fmt.Errorf("%s: %w", z.file.display, errInputChanged))
	}
	l := loaded{walking: z.file.walking}
	if err := l.addFile(z.file.display, data, false); err != nil {
		return appSource{}, err
	}
	for _, a := range l.apps {
		if a.pos == pos {
			return a, nil
		}
	}
	return appSource{}, inputError(fmt.Errorf("%s: %w", pos, errInputChanged))
}

// knownMagic starts a marshalled record.
const knownInputsMagic = "drydock known inputs 1\n"

func (k *knownInputs) marshal() []byte {
	now := map[string]*knownFile{}
	maps.Copy(now, k.learned)
	for abs, f := range k.old {
		if _, again := now[abs]; f.kept && !again {
			now[abs] = f
		}
	}
	return marshalKnownInputs(now)
}

// marshalKnownInputs encodes files (a part of the record).
func marshalKnownInputs(files map[string]*knownFile) []byte {
	e := &encoder{b: []byte(knownInputsMagic)}
	e.uint(uint64(len(files)))
	for _, abs := range slices.Sorted(maps.Keys(files)) {
		f := files[abs]
		e.str(abs)
		e.str(f.display)
		e.bool(f.walking)
		for _, n := range []int64{f.id.Size, f.id.ModNs, f.id.ChangeNs, int64(f.id.Ino), int64(f.id.Dev)} {
			e.uint(uint64(n))
		}
		e.b = append(e.b, f.sum[:]...)
		e.uint(uint64(len(f.docs)))
		for _, d := range f.docs {
			e.uint(uint64(d.line))
			e.b = append(e.b, d.sum[:]...)
		}
		e.uint(uint64(len(f.apps)))
		for _, a := range f.apps {
			for _, p := range []manifest.Pos{a.pos, a.namePos} {
				e.str(p.File)
				e.uint(uint64(p.Line))
				e.uint(uint64(p.Col))
			}
			e.str(a.key.Group)
			e.str(a.key.Kind)
			e.str(a.key.Namespace)
			e.str(a.key.Name)
		}
	}
	return e.b
}

// parseKnownInputs reverses marshal.
func parseKnownInputs(data []byte) (map[string]*knownFile, error) {
	list, err := parseKnownEntries(string(data))
	if err != nil {
		return nil, err
	}
	m := make(map[string]*knownFile, len(list))
	for _, e := range list {
		m[e.abs] = e.file
	}
	return m, nil
}

// knownEntry is a file of a marshalled record.
type knownEntry struct {
	abs  string
	file *knownFile
}

// parseKnownEntries reverses marshal, in the record's order (ascending
// paths). The files, their documents and their Applications are
// allocated a slab each for the record, and its strings are parts of
// data: a record of 10,000 files is otherwise some 40,000 allocations.
func parseKnownEntries(data string) (list []knownEntry, err error) {
	rest, ok := strings.CutPrefix(data, knownInputsMagic)
	if !ok {
		return nil, errors.New("not a record of known inputs")
	}
	d := &decoder{s: rest}
	defer func() {
		if recover() != nil {
			list, err = nil, errors.New("bad record of known inputs")
		}
	}()
	sum := func() (s [sha256.Size]byte) {
		copy(s[:], d.bytes(sha256.Size))
		return s
	}
	count := func() int {
		n := d.uint()
		if n > uint64(len(d.s)) {
			panic("bad count")
		}
		return int(n)
	}
	n := count()
	list = make([]knownEntry, n)
	files := make([]knownFile, n)
	// Most files are one document, one Application.
	docs := make([]docSum, 0, n)
	apps := make([]knownApp, 0, n)
	for i := range n {
		abs := d.str()
		if !filepath.IsAbs(abs) || (i > 0 && abs <= list[i-1].abs) {
			panic("bad path") // marshal writes them ascending: none twice
		}
		f := &files[i]
		f.display, f.walking = d.str(), d.bool()
		f.id.Size, f.id.ModNs, f.id.ChangeNs = int64(d.uint()), int64(d.uint()), int64(d.uint())
		f.id.Ino, f.id.Dev = d.uint(), d.uint()
		f.sum = sum()
		start := len(docs)
		for range count() {
			docs = append(docs, docSum{line: int(d.uint()), sum: sum()})
		}
		f.docs = docs[start:len(docs):len(docs)]
		start = len(apps)
		for range count() {
			var a knownApp
			a.pos = manifest.Pos{File: d.str(), Line: int(d.uint()), Col: int(d.uint())}
			a.namePos = manifest.Pos{File: d.str(), Line: int(d.uint()), Col: int(d.uint())}
			a.key = manifest.Key{Group: d.str(), Kind: d.str(), Namespace: d.str(), Name: d.str()}
			apps = append(apps, a)
		}
		f.apps = apps[start:len(apps):len(apps)]
		list[i] = knownEntry{abs: abs, file: f}
	}
	if len(d.s) != 0 {
		panic("trailing bytes")
	}
	return list, nil
}
