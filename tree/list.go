package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/drydock-dev/drydock/manifest"
)

// Listing is what a directory drydock writes (a golden directory, an
// --output-dir) holds, as a comparison or an update sees it: its *.yaml
// files and the other files it owns, which of them drydock owns (see
// OwnershipFile), read on demand through realDirs. A Listing is not safe
// for concurrent use.
type Listing struct {
	dir string
	g   *listedDir // nil for a missing directory
	// recovered says what was done of an interrupted update.
	recovered []string
	// files reads the listed files (nil until the first).
	files *treeReader
}

// listedDir is what a directory holds.
type listedDir struct {
	// root is the directory, resolved.
	root string
	// The directory's *.yaml files (owned or not) and the other files it
	// owns: owned.listed[p] is true for a file it owns that is there
	// (false: listed only), extra holds the others. The paths of the
	// files owned, most of them, are the OwnershipFile's lines: a second
	// map of them (and the walk's path strings) is not kept.
	owned ownership
	extra map[string]bool
	// ownershipData is the OwnershipFile's content (nil if absent, or
	// not read: a listing taken again).
	ownershipData []byte
	// shape is what the listing saw of the directory's structure (see
	// Record).
	shape listShape
	// given, for a listing taken again from a record (ListAgain), names
	// the listed files the record left out: the paths of the comparison's
	// Known, each owned unless extra holds it. owned.listed and extra
	// then hold only the others.
	given *GivenPaths
}

// List lists the directory dir (a missing dir lists nothing); dir must
// not hold symlinked directories or symlinked .yaml files (errors wrap
// ErrInvalidPath). An update of dir that was killed is completed first
// (see JournalFile), so the listing sees whole trees; Leftovers says so.
func List(dir string) (*Listing, error) {
	done, err := completeInterrupted(dir)
	if err != nil {
		return nil, err
	}
	return newListing(dir, done)
}

// newListing lists dir, whose interrupted update was dealt with (done
// says how).
func newListing(dir string, done []string) (*Listing, error) {
	return newListingSince(dir, done, time.Now())
}

// newListingSince is newListing begun at since (see listShape).
func newListingSince(dir string, done []string, since time.Time) (*Listing, error) {
	g, err := listDir(dir, since)
	if err != nil {
		return nil, err
	}
	return &Listing{dir: dir, g: g, recovered: done}, nil
}

// Leftovers says what was found of an update of the directory that was
// killed (its journal) and done with it: completed or rolled back before
// the listing.
func (l *Listing) Leftovers() []string { return l.recovered }

// Unowned reports whether the directory holds .yaml files but no
// OwnershipFile: drydock owns none of them.
func (l *Listing) Unowned() bool {
	return l.g != nil && l.g.owned.listed == nil && len(l.g.extra) > 0
}

// has reports whether the directory holds the listed file p.
func (g *listedDir) has(p string) bool {
	return g.owned.listed[p] || g.extra[p] || g.given != nil && g.given.Has(p)
}

// owns reports whether drydock owns the file at p.
func (g *listedDir) owns(p string) bool {
	if g.owned.owns(p) {
		return true
	}
	return g.given != nil && g.owned.listed != nil && !g.extra[p] && g.given.Has(p)
}

// Removed are the listed files drydock owns that rendered does not hold,
// sorted.
func (l *Listing) Removed(rendered func(p string) bool) []string {
	if l.g == nil {
		return nil
	}
	// The owned files there (listed true), a few of them Removed: sorted
	// once found, not all sorted first.
	var out []string
	l.g.eachOwned(func(p string, there bool) {
		if there && !rendered(p) {
			out = append(out, p)
		}
	})
	sort.Strings(out)
	return out
}

// Read reads the listed file at the tree path p; listed is false (and
// data nil) when the listing has no file there. It reads through real
// directories only (a symbolic link made since the listing is refused),
// nothing outside the directory, at most manifest.MaxInputBytes.
func (l *Listing) Read(p string) (data []byte, listed bool, err error) {
	if l.g == nil || !l.g.has(p) {
		return nil, false, nil
	}
	if l.files == nil {
		l.files = &treeReader{root: l.g.root}
	}
	data, err = l.files.read(p)
	if err != nil {
		return nil, true, fmt.Errorf("golden directory %s: %w", l.dir, err)
	}
	return data, true, nil
}

// Stat is the FileID of the listed file at the tree path p, reached as
// Read reaches it; ok is false when the listing has no regular file there
// or the system gives no FileID (see StatID): the file must then be read.
func (l *Listing) Stat(p string) (id FileID, ok bool) {
	if l.g == nil || !l.g.has(p) {
		return FileID{}, false
	}
	if l.files == nil {
		l.files = &treeReader{root: l.g.root}
	}
	return l.files.statID(p)
}

// Close closes the directories Read opened.
func (l *Listing) Close() {
	if l.files != nil {
		l.files.close()
	}
}

// owns reports whether drydock owns the listed file at p.
func (l *Listing) owns(p string) bool {
	return l.g != nil && l.g.owns(p)
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

// listDir lists every *.yaml file under dir and reads its
// OwnershipFile, begun at since. A missing dir is nil.
func listDir(dir string, since time.Time) (*listedDir, error) {
	root, err := resolveRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("golden directory %s: %w", dir, err)
	}
	g := &listedDir{root: root, shape: listShape{since: since}}
	var oid FileID
	var idOK bool
	if g.owned, g.ownershipData, oid, idOK, err = readOwnership(root); err != nil {
		return nil, fmt.Errorf("golden directory %s: %w", dir, err)
	}
	if g.owned.listed != nil {
		g.shape.ownership, g.shape.hasOwnership, g.shape.bad = oid, true, !idOK
	}
	bad := g.shape.bad
	g.unfound(bad)
	if walkWithDirents && g.walkDirents(root) {
		return g, nil
	}
	g.unfound(bad) // what walkDirents found, forgotten
	// WalkDir's paths are prefix joined with a relative path: cut, not
	// filepath.Rel (which cleans and allocates per entry).
	prefix := root
	if !os.IsPathSeparator(prefix[len(prefix)-1]) {
		prefix += string(filepath.Separator)
	}
	err = filepath.WalkDir(root, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := "."
		if full != root {
			r, ok := strings.CutPrefix(full, prefix)
			if !ok {
				return fmt.Errorf("%s is not below %s", full, root)
			}
			rel = filepath.ToSlash(r)
		}
		owned := g.owned.owns(rel)
		isFile := owned || strings.HasSuffix(d.Name(), ".yaml")
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			if err := checkSymlink(full, rel, isFile); err != nil {
				return err
			}
			g.shape.links = append(g.shape.links, rel)
			return nil
		case d.IsDir():
			// Stat'ed before WalkDir reads its entries: an entry made
			// or removed later changes what is recorded.
			g.shape.addDir(full, rel)
			return nil
		case !isFile:
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%q: %w: not a regular file", rel, ErrInvalidPath)
		}
		if owned {
			g.owned.listed[rel] = true
		} else {
			g.extra[rel] = true
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("golden directory %s: %w", dir, err)
	}
	return g, nil
}

// walkWithDirents says listDir walks with walkDirents first (tests turn it
// off to compare).
var walkWithDirents = direntsRead

// errWalkSlowly stops walkDirents.
var errWalkSlowly = errors.New("walk with WalkDir")

// walkDirents lists root as listDir's WalkDir does (owned.listed all
// false, extra empty), reading each directory's entries as names and
// types (readDirents): WalkDir makes an os.DirEntry and a path for each
// of the tens of thousands of files, walkDirents a path for each file
// listed only. It reports false when it met anything to judge as WalkDir
// does (an error, an entry of unknown type, one the listing refuses):
// listDir then walks with WalkDir, whose error (the first in sorted
// order) it reports.
func (g *listedDir) walkDirents(root string) bool {
	buf := make([]byte, 32<<10)
	var rel []byte
	var walk func(full, dir string) bool
	walk = func(full, dir string) bool {
		// Stat'ed before its entries are read (see listShape).
		g.shape.addDir(full, dir)
		prefix := ""
		if dir != "." {
			prefix = dir + "/"
		}
		var subdirs []string
		err := readDirents(full, buf, func(name []byte, typ uint8) error {
			rel = append(append(rel[:0], prefix...), name...)
			_, owned := g.owned.listed[string(rel)]
			isFile := owned || bytes.HasSuffix(name, []byte(".yaml"))
			switch {
			case typ == direntDir:
				subdirs = append(subdirs, string(name))
			case typ == direntLink:
				p := string(rel)
				if isFile || checkSymlink(filepath.Join(full, string(name)), p, false) != nil {
					return errWalkSlowly
				}
				g.shape.links = append(g.shape.links, p)
			case !isFile:
				if typ == direntUnknown { // could be a directory
					return errWalkSlowly
				}
			case typ != direntReg: // unknown, or not a regular file
				return errWalkSlowly
			case owned:
				g.owned.listed[string(rel)] = true
			default:
				g.extra[string(rel)] = true
			}
			return nil
		})
		if err != nil {
			return false
		}
		for _, name := range subdirs {
			if !walk(filepath.Join(full, name), prefix+name) {
				return false
			}
		}
		return true
	}
	return walk(root, ".")
}

// unfound makes g a listing that found nothing yet: every owned file
// listed but not found there (see listedDir), no extra file, no
// directory or link of the shape seen (bad: the OwnershipFile's identity
// was not had).
func (g *listedDir) unfound(bad bool) {
	for p := range g.owned.listed {
		g.owned.listed[p] = false
	}
	g.extra = map[string]bool{}
	g.shape.dirs, g.shape.links, g.shape.bad = nil, nil, bad
}

// checkSymlink rejects a symlink in the directory that is a .yaml file or
// leads to a directory: writing through it could leave the directory, and
// two paths could name one file. Other symlinks (a README pointing
// elsewhere) are ignored like any other non-YAML file.
func checkSymlink(full, rel string, isYAML bool) error {
	if isYAML {
		return fmt.Errorf("%q: %w: a golden file must not be a symlink", rel, ErrInvalidPath)
	}
	if fi, err := os.Stat(full); err == nil && fi.IsDir() {
		return fmt.Errorf("%q: %w: symlink to a directory", rel, ErrInvalidPath)
	}
	return nil
}

// resolveRoot is dir made absolute with its symlinks resolved; it must be
// an existing directory.
func resolveRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	root, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(root)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory", root)
	}
	return root, nil
}

// treeReader reads the regular files of a tree (root, resolved) as the
// listing saw it, through realDirs: every directory on the way a real
// directory, no symbolic link followed (one made since the listing is
// refused), nothing outside root opened, at most manifest.MaxInputBytes
// read.
type treeReader struct {
	root string
	dirs *realDirs
	// dirFiles are dirs' directories opened as files, for fstatAt, with
	// their descriptors.
	dirFiles map[string]dirFile
}

// dirFile is a directory opened as a file and its descriptor.
type dirFile struct {
	f  *os.File
	fd int
}

// read reads the file at the tree path p.
func (t *treeReader) read(p string) ([]byte, error) {
	dir, err := t.dir(p)
	if err != nil {
		return nil, err
	}
	return readIn(dir, path.Base(p))
}

// stat describes the file at the tree path p (not following a link).
func (t *treeReader) stat(p string) (fs.FileInfo, error) {
	dir, err := t.dir(p)
	if err != nil {
		return nil, err
	}
	return dir.Lstat(path.Base(p))
}

// statID is the FileID of the regular file at the tree path p (not
// following a link); false when there is none or no FileID.
func (t *treeReader) statID(p string) (FileID, bool) {
	if !statAt {
		fi, err := t.stat(p)
		if err != nil {
			return FileID{}, false
		}
		return StatID(fi)
	}
	dir := path.Dir(p)
	df, ok := t.dirFiles[dir]
	if !ok {
		r, err := t.dir(p)
		if err != nil {
			return FileID{}, false
		}
		// Opened through the checked os.Root: a real directory under root.
		f, err := r.Open(".")
		if err != nil {
			return FileID{}, false
		}
		if t.dirFiles == nil {
			t.dirFiles = map[string]dirFile{}
		}
		df = dirFile{f: f, fd: int(f.Fd())}
		t.dirFiles[dir] = df
	}
	id, ok, err := fstatAt(df.f, df.fd, path.Base(p))
	if err != nil {
		return FileID{}, false
	}
	return id, ok
}

// dir is the directory holding the tree path p, opened under the root
// without following links; fs.ErrNotExist when it is not there.
func (t *treeReader) dir(p string) (*os.Root, error) {
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
	return dir, nil
}

// close closes what read opened.
func (t *treeReader) close() {
	for dir, df := range t.dirFiles {
		df.f.Close()
		delete(t.dirFiles, dir)
	}
	if t.dirs != nil {
		t.dirs.close()
		t.dirs.root.Close()
		t.dirs = nil
	}
}
