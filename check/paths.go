package check

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// configPaths confines the paths of drydock.yaml. Every path is relative
// to the config's directory (an absolute path is refused: a config must
// mean the same thing in every checkout) and must stay inside the
// repository holding the config (the nearest ancestor with a .git entry,
// else the config's directory), after resolving the symlinks of its
// existing part. A golden directory must not hold the config or any of its
// suite's other paths, and golden directories of two suites must not be
// equal or nested: each owns and prunes the files of its whole tree. Every
// path but golden (which --update creates) must exist.
type configPaths struct {
	file string // the config file, as given
	dir  string // its directory, absolute and resolved
	repo string
	doc  *manifest.Object // the config with field positions
	// golden maps each suite's resolved golden directory to its key.
	golden map[string]fieldpath.Path
}

func checkConfigPaths(file string, doc *manifest.Object, cfg *Config) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return err
	}
	c := &configPaths{file: file, dir: dir, repo: manifest.RepoRoot(dir), doc: doc, golden: map[string]fieldpath.Path{}}
	for i := range cfg.Suites {
		if err := c.suite(i, &cfg.Suites[i]); err != nil {
			return err
		}
	}
	return nil
}

// suite checks the paths of suites[i].
func (c *configPaths) suite(i int, s *Suite) error {
	others := s.pathFields()
	resolved := map[string]string{}
	fields := map[string]fieldpath.Path{}
	for _, key := range manifest.SortedKeys(others) {
		for j, p := range others[key] {
			field := fieldpath.New("suites", i, key, j)
			if key == "sources" { // a mapping: name → directory
				field = fieldpath.New("suites", i, key, manifest.SortedKeys(s.Sources)[j])
			}
			r, err := c.resolve(field, p)
			if err != nil {
				return err
			}
			if _, err := os.Stat(r); err != nil {
				return manifest.At(c.doc.FieldPos(field), "suite %q: %s: %s: %w", s.Name, key, p, pathReason(err))
			}
			resolved[field.String()], fields[field.String()] = r, field
		}
	}
	if s.Golden == "" {
		return nil
	}
	field := fieldpath.New("suites", i, "golden")
	g, err := c.resolve(field, s.Golden)
	if err != nil {
		return err
	}
	fail := func(format string, args ...any) error {
		return manifest.At(c.doc.FieldPos(field), "suite %q: golden %q: %s", s.Name, s.Golden, fmt.Sprintf(format, args...))
	}
	if manifest.Within(filepath.Join(c.repo, ".git"), g) {
		return fail("is inside the repository's .git directory")
	}
	if manifest.Within(g, c.dir) {
		return fail("holds the config file %s; give the golden tree its own directory (e.g. golden/%s)", c.file, s.Name)
	}
	for _, f := range manifest.SortedKeys(resolved) {
		if manifest.Within(g, resolved[f]) {
			return fail("holds %s (%s); give the golden tree its own directory", f, c.doc.FieldPos(fields[f]))
		}
	}
	for other, key := range c.golden {
		if manifest.Within(g, other) || manifest.Within(other, g) {
			return fail("is the same as or nested with the golden directory of %s (%s)", key, c.doc.FieldPos(key))
		}
	}
	c.golden[g] = field
	return nil
}

// resolve is path p of field, joined to the config's directory, with the
// symlinks of its existing part resolved; it must stay in the repository.
func (c *configPaths) resolve(field fieldpath.Path, p string) (string, error) {
	pos := c.doc.FieldPos(field)
	if filepath.IsAbs(p) {
		return "", manifest.At(pos, "%s: %q: absolute paths are refused; give a path relative to %s", field, p, c.file)
	}
	r, err := manifest.RealPath(filepath.Join(c.dir, p))
	if err != nil {
		return "", manifest.At(pos, "%s: %q: %w", field, p, err)
	}
	if !manifest.Within(c.repo, r) {
		return "", manifest.At(pos, "%s: %q leads outside the repository %s (to %s)", field, p, c.repo, r)
	}
	return r, nil
}

// pathReason is why a path could not be used, without the system call
// and path os errors start with: "no such file or directory".
func pathReason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// addonDirs are the directories of a suite's addons.
func addonDirs(addons []SuiteAddon) []string {
	out := make([]string, len(addons))
	for i, a := range addons {
		out[i] = a.Dir
	}
	return out
}
