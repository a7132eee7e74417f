package builtin

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"

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

// Parse parses the embedded definition of a name (its file is
// <name>.cue); nil when there is none.
func Parse(name string) (*render.Definition, error) {
	file := name + ".cue"
	data, err := fs.ReadFile(FS, file)
	if errors.Is(err, fs.ErrNotExist) || !fs.ValidPath(file) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ds, err := render.ParseCUEDefinitions("builtin/"+file, data)
	if err != nil {
		return nil, fmt.Errorf("built-in definition: %w", err)
	}
	if len(ds) != 1 || ds[0].Name != name {
		return nil, fmt.Errorf("built-in definition file %s: want one definition named %q", file, name)
	}
	ds[0].SpecHash = ChartSpecHash(ds[0].Kind, name)
	return ds[0], nil
}

// Names lists the embedded definitions' names.
func Names() []string {
	entries, _ := fs.ReadDir(FS, ".")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".cue"); ok {
			names = append(names, n)
		}
	}
	return names
}
