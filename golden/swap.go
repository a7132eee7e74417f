package golden

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// exchange atomically swaps the directory entries a and b (both exist);
// errors.ErrUnsupported where the system or file system cannot. A
// variable so tests can take the journaled path.
var exchange = renameExchange

// swapIn moves the directory stage to target. A missing target is created
// by one rename. An existing one is exchanged with stage atomically where
// the system can, else replaced by two renames under a journal; either way
// it returns the path now holding the old tree, for the caller to remove.
func swapIn(stage, target string) (string, error) {
	if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
		return "", os.Rename(stage, target)
	} else if err != nil {
		return "", err
	}
	err := exchange(stage, target)
	if err == nil {
		return stage, nil
	}
	if !errors.Is(err, errors.ErrUnsupported) {
		return "", err
	}
	return journaledSwap(stage, target)
}

// journalName is the journal of target's journaled swap, in its parent.
func journalName(target string) string {
	return filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+stagingInfix+"journal")
}

// journaledSwap replaces target by stage with two renames. The journal,
// written completely before the first rename, names both directories so
// that completeJournal can finish an interrupted swap.
func journaledSwap(stage, target string) (string, error) {
	old := filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+stagingInfix+"old-"+randomSuffix())
	journal := journalName(target)
	content := fmt.Sprintf("new %s\nold %s\n", filepath.Base(stage), filepath.Base(old))
	if err := createFile(journal, []byte(content), 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(target, old); err != nil {
		_ = os.Remove(journal)
		return "", err
	}
	if err := os.Rename(stage, target); err != nil {
		return "", err // the journal stays: the next Update completes the swap
	}
	return old, os.Remove(journal)
}

// completeJournal finishes a journaled swap of target that was
// interrupted between its two renames: the new tree moves into place. A
// journal that is incomplete was interrupted before any rename.
func completeJournal(target string) error {
	data, err := readRegular(journalName(target))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var newName string
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "new "); ok && filepath.Base(v) == v {
			newName = v
		}
	}
	if newName == "" || !strings.Contains(string(data), "\nold ") {
		return nil
	}
	if _, err := os.Lstat(target); !errors.Is(err, fs.ErrNotExist) {
		return nil // target is in place (old or new tree): nothing to complete
	}
	return os.Rename(filepath.Join(filepath.Dir(target), newName), target)
}

// randomSuffix is 16 random hex digits: names that cannot collide across
// runs or processes.
func randomSuffix() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
