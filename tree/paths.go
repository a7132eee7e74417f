package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// ErrInvalidPath is wrapped by every error about a path that drydock will
// not read or write: a tree path that is not a clean relative
// slash-separated path (absolute, "..", "." or empty elements, a
// backslash), one naming drydock's control or temporary files, one inside
// a .git directory, one the OwnershipFile could not list as itself (a
// control character, white space at either end, a leading "#"), a tree
// path of a comparison or Update that does not end in ".yaml", a path
// that is both a file and a directory, a journal step drydock would not
// have journaled (see JournalFile), and a symlink in the way (a symlinked
// directory or .yaml file inside the directory, or a parent directory
// that resolves outside it).
var ErrInvalidPath = errors.New("invalid path")

// Validate checks every path of t: a clean, relative, slash-separated
// path (and, with yamlOnly, one ending in .yaml) that is not also a
// directory of another path. Errors wrap ErrInvalidPath.
func (t Tree) Validate(yamlOnly bool) error {
	paths := t.Paths()
	dirs := map[string]bool{}
	for _, p := range paths {
		if err := validPath(p, yamlOnly); err != nil {
			return err
		}
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for _, p := range paths {
		if dirs[p] {
			return fmt.Errorf("path %q: %w: it is both a file and a directory in the tree", p, ErrInvalidPath)
		}
	}
	return nil
}

// validPath checks one tree path: clean, relative, slash-separated, not
// the name of drydock's control files (see controlName) nor inside a .git
// directory, listable as itself in the OwnershipFile and, with yamlOnly,
// ending in .yaml.
func validPath(p string, yamlOnly bool) error {
	if err := cleanPath(p); err != nil {
		return err
	}
	if controlName(p) {
		return fmt.Errorf("path %q: %w: the name of drydock's own control or temporary files", p, ErrInvalidPath)
	}
	for rest := p; rest != ""; { // each element, without splitting p into a new slice
		var elem string
		elem, rest, _ = strings.Cut(rest, "/")
		if strings.EqualFold(elem, ".git") {
			return fmt.Errorf("path %q: %w: inside a .git directory, which drydock never writes", p, ErrInvalidPath)
		}
	}
	if strings.ContainsFunc(p, unicode.IsControl) || strings.TrimSpace(p) != p || strings.HasPrefix(p, "#") {
		return fmt.Errorf("path %q: %w: a control character, white space at either end or a leading \"#\" (the ownership file could not list it as itself)", p, ErrInvalidPath)
	}
	if yamlOnly && !strings.HasSuffix(p, ".yaml") {
		return fmt.Errorf("path %q: %w: not a .yaml file", p, ErrInvalidPath)
	}
	return nil
}

// cleanPath checks that p is a clean, relative, slash-separated path
// inside its directory.
func cleanPath(p string) error {
	if !fs.ValidPath(p) || p == "." || strings.Contains(p, `\`) || !filepath.IsLocal(filepath.FromSlash(p)) {
		return fmt.Errorf("path %q: %w: want a relative slash-separated path without \".\" or \"..\" elements", p, ErrInvalidPath)
	}
	return nil
}

// PathSet checks a tree's paths as they come, one by one, as Validate
// checks a whole tree: each a valid path, none both a file and a
// directory. It is what a streaming comparison or update keeps of the
// paths it was given.
type PathSet struct {
	yamlOnly bool
	files    map[string]bool
	dirs     map[string]bool
}

// NewPathSet is an empty PathSet; with yamlOnly, every path must end in
// .yaml.
func NewPathSet(yamlOnly bool) *PathSet { return NewPathSetSize(yamlOnly, 0) }

// NewPathSetSize is NewPathSet sized for about n paths: a set of tens of
// thousands of paths grown a step at a time leaves each smaller table
// behind as garbage.
func NewPathSetSize(yamlOnly bool, n int) *PathSet {
	return &PathSet{yamlOnly: yamlOnly, files: make(map[string]bool, n), dirs: map[string]bool{}}
}

// Add checks p against the paths added before it and adds it; adding a
// path again is no error. Errors wrap ErrInvalidPath.
func (t *PathSet) Add(p string) error {
	if t.files[p] {
		return nil
	}
	if err := validPath(p, t.yamlOnly); err != nil {
		return err
	}
	if t.dirs[p] {
		return fmt.Errorf("path %q: %w: it is both a file and a directory in the tree", p, ErrInvalidPath)
	}
	// p is clean (validPath): its directories are its prefixes up to a
	// slash, taken without path.Dir's cleaning and copying.
	for d := parentDir(p); d != "." && !t.dirs[d]; d = parentDir(d) {
		if t.files[d] {
			return fmt.Errorf("path %q: %w: it is both a file and a directory in the tree", d, ErrInvalidPath)
		}
		t.dirs[d] = true
	}
	t.files[p] = true
	return nil
}

// Has reports whether p was added.
func (t *PathSet) Has(p string) bool { return t.files[p] }

// Paths returns the added paths in byte order.
func (t *PathSet) Paths() []string { return sortedKeys(t.files) }

// Len is the number of paths added.
func (t *PathSet) Len() int { return len(t.files) }

// Normalize is the form in which a file is compared with the one on
// disk: a copy of b with CRLF line ends turned into LF and a final
// newline added if b is not empty and lacks one.
func Normalize(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	return b
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// parentDir is path.Dir of a clean relative slash path: "." for a name
// alone.
func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}
