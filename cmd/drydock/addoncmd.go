package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/render/addon"
)

func runAddon(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("addon render", "addon render DIR [flags]", "Renders everything `vela addon enable DIR` would apply to the control plane.")
	fs := cmd.fs
	sets := fs.StringArray("set", nil, "an addon parameter `K=V`, typed as vela addon enable types them (repeatable)")
	clusters := fs.StringArray("clusters", nil, "cluster inventory: Karmada Cluster objects (repeatable)")
	registry := fs.String("registry", "", "a registry directory holding the addon and its dependencies")
	outDir := fs.String("output-dir", "", "write one file per object under `DIR`/<cluster>/<namespace>/, and NOTES.txt")
	// -o named the directory before it became the output format in every
	// command; addon render prints YAML only, so -o is kept, deprecated.
	oldOut := fs.StringP("output", "o", "", "deprecated: --output-dir")
	_ = fs.MarkHidden("output")
	var lim limitFlags
	lim.register(fs)
	switch {
	case len(args) > 0 && (args[0] == "--help" || args[0] == "-h" || args[0] == "help"):
		cmd.usage(stdout)
		return exitOK
	case len(args) == 0 || args[0] != "render":
		what := "give a subcommand: render"
		if len(args) > 0 {
			what = fmt.Sprintf("unknown subcommand %q: the one addon subcommand is render", args[0])
		}
		fmt.Fprintf(stderr, "drydock addon: %s\n%s", what, cmd.helpHint())
		return exitUsage
	}
	if code, done := cmd.parse(args[1:], stdout, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		return cmd.fail(stderr, errors.New("give exactly one addon directory"))
	}
	if *oldOut != "" {
		if fs.Changed("output-dir") {
			return cmd.fail(stderr, errors.New("-o and --output-dir: give --output-dir"))
		}
		fmt.Fprintf(stderr, "drydock addon render: warning: -o DIR is deprecated: -o is the output format in every command; use --output-dir %s\n", *oldOut)
		*outDir = *oldOut
	}
	params, err := addon.ParseSet(*sets)
	if err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return exitUsage
	}
	limits, err := lim.limits()
	if err != nil {
		fmt.Fprintf(stderr, "drydock addon render: %s\n", errText(err))
		return exitUsage
	}
	if *outDir != "" {
		if err := checkOutputDir(*outDir, append([]string{fs.Arg(0), *registry}, *clusters...)); err != nil {
			fmt.Fprintf(stderr, "drydock addon render: %s\n", errText(err))
			return exitUsage
		}
	}
	res, err := pipeline.RenderAddon(pipeline.AddonInputs{Addon: pipeline.Addon{Dir: fs.Arg(0), Params: params},
		ClusterPaths: *clusters, Registry: *registry, Limits: limits})
	if err != nil {
		return reportError(stderr, err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "drydock: %s\n", located("warning", w))
	}
	if err := emitStore(newAddonOutput(stdout, treeOutput{dir: *outDir, log: stderr}), res.Clusters, res.Notes); err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return outputCode(err)
	}
	return exitOK
}
