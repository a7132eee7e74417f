//go:build !unix

package tree

import (
	"errors"
	"io/fs"
	"os"
)

// tryLock creates root's LockFile exclusively; held reports that it
// exists. A run killed while holding it leaves it behind: the error after
// LockWait names the file to remove.
func tryLock(root *os.Root) (unlock func(), held bool, err error) {
	f, err := root.OpenFile(LockFile, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	f.Close()
	return func() { _ = root.Remove(LockFile) }, false, nil
}
