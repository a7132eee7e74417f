package golden

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/drydock-dev/drydock/manifest"
)

// UpdateOptions tunes Update.
type UpdateOptions struct {
	// Prune deletes the golden files drydock owns (see OwnershipFile)
	// that are no longer rendered, and the directories that deleting them
	// leaves empty. Without it they are kept and only reported as Removed.
	Prune bool
}

// Update makes the golden directory dir hold got, as one atomic step.
//
// It compares them as Compare does, then builds the whole new tree in a
// staging directory beside dir (".<base>.drydock-new-<random>"): the Added
// and Changed files, hard links to the Unchanged files (so their
// modification times stay) and to every file drydock does not own (a
// README, a user's own .yaml), and the OwnershipFile. It then swaps the
// staging directory in with one rename (Linux: renameat2 RENAME_EXCHANGE;
// elsewhere two renames under a journal that the next Update completes),
// so an interruption at any moment leaves dir holding the old tree or the
// new one, never a mix. A missing dir is created by the same rename.
//
// Concurrent Updates of one directory take turns: a lock (flock on a file in
// the temporary directory) makes a second one wait up to LockWait, then fail. Leftovers of
// an interrupted Update (staging directories, a journal) are completed or
// removed first and listed in Report.Leftovers.
//
// Nothing is written outside dir and its staging directory: tree paths are
// validated, and dir is resolved to its real path first, so a symlink at
// dir is followed, never replaced. A rewritten file keeps its permission
// bits; a new one gets 0644 (less umask). Files are not fsynced: the swap
// is atomic against a killed process, not against a power loss.
//
// With nothing to change, Update writes nothing (a missing dir stays
// missing).
func Update(dir string, got Tree, opts UpdateOptions) (*Report, error) {
	if err := validate(got, true); err != nil {
		return nil, err
	}
	target, err := realTarget(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return nil, err
	}
	unlock, err := lock(target)
	if err != nil {
		return nil, err
	}
	defer unlock()
	cleaned, err := recoverLeftovers(target)
	if err != nil {
		return nil, err
	}
	rep, old, err := compare(target, got)
	if err != nil {
		return nil, err
	}
	rep.Leftovers = cleaned
	plan := newPlan(rep, old, got, opts.Prune)
	if !plan.needed() {
		return rep, nil
	}
	if err := plan.apply(target); err != nil {
		return nil, err
	}
	rep.Pruned = opts.Prune && len(rep.Removed) > 0
	return rep, nil
}

// realTarget is the directory Update really replaces: dir, absolute, with
// the symlinks of its longest existing prefix resolved.
func realTarget(dir string) (string, error) { return manifest.RealPath(dir) }

// plan is what Update writes: the new tree and what it carries over.
type plan struct {
	got Tree
	// old is the current golden state (nil when dir does not exist, or
	// for Write, which does not read it).
	old *goldenDir
	// exists reports that the directory exists (its files are carried).
	exists bool
	// write are the paths of got to write (Added and Changed).
	write map[string]bool
	// drop are owned files no longer rendered that Prune deletes.
	drop map[string]bool
	// owned is the OwnershipFile content of the new tree; nil (Write)
	// leaves an existing OwnershipFile as it is.
	owned []byte
}

func newPlan(rep *Report, old *goldenDir, got Tree, prune bool) *plan {
	p := &plan{got: got, old: old, exists: old != nil, write: map[string]bool{}, drop: map[string]bool{}}
	for _, path := range append(append([]string{}, rep.Added...), rep.Changed...) {
		p.write[path] = true
	}
	owned := got.Paths()
	for _, path := range rep.Removed {
		if prune {
			p.drop[path] = true
		} else {
			owned = append(owned, path)
		}
	}
	p.owned = encodeOwnership(owned)
	return p
}

// needed reports whether the directory must change: files to write or
// prune, or an OwnershipFile that is missing or different.
func (p *plan) needed() bool {
	if len(p.write) > 0 || len(p.drop) > 0 {
		return true
	}
	if len(p.got) == 0 && p.old == nil {
		return false
	}
	return p.old == nil || string(p.old.ownershipData) != string(p.owned)
}

// apply builds the new tree beside target and swaps it in. A directory
// holding a .git entry (a repository's root) is never replaced.
func (p *plan) apply(target string) error {
	if _, err := os.Lstat(filepath.Join(target, ".git")); err == nil {
		return fmt.Errorf("directory %s: %w: it holds .git; drydock replaces the whole directory it writes, so give it a directory of its own", target, ErrInvalidPath)
	}
	parent, base := filepath.Dir(target), filepath.Base(target)
	stage, err := os.MkdirTemp(parent, "."+base+stagingInfix+"new-")
	if err != nil {
		return err
	}
	// MkdirTemp makes 0700; the tree keeps the old directory's mode.
	perm := fs.FileMode(0o755)
	if fi, err := os.Stat(target); err == nil {
		perm = fi.Mode().Perm()
	}
	if err := os.Chmod(stage, perm); err != nil {
		_ = os.RemoveAll(stage)
		return err
	}
	if err := p.build(stage, target); err != nil {
		_ = os.RemoveAll(stage)
		return fmt.Errorf("golden directory %s: %w", target, err)
	}
	stale, err := swapIn(stage, target)
	if err != nil {
		_ = os.RemoveAll(stage)
		if errors.Is(err, syscall.EBUSY) || errors.Is(err, syscall.EXDEV) {
			return fmt.Errorf("directory %s: swap in the new tree: %w (a mount point cannot be replaced: give a directory inside it)", target, err)
		}
		return fmt.Errorf("directory %s: swap in the new tree: %w", target, err)
	}
	if stale != "" {
		return os.RemoveAll(stale)
	}
	return nil
}

// build fills stage with the new tree: carried files from target first,
// then the written ones and the OwnershipFile.
func (p *plan) build(stage, target string) error {
	if p.exists {
		if err := p.carry(stage, target); err != nil {
			return err
		}
	}
	for _, path := range sortedKeys(p.write) {
		perm := fs.FileMode(0o644)
		if fi, err := os.Lstat(filepath.Join(target, filepath.FromSlash(path))); err == nil && fi.Mode().IsRegular() {
			perm = fi.Mode().Perm()
		}
		if err := writeNew(filepath.Join(stage, filepath.FromSlash(path)), p.got[path], perm); err != nil {
			return err
		}
	}
	if p.owned != nil {
		if err := writeNew(filepath.Join(stage, OwnershipFile), p.owned, 0o644); err != nil {
			return err
		}
	}
	return removeEmptied(stage, p.drop)
}

// carry recreates target's directories, symlinks and the files not
// rewritten or dropped in stage, linking files (copying where links fail).
func (p *plan) carry(stage, target string) error {
	return filepath.WalkDir(target, func(full string, d fs.DirEntry, err error) error {
		if err != nil || full == target {
			return err
		}
		rel, err := filepath.Rel(target, full)
		if err != nil {
			return err
		}
		slash, dst := filepath.ToSlash(rel), filepath.Join(stage, rel)
		switch {
		case (slash == OwnershipFile && p.owned != nil) || p.write[slash] || p.drop[slash]:
			return nil
		case d.IsDir():
			fi, err := d.Info()
			if err != nil {
				return err
			}
			return os.Mkdir(dst, fi.Mode().Perm())
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(full)
			if err != nil {
				return err
			}
			return os.Symlink(link, dst)
		case d.Type().IsRegular():
			return linkOrCopy(full, dst)
		}
		return fmt.Errorf("%q: %w: not a regular file, directory or symlink", slash, ErrInvalidPath)
	})
}

// removeEmptied removes, below stage, the directories that held only
// pruned files (they were recreated empty by carry).
func removeEmptied(stage string, dropped map[string]bool) error {
	for _, p := range sortedKeys(dropped) {
		for d := filepath.Dir(filepath.FromSlash(p)); d != "."; d = filepath.Dir(d) {
			if os.Remove(filepath.Join(stage, d)) != nil { // not empty (or gone): stop climbing
				break
			}
		}
	}
	return nil
}

func linkOrCopy(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chtimes(dst, fi.ModTime(), fi.ModTime())
	}
	return err
}

// writeNew creates name with its parents. A file already there (carried
// under another path through a symlinked directory) is unlinked first, so
// the old tree's file, which it may share by a hard link, stays intact.
func writeNew(name string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// stagingInfix marks the names Update gives, in the golden directory's
// parent, to its staging directories (".<base>.drydock-new-<random>"),
// the old tree under the journal (".<base>.drydock-old-<random>") and the
// journal itself (".<base>.drydock-journal").
const stagingInfix = ".drydock-"

// leftovers lists the leftovers of interrupted Updates of target: the
// names, in target's parent, of staging and old directories and of a
// journal.
func leftovers(target string) ([]string, error) {
	parent, base := filepath.Dir(target), filepath.Base(target)
	entries, err := os.ReadDir(parent)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	prefix := "." + base + stagingInfix
	var out []string
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		isDir := e.Type().IsDir() && (strings.HasPrefix(rest, "new-") || strings.HasPrefix(rest, "old-"))
		if isDir || (rest == "journal" && e.Type().IsRegular()) {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// recoverLeftovers completes a journaled swap that was interrupted (the
// new tree moves into place if target is missing), then removes every
// leftover of target. It returns their names.
func recoverLeftovers(target string) ([]string, error) {
	names, err := leftovers(target)
	if err != nil || len(names) == 0 {
		return nil, err
	}
	if err := completeJournal(target); err != nil {
		return nil, err
	}
	parent := filepath.Dir(target)
	for _, n := range names {
		if err := os.RemoveAll(filepath.Join(parent, n)); err != nil {
			return nil, fmt.Errorf("remove the leftover %s of an interrupted update: %w", n, err)
		}
	}
	return names, nil
}
