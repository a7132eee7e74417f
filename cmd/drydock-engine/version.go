package main

import (
	"cmp"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/drydock-dev/drydock/schemas"
)

// release is the drydock release that every install path outside a Go
// build pins by default: the README's install lines, action.yml's
// `version` input, the pre-commit wrapper (scripts/pre-commit.sh) and the
// workflow `drydock init` writes. It is the one place to change on a
// release; TestPinnedRelease fails while any of those names another.
const release = "v0.1.0"

// What a release build stamps at link time (.goreleaser.yaml, Dockerfile):
//
//	go build -ldflags "-X main.version=v0.1.0 -X main.commit=SHA -X main.date=RFC3339"
//
// Empty in any other build. init resolves version to what `drydock
// version` prints (see resolveVersion).
var (
	version string
	commit  string
	date    string
)

func init() {
	bi, _ := debug.ReadBuildInfo()
	version = resolveVersion(version, bi)
}

// resolveVersion is drydock's version: the one a release build stamped,
// else the module version the go command recorded (`go install
// github.com/drydock-dev/drydock/cmd/drydock@v0.1.0` records v0.1.0; a
// build in a git work tree a pseudo-version), else "(devel)".
func resolveVersion(stamped string, bi *debug.BuildInfo) string {
	switch {
	case stamped != "":
		return stamped
	case bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)":
		return bi.Main.Version
	}
	return "(devel)"
}

// The controllers whose behaviour drydock reproduces: the conformance
// corpora's references.
const (
	emulatedKubeVela = "KubeVela v1.11.0-alpha.4 (5a44b5f)"
	emulatedKarmada  = "Karmada v1.19.0-rc (f8fdd02)"
)

// build is what `drydock version` says about the binary itself.
type build struct {
	version, commit, date string
	modified              bool
	cue, opa              string
}

// readBuild is this binary's build: the stamped version, commit and date,
// else the commit the go command recorded, and the CUE and OPA versions
// linked in.
func readBuild() build {
	b := build{version: version, commit: commit, date: date}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	for _, s := range bi.Settings {
		switch {
		case s.Key == "vcs.revision" && b.commit == "":
			b.commit = s.Value
		case s.Key == "vcs.modified" && commit == "":
			b.modified = s.Value == "true"
		}
	}
	for _, d := range bi.Deps {
		switch d.Path {
		case "cuelang.org/go":
			b.cue = d.Version
		case "github.com/open-policy-agent/opa":
			b.opa = d.Version
		}
	}
	return b
}

// versionText is what `drydock version` prints: drydock's version, commit
// and build date, and what it emulates and embeds.
func versionText() string { return formatVersion(readBuild()) }

// formatVersion writes a build as `drydock version` prints it.
func formatVersion(bd build) string {
	var b strings.Builder
	fmt.Fprintf(&b, "drydock %s", bd.version)
	var about []string
	if bd.commit != "" {
		about = append(about, "commit "+bd.commit[:min(12, len(bd.commit))])
	}
	if bd.modified {
		about = append(about, "modified")
	}
	if bd.date != "" {
		about = append(about, "built "+bd.date)
	}
	if len(about) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(about, ", "))
	}
	fmt.Fprintf(&b, " %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&b, "emulates %s, %s\n", emulatedKubeVela, emulatedKarmada)
	vs := schemas.KubeVersions()
	fmt.Fprintf(&b, "CUE %s, OPA %s, Kubernetes API schemas %s to %s\n", cmp.Or(bd.cue, "(unknown)"), cmp.Or(bd.opa, "(unknown)"), vs[0], vs[len(vs)-1])
	return b.String()
}

// runVersion is drydock version: --help is its usage, anything else a
// usage error.
func runVersion(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("version", "version", "Prints drydock's version and commit, the KubeVela and Karmada it emulates, and the\nCUE, OPA and Kubernetes API schemas it embeds.")
	if code, done := cmd.parse(args, stdout, stderr); done {
		return code
	}
	if cmd.fs.NArg() > 0 {
		return cmd.fail(stderr, fmt.Errorf("unexpected argument %q", cmd.fs.Arg(0)))
	}
	fmt.Fprint(stdout, versionText())
	return exitOK
}
