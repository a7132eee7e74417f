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
	"github.com/drydock-dev/drydock/regosandbox"
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

// readPlain reads a plain suite's inputs as conftest does: each YAML or
// JSON document goes to the rules as written (see plainDocuments). Two
// documents of the same kind, namespace and name are both kept: each is
// checked. Files are found as a render finds its inputs
// (pipeline.InputFiles), skip left out.
func readPlain(paths, exclude, skip []string, listItems bool) ([]*sunk, error) {
	files, err := pipeline.InputFiles(paths, exclude, skip)
	if err != nil {
		return nil, err
	}
	var docs []*sunk
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
		vals, err := plainDocuments(f, src)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			obj, ok := v.Object()
			if !ok {
				docs = append(docs, &sunk{origin: cluster.Origin{Pos: v.Pos}, doc: v.Data})
				continue
			}
			items := []*manifest.Object{obj}
			if listItems {
				if items, err = obj.ExpandList(); err != nil {
					return nil, err
				}
			}
			for _, o := range items {
				docs = append(docs, &sunk{origin: cluster.Origin{Pos: o.Pos}, obj: o})
			}
		}
	}
	return docs, nil
}

// plainDocuments gives the rules a file's documents as conftest does
// (rules.Documents), where a file holding one sequence gives each of its
// elements instead, as conftest evaluates a top-level array's items.
func plainDocuments(file string, src []byte) ([]manifest.Value, error) {
	vals, err := rules.Documents(file, src)
	if err != nil {
		return nil, err
	}
	if len(vals) == 1 {
		if elems := vals[0].Elements(); elems != nil {
			return elems, nil
		}
	}
	return vals, nil
}

// plainSuite checks a suite of plain manifests: nothing is rendered, no
// Karmada or KubeVela stage touches the objects, and no field is pruned.
// The rules see each document as conftest does. (Schema validation is
// for rendered suites.)
func (r *runner) plainSuite(ctx context.Context, s Suite) *SuiteResult {
	res := &SuiteResult{Name: s.Name, Checks: []string{"inputs"}}
	// No output path or cluster: a finding names the document by its place.
	objs, err := readPlain(r.paths(s.Inputs), s.Exclude, r.skip, s.ListItems)
	if err != nil {
		res.fail(err, "inputs")
		return res
	}
	res.Objects = len(objs)
	if len(objs) == 0 {
		r.nothingChecked(s, res, "inputs", "no YAML or JSON document in the inputs: nothing was checked")
	}
	inputs := make([]rules.Input, len(objs))
	var kube []*sunk // the documents that are objects, for Gatekeeper
	for i, o := range objs {
		inputs[i] = o.input()
		if o.obj != nil {
			kube = append(kube, o)
		}
	}
	gerr := r.gatekeeperFindings(ctx, s, res, kube)
	if gerr != nil && !errors.Is(gerr, regosandbox.ErrStopped) {
		res.fail(&stageError{"gatekeeper", gerr}, "gatekeeper")
		return res
	}
	if gerr != nil { // a template stopped by the budget: the rules still run
		defer res.fail(&stageError{"gatekeeper", gerr}, "gatekeeper")
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
	res.Conftest = conftestResults(s, eng, rep, objs)
	if err := r.conftestQueries(ctx, s, eng, inputs, res.Conftest); err != nil {
		res.fail(&stageError{"rules", err}, "rules")
		return res
	}
	if err := rep.StopErrors(); err != nil {
		res.fail(&stageError{"rules", err}, "rules")
	}
	return res
}
