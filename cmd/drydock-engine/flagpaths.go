package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/drydock-dev/drydock/manifest"
)

// flagPaths are the paths one flag gave ("" for arguments).
type flagPaths struct {
	flag  string
	paths []string
}

// checkFlagPaths refuses a path given on the command line that does not
// exist, naming the flag: "--clusters c.yaml: no such file or directory".
// "-" (standard input) is not a path.
func checkFlagPaths(given ...flagPaths) error {
	for _, g := range given {
		for _, p := range g.paths {
			if p == "-" {
				continue
			}
			if _, err := os.Stat(p); err != nil {
				return fmt.Errorf("%s: %w", strings.TrimSpace(g.flag+" "+p), pathReason(err))
			}
		}
	}
	return nil
}

// checkOutputDir refuses an --output-dir that holds the working directory
// or one of the inputs (paths the render reads): the render writes and
// prunes its files there.
func checkOutputDir(outDir string, inputs []string) error {
	out, err := manifest.RealPath(outDir)
	if err != nil {
		return err
	}
	if cwd, err := os.Getwd(); err == nil {
		if real, err := manifest.RealPath(cwd); err == nil && manifest.Within(out, real) {
			return fmt.Errorf("--output-dir %s holds the working directory; give the rendered tree a directory of its own", outDir)
		}
	}
	for _, in := range inputs {
		if real, err := manifest.RealPath(in); err == nil && manifest.Within(out, real) {
			return fmt.Errorf("--output-dir %s holds the input %s; give the rendered tree a directory of its own", outDir, in)
		}
	}
	return nil
}

// pathReason is why a path could not be used, without the system call
// and path os errors start with: "no such file or directory".
func pathReason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, syscall.ELOOP) {
		return manifest.ErrLinkLoop // named as a loop, as in a walk
	}
	return err
}
