package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
)

func runAddon(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("addon render", "addon render DIR [flags]", "Renders everything `vela addon enable DIR` would apply to the control plane.")
	fs := cmd.fs
	sets := fs.StringArray("set", nil, "an addon parameter `K=V` (a.b=v nests, a={x,y} is a list), typed by the addon's parameter: a string parameter takes 40 as \"40\" (repeatable)")
	setStrings := fs.StringArray("set-string", nil, "an addon parameter `K=V` whose value is a string (repeatable; wins over --set)")
	valueFiles := fs.StringArray("values", nil, "a YAML or JSON `FILE` of addon parameters (repeatable; later files win, --set and --set-string win over them)")
	clusters := fs.StringArray("clusters", nil, "cluster inventory: Karmada Cluster objects (repeatable)")
	registry := fs.String("registry", "", "a registry directory holding the addon and its dependencies")
	outDir := fs.String("output-dir", "", "write one file per object under `DIR`/<cluster>/<namespace>/, and NOTES.txt")
	// -o named the directory before it became the output format in every
	// command; addon render prints YAML only, so -o is kept, deprecated.
	oldOut := fs.StringP("output", "o", "", "deprecated: --output-dir")
	_ = fs.MarkHidden("output")
	var lim limitFlags
	lim.register(fs)
	if code, done := cmd.subcommand("addon", "render", args, stdout, stderr); done {
		return code
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
	params := pipeline.AddonParams{Set: *sets, SetString: *setStrings}
	if err := params.Check(); err != nil {
		fmt.Fprintf(stderr, "drydock addon render: %s\n", errText(err))
		return exitUsage
	}
	var err error
	if params.Values, err = readValues(*valueFiles); err != nil {
		fmt.Fprintf(stderr, "drydock addon render: %s\n", errText(err))
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

// readValues reads --values files: each one YAML (or JSON) mapping of
// addon parameters, its keys located for errors; an empty file gives none.
func readValues(files []string) ([]pipeline.AddonValues, error) {
	var out []pipeline.AddonValues
	for _, f := range files {
		data, err := manifest.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("--values %w", err)
		}
		docs, err := manifest.DecodeValues(f, data, 1, manifest.DecodeOptions{KeyPositions: true})
		if err != nil {
			return nil, err
		}
		docs = slices.DeleteFunc(docs, func(v manifest.Value) bool { return v.Data == nil })
		switch {
		case len(docs) == 0:
			continue
		case len(docs) > 1:
			return nil, manifest.At(docs[1].Pos, "a second YAML document: --values takes one mapping of parameters")
		}
		obj, ok := docs[0].Object()
		if !ok {
			return nil, manifest.At(docs[0].Pos, "--values takes a mapping of parameters (name: value), not %s", valueNoun(docs[0].Data))
		}
		out = append(out, pipeline.AddonValues{Data: obj.Data, Source: f, Pos: obj.KeyPos})
	}
	return out, nil
}

// valueNoun names the kind of a decoded YAML value.
func valueNoun(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case string:
		return "a string"
	}
	return "a scalar"
}
