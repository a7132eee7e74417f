package pipeline

import (
	"fmt"
	"os"

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
func installAddons(addons []Addon, inv *cluster.Inventory) (*installed, error) {
	out := &installed{}
	var clusters []string
	for _, n := range inv.Names() {
		if n != cluster.Local {
			clusters = append(clusters, n)
		}
	}
	for _, a := range addons {
		info, err := os.Stat(a.Dir)
		if err != nil || !info.IsDir() {
			return nil, inputError(fmt.Errorf("addon %s: not a directory", a.Dir))
		}
		res, err := addon.Render(os.DirFS(a.Dir), addon.Options{Params: a.Params, Clusters: clusters})
		if err != nil {
			return nil, inputError(fmt.Errorf("%s/%w", a.Dir, err))
		}
		for _, o := range res.Objects {
			o.Pos = addonPos(a.Dir, o.Pos)
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
			out.hub = append(out.hub, cluster.Entry{Object: o, Source: "addon " + a.Dir, Origin: cluster.Origin{Pos: o.Pos}})
		}
	}
	return out, nil
}

// addonPos makes a position in an addon file relative to the addon's
// directory as given.
func addonPos(dir string, p manifest.Pos) manifest.Pos {
	if !p.IsValid() {
		return manifest.Pos{File: dir}
	}
	p.File = dir + "/" + p.File
	return p
}
