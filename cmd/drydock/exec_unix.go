//go:build unix

package main

import "syscall"

// engineName is the engine's file name.
const engineName = "drydock-engine"

// execEngine replaces this process with the engine (execve): no second
// process, the same pid, signals and exit status the engine's. It
// returns only when the exec fails.
func execEngine(path string, argv, env []string) (int, error) {
	return 0, syscall.Exec(path, argv, env)
}
