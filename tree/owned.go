package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// OwnershipFile is the name of the file, at the top of a directory drydock
// writes (a golden directory, an --output-dir), that lists the files
// drydock wrote there, one slash path a line, sorted. drydock rewrites and
// deletes only the files it lists; a comparison reports as Removed, and pruning
// deletes, only those. A user's own foo.yaml in the directory is never
// reported as stale, rewritten or deleted.
//
// A directory without it owns nothing: a rendered file whose path is
// taken by a file drydock did not write is an error, however much its
// path looks like drydock's. Taking such a tree over (goldens written
// before ownership files existed) is explicit: UpdateOptions.Adopt lists
// the rendered paths' existing files in the OwnershipFile and reports
// them as Adopted.
const OwnershipFile = ".drydock-golden"

const ownershipHeader = "# Files drydock wrote in this golden directory; --prune deletes only these.\n"

// ownership is the set of paths of a directory's files drydock owns.
type ownership struct {
	// listed is nil when the directory has no OwnershipFile. Its keys
	// are the paths; the values are the holder's (a listing's: whether
	// the file is there).
	listed map[string]bool
}

// owns reports whether drydock wrote the file at p.
func (o ownership) owns(p string) bool {
	_, ok := o.listed[p]
	return ok
}

// readOwnership reads root's OwnershipFile (root is resolved and exists).
// It also returns the file's bytes (nil when there is none) and its
// FileID, had before it was read (ok false: the system gives none).
func readOwnership(root string) (o ownership, data []byte, id FileID, ok bool, err error) {
	data, fi, err := readRegular(filepath.Join(root, OwnershipFile))
	if errors.Is(err, fs.ErrNotExist) {
		return ownership{}, nil, FileID{}, false, nil
	}
	if err != nil {
		return ownership{}, nil, FileID{}, false, err
	}
	id, ok = StatID(fi)
	o, err = parseOwnership(data)
	return o, data, id, ok, err
}

// ParseOwnership reads the content of an OwnershipFile: the set of paths
// it lists (each a valid tree path, else an error wrapping
// ErrInvalidPath). For callers that read the file themselves.
func ParseOwnership(data []byte) (map[string]bool, error) {
	o, err := parseOwnership(data)
	return o.listed, err
}

// parseOwnership reads the OwnershipFile content data.
func parseOwnership(data []byte) (ownership, error) {
	// One string for the whole file, its lines cut from it: a directory
	// of 20,000 files lists 20,000 lines, read by every comparison.
	text := string(data)
	o := ownership{listed: make(map[string]bool, strings.Count(text, "\n")+1)}
	for rest := text; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := validPath(line, false); err != nil {
			return ownership{}, fmt.Errorf("%s: %w", OwnershipFile, err)
		}
		o.listed[line] = true
	}
	return o, nil
}

// encodeOwnership is the OwnershipFile content listing paths.
func encodeOwnership(paths []string) []byte {
	sorted := append([]string(nil), paths...)
	sort.Strings(sorted)
	var b bytes.Buffer
	b.WriteString(ownershipHeader)
	for _, p := range sorted {
		b.WriteString(p)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// readRegular reads the regular file at name; anything else (a symlink, a
// FIFO, a directory) is refused. It also returns what Lstat said of it
// before it was read.
func readRegular(name string) ([]byte, fs.FileInfo, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: %w: not a regular file", name, ErrInvalidPath)
	}
	data, err := manifest.ReadFile(name)
	return data, fi, err
}
