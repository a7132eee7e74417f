package golden

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// treePaths checks a tree's paths as they come, one by one, as validate
// checks a whole tree: each a valid path, none both a file and a
// directory.
type treePaths struct {
	yamlOnly bool
	files    map[string]bool
	dirs     map[string]bool
}

func newTreePaths(yamlOnly bool) *treePaths {
	return &treePaths{yamlOnly: yamlOnly, files: map[string]bool{}, dirs: map[string]bool{}}
}

// add checks p against the paths added before it.
func (t *treePaths) add(p string) error {
	if t.files[p] {
		return nil
	}
	if err := validPath(p, t.yamlOnly); err != nil {
		return err
	}
	if t.dirs[p] {
		return fmt.Errorf("path %q: %w: it is both a file and a directory in the tree", p, ErrInvalidPath)
	}
	for d := path.Dir(p); d != "." && !t.dirs[d]; d = path.Dir(d) {
		if t.files[d] {
			return fmt.Errorf("path %q: %w: it is both a file and a directory in the tree", d, ErrInvalidPath)
		}
		t.dirs[d] = true
	}
	t.files[p] = true
	return nil
}

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

	dir string
	g   *goldenDir
	// recovered says what was done of an interrupted update.
	recovered []string
	// files reads the golden files (nil until the first).
	files *treeReader
	// paths are the rendered paths, state their comparison.
	paths *treePaths
	state map[string]fileState
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

// NewComparer lists the golden directory dir (a missing dir is an empty
// golden tree); dir must not hold symlinked directories or symlinked .yaml
// files (errors wrap ErrInvalidPath). An update of dir that was killed is
// completed first (see JournalFile), so the comparison sees whole trees;
// Report.Leftovers says so.
func NewComparer(dir string) (*Comparer, error) {
	done, err := completeInterrupted(dir)
	if err != nil {
		return nil, err
	}
	return newComparer(dir, done)
}

// newComparer lists dir, whose interrupted update was dealt with (done
// says how).
func newComparer(dir string, done []string) (*Comparer, error) {
	g, err := listGolden(dir)
	if err != nil {
		return nil, err
	}
	return &Comparer{dir: dir, g: g, recovered: done, paths: newTreePaths(true), state: map[string]fileState{}}, nil
}

// completeInterrupted completes or rolls back the update of dir a killed
// run left (its journal), under the directory's lock, which it removes; a
// running update is waited for. It says what it did.
func completeInterrupted(dir string) ([]string, error) {
	target, err := manifest.RealPath(dir)
	if err != nil {
		return nil, err
	}
	_, jerr := os.Lstat(filepath.Join(target, JournalFile))
	_, lerr := os.Lstat(filepath.Join(target, LockFile))
	if jerr != nil && lerr != nil {
		return nil, nil // no update under way or killed (or unreadable: listing the directory says why)
	}
	d, err := openOwned(target, "", false)
	if err != nil {
		return nil, err
	}
	defer d.close()
	return d.recovered, nil
}

// Put compares the rendered file at the tree path p (a clean relative
// slash path ending in .yaml) with its golden file; a second Put of p
// replaces the first.
func (c *Comparer) Put(p string, data []byte) error {
	_, err := c.put(p, data)
	return err
}

func (c *Comparer) put(p string, data []byte) (fileState, error) {
	if err := c.paths.add(p); err != nil {
		return fileState{}, err
	}
	st := fileState{kind: added}
	if c.g != nil && c.g.files[p] {
		if c.files == nil {
			c.files = &treeReader{root: c.g.root}
		}
		old, err := c.files.read(p)
		if err != nil {
			return fileState{}, fmt.Errorf("golden directory %s: %w", c.dir, err)
		}
		st.kind = unchanged
		a, b := normalize(old), normalize(data)
		if c.Mask != nil {
			a, b = c.Mask(p, a), c.Mask(p, b)
		}
		if !bytes.Equal(a, b) {
			st = fileState{kind: changed, diff: Unified("golden/"+p, "rendered/"+p, a, b)}
		}
	}
	c.state[p] = st
	return st, nil
}

// close closes the golden files' directories.
func (c *Comparer) close() {
	if c.files != nil {
		c.files.close()
	}
}

// Report is the comparison of every file Put with the golden directory:
// golden files that were not Put count as Removed if drydock owns them.
// Leftovers name what an interrupted Update left beside the directory.
func (c *Comparer) Report() *Report {
	r := c.report()
	r.Leftovers = c.recovered
	c.close()
	return r
}

func (c *Comparer) report() *Report {
	r := &Report{Diffs: map[string]string{}}
	// The golden side: the files Put compared with, and the owned ones
	// no Put named (only those can be Removed).
	was := map[string]fileState{}
	if c.g != nil {
		for p := range c.g.files {
			if _, put := c.state[p]; put || c.g.owned.owns(p) {
				was[p] = fileState{}
			}
		}
		r.Unowned = c.g.owned.listed == nil && len(c.g.files) > 0
	}
	changes, same := manifest.Changes(was, c.state, strings.Compare, func(_, now fileState) bool { return now.kind == unchanged })
	r.Unchanged = same
	for _, ch := range changes {
		switch ch.Action {
		case manifest.Added:
			r.Added = append(r.Added, ch.Key)
		case manifest.Changed:
			r.Changed = append(r.Changed, ch.Key)
			r.Diffs[ch.Key] = ch.New.diff
		case manifest.Removed:
			r.Removed = append(r.Removed, ch.Key)
		}
	}
	return r
}

// Compare reads the golden directory dir and compares it with got. Only
// files named *.yaml under dir (recursively) take part; other files are
// ignored. A missing dir is an empty golden tree. Contents are compared
// byte for byte after normalising CRLF to LF and adding a missing final
// newline on both sides. Every path of got must be a clean relative slash
// path ending in .yaml, and dir must not hold symlinked directories or
// symlinked .yaml files (errors wrap ErrInvalidPath).
func Compare(dir string, got Tree) (*Report, error) {
	if err := validate(got, true); err != nil {
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

// treeReader reads the regular files of a tree (root, resolved) as the
// listing saw it, through realDirs: every directory on the way a real
// directory, no symbolic link followed (one made since the listing is
// refused), nothing outside root opened, at most manifest.MaxInputBytes
// read.
type treeReader struct {
	root string
	dirs *realDirs
}

// read reads the file at the tree path p.
func (t *treeReader) read(p string) ([]byte, error) {
	if t.dirs == nil {
		r, err := os.OpenRoot(t.root)
		if err != nil {
			return nil, err
		}
		t.dirs = newRealDirs(r)
	}
	dir, err := t.dirs.get(path.Dir(p), nil)
	if err != nil {
		return nil, err
	}
	if dir == nil {
		return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	return readIn(dir, path.Base(p))
}

// close closes what read opened.
func (t *treeReader) close() {
	if t.dirs != nil {
		t.dirs.close()
		t.dirs.root.Close()
		t.dirs = nil
	}
}
