package golden

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
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
// wholly the new one.
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
var arity = map[string]int{opStage: 2, opMkdir: 1, opDelete: 1, opOwn: 1, opCommit: 0}

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
		if err := validPath(a, false); err != nil {
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
