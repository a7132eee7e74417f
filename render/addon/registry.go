package addon

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// resolvedDep is a dependency found in the registry.
type resolvedDep struct {
	name string
	fsys fs.FS
}

// installDependencies enables the addon's dependencies from the registry
// first. Without a registry they are assumed installed. As KubeVela does,
// only the first dependency still to install is enabled (recursively);
// every dependency must resolve.
func (e *enabler) installDependencies(pkg *addonPackage, args map[string]any, res *Result, chain []string) error {
	if e.opts.Registry == nil || len(pkg.meta.Dependencies) == 0 {
		return nil
	}
	chain = append(chain, pkg.meta.Name)
	var deps []resolvedDep
	for i, d := range pkg.meta.Dependencies {
		if d == nil || e.installed[d.Name] {
			continue
		}
		if slices.Contains(chain, d.Name) {
			return pkg.depErr(i, "name", "dependency cycle %s -> %s", strings.Join(chain, " -> "), d.Name)
		}
		dep, err := e.resolve(pkg, i)
		if err != nil {
			return err
		}
		deps = append(deps, dep)
	}
	if len(deps) == 0 {
		return nil
	}
	var depArgs Params
	if cs, ok := pkg.userClusters(args); ok {
		depArgs.Values = []Values{{Data: map[string]any{clustersParam: cs}}}
	}
	n := len(res.Objects)
	if _, err := e.enable(deps[0].fsys, depArgs, res, chain); err != nil {
		return fromDependency(deps[0].name, pkg.meta.Name, err)
	}
	for _, o := range res.Objects[n:] {
		o.MapPos(func(p manifest.Pos) manifest.Pos { return inSibling(deps[0].name, p) })
	}
	return nil
}

// fromDependency locates an error of the dependency in the registry
// directory dir relative to the dependent addon's directory (its sibling)
// and says which addon needed it.
func fromDependency(dir, dependent string, err error) error {
	var ae *Error
	if !errors.As(err, &ae) {
		return fmt.Errorf("dependency %s of addon %s: %w", dir, dependent, err)
	}
	if !ae.Given {
		ae.Pos = inSibling(dir, ae.Pos)
	}
	if ae.Dependent == "" {
		ae.Dependent = dependent
	}
	return err
}

// inSibling makes a position in the registry's addon dir relative to a
// sibling addon's directory.
func inSibling(dir string, p manifest.Pos) manifest.Pos {
	if p.File != "" && !path.IsAbs(p.File) {
		p.File = path.Join("..", dir, p.File)
	}
	return p
}

// userClusters returns the clusters a dependency is enabled with, as
// KubeVela's getDependencyArgs: those of the `clusters` parameter, unless
// getClusters finds none (no list, or a list without strings).
func (pkg *addonPackage) userClusters(args map[string]any) (any, bool) {
	cs := clustersArg(args)
	return cs, cs != nil
}

// resolve finds the i-th dependency in the registry and checks its version
// against the constraint, as KubeVela's checkSemVer does.
func (e *enabler) resolve(pkg *addonPackage, i int) (resolvedDep, error) {
	d := pkg.meta.Dependencies[i]
	fsys, err := subFS(e.opts.Registry, d.Name)
	if err != nil {
		return resolvedDep{}, pkg.depErr(i, "name", "unresolvable dependency %s: no available addon with name %s", d.Name, d.Name)
	}
	dep, err := readPackage(fsys)
	if err != nil {
		return resolvedDep{}, fromDependency(d.Name, pkg.meta.Name, err)
	}
	ok, err := checkSemVer(dep.meta.Version, d.Version)
	if err != nil {
		return resolvedDep{}, pkg.depErr(i, "version", "dependency %s: version %q of the registry's %s against %q: %v", d.Name, dep.meta.Version, d.Name, d.Version, err)
	}
	if !ok {
		return resolvedDep{}, pkg.depErr(i, "version", "unresolvable dependency %s: no version of %s satisfies %q (registry has %s)", d.Name, d.Name, d.Version, dep.meta.Version)
	}
	return resolvedDep{name: d.Name, fsys: fsys}, nil
}

// depErr is an error about field of the i-th dependency, located in
// metadata.yaml.
func (pkg *addonPackage) depErr(i int, field, format string, args ...any) error {
	path := fieldpath.New("dependencies", i, field)
	return &Error{Pos: pkg.metaAt.FieldPos(path), Addon: pkg.meta.Name, Msg: path.String() + ": " + fmt.Sprintf(format, args...)}
}

// checkSemVer reports whether version satisfies the constraint require:
// every "v" in the constraint is dropped; a prerelease version that fails
// is retried without its prerelease part (except against ">=" the same
// release).
func checkSemVer(actual, require string) (bool, error) {
	if require == "" {
		return true, nil
	}
	constraint, err := semver.NewConstraint(strings.ReplaceAll(require, "v", " "))
	if err != nil {
		return false, err
	}
	v, err := semver.NewVersion(strings.TrimPrefix(actual, "v"))
	if err != nil {
		return false, err
	}
	if constraint.Check(v) {
		return true, nil
	}
	if !strings.Contains(actual, "-") || strings.Contains(require, "-") {
		return false, nil
	}
	release := strings.TrimPrefix(actual[:strings.Index(actual, "-")], "v")
	if strings.Contains(require, ">=") && require[strings.Index(require, "=")+1:] == release {
		return false, nil
	}
	v, err = semver.NewVersion(release)
	if err != nil {
		return false, err
	}
	return constraint.Check(v), nil
}
