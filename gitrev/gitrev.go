// Package gitrev reads a revision of a git repository as a read-only
// fs.FS, straight from the repository's objects: no checkout, no git
// process, the work tree untouched. It is how `drydock diff --base REV`
// reads the base side of a change.
//
// Paths in a revision's FS are slash paths relative to the root of the
// work tree (Repo.Rel maps a work-tree path to one). Symbolic links are
// reported as such by Lstat and ReadLink (fs.ReadLinkFS); Open, Stat and
// ReadFile follow a link when its target stays inside the revision, as
// drydock follows links inside a repository, and refuse it otherwise.
// Submodules are not read: opening one is an error.
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
}

var (
	_ fs.ReadFileFS = (*FS)(nil)
	_ fs.ReadDirFS  = (*FS)(nil)
	_ fs.StatFS     = (*FS)(nil)
	_ fs.ReadLinkFS = (*FS)(nil)
)

// maxLinks bounds the symbolic links followed to open one path.
const maxLinks = 40

// entry is a tree entry found at a path ("." has no TreeEntry).
type entry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
	tree *object.Tree // for directories
	size int64
}

// lookup finds name's entry without following a final symbolic link;
// links met on the way are followed.
func (f *FS) lookup(op, name string) (*entry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return f.walk(op, name, name, 0)
}

func (f *FS) walk(op, orig, name string, links int) (*entry, error) {
	if name == "." {
		return &entry{name: ".", mode: filemode.Dir, tree: f.tree}, nil
	}
	dir, base := path.Split(name)
	parent := &entry{name: ".", mode: filemode.Dir, tree: f.tree}
	if dir != "" {
		var err error
		if parent, err = f.walk(op, orig, strings.TrimSuffix(dir, "/"), links); err != nil {
			return nil, err
		}
		if parent.mode == filemode.Symlink {
			target, err := f.resolve(op, orig, strings.TrimSuffix(dir, "/"), parent, links+1)
			if err != nil {
				return nil, err
			}
			parent = target
		}
		if parent.mode != filemode.Dir {
			return nil, &fs.PathError{Op: op, Path: orig, Err: fs.ErrNotExist}
		}
	}
	for _, te := range parent.tree.Entries {
		if te.Name == base {
			out, err := child(parent.tree, te)
			if err != nil {
				return nil, &fs.PathError{Op: op, Path: orig, Err: err}
			}
			return out, nil
		}
	}
	return nil, &fs.PathError{Op: op, Path: orig, Err: fs.ErrNotExist}
}

// child is the entry te of tree t.
func child(t *object.Tree, te object.TreeEntry) (*entry, error) {
	out := &entry{name: te.Name, mode: te.Mode, hash: te.Hash}
	var err error
	switch te.Mode {
	case filemode.Dir:
		out.tree, err = t.Tree(te.Name)
	case filemode.Submodule:
	default:
		out.size, err = t.Size(te.Name)
	}
	return out, err
}

// resolve follows the symbolic link e found at name to what it names.
func (f *FS) resolve(op, orig, name string, e *entry, links int) (*entry, error) {
	for e.mode == filemode.Symlink {
		if links > maxLinks {
			return nil, &fs.PathError{Op: op, Path: orig, Err: errors.New("too many levels of symbolic links")}
		}
		target, err := f.readBlob(e.hash)
		if err != nil {
			return nil, &fs.PathError{Op: op, Path: orig, Err: err}
		}
		next := path.Join(path.Dir(name), string(target))
		if path.IsAbs(string(target)) || !fs.ValidPath(next) {
			return nil, &fs.PathError{Op: op, Path: orig, Err: fmt.Errorf("symbolic link to %s leaves the repository", target)}
		}
		if e, err = f.walk(op, orig, next, links); err != nil {
			return nil, err
		}
		name = next
		links++
	}
	return e, nil
}

// find is lookup following a final symbolic link.
func (f *FS) find(op, name string) (*entry, error) {
	e, err := f.lookup(op, name)
	if err != nil {
		return nil, err
	}
	if e.mode == filemode.Symlink {
		target, err := f.resolve(op, name, name, e, 1)
		if err != nil {
			return nil, err
		}
		e = &entry{name: path.Base(name), mode: target.mode, hash: target.hash, tree: target.tree, size: target.size}
	}
	if e.mode == filemode.Submodule {
		return nil, &fs.PathError{Op: op, Path: name, Err: errors.New("a git submodule is not read")}
	}
	return e, nil
}

func (f *FS) readBlob(h plumbing.Hash) ([]byte, error) {
	blob, err := f.repo.BlobObject(h)
	if err != nil {
		return nil, err
	}
	rd, err := blob.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
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
	data, err := f.readBlob(e.hash)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &file{info: f.info(e), data: data}, nil
}

// ReadFile reads the whole file name.
func (f *FS) ReadFile(name string) ([]byte, error) {
	e, err := f.find("read", name)
	if err != nil {
		return nil, err
	}
	if e.mode == filemode.Dir {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	data, err := f.readBlob(e.hash)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return data, nil
}

// Stat describes name, following a final symbolic link.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	e, err := f.find("stat", name)
	if err != nil {
		return nil, err
	}
	return f.info(e), nil
}

// Lstat describes name without following a final symbolic link.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	e, err := f.lookup("lstat", name)
	if err != nil {
		return nil, err
	}
	return f.info(e), nil
}

// ReadLink returns the target of the symbolic link name.
func (f *FS) ReadLink(name string) (string, error) {
	e, err := f.lookup("readlink", name)
	if err != nil {
		return "", err
	}
	if e.mode != filemode.Symlink {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	target, err := f.readBlob(e.hash)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	return string(target), nil
}

// ReadDir lists the directory name, sorted by file name.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	e, err := f.find("readdir", name)
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
		c, err := child(e.tree, te)
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
		i.mode = fs.ModeIrregular
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
}

func (i *info) Name() string       { return i.name }
func (i *info) Size() int64        { return i.size }
func (i *info) Mode() fs.FileMode  { return i.mode }
func (i *info) ModTime() time.Time { return i.when }
func (i *info) IsDir() bool        { return i.mode.IsDir() }
func (i *info) Sys() any           { return nil }

// file is an open regular file (its blob read whole: drydock's inputs
// are read whole anyway).
type file struct {
	info fs.FileInfo
	data []byte
	off  int
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }
func (f *file) Read(p []byte) (int, error) {
	if f.off >= len(f.data) {
		return 0, io.EOF
	}
	n := copy(p, f.data[f.off:])
	f.off += n
	return n, nil
}

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
