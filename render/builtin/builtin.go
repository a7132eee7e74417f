// Package builtin holds drydock's own built-in KubeVela definitions,
// embedded so that a render needs no flags and no network. They are CUE
// files in the `vela def` format, written for drydock to render exactly what
// KubeVela's built-in definitions of the same names render.
//
// The package only carries the files; render parses them.
package builtin

import "embed"

// FS holds the definition files (*.cue) at its root.
//
//go:embed *.cue
var FS embed.FS
