// Package builtin holds drydock's own built-in KubeVela definitions,
// embedded so that a render needs no flags and no network. They are CUE
// files in the `vela def` format, written for drydock to render exactly what
// KubeVela's built-in definitions of the same names render.
//
// The package carries the files and parses them with render: Definitions
// is the set a render starts from (each parsed at its first use), Merge
// adds a render's own definitions over it.
package builtin

import "embed"

// FS holds the definition files (*.cue) at its root.
//
//go:embed *.cue
var FS embed.FS
