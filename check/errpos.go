package check

import (
	"strconv"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// errorPos is the place an input error is about: the position of the
// first manifest.Error in its chain, else the file:line[:col] its text
// starts with, else the zero Pos.
func errorPos(err error) manifest.Pos {
	if p, ok := manifest.PosOf(err); ok {
		return p
	}
	// TODO(issue 11 item 2): use manifest.PosOf once every package returns manifest.Error
	return leadingPos(err.Error())
}

// leadingPos reads the file:line[:col] that msg starts with.
func leadingPos(msg string) manifest.Pos {
	parts := strings.SplitN(msg, ":", 4)
	if len(parts) < 3 {
		return manifest.Pos{}
	}
	line, err1 := strconv.Atoi(parts[1])
	if err1 != nil || line < 1 {
		return manifest.Pos{}
	}
	p := manifest.Pos{File: parts[0], Line: line}
	if len(parts) == 4 {
		if col, err := strconv.Atoi(parts[2]); err == nil {
			p.Col = col
		}
	}
	return p
}
