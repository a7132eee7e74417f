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

// dirStat stats files by path here (the Linux one, by name in an open
// directory).
type dirStat struct{}

// stat is statID(abs).
func (*dirStat) stat(abs string) (tree.FileID, bool) { return statID(abs) }

func (*dirStat) close() {}
