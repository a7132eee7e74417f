//go:build windows

package main

import (
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// engineName is the engine's file name.
const engineName = "drydock-engine.exe"

// execEngine runs the engine as a child with this process's standard
// streams and returns its exit code (Windows has no exec). Ctrl+C and
// Ctrl+Break reach every process of the console, the engine included:
// the front catches them, so that it waits for the engine's exit instead
// of dying first, and passes the engine's code on.
func execEngine(path string, argv, env []string) (int, error) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	cmd := &exec.Cmd{Path: path, Args: argv, Env: env, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), nil
	}
	if err != nil {
		return 0, err
	}
	return 0, nil
}
