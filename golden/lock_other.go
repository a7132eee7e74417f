//go:build !unix

package golden

import (
	"errors"
	"io/fs"
	"os"
)

// tryLock creates the file name exclusively; held reports that it exists.
// A run killed while holding it leaves it behind: the error after LockWait
// names the file to remove.
func tryLock(name string) (unlock func(), held bool, err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	f.Close()
	return func() { os.Remove(name) }, false, nil
}
