package builtin

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// Merge is the set of definitions a render uses: the built-ins (unless
// noBuiltins), then each set's definitions, each later one replacing a
// same-named earlier one.
func Merge(noBuiltins bool, sets ...[]*render.Definition) *render.Definitions {
	defs := render.NewDefinitions()
	if !noBuiltins {
		defs = Definitions().Clone()
	}
	for _, set := range sets {
		for _, d := range set {
			defs.Add(d)
		}
	}
	return defs
}

// definitions are the embedded definitions, each parsed at its first use:
// a render parses only those it uses.
var definitions = sync.OnceValue(func() *render.Definitions {
	return render.NewLazyDefinitions(func(kind, name string) *render.Definition {
		d, err := Parse(name)
		if err != nil {
			panic(err) // TestParse keeps this from happening
		}
		if d == nil || d.Kind != kind {
			return nil
		}
		return d
	}, Names)
})

// Definitions returns drydock's embedded definitions.
func Definitions() *render.Definitions { return definitions() }

// Parse parses the embedded definition of a name (its file is <name>.cue
// or <name>.yaml); nil when there is none.
func Parse(name string) (*render.Definition, error) {
	if !fs.ValidPath(name) || strings.Contains(name, "/") {
		return nil, nil
	}
	for _, ext := range []string{".cue", ".yaml"} {
		data, err := fs.ReadFile(FS, name+ext)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		ds, err := parseFile(name+ext, data)
		if err != nil {
			return nil, fmt.Errorf("built-in definition: %w", err)
		}
		if len(ds) != 1 || ds[0].Name != name {
			return nil, fmt.Errorf("built-in definition file %s: want one definition named %q", name+ext, name)
		}
		ds[0].SpecHash = ChartSpecHash(ds[0].Kind, name)
		return ds[0], nil
	}
	return nil, nil
}

// parseFile reads a `vela def` CUE file or a definition object (YAML).
func parseFile(file string, data []byte) ([]*render.Definition, error) {
	if strings.HasSuffix(file, ".cue") {
		return render.ParseCUEDefinitions("builtin/"+file, data)
	}
	objs, err := manifest.Decode("builtin/"+file, data, manifest.DecodeOptions{})
	if err != nil {
		return nil, err
	}
	var ds []*render.Definition
	for _, o := range objs {
		d, err := render.DefinitionFromObject(o)
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// Names lists the embedded definitions' names, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(FS, ".")
	var names []string
	for _, e := range entries {
		n, ok := strings.CutSuffix(e.Name(), ".cue")
		if !ok {
			n, ok = strings.CutSuffix(e.Name(), ".yaml")
		}
		if ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}
