package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/addon"
	"github.com/drydock-dev/drydock/render/builtin"
	"github.com/drydock-dev/drydock/render/cueval"
)

// Addon is an addon directory to install, with its parameters.
type Addon struct {
	Dir string
	// Params are checked and typed by the addon's parameter schema when
	// it renders (see addon.Params).
	Params AddonParams
}

// AddonParams are an addon's parameters as given: values, then --set,
// then --set-string (see addon.Params).
type AddonParams = addon.Params

// AddonValues are parameter values as written in a file (see
// addon.Values).
type AddonValues = addon.Values

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
	// Warnings name the addon components that could not be checked.
	Warnings []string
}

// RenderAddon renders everything `vela addon enable` applies for one
// addon (and, with a registry, its dependencies) into the hub `local`.
// The addons' Applications are checked as KubeVela's webhook would (see
// checkApps); what their components render is not part of the result.
func RenderAddon(in AddonInputs) (*AddonResult, error) {
	return bounded(context.Background(), in.Limits, func(ctx context.Context, wd *watchdog) (*AddonResult, error) {
		return renderAddon(ctx, in, wd)
	})
}

func renderAddon(ctx context.Context, in AddonInputs, wd *watchdog) (*AddonResult, error) {
	var l loaded
	if err := (files{}).readPaths(in.ClusterPaths, nil, &l); err != nil {
		return nil, err
	}
	inv, err := inventory(l.clusters)
	if err != nil {
		return nil, err
	}
	done := wd.track(manifest.Pos{File: filepath.Join(in.Dir, "metadata.yaml"), Line: 1, Col: 1}, fmt.Sprintf("addon %s", in.Dir))
	res, err := enable(files{}, in.Addon, inv, in.Registry)
	done()
	if err != nil {
		return nil, err
	}
	inst := &installed{}
	if err := inst.add(res, in.Addon.Dir); err != nil {
		return nil, err
	}
	warnings, err := checkApps(ctx, inst, wd)
	if err != nil {
		return nil, err
	}
	store := cluster.NewStore()
	for _, o := range res.Objects {
		if err := store.Apply(cluster.Local, hubEntry(o, in.Addon.Dir)); err != nil {
			return nil, inputError(err)
		}
	}
	return &AddonResult{Clusters: store, Notes: res.Notes, Warnings: warnings}, nil
}

// checkApps checks the addons' own Applications as KubeVela's Application
// webhook does before the API server stores them, with the definitions
// `drydock render --addon` has (built-ins and the addons'): they must parse,
// and each component (but ref-objects and components fed by workflow
// inputs, which the webhook leaves alone too) must render with its
// dispatch-stage traits; the objects it renders must have valid names, as
// the API server requires when the workflow applies them. Nothing rendered
// is kept: `vela addon enable` only applies the Application. A type none
// of those definitions provides may be installed on the control plane
// already (by an addon taken as installed): such a component is not
// checked, and a warning says so.
func checkApps(ctx context.Context, inst *installed, wd *watchdog) ([]string, error) {
	defs := builtin.Merge(false, inst.defs)
	sources, err := parseApps(inst.apps)
	if err != nil {
		return nil, err
	}
	e := cueval.New(defs)
	wd.watch(e)
	var warnings []string
	for _, src := range sources {
		app, err := src.load()
		if err != nil {
			return nil, err
		}
		for i := range app.Components {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			w, err := checkComponent(e, app, &app.Components[i])
			if err != nil {
				return nil, err
			}
			warnings = append(warnings, w...)
		}
	}
	return warnings, nil
}

// checkComponent renders one component of an addon Application on the hub
// and validates the names of what it renders.
func checkComponent(e *cueval.Engine, app *render.Application, comp *render.Component) ([]string, error) {
	if comp.Type == "ref-objects" || len(comp.Inputs) > 0 {
		return nil, nil
	}
	m, err := e.RenderComponent(app, comp, cueval.Placement{})
	if errors.Is(err, render.ErrUnknownDefinition) {
		return []string{fmt.Sprintf("%s: no built-in or addon definition; the component was not checked", manifest.Format(err, nil))}, nil
	}
	var re *render.Error
	if errors.As(err, &re) {
		return nil, inputError(err)
	}
	if err != nil {
		return nil, err
	}
	for _, r := range m.Objects() {
		if err := cluster.ValidateMeta(manifest.New(r.Object)); err != nil {
			return nil, inputError(manifest.At(app.FieldPos(comp.Path), "application %q component %q: %w", app.Name, comp.Name, err))
		}
	}
	return nil, nil
}

// installed is what the addons put on the hub.
type installed struct {
	// apps are the addons' Applications, rendered like any other.
	apps []appSource
	// defs are the addons' definitions, usable by every Application.
	defs []*render.Definition
	// hub is every other object `vela addon enable` applies to local
	// (definitions, ConfigMaps, the parameter Secret).
	hub []cluster.Entry
	// cross is why an addon's Application may change other
	// applications' objects (crossObject); "" when none may.
	cross string
}

// installAddons renders each addon as `vela addon enable` would on this
// inventory, in the order given.
func installAddons(src files, addons []Addon, inv *cluster.Inventory, wd *watchdog) (*installed, error) {
	out := &installed{}
	for _, a := range addons {
		done := wd.track(manifest.Pos{File: src.display(path.Join(filepath.ToSlash(a.Dir), "metadata.yaml")), Line: 1, Col: 1}, fmt.Sprintf("addon %s", src.display(a.Dir)))
		res, err := enable(src, a, inv, "")
		done()
		if err != nil {
			return nil, err
		}
		if err := out.add(res, a.Dir); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// add sorts what the addon in dir applies into Applications, definitions
// and the hub's other objects.
func (out *installed) add(res *addon.Result, dir string) error {
	for _, o := range res.Objects {
		group := manifest.Group(o.APIVersion())
		switch {
		case group == "core.oam.dev" && o.Kind() == "Application":
			out.apps = append(out.apps, newAppSource(o))
			if out.cross == "" {
				out.cross = crossObject(o)
			}
			continue
		case group == "core.oam.dev" && render.IsDefinitionKind(o.Kind()):
			d, err := render.DefinitionFromObject(o)
			if err != nil {
				return inputError(fmt.Errorf("addon %s: %w", dir, err))
			}
			out.defs = append(out.defs, d)
		}
		out.hub = append(out.hub, hubEntry(o, dir))
	}
	return nil
}

// hubEntry is an object the addon in dir installs on the hub; the addon
// owns it.
func hubEntry(o *manifest.Object, dir string) cluster.Entry {
	return cluster.Entry{Object: o, Source: "addon " + o.Pos.String(), Origin: cluster.Origin{Pos: o.Pos}, Owner: "addon " + dir}
}

// enable renders one addon directory on the inventory's clusters. Positions
// in the addon's files (of objects and errors) are made relative to the
// working directory, as the user named the addon.
func enable(src files, a Addon, inv *cluster.Inventory, registry string) (*addon.Result, error) {
	dir, err := src.dir(a.Dir)
	if err != nil {
		return nil, inputError(err)
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
	res, err := addon.Render(dir, opts)
	if err != nil {
		var ae *addon.Error
		if errors.As(err, &ae) && !ae.Given {
			ae.Pos = inDir(src.display(a.Dir), ae.Pos)
		}
		return nil, inputError(err)
	}
	for _, o := range res.Objects {
		o.MapPos(func(p manifest.Pos) manifest.Pos { return inDir(src.display(a.Dir), p) })
		if !o.Pos.IsValid() {
			o.Pos = manifest.Pos{File: src.display(a.Dir)}
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
		p.File = path.Clean(filepath.ToSlash(filepath.Clean(dir)) + "/" + p.File)
	}
	return p
}
