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

// fail prints a usage error (bad flags, missing or extra arguments) in
// two lines, what is wrong and where the usage is, and returns exit code
// 2: the flags are --help's, not a screenful on every typo.
func (c *command) fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "drydock %s: %v\n%s", c.name, err, c.helpHint())
	return exitUsage
}

// helpHint is the line after a usage error: where the usage is.
func (c *command) helpHint() string {
	return fmt.Sprintf("Run 'drydock %s --help' for usage.\n", c.name)
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

// commands names the subcommands, in the order of the top-level help,
// and for its "did you mean".
var commands = []string{"render", "diff", "explain", "addon", "test", "report", "verify", "show", "init", "completion", "version", "help"}

// unknownCommand is the top level's message for an unknown command.
func unknownCommand(name string) string {
	return fmt.Sprintf("drydock: unknown command %q%s", name, manifest.DidYouMean(strings.TrimLeft(name, "-"), commands))
}

// topUsage is drydock's help: what it is, then each command in a line
// (its summary), then where each command's flags are.
func topUsage() string {
	var b strings.Builder
	b.WriteString("drydock renders KubeVela Applications (and what they need) into the exact\nobjects each cluster would hold, without a cluster.\n\n")
	b.WriteString("Usage: drydock <command> [arguments] [flags]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-11s %s\n", c, summaries[c])
	}
	b.WriteString("\nRun 'drydock <command> --help' for a command's usage and flags.\n")
	return b.String()
}

// subcommand reads the first argument of a command group whose one
// subcommand is sub (drydock addon render, drydock report merge): done
// with the exit code for help, a missing or an unknown subcommand
// (group is the group's name, as in "drydock addon").
func (c *command) subcommand(group, sub string, args []string, stdout, stderr io.Writer) (code int, done bool) {
	switch {
	case len(args) > 0 && (args[0] == "--help" || args[0] == "-h" || args[0] == "help"):
		c.usage(stdout)
		return exitOK, true
	case len(args) == 0 || args[0] != sub:
		what := "give a subcommand: " + sub
		if len(args) > 0 {
			what = fmt.Sprintf("unknown subcommand %q: the one %s subcommand is %s", args[0], group, sub)
		}
		fmt.Fprintf(stderr, "drydock %s: %s\n%s", group, what, c.helpHint())
		return exitUsage, true
	}
	return 0, false
}
