package check

import "github.com/drydock-dev/drydock/manifest"

// errorPos is the place an input error is about: the position of the
// first manifest.Error (or manifest.Positioned error) in its chain, else
// the zero Pos. Nothing reads a position from an error's text.
func errorPos(err error) manifest.Pos {
	if p, ok := manifest.PosOf(err); ok {
		return p
	}
	return manifest.Pos{}
}
