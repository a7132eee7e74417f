//go:build !linux

package pipeline

import (
	"os"

	"github.com/drydock-dev/drydock/tree"
)

// statID is the identity of the file at p, false when it has none.
func statID(p string) (tree.FileID, bool) {
	fi, err := os.Stat(p)
	if err != nil {
		return tree.FileID{}, false
	}
	return tree.StatID(fi)
}
