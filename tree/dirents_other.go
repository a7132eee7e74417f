//go:build !linux

package tree

import "errors"

// direntsRead says readDirents is there: not on this system (a listing
// walks with filepath.WalkDir).
const direntsRead = false

const (
	direntUnknown = iota
	direntDir
	direntReg
	direntLink
)

func readDirents(string, []byte, func([]byte, uint8) error) error {
	return errors.ErrUnsupported
}
