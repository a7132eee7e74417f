//go:build !linux

package tree

import (
	"errors"
	"io/fs"
	"os"
)

// createAt says createExcl is not there: writeNew uses an *os.File.
const createAt = false

func createExcl(*os.File, string, string, []byte, fs.FileMode, existing) error {
	return errors.ErrUnsupported
}
