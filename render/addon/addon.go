// Package addon renders a KubeVela addon directory the way `vela addon
// enable` does (KubeVela v1.11.0-alpha.4, pkg/addon): the addon Application,
// its definitions, config templates, schema and view ConfigMaps, template
// `outputs` objects and the parameter Secret, all applied to the control
// plane `local`, plus the NOTES text.
//
// It owns reading an addon from an fs.FS (never the OS file system: entries
// that are symlinks are rejected), the addon's CUE evaluation (template.cue,
// resources, NOTES.cue, CUE definitions, config templates) and dependency
// resolution against a registry directory. It does not render the resulting
// Application into workloads: that is package render's job.
package addon

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/drydock-dev/drydock/manifest"
)

// ErrInvalid is wrapped by every error about a bad addon or bad parameters.
var ErrInvalid = errors.New("invalid addon")

// Options tune Render.
type Options struct {
	// Params are the addon parameters as given, checked and typed by the
	// addon's parameter schema (see Params).
	Params Params
	// Clusters are the registered clusters besides "local".
	Clusters []string
	// Registry is the root of an addon registry whose sub-directories are
	// addons named after the directory. With a registry the addon's
	// dependencies are resolved in it and enabled first; without one they
	// are assumed installed.
	Registry fs.FS
	// RegistryName labels the Applications (addons.oam.dev/registry); it
	// defaults to "local", the name KubeVela uses for a local directory.
	RegistryName string
}

// Result is what enabling an addon applies to the control plane.
type Result struct {
	// Objects are applied to `local`, dependencies first; each addon's
	// Application comes first, its parameter Secret last.
	Objects []*manifest.Object
	// Notes is the addon's NOTES text ("" without NOTES.cue).
	Notes string
}

// Error is a problem in an addon's files, located where possible.
type Error struct {
	// Pos is the place in the addon's own files, when known.
	Pos manifest.Pos
	// Addon is the addon's name ("" before metadata.yaml is read).
	Addon string
	// Dependent is the addon that needed this one, when the error arose
	// in enabling a dependency.
	Dependent string
	// Msg says what is wrong.
	Msg string
	// Given says that Pos is where the parameters are given (a values
	// file, drydock.yaml), not a place in the addon's files.
	Given bool
}

// Error formats the error as "file:line:col: addon NAME: message", with
// "(needed by addon DEPENDENT)" after NAME for a dependency.
func (e *Error) Error() string {
	if located := e.located(); located != nil {
		return located.Error()
	}
	return e.message()
}

// message is the error's text without its place.
func (e *Error) message() string {
	switch {
	case e.Dependent != "" && e.Addon != "":
		return fmt.Sprintf("addon %s (needed by addon %s): %s", e.Addon, e.Dependent, e.Msg)
	case e.Dependent != "":
		return fmt.Sprintf("dependency of addon %s: %s", e.Dependent, e.Msg)
	case e.Addon != "":
		return fmt.Sprintf("addon %s: %s", e.Addon, e.Msg)
	}
	return e.Msg
}

// Unwrap returns the error located at Pos (nil without a place): its text
// is the error's, and manifest.PosOf finds the place there.
func (e *Error) Unwrap() error {
	if located := e.located(); located != nil {
		return located
	}
	return nil
}

// located is the error at Pos (nil without one).
func (e *Error) located() *manifest.Error {
	if !e.Pos.IsValid() {
		return nil
	}
	return manifest.At(e.Pos, "%s", e.message())
}

// Is reports that an Error is an ErrInvalid.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

func invalidf(pos manifest.Pos, format string, args ...any) error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// Render enables the addon rooted at fsys on an empty control plane and
// returns what KubeVela would apply to `local`.
func Render(fsys fs.FS, opts Options) (*Result, error) {
	e := &enabler{opts: opts, registry: opts.RegistryName, clusters: map[string]bool{"local": true}, installed: map[string]bool{}}
	if e.registry == "" {
		e.registry = localRegistry
	}
	for _, c := range opts.Clusters {
		e.clusters[c] = true
	}
	res := &Result{}
	notes, err := e.enable(fsys, opts.Params, res, nil)
	if err != nil {
		return nil, err
	}
	res.Notes = notes
	return res, nil
}

const (
	localRegistry = "local"
	velaSystem    = "vela-system"
)

// enabler is one `vela addon enable` run, possibly enabling dependencies.
type enabler struct {
	opts      Options
	registry  string
	clusters  map[string]bool
	installed map[string]bool
}

// enable renders one addon into res and returns its notes. chain holds the
// addons being enabled that depend on this one.
func (e *enabler) enable(fsys fs.FS, params Params, res *Result, chain []string) (string, error) {
	pkg, err := readPackage(fsys)
	if err != nil {
		return "", err
	}
	args, err := resolveParams(pkg, params)
	if err != nil {
		var ae *Error
		if errors.As(err, &ae) && ae.Addon == "" {
			ae.Addon = pkg.meta.Name
		}
		return "", err
	}
	if err := e.installDependencies(pkg, args, res, chain); err != nil {
		return "", err
	}
	objs, err := e.dispatch(pkg, args)
	if err != nil {
		var ae *Error
		if errors.As(err, &ae) && ae.Addon == "" {
			ae.Addon = pkg.meta.Name
		}
		return "", err
	}
	res.Objects = append(res.Objects, objs...)
	e.installed[pkg.meta.Name] = true
	return renderNotes(pkg, args), nil
}

// dispatch renders everything one addon applies, in KubeVela's order: the
// Application, the template's outputs, definitions, config templates,
// schemas and views (those bound to a missing component left out), then
// the parameter Secret.
func (e *enabler) dispatch(pkg *addonPackage, args map[string]any) ([]*manifest.Object, error) {
	if args == nil {
		args = map[string]any{}
	}
	app, aux, err := e.renderApp(pkg, args)
	if err != nil {
		return nil, err
	}
	defs, err := renderDefinitions(pkg)
	if err != nil {
		return nil, err
	}
	extras, err := renderExtras(pkg)
	if err != nil {
		return nil, err
	}
	if err := annotateDefinitions(app, defs); err != nil {
		return nil, err
	}
	appObj, err := app.object()
	if err != nil {
		return nil, err
	}
	out := []*manifest.Object{appObj}
	for _, o := range append(append(aux, defs...), extras...) {
		if app.bondComponentExists(o) {
			out = append(out, o)
		}
	}
	if len(args) > 0 {
		sec, err := argsSecret(pkg.meta.Name, args)
		if err != nil {
			return nil, err
		}
		out = append(out, sec)
	}
	return out, nil
}

// renderExtras renders config templates, schemas and views.
func renderExtras(pkg *addonPackage) ([]*manifest.Object, error) {
	var out []*manifest.Object
	for _, render := range []func(*addonPackage) ([]*manifest.Object, error){renderConfigTemplates, renderSchemas, renderViews} {
		objs, err := render(pkg)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}
