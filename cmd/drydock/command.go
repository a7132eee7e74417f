package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/manifest"
)

// command is a subcommand's flags and usage: every command parses its
// arguments through it, so --help and bad usage behave alike everywhere.
type command struct {
	name string // "render", "addon render"
	// synopsis follows "Usage: drydock " ("render [PATH...] [flags]");
	// about is a paragraph after it ("" for none).
	synopsis, about string
	fs              *pflag.FlagSet
}

func newCommand(name, synopsis, about string) *command {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard) // parse reports errors itself
	fs.SortFlags = true
	return &command{name: name, synopsis: synopsis, about: about, fs: fs}
}

// usage writes the command's usage and flags.
func (c *command) usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: drydock %s\n\n", c.synopsis)
	if c.about != "" {
		fmt.Fprintf(w, "%s\n\n", c.about)
	}
	if flags := c.fs.FlagUsages(); flags != "" {
		fmt.Fprintf(w, "Flags:\n%s", flags)
	}
}

// parse parses args. When done, the caller returns code at once: --help
// printed the usage to stdout (0), or a bad flag printed what is wrong and
// the usage to stderr (2).
func (c *command) parse(args []string, stdout, stderr io.Writer) (code int, done bool) {
	if d, ok := stdout.(*describer); ok {
		d.cmd = c // the flags asked for, not a run
		return exitOK, true
	}
	err := c.fs.Parse(args)
	switch {
	case err == nil:
		return 0, false
	case errors.Is(err, pflag.ErrHelp):
		c.usage(stdout)
		return exitOK, true
	}
	return c.fail(stderr, fmt.Errorf("%v%s", err, c.didYouMean(err))), true
}

// fail prints a usage error (bad flags, missing or extra arguments) and
// the usage to stderr, and returns exit code 2.
func (c *command) fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "drydock %s: %v\n\n", c.name, err)
	c.usage(stderr)
	return exitUsage
}

// didYouMean names the flag closest to an unknown long one.
func (c *command) didYouMean(err error) string {
	var unknown *pflag.NotExistError
	if !errors.As(err, &unknown) || unknown.GetSpecifiedShortnames() != "" {
		return ""
	}
	var names []string
	c.fs.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if best := manifest.Closest(unknown.GetSpecifiedName(), names); best != "" {
		return fmt.Sprintf(" (did you mean --%s?)", best)
	}
	return ""
}

// commands names the subcommands, for the top-level "did you mean".
var commands = []string{"render", "diff", "test", "explain", "addon", "verify", "show", "init", "completion", "version", "help"}

// unknownCommand is the top level's message for an unknown command.
func unknownCommand(name string) string {
	return fmt.Sprintf("drydock: unknown command %q%s", name, manifest.DidYouMean(strings.TrimLeft(name, "-"), commands))
}
