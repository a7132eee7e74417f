package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"
)

// ErrInvalidPath is wrapped by every error about a path that golden will
// not read or write: a tree path that is not a clean relative
// slash-separated path (absolute, "..", "." or empty elements, a
// backslash), one naming drydock's control or temporary files, one inside
// a .git directory, one the OwnershipFile could not list as itself (a
// control character, white space at either end, a leading "#"), a tree
// path of Compare or Update that does not end in ".yaml", a path that is
// both a file and a directory, a journal step drydock would not have
// journaled (see JournalFile), and a symlink in
// the way (a symlinked directory or .yaml file inside the golden
// directory, or a parent directory that resolves outside it).
var ErrInvalidPath = errors.New("invalid path")

// Report is the difference between a rendered tree and a golden directory.
// All path lists are sorted and hold slash paths relative to the directory.
type Report struct {
	// Added are rendered but have no golden file.
	Added []string
	// Removed have a golden file but are no longer rendered.
	Removed []string
	// Changed are in both, with different contents.
	Changed []string
	// Unchanged counts the files that are in both and equal.
	Unchanged int
	// Diffs holds, for each Changed path, a unified diff from
	// "golden/<path>" to "rendered/<path>" (3 lines of context).
	Diffs map[string]string
	// Pruned is set by Update when it deleted the Removed files.
	Pruned bool
	// Kept are Removed files Update did not prune because they lie on
	// another file system than the directory (a mount inside it).
	Kept []string
	// Adopted are the files drydock did not write that Update took over
	// (UpdateOptions.Adopt).
	Adopted []string
	// Unowned is set when the directory holds .yaml files but no
	// OwnershipFile: drydock owns none of them, so none can be Removed.
	Unowned bool
	// Leftovers says what was found of an update that was killed (its
	// journal) and done with it: completed or rolled back before the
	// comparison.
	Leftovers []string
}

// OK reports whether the rendered tree matched the golden directory: no
// file added, removed or changed. For a Report from Update it reports
// whether there was nothing to do.
func (r *Report) OK() bool {
	return len(r.Added) == 0 && len(r.Removed) == 0 && len(r.Changed) == 0
}

// String is a human summary: one line of counts, one line per drifted
// file, then the diff of each changed file.
func (r *Report) String() string {
	removed := "removed"
	if r.Pruned {
		removed = "pruned"
	}
	var sb strings.Builder
	for _, l := range r.Leftovers {
		fmt.Fprintf(&sb, "golden: %s\n", l)
	}
	if r.Unowned {
		fmt.Fprintf(&sb, "golden: the directory has no %s: drydock wrote none of its files, so stale ones are not reported (take the tree over with --adopt)\n", OwnershipFile)
	}
	for _, p := range r.Adopted {
		fmt.Fprintf(&sb, "adopted  %s\n", p)
	}
	for _, p := range r.Kept {
		fmt.Fprintf(&sb, "kept     %s (on another file system: not pruned)\n", p)
	}
	if r.OK() {
		fmt.Fprintf(&sb, "golden: up to date, %d unchanged\n", r.Unchanged)
		return sb.String()
	}
	fmt.Fprintf(&sb, "golden: %d changed, %d added, %d %s, %d unchanged\n",
		len(r.Changed), len(r.Added), len(r.Removed), removed, r.Unchanged)
	for _, l := range []struct {
		label string
		paths []string
	}{{"changed", r.Changed}, {"added", r.Added}, {removed, r.Removed}} {
		for _, p := range l.paths {
			fmt.Fprintf(&sb, "%-8s %s\n", l.label, p)
		}
	}
	for _, p := range r.Changed {
		sb.WriteString("\n")
		sb.WriteString(r.Diffs[p])
	}
	return sb.String()
}

// normalize returns a copy of b with CRLF line ends turned into LF and a
// final newline added if b is not empty and lacks one.
func normalize(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	return b
}

// goldenDir is what a golden directory holds.
type goldenDir struct {
	// root is the directory, resolved.
	root string
	// files are the paths of its *.yaml files (owned or not) and of the
	// other files it owns.
	files map[string]bool
	owned ownership
	// ownershipData is the OwnershipFile's content (nil if absent).
	ownershipData []byte
}

// listGolden lists every *.yaml file under dir and reads its
// OwnershipFile. A missing dir is nil.
func listGolden(dir string) (*goldenDir, error) {
	root, err := resolveRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("golden directory %s: %w", dir, err)
	}
	g := &goldenDir{root: root, files: map[string]bool{}}
	if g.owned, g.ownershipData, err = readOwnership(root); err != nil {
		return nil, fmt.Errorf("golden directory %s: %w", dir, err)
	}
	err = filepath.WalkDir(root, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, full)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		isFile := strings.HasSuffix(d.Name(), ".yaml") || g.owned.owns(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			return checkSymlink(full, rel, isFile)
		case d.IsDir() || !isFile:
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%q: %w: not a regular file", rel, ErrInvalidPath)
		}
		g.files[rel] = true
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("golden directory %s: %w", dir, err)
	}
	return g, nil
}

// checkSymlink rejects a symlink in the golden directory that is a .yaml
// file or leads to a directory: writing through it could leave the
// directory, and two paths could name one file. Other symlinks (a README
// pointing elsewhere) are ignored like any other non-YAML file.
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

// validate checks every path of t: a clean, relative, slash-separated
// path (and, with yamlOnly, one ending in .yaml) that is not also a
// directory of another path.
func validate(t Tree, yamlOnly bool) error {
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
	for _, elem := range strings.Split(p, "/") {
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
