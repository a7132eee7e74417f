package check

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/rules"
)

// isManifest tells the files a plain suite checks: YAML and JSON.
func isManifest(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// readPlain reads a plain suite's inputs as conftest does: every YAML or
// JSON document is one object, taken as written; a `kind: List` stays
// one document unless listItems asks for its items. Two documents of the
// same kind, namespace and name are both kept: each is checked. Files are
// found as a render finds its inputs (pipeline.InputFiles).
func readPlain(paths, exclude []string, listItems bool) ([]*manifest.Object, error) {
	files, err := pipeline.InputFiles(paths, exclude)
	if err != nil {
		return nil, err
	}
	var docs []*manifest.Object
	for _, f := range files {
		if !isManifest(f) {
			if slices.Contains(paths, f) {
				return nil, fmt.Errorf("%s: not a YAML or JSON manifest", f)
			}
			continue // a CUE file in a directory
		}
		src, err := manifest.ReadFile(f)
		if err != nil {
			return nil, err
		}
		objs, err := manifest.Decode(f, src, manifest.DecodeOptions{KeepLists: !listItems})
		if err != nil {
			return nil, err
		}
		docs = append(docs, objs...)
	}
	return docs, nil
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
		r.nothingChecked(s, res, "inputs", "no YAML or JSON document in the inputs: nothing was checked")
	}
	objs := make([]*sunk, len(docs))
	inputs := make([]rules.Input, len(docs))
	for i, d := range docs {
		// No output path or cluster: a finding names the document by its place.
		objs[i] = &sunk{origin: cluster.Origin{Pos: d.Pos}, obj: d}
		inputs[i] = objs[i].input()
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
