package deftest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// Definition-test snapshots live under __snapshot__/<base>/<name>.yaml
// beside their test file <base>.yaml. drydock reads and writes them only
// as regular files in real directories: no symbolic link on the way down
// from the test file's directory is followed, a FIFO or device is refused
// before it is opened, and reads stop at manifest.MaxInputBytes. Each
// snapshot directory is written through tree.Updater, whose ownership
// file (tree.OwnershipFile) lists the snapshots drydock wrote: only those
// are ever rewritten or pruned.

// snapshotRoot is the directory under a test file's directory holding
// its snapshots.
const snapshotRoot = "__snapshot__"

// errSnapshotPath is wrapped by every refusal of a snapshot path: a
// symbolic link, or something other than a directory or a regular file.
var errSnapshotPath = errors.New("not a snapshot drydock may read or write")

// snapshotPlace is where test name of file keeps its snapshot: the test
// file's directory, the snapshot directory below it (a slash path) and
// the snapshot's name in that directory.
func snapshotPlace(file, name string) (testDir, dir, snap string) {
	base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(file), ".yaml"), ".yml")
	safe := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || unicode.IsSpace(r) || unicode.IsControl(r) {
			return '_'
		}
		return r
	}, name)
	return filepath.Dir(file), snapshotRoot + "/" + base, safe + ".yaml"
}

// snapshotPath is where test name of file keeps its snapshot, for
// messages.
func snapshotPath(file, name string) string {
	testDir, dir, snap := snapshotPlace(file, name)
	return filepath.Join(testDir, filepath.FromSlash(dir), snap)
}

// checkInside checks the path rel (slash-separated, below dir) component
// by component without following any symbolic link: every component but
// the last must be a directory, the last a directory (file false) or a
// regular file (file true). It returns what it found at rel; a missing
// component is fs.ErrNotExist.
func checkInside(root *os.Root, dir, rel string, file bool) (fs.FileInfo, error) {
	parts := strings.Split(rel, "/")
	var fi fs.FileInfo
	for i := range parts {
		p := path.Join(parts[:i+1]...)
		var err error
		if fi, err = root.Lstat(p); err != nil {
			return nil, err
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		switch last := i == len(parts)-1; {
		case fi.Mode()&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("%s: %w: it is a symbolic link (snapshots are kept in real directories, as regular files)", full, errSnapshotPath)
		case !last || !file:
			if !fi.IsDir() {
				return nil, fmt.Errorf("%s: %w: not a directory", full, errSnapshotPath)
			}
		case !fi.Mode().IsRegular():
			return nil, fmt.Errorf("%s: %w: not a regular file (%s)", full, errSnapshotPath, manifest.FileType(fi.Mode()))
		}
	}
	return fi, nil
}

// readInside reads the regular file rel (a slash path below dir), checked
// by checkInside before it is opened: a FIFO or a device is never opened,
// and the file opened must be the file checked (O_NONBLOCK and a check
// of the open file close the race with a swap). The open goes through an
// os.Root at dir, which opens every component with O_NOFOLLOW, so even a
// link made after the check cannot lead out of dir. At most
// manifest.MaxInputBytes are read. A missing file is fs.ErrNotExist.
func readInside(dir, rel string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	checked, err := checkInside(root, dir, rel, true)
	if err != nil {
		return nil, err
	}
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if checked.Size() > manifest.MaxInputBytes {
		return nil, fmt.Errorf("%s: %w", full, manifest.ErrTooLarge)
	}
	data, err := manifest.ReadIn(root, rel)
	if errors.Is(err, manifest.ErrNotRegular) {
		return nil, fmt.Errorf("%w: %w", errSnapshotPath, err)
	}
	return data, err
}

// snapshotOwned is the set of snapshots of the snapshot directory dir
// (below testDir) that drydock wrote: those its tree.OwnershipFile
// lists. A directory without one owns nothing.
func snapshotOwned(testDir, dir string) (map[string]bool, error) {
	data, err := readInside(testDir, dir+"/"+tree.OwnershipFile)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	owned, err := tree.ParseOwnership(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(testDir, filepath.FromSlash(dir)), err)
	}
	return owned, nil
}

// snapshotWrite is a snapshot to write: the test file's directory, the
// snapshot directory below it, the snapshot's name there and its bytes.
type snapshotWrite struct {
	testDir, dir, name string
	data               []byte
}

// writeSnapshots writes the snapshots of one snapshot directory (all of
// ws share testDir and dir) through tree.Updater, and gives the files it
// created, rewrote or deleted: new ones are
// created, owned ones rewritten; with prune the owned snapshots not in ws
// are deleted. The directories on the way are checked first: none may be
// a symbolic link.
func writeSnapshots(ws []snapshotWrite, prune bool) ([]string, error) {
	testDir, dir := ws[0].testDir, ws[0].dir
	root, err := os.OpenRoot(testDir)
	if err != nil {
		return nil, err
	}
	_, err = checkInside(root, testDir, dir, false)
	root.Close()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	full := filepath.Join(testDir, filepath.FromSlash(dir))
	u, err := tree.NewUpdater(full, tree.UpdateOptions{Prune: prune, Base: testDir})
	if err != nil {
		return nil, fmt.Errorf("snapshots %s: %w", full, err)
	}
	for _, w := range ws {
		if err := u.Put(w.name, w.data); err != nil {
			u.Abort()
			return nil, fmt.Errorf("snapshots %s: %w", full, err)
		}
	}
	rep, err := u.Commit()
	if err != nil {
		return nil, fmt.Errorf("snapshots %s: %w", full, err)
	}
	changed := slices.Concat(rep.Added, rep.Changed)
	if rep.Pruned {
		changed = append(changed, rep.Removed...)
	}
	written := make([]string, len(changed))
	for i, name := range changed {
		written[i] = filepath.Join(full, filepath.FromSlash(name))
	}
	return written, nil
}
