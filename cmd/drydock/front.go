// Command drydock is drydock's front: it prints `drydock version` itself
// and runs every other command (and none, help, completion) in the
// engine, drydock-engine beside it, with the same arguments, standard
// streams and environment (on Unix the engine replaces this process).
// It links only the standard library and two small drydock packages, so
// it starts in about a millisecond; the engine (cmd/drydock-engine)
// links CUE, OPA, Helm, kustomize and the API server's validation, whose
// initialisers cost every command of a single binary ~0.1 CPU-s and
// ~50 MiB, `version` included.
package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/drydock-dev/drydock/internal/about"
	"github.com/drydock-dev/drydock/internal/usage"
)

// What a release build stamps at link time, as in the engine
// (.goreleaser.yaml, Dockerfile): -X main.version=... -X main.commit=...
// -X main.date=...; init resolves version as the engine does.
var (
	version string
	commit  string
	date    string
)

func init() {
	bi, _ := debug.ReadBuildInfo()
	version = about.ResolveVersion(version, bi)
}

const (
	// engineEnv names the engine to run instead of the one beside the
	// front (a test's, a developer's).
	engineEnv = "DRYDOCK_ENGINE"
	// frontVersionEnv carries the front's version to the engine, which
	// refuses to run for a front of another version
	// (cmd/drydock-engine/frontcheck.go).
	frontVersionEnv = "DRYDOCK_FRONT_VERSION"
	// exitUsage is the engine's exit code for a usage or input error.
	exitUsage = 2
)

func main() {
	if isVersion(os.Args[1:]) {
		code := printVersion(os.Stdout, os.Stderr)
		if err := usage.Write(os.Getenv("DRYDOCK_USAGE")); err != nil {
			fmt.Fprintf(os.Stderr, "drydock: DRYDOCK_USAGE: %v\n", err)
		}
		os.Exit(code)
	}
	os.Exit(runEngine(os.Args, os.Environ(), os.Stderr))
}

// isVersion: the command is one the front answers itself, `drydock
// version` and `drydock --version`. `version --help` and `version ARG`
// go to the engine, which owns the usage text and its errors.
func isVersion(args []string) bool {
	return len(args) == 1 && args[0] == "version" || len(args) > 0 && args[0] == "--version"
}

// versionText is the engine's `drydock version`, from the versions the
// engine links and embeds as internal/about names them (the engine's
// TestAboutIsTheEngine checks they are the engine's).
func versionText() string {
	b := about.Read(version, commit, date)
	b.CUE, b.OPA = about.CUE, about.OPA
	b.OldestKube, b.NewestKube = about.OldestKube, about.NewestKube
	return b.Text()
}

// printVersion prints versionText as the engine does, and fails as it
// does when stdout cannot be written.
func printVersion(stdout, stderr io.Writer) int {
	if _, err := io.WriteString(stdout, versionText()); err != nil {
		fmt.Fprintf(stderr, "drydock: write standard output: %v\n", err)
		return exitUsage
	}
	return 0
}

// enginePath is the engine to run: $DRYDOCK_ENGINE, else drydock-engine
// in the directory of this executable with its symlinks resolved (a
// drydock linked into ~/bin runs the engine installed with it). Never
// one found on $PATH, which may be another version's.
func enginePath() (string, error) {
	if p := os.Getenv(engineEnv); p != "" {
		return p, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Join(filepath.Dir(exe), engineName), nil
}

// runEngine runs the engine with argv (argv[0] kept: the engine's
// messages say drydock) and env plus the front's version; it returns
// only when the engine cannot start or, where there is no exec (Windows),
// with the engine's exit code.
func runEngine(argv, env []string, stderr io.Writer) int {
	path, err := enginePath()
	if err == nil {
		_, err = os.Stat(path)
	}
	if err == nil {
		var code int
		code, err = execEngine(path, argv, withEnv(env, frontVersionEnv, version))
		if err == nil {
			return code
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	fmt.Fprintf(stderr, "drydock: cannot run the drydock engine %s: %v\n", path, err)
	fmt.Fprintf(stderr, "drydock: every command but version runs in drydock-engine, installed beside drydock (or named by %s): install both from one release: go install github.com/drydock-dev/drydock/cmd/...@%s, or make build in a checkout (bin/drydock and bin/drydock-engine)\n", engineEnv, installVersion(version))
	return exitUsage
}

// installVersion is what `go install ...@` takes for this build's version.
func installVersion(v string) string {
	if strings.HasPrefix(v, "v") {
		return v
	}
	return "latest"
}

// withEnv is env with key set to value (any earlier key= removed).
func withEnv(env []string, key, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, key+"=") {
			out = append(out, kv)
		}
	}
	return append(out, key+"="+value)
}
