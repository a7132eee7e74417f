package main

import (
	"io"

	"github.com/spf13/pflag"
)

// describer is a stdout that asks a command for its flags: command.parse
// hands it the command, every flag registered, and the command returns at
// once without parsing or doing anything. Completion scripts and the
// reference docs read the flags so, from the code that declares them.
type describer struct {
	io.Writer
	cmd *command
}

// subcommand is a command of drydock that takes flags, and how to reach
// its command.parse: its run function and the arguments before its flags.
type subcommand struct {
	name string // "render", "addon render"
	run  func(args []string, stdout, stderr io.Writer) int
	args []string
}

// subcommands are the commands with flags, in the order of drydock's usage.
func subcommands() []subcommand {
	return []subcommand{
		{"render", func(a []string, o, e io.Writer) int { return runRender(a, nil, o, e) }, nil},
		{"diff", runDiff, nil},
		{"explain", runExplain, nil},
		{"addon render", runAddon, []string{"render"}},
		{"test", func(a []string, o, e io.Writer) int { return runTest(a, nil, o, e) }, nil},
		{"report merge", runReport, []string{"merge"}},
		{"verify", runVerify, nil},
		{"show", runShow, nil},
		{"init", runInit, nil},
		{"completion", runCompletion, nil},
		{"version", runVersion, nil},
	}
}

// describeCommands returns every subcommand's command, its flags declared.
func describeCommands() []*command {
	var cmds []*command
	for _, s := range subcommands() {
		d := &describer{Writer: io.Discard}
		s.run(s.args, d, io.Discard)
		if d.cmd == nil {
			panic("drydock " + s.name + " declares no command") // a test catches it
		}
		cmds = append(cmds, d.cmd)
	}
	return cmds
}

// flagInfo is a flag as completion and the docs need it.
type flagInfo struct {
	name, short, typ, def, usage string
	value                        bool // takes a value (not a bool)
}

// flags lists the command's visible flags, sorted by name, and --help.
func (c *command) flags() []flagInfo {
	var fl []flagInfo
	c.fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		_, usage := pflag.UnquoteUsage(f)
		fl = append(fl, flagInfo{name: f.Name, short: f.Shorthand, typ: flagType(f), def: f.DefValue, usage: usage, value: f.NoOptDefVal == ""})
	})
	if c.fs.Lookup("help") == nil {
		fl = append(fl, flagInfo{name: "help", short: "h", typ: "bool", def: "false", usage: "help for " + c.name})
	}
	return fl
}

// flagType is the type of a flag's value as the docs show it.
func flagType(f *pflag.Flag) string {
	switch t := f.Value.Type(); t {
	case "stringArray", "stringSlice":
		return "strings (repeatable)"
	default:
		return t
	}
}

// summaries are the commands in a line each, for shells that show a
// description per command and for the reference docs.
var summaries = map[string]string{
	"render":     "render Applications (and what they need) into each cluster's objects",
	"diff":       "what a change does to each cluster, against a git revision or a directory",
	"explain":    "which stage set each field of a rendered object, and its placement",
	"addon":      "render an addon as vela addon enable would",
	"test":       "the suites of drydock.yaml: render, golden trees, validation, rules; or plain manifests",
	"report":     "merge the JSON reports of drydock test's shards into one (any drydock test format)",
	"verify":     "run the Rego unit tests and Gatekeeper suites",
	"show":       "print a definition type's origin and parameters, or list the types",
	"init":       "write a starter drydock.yaml, policy and workflow",
	"completion": "print a shell completion script",
	"version":    "print drydock's version and what it emulates",
	"help":       "print this list of commands",
}
