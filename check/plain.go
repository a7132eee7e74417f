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
		fdocs, _, err := readPlainFile(f, paths, listItems)
		if err != nil {
			return nil, err
		}
		docs = append(docs, fdocs...)
	}
	return docs, nil
}

// readPlainFile reads one file of a plain suite (paths are the suite's
// inputs): its documents, and the size of its source. A file that is not
// a manifest has none, unless it was named in paths (an error).
func readPlainFile(f string, paths []string, listItems bool) ([]*sunk, int, error) {
	if !isManifest(f) {
		if slices.Contains(paths, f) {
			return nil, 0, fmt.Errorf("%s: not a YAML or JSON manifest", f)
		}
		return nil, 0, nil // a CUE file in a directory
	}
	src, err := manifest.ReadFile(f)
	if err != nil {
		return nil, 0, err
	}
	vals, err := plainDocuments(f, src)
	if err != nil {
		return nil, 0, err
	}
	var docs []*sunk
	for _, v := range vals {
		obj, ok := v.Object()
		if !ok {
			docs = append(docs, &sunk{origin: cluster.Origin{Pos: v.Pos}, doc: v.Data})
			continue
		}
		items := []*manifest.Object{obj}
		if listItems {
			if items, err = obj.ExpandList(); err != nil {
				return nil, 0, err
			}
		}
		for _, o := range items {
			docs = append(docs, &sunk{origin: cluster.Origin{Pos: o.Pos}, obj: o})
		}
	}
	return docs, len(src), nil
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
// for rendered suites.) The files stream through the rules a batch at a
// time (plainStreamed), unless the suite's checks see every document at
// once: combined rules, and Gatekeeper, whose data.inventory is every
// object (plainWhole).
func (r *runner) plainSuite(ctx context.Context, s Suite) *SuiteResult {
	if s.Combine || len(s.Gatekeeper) > 0 {
		return r.plainWhole(ctx, s)
	}
	return r.plainStreamed(ctx, s, plainBatch{docs: 256, bytes: 1 << 20})
}

// plainBatch bounds the documents a streamed plain suite holds at once:
// files are read until their documents number docs or their sources
// total bytes (a file is never split).
type plainBatch struct{ docs, bytes int }

// plainStreamed is plainSuite reading the files in batches: each batch is
// evaluated, then only the documents' places are kept, so memory does
// not grow with the number of files. The result is plainWhole's, byte
// for byte: the rules' reports are joined in input order, and an input
// error anywhere wins over a rules error, as when every file was read
// first.
func (r *runner) plainStreamed(ctx context.Context, s Suite, limit plainBatch) *SuiteResult {
	res := &SuiteResult{Name: s.Name, Checks: []string{"inputs"}}
	paths := r.paths(s.Inputs)
	files, err := pipeline.InputFiles(paths, s.Exclude, r.skip)
	if err != nil {
		res.fail(err, "inputs")
		return res
	}
	opts, ok := r.ruleOptions(s)
	ev := &plainEval{ctx: ctx, workers: r.renderWorkers, rep: &rules.Report{}}
	if ok {
		ev.eng, ev.err = r.engine(ctx, opts)
	}
	var batch []*sunk
	size := 0
	for i, f := range files {
		docs, n, err := readPlainFile(f, paths, s.ListItems)
		if err != nil {
			res.fail(err, "inputs")
			return res
		}
		batch, size = append(batch, docs...), size+n
		if len(batch) >= limit.docs || size >= limit.bytes || i == len(files)-1 {
			ev.eval(batch)
			clear(batch)
			batch, size = batch[:0], 0
		}
	}
	res.Objects = len(ev.objs)
	if len(ev.objs) == 0 {
		r.nothingChecked(s, res, "inputs", "no YAML or JSON document in the inputs: nothing was checked")
	}
	if !ok {
		res.fail(errors.New("no policies to check the manifests with: give policies (-p DIR) or Gatekeeper constraints (--gatekeeper); policy/ does not exist"), "rules")
		return res
	}
	if ev.err != nil {
		res.fail(&stageError{"rules", ev.err}, "rules")
		return res
	}
	ruleFindings(res, ev.eng, ev.rep, ev.objs, false)
	if err := ev.rep.StopErrors(); err != nil {
		res.fail(&stageError{"rules", err}, "rules")
	}
	return res
}

// plainEval evaluates a streamed plain suite's batches and keeps their
// joined report and, of each document, its place.
type plainEval struct {
	ctx     context.Context
	workers int
	eng     *rules.Engine // nil: no rules
	rep     *rules.Report
	// objs are the documents evaluated, by input index, without their
	// contents.
	objs []*sunk
	// err is the rules' first error (loading them, or evaluating the
	// earliest input that failed): once set, nothing more is evaluated.
	err error
}

// eval evaluates batch, the next documents in input order, and drops
// their contents.
func (ev *plainEval) eval(batch []*sunk) {
	if ev.eng != nil && ev.err == nil && len(batch) > 0 {
		inputs := make([]rules.Input, len(batch))
		for i, d := range batch {
			inputs[i] = d.input()
		}
		rep, err := ev.eng.Eval(ev.ctx, inputs, ev.workers)
		if err != nil {
			ev.err = err
		} else {
			merge(ev.rep, rep, len(ev.objs))
		}
	}
	for _, d := range batch {
		d.obj, d.doc = nil, nil
		ev.objs = append(ev.objs, d)
	}
}

// plainWhole is plainSuite reading every file before the checks run.
func (r *runner) plainWhole(ctx context.Context, s Suite) *SuiteResult {
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
	if err := rep.StopErrors(); err != nil {
		res.fail(&stageError{"rules", err}, "rules")
	}
	return res
}
