package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/addon"
)

// Addon is an addon directory to install, with its parameters.
type Addon struct {
	Dir    string
	Params map[string]any
}

// AddonInputs are what `drydock addon render` reads.
type AddonInputs struct {
	Addon
	// ClusterPaths supply the cluster inventory.
	ClusterPaths []string
	// Registry is a directory of addons holding Dir and its dependencies
	// ("": dependencies are taken as installed).
	Registry string
	// Limits bound the addon's CUE evaluation (zero: none).
	Limits Limits
}

// AddonResult is what enabling an addon applies to the hub, and its notes.
type AddonResult struct {
	Clusters *cluster.Store
	Notes    string
}

// RenderAddon renders everything `vela addon enable` applies for one
// addon (and, with a registry, its dependencies) into the hub `local`.
func RenderAddon(in AddonInputs) (*AddonResult, error) {
	return bounded(context.Background(), in.Limits, func(_ context.Context, wd *watchdog) (*AddonResult, error) {
		return renderAddon(in, wd)
	})
}

func renderAddon(in AddonInputs, wd *watchdog) (*AddonResult, error) {
	var l loaded
	if err := readPaths(in.ClusterPaths, nil, &l); err != nil {
		return nil, err
	}
	inv, err := inventory(l.clusters)
	if err != nil {
		return nil, err
	}
	done := wd.track(manifest.Pos{File: filepath.Join(in.Dir, "metadata.yaml"), Line: 1, Col: 1}, fmt.Sprintf("addon %s", in.Dir))
	res, err := enable(in.Addon, inv, in.Registry)
	done()
	if err != nil {
		return nil, err
	}
	store := cluster.NewStore()
	for _, o := range res.Objects {
		if err := store.Apply(cluster.Local, hubEntry(o, in.Addon.Dir)); err != nil {
			return nil, inputError(err)
		}
	}
	return &AddonResult{Clusters: store, Notes: res.Notes}, nil
}

// installed is what the addons put on the hub.
type installed struct {
	// apps are the addons' Applications, rendered like any other.
	apps []*manifest.Object
	// defs are the addons' definitions, usable by every Application.
	defs []*render.Definition
	// hub is every other object `vela addon enable` applies to local
	// (definitions, ConfigMaps, the parameter Secret).
	hub []cluster.Entry
}

// installAddons renders each addon as `vela addon enable` would on this
// inventory, in the order given.
func installAddons(addons []Addon, inv *cluster.Inventory, wd *watchdog) (*installed, error) {
	out := &installed{}
	for _, a := range addons {
		done := wd.track(manifest.Pos{File: filepath.Join(a.Dir, "metadata.yaml"), Line: 1, Col: 1}, fmt.Sprintf("addon %s", a.Dir))
		res, err := enable(a, inv, "")
		done()
		if err != nil {
			return nil, err
		}
		for _, o := range res.Objects {
			group := manifest.Group(o.APIVersion())
			switch {
			case group == "core.oam.dev" && o.Kind() == "Application":
				out.apps = append(out.apps, o)
				continue
			case group == "core.oam.dev" && render.IsDefinitionKind(o.Kind()):
				d, err := render.DefinitionFromObject(o)
				if err != nil {
					return nil, inputError(fmt.Errorf("addon %s: %w", a.Dir, err))
				}
				out.defs = append(out.defs, d)
			}
			out.hub = append(out.hub, hubEntry(o, a.Dir))
		}
	}
	return out, nil
}

// hubEntry is an object the addon in dir installs on the hub; the addon
// owns it.
func hubEntry(o *manifest.Object, dir string) cluster.Entry {
	return cluster.Entry{Object: o, Source: "addon " + o.Pos.String(), Origin: cluster.Origin{Pos: o.Pos}, Owner: "addon " + dir}
}

// enable renders one addon directory on the inventory's clusters. Positions
// in the addon's files (of objects and errors) are made relative to the
// working directory, as the user named the addon.
func enable(a Addon, inv *cluster.Inventory, registry string) (*addon.Result, error) {
	if info, err := os.Stat(a.Dir); err != nil || !info.IsDir() {
		return nil, inputError(fmt.Errorf("addon %s: not a directory", a.Dir))
	}
	opts := addon.Options{Params: a.Params}
	for _, n := range inv.Names() {
		if n != cluster.Local {
			opts.Clusters = append(opts.Clusters, n)
		}
	}
	if registry != "" {
		regAbs, _ := filepath.Abs(registry)
		if parent, _ := filepath.Abs(filepath.Dir(filepath.Clean(a.Dir))); parent != regAbs {
			return nil, inputError(fmt.Errorf("addon %s is not an addon of the registry %s (want %s/<name>)", a.Dir, registry, registry))
		}
		opts.Registry = os.DirFS(registry)
		opts.RegistryName = filepath.Base(regAbs)
	}
	res, err := addon.Render(os.DirFS(a.Dir), opts)
	if err != nil {
		var ae *addon.Error
		if errors.As(err, &ae) {
			ae.Pos = inDir(a.Dir, ae.Pos)
		}
		return nil, inputError(err)
	}
	for _, o := range res.Objects {
		o.Pos = inDir(a.Dir, o.Pos)
		if !o.Pos.IsValid() {
			o.Pos = manifest.Pos{File: a.Dir}
		}
		if err := admit(o); err != nil {
			return nil, inputError(err)
		}
	}
	return res, nil
}

// admit checks a definition an addon applies as the API server and
// KubeVela's webhook would.
func admit(o *manifest.Object) error {
	if manifest.Group(o.APIVersion()) != "core.oam.dev" || !render.IsDefinitionKind(o.Kind()) {
		return nil
	}
	d, err := render.DefinitionFromObject(o)
	if err == nil {
		err = render.AdmitDefinition(d)
	}
	return err
}

// inDir makes a position in an addon's file relative to the addon's
// directory as given.
func inDir(dir string, p manifest.Pos) manifest.Pos {
	if p.IsValid() && !filepath.IsAbs(p.File) {
		p.File = filepath.ToSlash(filepath.Clean(dir)) + "/" + p.File
	}
	return p
}
