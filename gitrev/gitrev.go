// Package gitrev reads a revision of a git repository as a read-only
// fs.FS, straight from the repository's objects: no checkout, no git
// process, the work tree untouched. It is how `drydock diff --base REV`
// reads the base side of a change.
//
// Paths in a revision's FS are slash paths relative to the root of the
// work tree (Repo.Rel maps a work-tree path to one). Symbolic links are
// reported as such by Lstat and ReadLink (fs.ReadLinkFS); Open, Stat and
// ReadFile follow a link when its target stays inside the revision, as
// drydock follows links inside a repository, and refuse it otherwise
// (a *manifest.LinkOutsideError). One path's resolution follows at most
// manifest.MaxLinks links, counted across the links in links' targets
// (more is manifest.ErrLinkLoop). A blob larger than
// manifest.MaxInputBytes is refused from its object header, unread.
// Submodules are not read: opening one is manifest.ErrSubmodule; Stat
// describes one with Sys() a manifest.Submodule.
package gitrev

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/drydock-dev/drydock/manifest"
)

// ErrNotRepository is wrapped by Open's error when no enclosing directory
// holds a git repository.
var ErrNotRepository = errors.New("not in a git repository")

// Repo is a git repository opened to read its revisions.
type Repo struct {
	repo *git.Repository
	root string
}

// Open opens the repository holding path: the nearest enclosing directory
// with a .git (a directory, or a file as in linked work trees).
func Open(p string) (*Repo, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	repo, err := git.PlainOpenWithOptions(abs, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, fmt.Errorf("%s: %w", p, ErrNotRepository)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: open git repository: %w", p, err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, fmt.Errorf("%s: git repository without a work tree: %w", p, err)
	}
	root, err := filepath.EvalSymlinks(wt.Filesystem.Root())
	if err != nil {
		return nil, err
	}
	return &Repo{repo: repo, root: root}, nil
}

// Root is the root directory of the repository's work tree.
func (r *Repo) Root() string { return r.root }

// Rel maps a path in the work tree to its slash path in a revision's FS
// ("." for the root). A path outside the work tree is an error.
func (r *Repo) Rel(p string) (string, error) {
	real, err := manifest.RealPath(p)
	if err != nil {
		return "", err
	}
	if !manifest.Within(r.root, real) {
		return "", fmt.Errorf("%s is outside the git repository %s", p, r.root)
	}
	rel, err := filepath.Rel(r.root, real)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// FS returns the tree of revision rev: anything go-git resolves, such as
// HEAD, HEAD~1, a branch, a tag or a (short) commit hash.
func (r *Repo) FS(rev string) (*FS, error) {
	hash, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, fmt.Errorf("git revision %q: %w", rev, err)
	}
	commit, err := r.repo.CommitObject(*hash)
	if err != nil {
		return nil, fmt.Errorf("git revision %q: %w", rev, err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, fmt.Errorf("git revision %q: %w", rev, err)
	}
	return &FS{repo: r.repo, tree: tree, when: commit.Committer.When}, nil
}

// FS is one revision's tree. Modification times are the commit's time.
type FS struct {
	repo *git.Repository
	tree *object.Tree
	when time.Time
	// targets memoises the targets of the links read, by blob.
	mu      sync.Mutex
	targets map[plumbing.Hash]string
}

var (
	_ fs.ReadFileFS = (*FS)(nil)
	_ fs.ReadDirFS  = (*FS)(nil)
	_ fs.StatFS     = (*FS)(nil)
	_ fs.ReadLinkFS = (*FS)(nil)
)

// maxTarget bounds the target of a symbolic link (PATH_MAX). With
// manifest.MaxLinks it bounds the work of resolving one path: at most 40
// links of at most maxTarget bytes each, however the links fan out.
const maxTarget = 4096

// entry is a tree entry found at a path ("." has no TreeEntry).
type entry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
	tree *object.Tree // for directories
	size int64        // from the object's header: the blob is not read
}

// component is one name still to resolve, and the link whose target it
// comes from ("" for the path asked for).
type component struct {
	name, link, target string
}

// resolution resolves one path, iteratively as the kernel does: the
// components left are a queue onto which a link's target is pushed, and
// every link followed counts against maxLinks.
type resolution struct {
	f        *FS
	op, path string
	links    int
}

// lookup finds name's entry. A final symbolic link is followed when
// follow is set; links met on the way always are.
func (f *FS) lookup(op, name string, follow bool) (*entry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	r := &resolution{f: f, op: op, path: name}
	return r.resolve(follow)
}

func (r *resolution) fail(err error) error {
	return &fs.PathError{Op: r.op, Path: r.path, Err: err}
}

func (r *resolution) resolve(follow bool) (*entry, error) {
	// dirs is the directory stack from the root: ".." pops it.
	dirs := []*entry{{name: ".", mode: filemode.Dir, tree: r.f.tree}}
	todo := components(r.path, "", "")
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c.name {
		case "", ".":
			continue
		case "..":
			if len(dirs) == 1 {
				return nil, r.outside(c)
			}
			dirs = dirs[:len(dirs)-1]
			continue
		}
		e, err := r.child(dirs[len(dirs)-1], c.name)
		if err != nil {
			return nil, err
		}
		if e.mode != filemode.Symlink || (len(todo) == 0 && !follow) {
			dirs = append(dirs, e)
			continue
		}
		link := dirPath(dirs, e.name)
		target, err := r.follow(link, e)
		if err != nil {
			return nil, err
		}
		todo = append(components(target, link, target), todo...)
	}
	last := dirs[len(dirs)-1]
	if err := r.f.size(last); err != nil {
		return nil, r.fail(err)
	}
	return last, nil
}

// components splits p into the names to resolve.
func components(p, link, target string) []component {
	var out []component
	for name := range strings.SplitSeq(p, "/") {
		out = append(out, component{name: name, link: link, target: target})
	}
	return out
}

// dirPath is the slash path of name in the directory dirs ends with.
func dirPath(dirs []*entry, name string) string {
	parts := make([]string, 0, len(dirs))
	for _, d := range dirs[1:] {
		parts = append(parts, d.name)
	}
	return path.Join(append(parts, name)...)
}

// child is the entry name of the directory dir.
func (r *resolution) child(dir *entry, name string) (*entry, error) {
	if dir.mode != filemode.Dir {
		return nil, r.fail(fs.ErrNotExist)
	}
	for _, te := range dir.tree.Entries {
		if te.Name == name {
			out, err := r.f.child(te, false)
			if err != nil {
				return nil, r.fail(err)
			}
			return out, nil
		}
	}
	return nil, r.fail(fs.ErrNotExist)
}

// follow counts the link e at link and returns its target.
func (r *resolution) follow(link string, e *entry) (string, error) {
	r.links++
	if r.links > manifest.MaxLinks {
		return "", r.fail(manifest.ErrLinkLoop)
	}
	target, err := r.f.target(e.hash)
	if err != nil {
		return "", r.fail(fmt.Errorf("symlink %s: %w", link, err))
	}
	if path.IsAbs(target) {
		return "", r.outside(component{link: link, target: target})
	}
	if target == "" {
		return "", r.fail(fs.ErrNotExist)
	}
	return target, nil
}

// outside is the refusal of the link c comes from, which leads out of
// the revision's tree.
func (r *resolution) outside(c component) error {
	out := &manifest.LinkOutsideError{Where: "the repository", Target: c.target}
	if c.link != r.path {
		out.Link = c.link
	}
	return r.fail(out)
}

// child is the tree entry te; sized, a blob's size is read from its
// object header (a resolution needs only the last one's).
func (f *FS) child(te object.TreeEntry, sized bool) (*entry, error) {
	out := &entry{name: te.Name, mode: te.Mode, hash: te.Hash}
	var err error
	switch te.Mode {
	case filemode.Dir:
		out.tree, err = object.GetTree(f.repo.Storer, te.Hash)
	case filemode.Submodule:
	default:
		if sized {
			err = f.size(out)
		}
	}
	return out, err
}

// size sets the size of the blob e from its object header.
func (f *FS) size(e *entry) error {
	if e.mode == filemode.Dir || e.mode == filemode.Submodule {
		return nil
	}
	var err error
	e.size, err = f.repo.Storer.EncodedObjectSize(e.hash)
	return err
}

// find is lookup following a final symbolic link, to something drydock
// reads: a submodule is refused.
func (f *FS) find(op, name string) (*entry, error) {
	e, err := f.lookup(op, name, true)
	if err != nil {
		return nil, err
	}
	if e.mode == filemode.Submodule {
		return nil, &fs.PathError{Op: op, Path: name, Err: manifest.ErrSubmodule}
	}
	e.name = path.Base(name)
	return e, nil
}

// blob opens the blob of the file e at name, refused when its header
// says it is larger than manifest.MaxInputBytes: nothing is read then.
func (f *FS) blob(op, name string, e *entry) (io.ReadCloser, error) {
	if e.mode == filemode.Dir {
		return nil, &fs.PathError{Op: op, Path: name, Err: errors.New("is a directory")}
	}
	if e.size > manifest.MaxInputBytes {
		return nil, manifest.TooLarge(name)
	}
	blob, err := f.repo.BlobObject(e.hash)
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	rd, err := blob.Reader()
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	return rd, nil
}

// target is the target of the link whose blob is h, memoised: a link
// met again, in this path or another, is not read again.
func (f *FS) target(h plumbing.Hash) (string, error) {
	f.mu.Lock()
	t, ok := f.targets[h]
	f.mu.Unlock()
	if ok {
		return t, nil
	}
	blob, err := f.repo.BlobObject(h)
	if err != nil {
		return "", err
	}
	if blob.Size > maxTarget {
		return "", fmt.Errorf("target longer than %d bytes", maxTarget)
	}
	rd, err := blob.Reader()
	if err != nil {
		return "", err
	}
	defer rd.Close()
	data, err := io.ReadAll(io.LimitReader(rd, maxTarget+1))
	if err != nil {
		return "", err
	}
	if len(data) > maxTarget {
		return "", fmt.Errorf("target longer than %d bytes", maxTarget)
	}
	f.mu.Lock()
	if f.targets == nil {
		f.targets = map[plumbing.Hash]string{}
	}
	f.targets[h] = string(data)
	f.mu.Unlock()
	return string(data), nil
}

// Open opens name for reading.
func (f *FS) Open(name string) (fs.File, error) {
	e, err := f.find("open", name)
	if err != nil {
		return nil, err
	}
	if e.mode == filemode.Dir {
		return &dir{fsys: f, path: name, e: e}, nil
	}
	rd, err := f.blob("open", name, e)
	if err != nil {
		return nil, err
	}
	return &file{info: f.info(e), rd: rd}, nil
}

// ReadFile reads the whole file name.
func (f *FS) ReadFile(name string) ([]byte, error) {
	e, err := f.find("read", name)
	if err != nil {
		return nil, err
	}
	rd, err := f.blob("read", name, e)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	data, err := io.ReadAll(io.LimitReader(rd, manifest.MaxInputBytes+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if len(data) > manifest.MaxInputBytes {
		return nil, manifest.TooLarge(name)
	}
	return data, nil
}

// Stat describes name, following a final symbolic link.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	e, err := f.lookup("stat", name, true)
	if err != nil {
		return nil, err
	}
	e.name = path.Base(name)
	return f.info(e), nil
}

// Lstat describes name without following a final symbolic link.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	e, err := f.lookup("lstat", name, false)
	if err != nil {
		return nil, err
	}
	return f.info(e), nil
}

// ReadLink returns the target of the symbolic link name.
func (f *FS) ReadLink(name string) (string, error) {
	e, err := f.lookup("readlink", name, false)
	if err != nil {
		return "", err
	}
	if e.mode != filemode.Symlink {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	target, err := f.target(e.hash)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	return target, nil
}

// ReadDir lists the directory name, sorted by file name.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	e, err := f.lookup("readdir", name, true)
	if err != nil {
		return nil, err
	}
	if e.mode != filemode.Dir {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	return f.entries(name, e)
}

func (f *FS) entries(name string, e *entry) ([]fs.DirEntry, error) {
	out := make([]fs.DirEntry, 0, len(e.tree.Entries))
	for _, te := range e.tree.Entries {
		c, err := f.child(te, true)
		if err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: path.Join(name, te.Name), Err: err}
		}
		out = append(out, fs.FileInfoToDirEntry(f.info(c)))
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

func (f *FS) info(e *entry) fs.FileInfo {
	i := &info{name: e.name, size: e.size, when: f.when}
	switch e.mode {
	case filemode.Dir:
		i.mode = fs.ModeDir | 0o555
	case filemode.Symlink:
		i.mode = fs.ModeSymlink | 0o777
	case filemode.Executable:
		i.mode = 0o555
	case filemode.Submodule:
		i.mode, i.sys = fs.ModeIrregular, manifest.Submodule{}
	default:
		i.mode = 0o444
	}
	if e.mode == filemode.Dir {
		i.size = 0
	}
	return i
}

type info struct {
	name string
	size int64
	mode fs.FileMode
	when time.Time
	sys  any
}

func (i *info) Name() string       { return i.name }
func (i *info) Size() int64        { return i.size }
func (i *info) Mode() fs.FileMode  { return i.mode }
func (i *info) ModTime() time.Time { return i.when }
func (i *info) IsDir() bool        { return i.mode.IsDir() }
func (i *info) Sys() any           { return i.sys }

// file is an open regular file, read from its blob as it is read.
type file struct {
	info fs.FileInfo
	rd   io.ReadCloser
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return f.rd.Close() }
func (f *file) Read(p []byte) (int, error) { return f.rd.Read(p) }

// dir is an open directory.
type dir struct {
	fsys *FS
	path string
	e    *entry
	list []fs.DirEntry
	read bool
	off  int
}

func (d *dir) Stat() (fs.FileInfo, error) { return d.fsys.info(d.e), nil }
func (d *dir) Close() error               { return nil }
func (d *dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.e.name, Err: errors.New("is a directory")}
}

func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.read {
		list, err := d.fsys.entries(d.path, d.e)
		if err != nil {
			return nil, err
		}
		d.list, d.read = list, true
	}
	rest := d.list[d.off:]
	if n <= 0 {
		d.off = len(d.list)
		return rest, nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	rest = rest[:min(n, len(rest))]
	d.off += len(rest)
	return rest, nil
}
