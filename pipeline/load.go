package pipeline

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// loaded is everything read from the inputs, by kind.
type loaded struct {
	apps []appSource
	defs []*render.Definition
	// workflows and policies are core.oam.dev/v1alpha1 Workflow and Policy
	// objects: what Applications refer to by name.
	workflows []*render.Workflow
	policies  []*render.Policy
	clusters  []*manifest.Object
	resources []*manifest.Object
	// read holds the absolute paths read: a file named twice (or given
	// and also found in a directory given) is read once.
	read map[string]bool
}

// readPaths reads files and directories (recursively, in byte order of
// names); "-" reads stdin once.
func readPaths(paths []string, stdin io.Reader, into *loaded) error {
	for _, p := range paths {
		if p == "-" {
			if stdin == nil {
				return inputError(errors.New("-: no standard input"))
			}
			data, err := io.ReadAll(io.LimitReader(stdin, manifest.MaxInputBytes+1))
			if err != nil {
				return inputError(fmt.Errorf("-: %w", err))
			}
			if err := into.addFile("<stdin>", data); err != nil {
				return err
			}
			stdin = nil
			continue
		}
		if err := readPath(p, into); err != nil {
			return err
		}
	}
	return nil
}

func readPath(root string, into *loaded) error {
	files, err := manifest.WalkFiles(root, manifest.WalkOptions{
		Keep:    isInputFile,
		SkipDir: func(name string) bool { return strings.HasPrefix(name, ".") },
	})
	if err != nil {
		return inputError(err)
	}
	for _, f := range files {
		if err := into.readFile(f); err != nil {
			return err
		}
	}
	return nil
}

func isInputFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml", ".json", ".cue":
		return true
	}
	return false
}

func (l *loaded) readFile(path string) error {
	if abs, err := filepath.Abs(path); err == nil {
		if l.read[abs] {
			return nil
		}
		if l.read == nil {
			l.read = map[string]bool{}
		}
		l.read[abs] = true
	}
	data, err := manifest.ReadFile(path)
	if err != nil {
		return inputError(err)
	}
	return l.addFile(path, data)
}

func (l *loaded) addFile(name string, data []byte) error {
	if strings.HasSuffix(name, ".cue") {
		defs, err := render.ParseCUEDefinitions(name, data)
		if err != nil {
			return inputError(err)
		}
		for _, d := range defs {
			if err := render.AdmitDefinition(d); err != nil {
				return inputError(err)
			}
		}
		l.defs = append(l.defs, defs...)
		return nil
	}
	// Document by document: an Application is kept as its document, so
	// that a stream of thousands is never all decoded at once.
	dec := manifest.NewDecoder(name, data, manifest.DecodeOptions{})
	for {
		objs, err := dec.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return inputError(err)
		}
		for _, o := range objs {
			if err := l.add(o); err != nil {
				return err
			}
		}
	}
}

func (l *loaded) add(o *manifest.Object) error {
	group := manifest.Group(o.APIVersion())
	switch {
	case group == "core.oam.dev" && o.Kind() == "Application":
		l.apps = append(l.apps, newAppSource(o))
	case group == "core.oam.dev" && o.Kind() == "Workflow":
		wf, err := render.ParseWorkflow(o)
		if err != nil {
			return inputError(err)
		}
		l.workflows = append(l.workflows, wf)
	case group == "core.oam.dev" && o.Kind() == "Policy":
		p, err := render.ParsePolicy(o)
		if err != nil {
			return inputError(err)
		}
		l.policies = append(l.policies, p)
	case group == "core.oam.dev" && render.IsDefinitionKind(o.Kind()):
		d, err := render.DefinitionFromObject(o)
		if err == nil {
			err = render.AdmitDefinition(d)
		}
		if err != nil {
			return inputError(err)
		}
		l.defs = append(l.defs, d)
	case cluster.IsClusterObject(o):
		l.clusters = append(l.clusters, o)
	case o.Kind() == "":
		return inputError(manifest.At(o.Pos, "%sdocument has no kind", o.Item()))
	default:
		var me *cluster.MetaError
		if err := cluster.ValidateMeta(o); errors.As(err, &me) {
			return inputError(manifest.At(o.FieldPos(me.Field), "%s%w", o.Item(), err))
		}
		l.resources = append(l.resources, o)
	}
	return nil
}

// only refuses what a flag read that is not of the kinds it takes (its
// clusters, its definitions): nothing read is silently dropped.
func (l *loaded) only(flag, want string, clusters, defs bool) error {
	var stray []*manifest.Object
	stray = append(stray, l.resources...)
	if !clusters {
		stray = append(stray, l.clusters...)
	}
	switch {
	case len(l.apps) > 0:
		return inputError(manifest.At(l.apps[0].pos, "%s: %s is not %s", flag, l.apps[0].key, want))
	case len(stray) > 0:
		return inputError(manifest.At(stray[0].Pos, "%s: %s is not %s", flag, stray[0].Key(), want))
	case !defs && len(l.defs) > 0:
		return inputError(manifest.At(l.defs[0].Source, "%s: %s %q is not %s", flag, l.defs[0].Kind, l.defs[0].Name, want))
	}
	return nil
}
