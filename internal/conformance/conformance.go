// Package conformance guards the tests that run the shared conformance
// corpora (../shared/conformance, beside the repository): when the
// corpora are missing, those tests skip, and a passing `go test ./...`
// would not say so. Guard wraps a test binary's main so that it says
// loudly that the corpora were not run (on stderr, and on the terminal
// when there is one, since go test shows a passing package's output only
// with -v), and fails the package instead when RequireEnv is set, as CI
// sets it.
//
// It is for TestMain functions only: unlike the library packages it
// reads the environment and writes to the terminal.
package conformance

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// RequireEnv is the environment variable that, set to anything but ""
// (.ci/run sets it to 1), makes a missing corpus fail the tests instead of
// skipping them.
const RequireEnv = "DRYDOCK_REQUIRE_CONFORMANCE"

// TestingM is what Guard wraps: *testing.M, or anything with its Run
// (testscript.Main takes one).
type TestingM interface {
	// Run runs the tests and returns the exit code.
	Run() int
}

// Guard returns m checking, before its tests run, that root (the
// conformance corpora, relative to the package's directory) exists:
//
//	func TestMain(m *testing.M) {
//		os.Exit(conformance.Guard(m, "../../shared/conformance").Run())
//	}
func Guard(m TestingM, root string) TestingM {
	return guarded{m: m, root: root, stderr: os.Stderr, tty: "/dev/tty"}
}

type guarded struct {
	m      TestingM
	root   string
	stderr io.Writer
	// tty is the terminal's device, written when it opens.
	tty string
}

// Run checks the corpora, then runs the tests unless they are required
// and missing (exit 1).
func (g guarded) Run() int {
	warn := []io.Writer{g.stderr}
	if tty, err := os.OpenFile(g.tty, os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		warn = append(warn, tty)
	}
	return run(g.m, g.root, os.Getenv(RequireEnv) != "", warn)
}

// run is Guard's Run with the environment and the terminal given.
func run(m TestingM, root string, required bool, warn []io.Writer) int {
	err := Check(root)
	if err == nil {
		return m.Run()
	}
	msg := Banner(err, required)
	for _, w := range warn {
		fmt.Fprint(w, msg)
	}
	if required {
		return 1
	}
	return m.Run()
}

// Check returns nil when root is a directory, else an error saying the
// corpora under it cannot be run.
func Check(root string) error {
	info, err := os.Stat(root)
	switch {
	case err != nil:
		return fmt.Errorf("conformance corpora: %w", err)
	case !info.IsDir():
		return fmt.Errorf("conformance corpora: %s is not a directory", root)
	}
	return nil
}

// Banner is the loud message for a missing corpus (err from Check):
// which package's corpora were not run and what to do; required says the
// tests fail because of it.
func Banner(err error, required bool) string {
	line := strings.Repeat("=", 72)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\nWARNING: the conformance corpora were NOT run: %v\n", line, err)
	b.WriteString("Clone the shared repository beside this one (../shared) to run them.\n")
	if required {
		fmt.Fprintf(&b, "%s is set: failing instead of skipping them.\n", RequireEnv)
	} else {
		fmt.Fprintf(&b, "CI sets %s=1 and fails without them.\n", RequireEnv)
	}
	b.WriteString(line + "\n")
	return b.String()
}
