package pipeline

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
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
// (old) and what this one learned (now).
type knownInputs struct {
	store *cache.Store
	key   cache.Key
	// start is when the run began: a file whose times are not before it
	// (by tree.FileID.Racy's window) is not recorded.
	start time.Time
	old   map[string]*knownFile
	now   map[string]*knownFile
	// learned counts the files read and recorded anew.
	learned int
	// size is the old record's, apps the number of its Applications:
	// what the run's lists and the new record are sized for.
	size, apps int
	reserved   bool
}

// knownFile is an input file as a run read it.
type knownFile struct {
	id tree.FileID
	// display is its name in positions, walking whether a directory's
	// walk found it (documents without kind are then skipped).
	display string
	walking bool
	sum     [sha256.Size]byte
	docs    []docSum
	apps    []knownApp
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
	k := &knownInputs{store: in.Cache, key: h.Key(), start: start, now: map[string]*knownFile{}}
	if data, ok := in.Cache.Get(k.key); ok {
		k.old, _ = parseKnownInputs(data) // a record that does not read is none
		k.size = len(data)
		for _, f := range k.old {
			k.apps += len(f.apps)
		}
	}
	return k
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
	if id, ok := statID(abs); !ok || id != f.id {
		return nil
	}
	k.now[abs] = f
	return f
}

// reserve grows l's lists, once, for the files and Applications of the
// record: appended one by one, 10,000 of them would be copied about
// twice over, in memory the process touches for the first time.
func (k *knownInputs) reserve(l *loaded) {
	if k == nil || k.reserved {
		return
	}
	k.reserved = true
	l.sums = slices.Grow(l.sums, len(k.old))
	l.apps = slices.Grow(l.apps, k.apps)
}

// identify is the identity of the file at abs before it is read; false
// when it has none or it is racy (it is then not recorded).
func (k *knownInputs) identify(abs string) (tree.FileID, bool) {
	if k == nil {
		return tree.FileID{}, false
	}
	id, ok := statID(abs)
	return id, ok && !id.Racy(k.start)
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
	k.now[abs] = f
	k.learned++
}

// keep stores what this run learned, when it differs from the record.
func (k *knownInputs) keep() error {
	if k == nil || (k.learned == 0 && len(k.now) == len(k.old)) {
		return nil
	}
	return k.store.Put(k.key, k.marshal())
}

// apps are f's Applications as the sources of a run, read from path
// when they render.
func (f *knownFile) sources(path string) []appSource {
	out := make([]appSource, len(f.apps))
	lazy := &lazyApp{path: path, file: f}
	for i, a := range f.apps {
		out[i] = appSource{pos: a.pos, key: a.key, namePos: a.namePos, lazy: lazy}
	}
	return out
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
	e := &encoder{b: append(make([]byte, 0, k.size+k.size/8+1024), knownInputsMagic...)}
	e.uint(uint64(len(k.now)))
	for _, abs := range slices.Sorted(maps.Keys(k.now)) {
		f := k.now[abs]
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
func parseKnownInputs(data []byte) (m map[string]*knownFile, err error) {
	if len(data) < len(knownInputsMagic) || string(data[:len(knownInputsMagic)]) != knownInputsMagic {
		return nil, errors.New("not a record of known inputs")
	}
	d := newDecoder(data[len(knownInputsMagic):])
	defer func() {
		if recover() != nil {
			m, err = nil, errors.New("bad record of known inputs")
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
	m = make(map[string]*knownFile, n)
	for range n {
		abs := d.str()
		f := &knownFile{display: d.str(), walking: d.bool()}
		f.id.Size, f.id.ModNs, f.id.ChangeNs = int64(d.uint()), int64(d.uint()), int64(d.uint())
		f.id.Ino, f.id.Dev = d.uint(), d.uint()
		f.sum = sum()
		f.docs = make([]docSum, count())
		for i := range f.docs {
			f.docs[i].line = int(d.uint())
			f.docs[i].sum = sum()
		}
		f.apps = make([]knownApp, count())
		for i := range f.apps {
			a := &f.apps[i]
			for _, p := range []*manifest.Pos{&a.pos, &a.namePos} {
				p.File, p.Line, p.Col = d.str(), int(d.uint()), int(d.uint())
			}
			a.key = manifest.Key{Group: d.str(), Kind: d.str(), Namespace: d.str(), Name: d.str()}
		}
		if _, dup := m[abs]; dup || !filepath.IsAbs(abs) {
			panic("bad path")
		}
		m[abs] = f
	}
	if len(d.s) != 0 {
		panic("trailing bytes")
	}
	return m, nil
}
