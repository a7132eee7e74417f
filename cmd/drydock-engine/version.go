package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/drydock-dev/drydock/internal/about"
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
// version` prints (see about.ResolveVersion).
var (
	version string
	commit  string
	date    string
)

func init() {
	bi, _ := debug.ReadBuildInfo()
	version = about.ResolveVersion(version, bi)
}

// versionText is what `drydock version` prints (about.Build.Text): this
// binary's build, with the CUE and OPA linked in and the Kubernetes API
// schemas embedded. The front (cmd/drydock) prints the same from
// about's constants.
func versionText() string {
	b := about.Read(version, commit, date)
	vs := schemas.KubeVersions()
	b.OldestKube, b.NewestKube = vs[0], vs[len(vs)-1]
	return b.Text()
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
