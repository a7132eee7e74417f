package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/render/addon"
)

func runAddon(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "render" {
		fmt.Fprintln(stderr, "Usage: drydock addon render DIR [--set K=V]... [--clusters FILE] [--registry DIR] [--output-dir OUT]")
		return exitUsage
	}
	fs := pflag.NewFlagSet("addon render", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	sets := fs.StringArray("set", nil, "an addon parameter K=V, typed as `vela addon enable` types them (repeatable)")
	clusters := fs.StringArray("clusters", nil, "cluster inventory: Karmada Cluster objects (repeatable)")
	registry := fs.String("registry", "", "a registry directory holding the addon and its dependencies")
	outDir := fs.StringP("output-dir", "o", "", "write one file per object under OUT/<cluster>/<namespace>/, and NOTES.txt")
	var lim limitFlags
	lim.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: drydock addon render DIR [flags]\n\nRenders everything `vela addon enable DIR` would apply to the control plane.\n\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "drydock addon render: give exactly one addon directory")
		return exitUsage
	}
	params, err := addon.ParseSet(*sets)
	if err != nil {
		fmt.Fprintf(stderr, "drydock: %v\n", err)
		return exitUsage
	}
	limits, err := lim.limits()
	if err != nil {
		fmt.Fprintf(stderr, "drydock addon render: %v\n", err)
		return exitUsage
	}
	if *outDir != "" {
		if err := checkOutputDir(*outDir, append([]string{fs.Arg(0), *registry}, *clusters...)); err != nil {
			fmt.Fprintf(stderr, "drydock addon render: %v\n", err)
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
	if err := emitStore(newOutput(stdout, *outDir, false), res.Clusters, res.Notes); err != nil {
		fmt.Fprintf(stderr, "drydock: %v\n", err)
		return outputCode(err)
	}
	return exitOK
}
