package golden

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/drydock-dev/drydock/manifest"
)

// OwnershipFile is the name of the file, at the top of a golden
// directory, that lists the golden files drydock wrote there, one slash
// path a line, sorted. Update writes it with the tree (commit it with the
// tree); Compare and Update's pruning consider only the files it lists, so
// a user's own foo.yaml in the directory is never reported as stale nor
// deleted.
//
// A directory without it (written by an older drydock) owns the .yaml
// files whose path has drydock's canonical shape (see canonical).
const OwnershipFile = ".drydock-golden"

const ownershipHeader = "# Files drydock wrote in this golden directory; --prune deletes only these.\n"

// canonical matches an output-tree path: <cluster>/<namespace or
// _cluster>/<kind>[.<group>]_<name>.yaml, with Kubernetes' name characters
// (a long name shortened by ObjectPath still matches).
var canonical = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*/(_cluster|[a-z0-9][a-z0-9-]*)/[a-z0-9][a-z0-9.-]*_[^/]+\.yaml$`)
})

// ownership is the set of paths a golden directory's files drydock owns.
type ownership struct {
	// listed is nil when the directory has no OwnershipFile.
	listed map[string]bool
}

// owns reports whether drydock wrote the golden file at p.
func (o ownership) owns(p string) bool {
	if o.listed == nil {
		return canonical().MatchString(p)
	}
	return o.listed[p]
}

// readOwnership reads root's OwnershipFile (root is resolved and exists).
// It also returns the file's bytes (nil when there is none).
func readOwnership(root string) (ownership, []byte, error) {
	data, err := readRegular(filepath.Join(root, OwnershipFile))
	if errors.Is(err, fs.ErrNotExist) {
		return ownership{}, nil, nil
	}
	if err != nil {
		return ownership{}, nil, err
	}
	o, err := parseOwnership(data)
	return o, data, err
}

// parseOwnership reads the OwnershipFile content data.
func parseOwnership(data []byte) (ownership, error) {
	o := ownership{listed: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := validPath(line, true); err != nil {
			return ownership{}, fmt.Errorf("%s: %w", OwnershipFile, err)
		}
		o.listed[line] = true
	}
	return o, sc.Err()
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
// FIFO, a directory) is refused.
func readRegular(name string) ([]byte, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w: not a regular file", name, ErrInvalidPath)
	}
	return manifest.ReadFile(name)
}
