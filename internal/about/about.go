// Package about is what `drydock version` prints, for the two binaries
// that print it: the front (cmd/drydock), which links only the standard
// library and this package, and the engine (cmd/drydock-engine), which
// links the rest. It imports nothing but the standard library.
package about

import (
	"cmp"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// The controllers whose behaviour drydock reproduces: the conformance
// corpora's references.
const (
	EmulatedKubeVela = "KubeVela v1.11.0-alpha.4 (5a44b5f)"
	EmulatedKarmada  = "Karmada v1.19.0-rc (f8fdd02)"
)

// What the engine links and embeds, for the front, which does neither:
// the CUE and OPA modules (go.mod's requirements) and the oldest and
// newest Kubernetes API schemas (schemas.KubeVersions). The engine reads
// its own; the engine's tests check that these say the same.
const (
	CUE        = "v0.14.1"
	OPA        = "v1.22.2"
	OldestKube = "1.23"
	NewestKube = "1.35"
)

// Build is what `drydock version` says about a binary.
type Build struct {
	Version, Commit, Date string
	Modified              bool
	CUE, OPA              string
	// The oldest and newest Kubernetes API schemas embedded.
	OldestKube, NewestKube string
}

// ResolveVersion is drydock's version: the one a release build stamped,
// else the module version the go command recorded (`go install
// github.com/drydock-dev/drydock/cmd/...@v0.1.0` records v0.1.0; a build
// in a git work tree a pseudo-version), else "(devel)".
func ResolveVersion(stamped string, bi *debug.BuildInfo) string {
	switch {
	case stamped != "":
		return stamped
	case bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)":
		return bi.Main.Version
	}
	return "(devel)"
}

// Read is this binary's build: version (ResolveVersion's), the stamped
// commit and date, else the commit the go command recorded, and the CUE
// and OPA versions linked in (empty when they are not).
func Read(version, commit, date string) Build {
	b := Build{Version: version, Commit: commit, Date: date}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && b.Commit == "":
			b.Commit = s.Value
		case s.Key == "vcs.modified" && commit == "":
			b.Modified = s.Value == "true"
		}
	}
	for _, d := range bi.Deps {
		switch d.Path {
		case "cuelang.org/go":
			b.CUE = d.Version
		case "github.com/open-policy-agent/opa":
			b.OPA = d.Version
		}
	}
	return b
}

// Text is the build as `drydock version` prints it: drydock's version,
// commit and build date, and what it emulates and embeds.
func (bd Build) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "drydock %s", bd.Version)
	var about []string
	if bd.Commit != "" {
		about = append(about, "commit "+bd.Commit[:min(12, len(bd.Commit))])
	}
	if bd.Modified {
		about = append(about, "modified")
	}
	if bd.Date != "" {
		about = append(about, "built "+bd.Date)
	}
	if len(about) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(about, ", "))
	}
	fmt.Fprintf(&b, " %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&b, "emulates %s, %s\n", EmulatedKubeVela, EmulatedKarmada)
	fmt.Fprintf(&b, "CUE %s, OPA %s, Kubernetes API schemas %s to %s\n", cmp.Or(bd.CUE, "(unknown)"), cmp.Or(bd.OPA, "(unknown)"), bd.OldestKube, bd.NewestKube)
	return b.String()
}
