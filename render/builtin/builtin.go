// Package builtin holds the built-in KubeVela definitions, embedded so
// that a render needs no flags and no network: every definition KubeVela
// v1.11's vela-core chart installs (charts/vela-core/templates/
// defwithtemplate at kubevela 5a44b5f, listed in testdata/chart-names.txt).
// Most components and traits are CUE files in the `vela def` format,
// written for drydock to render exactly what KubeVela's definitions of the
// same names render; the others are the chart's files themselves (YAML,
// its namespace placeholder replaced by vela-system).
//
// The package carries the files and parses them with render: Definitions
// is the set a render starts from (each parsed at its first use), Merge
// adds a render's own definitions over it.
package builtin

import "embed"

// FS holds the definition files (*.cue, *.yaml) at its root.
//
//go:embed *.cue *.yaml
var FS embed.FS
