//go:build !linux

package tree

import (
	"errors"
	"os"
)

// renameNoReplace is unsupported here: the caller checks that new is
// absent, then renames (a file created between the two is replaced).
func renameNoReplace(*os.File, string, string) error { return errors.ErrUnsupported }
