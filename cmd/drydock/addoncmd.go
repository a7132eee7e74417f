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
	outDir := fs.StringP("output-dir", "o", "", "write one file per object under OUT/<cluster>/<namespace>/, and NOTES.txt")
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
		fmt.Fprintf(stderr, "drydock: warning: %s\n", w)
	}
	if err := emitStore(newAddonOutput(stdout, treeOutput{dir: *outDir, log: stderr}), res.Clusters, res.Notes); err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		return outputCode(err)
	}
	return exitOK
}
