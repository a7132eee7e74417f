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

	"github.com/drydock-dev/drydock/manifest"
)

// UpdateOptions tunes Update.
type UpdateOptions struct {
	// Prune deletes the golden files drydock owns (see OwnershipFile)
	// that are no longer rendered, and the directories that deleting them
	// leaves empty. Without it they are kept and only reported as Removed.
	Prune bool
}

// realTarget is the directory Update really replaces: dir, absolute, with
// the symlinks of its longest existing prefix resolved.
func realTarget(dir string) (string, error) { return manifest.RealPath(dir) }

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
