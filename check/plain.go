package check

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/rules"
)

// isManifest keeps the files a plain suite reads from its directories.
func isManifest(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// plainDoc is one document of a plain suite's inputs.
type plainDoc struct {
	obj  *manifest.Object
	file string // as the inputs name it
}

// readPlain reads a plain suite's inputs as conftest does: every YAML or
// JSON document is one object, taken as written; a `kind: List` stays
// one document unless listItems asks for its items. Two documents of the
// same kind, namespace and name are both kept: each is checked.
func readPlain(paths, exclude []string, listItems bool) ([]plainDoc, error) {
	var docs []plainDoc
	for _, root := range paths {
		files, err := manifest.WalkFiles(root, manifest.WalkOptions{Keep: isManifest})
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if excluded(f, root, exclude) {
				continue
			}
			src, err := manifest.ReadFile(f)
			if err != nil {
				return nil, err
			}
			dec := manifest.NewDecoder(f, src, manifest.DecodeOptions{KeepLists: !listItems})
			for {
				objs, err := dec.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					return nil, err
				}
				for _, o := range objs {
					docs = append(docs, plainDoc{obj: o, file: f})
				}
			}
		}
	}
	return docs, nil
}

// excluded reports whether the file f found under root matches one of
// the suite's exclude globs (matched against its path relative to root
// and its base name).
func excluded(f, root string, exclude []string) bool {
	rel, err := filepath.Rel(root, f)
	if err != nil {
		rel = f
	}
	for _, g := range exclude {
		if ok, _ := filepath.Match(g, filepath.ToSlash(rel)); ok {
			return true
		}
		if ok, _ := filepath.Match(g, filepath.Base(f)); ok {
			return true
		}
	}
	return false
}

// plainSuite checks a suite of plain manifests: nothing is rendered, no
// Karmada or KubeVela stage touches the objects, and no field is pruned.
// The rules see each document as conftest does. (Schema validation is
// for rendered suites.)
func (r *runner) plainSuite(ctx context.Context, s Suite) *SuiteResult {
	res := &SuiteResult{Name: s.Name, Checks: []string{"inputs"}}
	docs, err := readPlain(r.paths(s.Inputs), s.Exclude, s.ListItems)
	if err != nil {
		res.fail(err, "inputs")
		return res
	}
	res.Objects = len(docs)
	if len(docs) == 0 {
		level := LevelWarning
		if s.Strict || r.opts.Strict {
			level = LevelError
		}
		res.Findings = append(res.Findings, Finding{Suite: s.Name, Check: "inputs", Level: level,
			Message: fmt.Sprintf("no YAML or JSON document in the inputs (%s): nothing was checked", strings.Join(s.Inputs, ", "))})
	}
	objs := make([]*sunk, len(docs))
	inputs := make([]rules.Input, len(docs))
	for i, d := range docs {
		inputs[i] = rules.Input{Object: d.obj, Context: rules.Context{Namespace: d.obj.Namespace(), Source: d.obj.Pos.String(), File: d.file}}
		// No output path: a finding names the document by its place.
		objs[i] = &sunk{origin: cluster.Origin{Pos: d.obj.Pos}, input: inputs[i]}
	}
	if err := r.gatekeeperFindings(ctx, s, res, objs); err != nil {
		res.fail(&stageError{"gatekeeper", err}, "gatekeeper")
		return res
	}
	opts, ok := r.ruleOptions(s)
	if !ok {
		if len(s.Gatekeeper) == 0 {
			res.fail(errors.New("no policies to check the manifests with: give policies (-p DIR) or Gatekeeper constraints (--gatekeeper); policy/ does not exist"), "rules")
		}
		return res
	}
	eng, err := r.engine(ctx, opts)
	if err != nil {
		res.fail(&stageError{"rules", err}, "rules")
		return res
	}
	var rep *rules.Report
	if s.Combine {
		rep, err = eng.EvalCombined(ctx, map[string][]rules.Input{"": inputs})
	} else {
		rep, err = eng.Eval(ctx, inputs, r.renderWorkers)
	}
	if err != nil {
		res.fail(&stageError{"rules", err}, "rules")
		return res
	}
	ruleFindings(res, eng, rep, objs, s.Combine)
	return res
}
