package main

import (
	"fmt"
	"io"
	"os"
)

// frontVersionEnv is where the front (cmd/drydock) tells the engine its
// version when it runs it.
const frontVersionEnv = "DRYDOCK_FRONT_VERSION"

// checkFront refuses a front of another version than this engine's (a
// drydock from one release beside a drydock-engine of another): its
// commands would not be the ones the front's version documents. The
// front's version is $DRYDOCK_FRONT_VERSION: unset (the engine run
// directly) is no front. The variable is removed, so that what the engine
// runs does not inherit it.
func checkFront(stderr io.Writer) (code int, ok bool) {
	front, set := os.LookupEnv(frontVersionEnv)
	if !set {
		return exitOK, true
	}
	os.Unsetenv(frontVersionEnv)
	if front == version {
		return exitOK, true
	}
	fmt.Fprintf(stderr, "drydock: drydock is %s but its engine %s is %s: install both from one release (go install github.com/drydock-dev/drydock/cmd/...@VERSION, or make build in a checkout)\n", front, engineExe(), version)
	return exitUsage, false
}

// engineExe is this binary's path, for messages.
func engineExe() string {
	exe, err := os.Executable()
	if err != nil {
		return "drydock-engine"
	}
	return exe
}
