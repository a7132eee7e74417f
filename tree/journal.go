package tree

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
)

// JournalFile is the name of the journal of an update in progress, beside
// the OwnershipFile. An update appends to it, before each change, what it
// is about to do: each staged file (written beside its target under a
// temporary name) and each directory it creates; then, at commit, the
// deletions and the new OwnershipFile, and a last line "commit", synced.
// Only then does it rename the staged files over their targets. The next
// drydock run that opens the directory reads a journal left by a killed
// update: a committed one is rolled forward (the renames and deletions
// are done again where still needed), an uncommitted one is rolled back
// (its staged files and the empty directories it made are removed).
// Either way the files drydock owns are then wholly the old tree or
// wholly the new one. A journal is trusted no more than the directory it
// lies in: one asking for anything an update could not have journaled
// (renaming or removing a file that is not drydock's temporary file,
// replacing or deleting a file drydock does not own, a control file, a
// path through a symbolic link) is refused before any of it is done,
// with an error wrapping ErrInvalidPath; one that was adopting a file is
// completed only by a run that adopts (else ErrNotOwned).
const JournalFile = ".drydock-golden.journal"

// LockFile is the name of the lock of a directory's updates, beside the
// OwnershipFile: every drydock updating the directory takes an exclusive
// lock on it, whatever its environment, and removes it when done.
const LockFile = ".drydock-golden.lock"

const journalHeader = "drydock journal 1\n"

// Journal operations, one a line, their operands quoted (strconv.Quote).
const (
	opStage  = "stage"  // stage TMP PATH: TMP is renamed over PATH at commit
	opMkdir  = "mkdir"  // mkdir DIR: the update created DIR
	opDelete = "delete" // delete PATH: an owned file pruned at commit
	opOwn    = "own"    // own TMP: TMP becomes the OwnershipFile at commit
	opAdopt  = "adopt"  // adopt PATH: the update takes over PATH, a file it did not write
	opCommit = "commit" // the update is decided: roll forward
)

// journalEntry is one line of a journal.
type journalEntry struct {
	op   string
	args []string
}

// journal is the open journal of an update.
type journal struct {
	f *os.File
}

// add appends one entry; it reaches the file (one write) before it
// returns, so a kill right after leaves it readable.
func (j *journal) add(op string, args ...string) error {
	var b strings.Builder
	b.WriteString(op)
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(a))
	}
	b.WriteByte('\n')
	step()
	_, err := j.f.WriteString(b.String())
	return err
}

// commit appends the commit line and syncs the journal to disk: the
// update's point of no return.
func (j *journal) commit() error {
	if err := j.add(opCommit); err != nil {
		return err
	}
	step()
	return j.f.Sync()
}

// parseJournal reads a journal's entries; committed reports a final
// commit line. A torn last line (a kill while it was written) is ignored:
// its operation had not started.
func parseJournal(data []byte) (entries []journalEntry, committed bool, err error) {
	if !bytes.HasPrefix(data, []byte(journalHeader)) {
		if bytes.HasPrefix([]byte(journalHeader), data) {
			return nil, false, nil // torn header: nothing was done
		}
		return nil, false, fmt.Errorf("%s: not a drydock journal", JournalFile)
	}
	sc := bufio.NewScanner(bytes.NewReader(data[len(journalHeader):]))
	sc.Buffer(nil, 1<<20)
	complete := bytes.HasSuffix(data, []byte("\n"))
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, false, fmt.Errorf("%s: %w", JournalFile, err)
	}
	if !complete && len(lines) > 0 {
		lines = lines[:len(lines)-1]
	}
	for i, line := range lines {
		e, err := parseEntry(line)
		if err != nil {
			return nil, false, fmt.Errorf("%s: line %d: %w", JournalFile, i+2, err)
		}
		if e.op == opCommit {
			return entries, true, nil
		}
		entries = append(entries, e)
	}
	return entries, false, nil
}

// arity is the number of operands of each journal operation.
var arity = map[string]int{opStage: 2, opMkdir: 1, opDelete: 1, opOwn: 1, opAdopt: 1, opCommit: 0}

func parseEntry(line string) (journalEntry, error) {
	op, rest, _ := strings.Cut(line, " ")
	n, ok := arity[op]
	if !ok {
		return journalEntry{}, fmt.Errorf("unknown operation %q", op)
	}
	e := journalEntry{op: op}
	for rest != "" {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return journalEntry{}, fmt.Errorf("operation %s: %w", op, err)
		}
		a, _ := strconv.Unquote(q)
		if err := cleanPath(a); err != nil {
			return journalEntry{}, err
		}
		e.args = append(e.args, a)
		rest = strings.TrimPrefix(rest[len(q):], " ")
	}
	if len(e.args) != n {
		return journalEntry{}, fmt.Errorf("operation %s: %d operands, want %d", op, len(e.args), n)
	}
	return e, nil
}

// A journal is read from the directory, which may come from a repository
// checkout or another user: recovery trusts none of it. Before doing
// anything it checks the whole journal (checkReplay, checkRollback) and
// refuses it, touching nothing, unless every step is one an update of
// this directory could have journaled:
//   - only drydock's temporary files (tempName) are renamed or removed,
//     each in the directory of its target, reached through real
//     directories only;
//   - a staged file replaces a path the staged OwnershipFile lists, and
//     only a file the current OwnershipFile lists, a missing one, or one
//     the journal adopted while the recovering run adopts too;
//   - a deleted file is listed by the current OwnershipFile and dropped
//     by the staged one;
//   - no step names drydock's control files (OwnershipFile, JournalFile,
//     LockFile) as a target.

// tempName reports whether the base name of p is one drydock gives the
// files it stages: .drydock-<16 hex digits>-<n>.tmp.
func tempName(p string) bool {
	base := path.Base(p)
	rest, ok := strings.CutPrefix(base, ".drydock-")
	if !ok {
		return false
	}
	rest, ok = strings.CutSuffix(rest, ".tmp")
	id, n, found := strings.Cut(rest, "-")
	if !ok || !found || len(id) != 16 || n == "" || strings.Trim(id, "0123456789abcdef") != "" {
		return false
	}
	return strings.Trim(n, "0123456789") == "" && n[0] != '0'
}

// controlName reports whether p names one of drydock's control files or
// temporary files, which no tree path, ownership entry or journal target
// may name.
func controlName(p string) bool {
	switch path.Base(p) {
	case OwnershipFile, JournalFile, LockFile:
		return true
	}
	return tempName(p)
}

// refuse is the error for a journal step recovery will not do.
func refuse(e journalEntry, why string) error {
	return fmt.Errorf("%s %q: %w: %s; drydock did not write this journal: remove %s after checking the directory", e.op, e.args, ErrInvalidPath, why, JournalFile)
}

// checkRollback checks an uncommitted journal: it may remove only
// drydock's temporary files, reached through real directories.
func (d *ownedDir) checkRollback(entries []journalEntry) error {
	for _, e := range entries {
		switch e.op {
		case opStage, opOwn:
			if !tempName(e.args[0]) {
				return refuse(e, "not a file drydock stages")
			}
			if err := d.checkDirs(path.Dir(e.args[0]), false); err != nil {
				return err
			}
		case opMkdir:
			if controlName(e.args[0]) {
				return refuse(e, "a control file's name")
			}
			if err := d.checkDirs(path.Dir(e.args[0]), false); err != nil {
				return err
			}
		}
	}
	return nil
}

// replayPlan is what a checked committed journal still has to do.
type replayPlan struct {
	// ownTmp is the staged OwnershipFile; done when it is already in
	// place (then everything before it was done).
	ownTmp string
	done   bool
}

// checkReplay checks a committed journal (see above). adopt says the
// recovering run may take over the files the journal adopted.
func (d *ownedDir) checkReplay(entries []journalEntry, adopt bool) (replayPlan, error) {
	var plan replayPlan
	adopted := map[string]bool{}
	for _, e := range entries {
		switch e.op {
		case opOwn:
			if plan.ownTmp != "" || !tempName(e.args[0]) || path.Dir(e.args[0]) != "." {
				return plan, refuse(e, "not one staged ownership file at the top")
			}
			plan.ownTmp = e.args[0]
		case opAdopt:
			adopted[e.args[0]] = true
		}
	}
	if plan.ownTmp == "" {
		return plan, fmt.Errorf("%s: %w: a committed journal without its ownership file; drydock did not write this journal: remove it after checking the directory", JournalFile, ErrInvalidPath)
	}
	staged, err := d.isStaged(plan.ownTmp)
	if err != nil || !staged {
		plan.done = true // renamed last: every step before it is done
		return plan, err
	}
	data, err := readIn(d.root, plan.ownTmp)
	if err != nil {
		return plan, err
	}
	next, err := parseOwnership(data)
	if err != nil {
		return plan, err
	}
	cur, err := d.currentOwnership()
	if err != nil {
		return plan, err
	}
	for _, e := range entries {
		if err := d.checkStep(e, cur, next, adopted[e.args[len(e.args)-1]], adopt); err != nil {
			return plan, err
		}
	}
	return plan, nil
}

// checkStep checks one step of a committed journal whose new ownership is
// next, the current one cur; adopted says the journal adopted the step's
// target, adopt that the recovering run may complete that.
func (d *ownedDir) checkStep(e journalEntry, cur, next ownership, adopted, adopt bool) error {
	switch e.op {
	case opStage:
		tmp, p := e.args[0], e.args[1]
		switch {
		case !tempName(tmp) || path.Dir(tmp) != path.Dir(p):
			return refuse(e, "not a file drydock stages beside its target")
		case controlName(p) || !next.owns(p):
			return refuse(e, "a target the staged ownership file does not list")
		}
		old, err := d.lookup(p)
		if err != nil {
			return err
		}
		if staged, err := d.isStaged(tmp); err != nil || !staged {
			return err
		}
		if old.found && !cur.owns(p) && !adopted {
			return refuse(e, "it would replace a file drydock does not own")
		}
		if old.found && !cur.owns(p) && !adopt {
			return fmt.Errorf("%q: %w: an interrupted update was taking over this file drydock did not write; run again with --adopt to complete it, or remove %s to leave it", p, ErrNotOwned, JournalFile)
		}
	case opDelete:
		p := e.args[0]
		if controlName(p) || !cur.owns(p) || next.owns(p) {
			return refuse(e, "not a file drydock owns and prunes")
		}
		if _, err := d.lookup(p); err != nil {
			return err
		}
	case opMkdir, opAdopt:
		if controlName(e.args[0]) {
			return refuse(e, "a control file's name")
		}
	}
	return nil
}

// currentOwnership reads the directory's OwnershipFile (none owns
// nothing).
func (d *ownedDir) currentOwnership() (ownership, error) {
	data, err := readIn(d.root, OwnershipFile)
	if errors.Is(err, fs.ErrNotExist) {
		return ownership{}, nil
	}
	if err != nil {
		return ownership{}, err
	}
	return parseOwnership(data)
}

// replay does a checked committed journal's changes, skipping those
// already done: staged files renamed over their targets, pruned files
// deleted, the new OwnershipFile put in place.
func (d *ownedDir) replay(entries []journalEntry, plan replayPlan) error {
	if plan.done {
		return nil
	}
	for _, op := range []string{opStage, opDelete} {
		for _, e := range entries {
			var err error
			switch {
			case e.op != op:
			case op == opStage:
				err = d.renameStaged(e.args[0], e.args[1])
			default:
				_, err = d.prune(e.args[0])
			}
			if err != nil {
				return err
			}
		}
	}
	return d.renameStaged(plan.ownTmp, OwnershipFile)
}

// rollback undoes a checked uncommitted journal: its staged files are
// removed, then the directories it made, if they are empty.
func (d *ownedDir) rollback(entries []journalEntry) error {
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		switch e.op {
		case opStage, opOwn:
			if err := d.removeStaged(e.args[0]); err != nil {
				return err
			}
		case opMkdir:
			if fi, err := d.root.Lstat(e.args[0]); err == nil && fi.IsDir() {
				_ = d.root.Remove(e.args[0]) // only if empty: another process may use it
			}
		}
	}
	return nil
}
