package golden

import (
	"bytes"
	"slices"
	"time"

	"github.com/drydock-dev/drydock/tree"
)

// Comparer compares a tree with a golden directory file by file, for a
// tree too large to hold in memory; Compare is a Comparer given a whole
// tree. It lists the golden directory when made and reads each golden
// file when the rendered file of its path is Put; it holds only the
// paths and the diffs of changed files. A Comparer is not safe for
// concurrent use.
type Comparer struct {
	// Mask, when set, rewrites a file (its tree path and canonical
	// bytes) before the comparison, on both sides: what it leaves out
	// (fields a project does not pin) neither differs nor shows in the
	// diff.
	Mask func(p string, data []byte) []byte
	// Known, when set, are the golden files an earlier comparison with
	// the same Mask found equal to their rendered files: PutDigest does
	// not read them again while they and the rendered objects are as
	// they were. The Comparer takes the map over: from the first Put it
	// changes it in place into what it learns (Learned returns it).
	Known tree.Known

	// Start is when the comparison began (NewComparer sets it): a golden
	// file changed since, or just before (tree.FileID.Racy), could change
	// again unseen, and is not Learned.
	Start time.Time

	list *tree.Listing
	// listed is the record the listing was given (see Listed).
	listed []byte
	// Known becomes what the comparison learned, changed in place (no
	// copy of a 20,000-file record per run): prior holds what it held
	// of each path changed, as given; given is its length as given.
	prior   map[string]priorFile
	given   int
	dropped bool
	// paths are the rendered paths. state is the comparison of those
	// Known did not vouch for; hits counts the others (unchanged, not
	// read). putKnown counts the paths of Known that were Put: Learned
	// drops the others.
	paths    *tree.PathSet
	state    map[string]fileState
	hits     int
	putKnown int
	begun    bool
}

// priorFile is what Known held of a path before the comparison changed it.
type priorFile struct {
	f  tree.KnownFile
	ok bool
}

// fileState is how a rendered file compares with its golden file.
type fileState struct {
	kind int8 // added, changed or unchanged
	diff string
}

const (
	added int8 = iota
	changed
	unchanged
)

// NewComparer lists the golden directory dir with tree.List (a missing
// dir is an empty golden tree); dir must not hold symlinked directories
// or symlinked .yaml files (errors wrap tree.ErrInvalidPath). An update
// of dir that was killed is completed first (see tree.JournalFile), so
// the comparison sees whole trees; Report.Leftovers says so.
func NewComparer(dir string) (*Comparer, error) {
	return NewComparerKnown(dir, time.Now(), nil, nil)
}

// NewComparerKnown is NewComparer begun at start (Start) and given Known
// (which must not be replaced later) and listed, what the last
// comparison's Listed returned (nil: nothing): when nothing in the golden
// directory's structure changed since, and known's paths are the ones
// Listed was made with, the directory is not listed again (see
// tree.ListAgain).
func NewComparerKnown(dir string, start time.Time, known tree.Known, listed []byte) (*Comparer, error) {
	c := &Comparer{Known: known, Start: start, listed: listed, paths: tree.NewPathSet(true), state: map[string]fileState{}, prior: map[string]priorFile{}}
	var err error
	c.list, err = tree.ListAgain(dir, start, listed, known, tree.GivenPaths{Has: c.givenHas, All: c.givenAll})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// givenHas reports whether Known as given held p (see vouched).
func (c *Comparer) givenHas(p string) bool {
	_, ok := c.vouched(p)
	return ok
}

// givenAll yields the paths of Known as given.
func (c *Comparer) givenAll(yield func(p string) bool) {
	for p := range c.Known {
		if _, changed := c.prior[p]; !changed && !yield(p) {
			return
		}
	}
	for p, w := range c.prior {
		if w.ok && !yield(p) {
			return
		}
	}
}

// Listed is what the comparison's listing found, recorded with Learned
// for the next comparison (NewComparerKnown given Learned); nil when it
// cannot be taken again (see tree.Listing.Record). Call it after Report.
func (c *Comparer) Listed() []byte {
	c.dropUnput()
	if c.list.TakenAgain() && !c.pathsChanged() {
		return c.listed // the same listing with the same paths of Known: the same record
	}
	return c.list.Record(c.Known)
}

// pathsChanged reports whether Known's paths are not the ones it was
// given (its files' identities aside).
func (c *Comparer) pathsChanged() bool {
	for p, w := range c.prior {
		if _, ok := c.Known[p]; ok != w.ok {
			return true
		}
	}
	return false
}

// begin takes Known over at the first Put (Known is set after
// NewComparer), and counts a Put of p: it reports whether p was Put
// before (a second Put replaces the first: what the first counted is
// undone, so that p counts once, as a hit of Known or by its state) and,
// at p's first Put, what Known holds of it (one lookup of 20,000 paths
// serves both: vouched is for a Put again).
func (c *Comparer) begin(p string) (again bool, f tree.KnownFile, known bool) {
	c.start()
	if !c.paths.Has(p) {
		if f, known = c.Known[p]; known {
			c.putKnown++
		}
		return false, f, known
	}
	if _, ok := c.state[p]; ok {
		delete(c.state, p)
	} else {
		c.hits--
	}
	return true, tree.KnownFile{}, false
}

// start takes Known over, once.
func (c *Comparer) start() {
	if !c.begun {
		c.begun = true
		if c.Known == nil {
			c.Known = tree.Known{}
		}
		// Most of Known's paths are Put again: the set of paths is sized
		// for them (nothing was added to it yet).
		c.paths = tree.NewPathSetSize(true, len(c.Known))
		c.given = len(c.Known)
	}
}

// vouched is what Known held of p as given: where the comparison changed
// Known since (only at a path Put before), prior holds what it held.
func (c *Comparer) vouched(p string) (tree.KnownFile, bool) {
	if w, ok := c.prior[p]; ok {
		return w.f, w.ok
	}
	f, ok := c.Known[p]
	return f, ok
}

// touch remembers what Known holds of p before the comparison first
// changes it.
func (c *Comparer) touch(p string) {
	if _, ok := c.prior[p]; !ok {
		f, ok := c.Known[p]
		c.prior[p] = priorFile{f: f, ok: ok}
	}
}

// unlearn takes p, Put and not vouched for by Known, out of what is
// learned.
func (c *Comparer) unlearn(p string) {
	if _, ok := c.Known[p]; ok {
		c.touch(p)
		delete(c.Known, p)
	}
}

// learn keeps f for p, found equal to its rendered file.
func (c *Comparer) learn(p string, f tree.KnownFile) {
	c.touch(p)
	c.Known[p] = f
}

// Put compares the rendered file at the tree path p (a clean relative
// slash path ending in .yaml) with its golden file; a second Put of p
// replaces the first.
func (c *Comparer) Put(p string, data []byte) error {
	c.begin(p)
	c.unlearn(p)
	_, err := c.put(p, data)
	return err
}

// PutDigest is Put for a rendered object whose digest is d and whose file
// encode makes: when Known holds p with digest d and the golden file's
// FileID, p is unchanged without reading the file or calling encode.
// Either way, a golden file equal to the rendered one is Learned.
func (c *Comparer) PutDigest(p string, d tree.Digest, encode func() ([]byte, error)) error {
	again, k, ok := c.begin(p)
	id, stable := c.list.Stat(p) // before reading: a later write changes it
	if again {
		k, ok = c.vouched(p)
	}
	if ok && stable && k == (tree.KnownFile{File: id, Rendered: d}) {
		if err := c.paths.Add(p); err != nil {
			return err
		}
		// Unchanged, not read: Known holds k as given, unless an earlier
		// Put of p changed it.
		if again {
			c.learn(p, k)
		}
		c.hits++
		return nil
	}
	c.unlearn(p)
	data, err := encode()
	if err != nil {
		return err
	}
	st, err := c.put(p, data)
	if err == nil && st.kind == unchanged && stable && !id.Racy(c.Start) {
		c.learn(p, tree.KnownFile{File: id, Rendered: d})
	}
	return err
}

// Learned is the Known of the next comparison: the golden files Put with
// a digest that were equal to their rendered files (Known, changed in
// place). changed says whether it differs from Known as given (else
// there is nothing new to keep); Changed names the paths that do.
func (c *Comparer) Learned() (k tree.Known, changed bool) {
	c.dropUnput()
	for p, w := range c.prior {
		if c.differs(p, w) {
			return c.Known, true
		}
	}
	return c.Known, false
}

// differs reports whether Known's entry for p is not w, what it held as
// given.
func (c *Comparer) differs(p string, w priorFile) bool {
	f, ok := c.Known[p]
	return ok != w.ok || f != w.f
}

// Changed returns the paths, sorted, whose entry in Learned differs from
// Known as given: a record kept by parts rewrites only theirs.
func (c *Comparer) Changed() []string {
	c.dropUnput()
	var out []string
	for p, w := range c.prior {
		if c.differs(p, w) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// dropUnput takes the files of Known that were not Put out of what is
// learned, once.
func (c *Comparer) dropUnput() {
	c.start()
	if c.dropped || c.putKnown >= c.given {
		return
	}
	c.dropped = true
	for p := range c.Known {
		if !c.paths.Has(p) {
			c.touch(p)
			delete(c.Known, p)
		}
	}
}

func (c *Comparer) put(p string, data []byte) (fileState, error) {
	if err := c.paths.Add(p); err != nil {
		return fileState{}, err
	}
	st := fileState{kind: added}
	old, listed, err := c.list.Read(p)
	if err != nil {
		return fileState{}, err
	}
	if listed {
		st.kind = unchanged
		a, b := tree.Normalize(old), tree.Normalize(data)
		if c.Mask != nil && !bytes.Equal(a, b) { // equal files mask alike
			a, b = c.Mask(p, a), c.Mask(p, b)
		}
		if !bytes.Equal(a, b) {
			st = fileState{kind: changed, diff: Unified("golden/"+p, "rendered/"+p, a, b)}
		}
	}
	c.state[p] = st
	return st, nil
}

// Report is the comparison of every file Put with the golden directory:
// golden files that were not Put count as Removed if drydock owns them.
// Leftovers name what an interrupted tree.Update left beside the directory.
func (c *Comparer) Report() *Report {
	r := c.report()
	r.Leftovers = c.list.Leftovers()
	c.list.Close()
	return r
}

func (c *Comparer) report() *Report {
	r := &Report{Diffs: map[string]string{}}
	// tree.Changes of the listed files with the Put ones, without copying
	// the (tens of thousands of) listed files into a map first: a Put file
	// is Added, Changed or Unchanged by its state, and the owned files no
	// Put named (Put paths are never Removed) are Removed.
	for p, st := range c.state {
		switch st.kind {
		case added:
			r.Added = append(r.Added, p)
		case changed:
			r.Changed = append(r.Changed, p)
			r.Diffs[p] = st.diff
		default:
			r.Unchanged++
		}
	}
	r.Unchanged += c.hits
	r.Known = c.hits
	slices.Sort(r.Added)
	slices.Sort(r.Changed)
	r.Removed = c.list.Removed(c.paths.Has) // sorted
	r.Unowned = c.list.Unowned()
	return r
}

// Compare reads the golden directory dir and compares it with got. Only
// files named *.yaml under dir (recursively) take part; other files are
// ignored. A missing dir is an empty golden tree. Contents are compared
// byte for byte after normalising CRLF to LF and adding a missing final
// newline on both sides. Every path of got must be a clean relative slash
// path ending in .yaml, and dir must not hold symlinked directories or
// symlinked .yaml files (errors wrap tree.ErrInvalidPath).
func Compare(dir string, got tree.Tree) (*Report, error) {
	if err := got.Validate(true); err != nil {
		return nil, err
	}
	c, err := NewComparer(dir)
	if err != nil {
		return nil, err
	}
	for _, p := range got.Paths() {
		if err := c.Put(p, got[p]); err != nil {
			return nil, err
		}
	}
	return c.Report(), nil
}
