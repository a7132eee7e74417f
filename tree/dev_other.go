//go:build !unix

package tree

import (
	"io/fs"
	"os"
)

// deviceOf is 0: the file system of a file is not known here, so every
// file counts as on the directory's own.
func deviceOf(fs.FileInfo) uint64 { return 0 }

// keepOwner does nothing where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) {}
