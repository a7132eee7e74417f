//go:build !linux

package tree

import (
	"errors"
	"os"
)

// statAt says fstatAt is not there: treeReader stats through os.Root.
const statAt = false

func fstatAt(*os.File, int, string) (FileID, bool, error) {
	return FileID{}, false, errors.ErrUnsupported
}
