package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
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
	dir := fs.Arg(0)
	params, err := addon.ParseSet(*sets)
	if err != nil {
		fmt.Fprintf(stderr, "drydock: %v\n", err)
		return exitUsage
	}
	opts := addon.Options{Params: params}
	inv, err := readInventory(*clusters)
	if err != nil {
		fmt.Fprintf(stderr, "drydock: %v\n", err)
		return exitUsage
	}
	for _, c := range inv.Names() {
		if c != cluster.Local {
			opts.Clusters = append(opts.Clusters, c)
		}
	}
	if *registry != "" {
		if abs, _ := filepath.Abs(filepath.Dir(filepath.Clean(dir))); abs != mustAbs(*registry) {
			fmt.Fprintf(stderr, "drydock addon render: %s is not an addon of the registry %s (want %s/<name>)\n", dir, *registry, *registry)
			return exitUsage
		}
		opts.Registry = os.DirFS(*registry)
		opts.RegistryName = filepath.Base(mustAbs(*registry))
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		fmt.Fprintf(stderr, "drydock addon render: %s is not a directory\n", dir)
		return exitUsage
	}
	res, err := addon.Render(os.DirFS(dir), opts)
	if err != nil {
		fmt.Fprintf(stderr, "drydock: %s\n", prefixAddonError(dir, err))
		return exitUsage
	}
	store := cluster.NewStore()
	for _, o := range res.Objects {
		store.Apply(cluster.Local, cluster.Entry{Object: o, Source: "addon " + posIn(dir, o.Pos)})
	}
	tree, err := outputTree(store)
	if err != nil {
		fmt.Fprintf(stderr, "drydock: %v\n", err)
		return exitInternal
	}
	if *outDir != "" {
		if res.Notes != "" {
			tree["NOTES.txt"] = []byte(res.Notes)
		}
		if err := golden.Write(*outDir, tree); err != nil {
			fmt.Fprintf(stderr, "drydock: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	writeStream(stdout, store, tree)
	if res.Notes != "" {
		fmt.Fprintln(stdout, "---")
		fmt.Fprintln(stdout, "# NOTES:")
		for _, line := range strings.Split(res.Notes, "\n") {
			fmt.Fprintf(stdout, "#   %s\n", line)
		}
	}
	return exitOK
}

func mustAbs(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return abs
}

// posIn shows an addon file position relative to the working directory.
func posIn(dir string, p manifest.Pos) string {
	if !p.IsValid() {
		return dir
	}
	q := p
	if !filepath.IsAbs(q.File) {
		q.File = filepath.Join(dir, q.File)
	}
	return q.String()
}

// prefixAddonError makes an addon error's file:line relative to the
// working directory, so editors can jump to it.
func prefixAddonError(dir string, err error) string {
	var ae *addon.Error
	if errors.As(err, &ae) && ae.Pos.IsValid() && !filepath.IsAbs(ae.Pos.File) {
		return filepath.ToSlash(filepath.Clean(dir)) + "/" + err.Error()
	}
	return err.Error()
}

// readInventory reads Cluster objects from files.
func readInventory(paths []string) (*cluster.Inventory, error) {
	inv := cluster.NewInventory()
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		objs, err := manifest.Decode(p, data, manifest.DecodeOptions{})
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if cluster.IsClusterObject(o) {
				if err := inv.Add(o); err != nil {
					return nil, err
				}
			}
		}
	}
	return inv, nil
}
