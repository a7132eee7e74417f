package check

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/parsers"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/regosandbox"
	"github.com/drydock-dev/drydock/rules"
)

// isManifest tells the files a plain suite reads from a directory: those
// conftest has a parser for by name (parsers.ForFile), as conftest test
// keeps them (runner/test.go, parser.FileSupported).
func isManifest(name string) bool {
	_, err := parsers.ForFile(name)
	return err == nil
}

// plainInput is what a plain suite reads, as conftest test reads its
// arguments (runner/test.go at v0.71.1).
type plainInput struct {
	paths, exclude, skip []string
	// parser parses every file (conftest --parser); "": each file's own.
	parser string
	// ignore leaves out the paths it matches (conftest --ignore).
	ignore *regexp.Regexp
	// stdin is read for "-".
	stdin io.Reader
	// protoFiles give textproto inputs their message types.
	protoFiles []string
	listItems  bool
	// owns, when set, picks the files a shard checks (Shard.Owns of the
	// file's key, plainKey); notes are then the first shard's only.
	owns  func(file string) bool
	notes bool
}

// readPlain reads a plain suite's inputs as conftest test does: a file
// named is parsed whatever its name (an error if no parser takes it), a
// directory is walked hidden directories and all (pipeline.ConftestFiles)
// and its files a parser takes are parsed, "-" is standard input (YAML
// unless --parser). Each document goes to the rules as written (see
// plainValues); a document that is a map is an object too. Two documents
// of the same kind, namespace and name are both kept. The notes tell
// what conftest would skip silently (a walked file without a parser).
func readPlain(in plainInput) ([]*sunk, []string, error) {
	files, notes, err := plainFiles(in)
	if err != nil {
		return nil, nil, err
	}
	var docs []*sunk
	for _, f := range files {
		vals, _, err := readPlainFile(f, in)
		if err != nil {
			return nil, nil, err
		}
		fdocs, err := plainSunks(vals, in.listItems)
		if err != nil {
			return nil, nil, err
		}
		docs = append(docs, fdocs...)
	}
	return docs, notes, nil
}

// plainFile is a file to parse with its parser.
type plainFile struct{ path, parser string }

// plainFiles lists the files conftest test would parse (runner/test.go
// parseFileList): named files and "-" whatever they are, the files of
// directories a parser takes by name; --ignore applied to both (not to
// "-"). A walked file no parser takes is left out, as conftest does,
// and named in a note.
func plainFiles(in plainInput) ([]plainFile, []string, error) {
	var out []plainFile
	var notes, noParser []string
	for _, p := range in.paths {
		switch {
		case p == "":
			continue // an empty argument names nothing (conftest skips it)
		case p == "-":
			out = append(out, plainFile{"-", cmp.Or(in.parser, parsers.YAML)})
			continue
		}
		p = realRoot(p)
		list, err := pipeline.ConftestFiles(p, in.exclude, in.skip, func(n string) { notes = append(notes, n) })
		if err != nil {
			return nil, nil, err
		}
		named := len(list) == 1 && list[0] == p
		for _, f := range list {
			if in.ignore != nil && in.ignore.MatchString(f) {
				continue
			}
			parser, err := parsers.ForFile(f)
			switch {
			case in.parser != "" && (named || err == nil):
				parser = in.parser
			case err != nil && named:
				return nil, nil, err
			case err != nil:
				noParser = append(noParser, f)
				continue
			}
			out = append(out, plainFile{f, parser})
		}
	}
	if len(out) == 0 {
		return nil, nil, errors.New("no files found: no file in the inputs has a parser (conftest test: \"no files found\")")
	}
	if len(noParser) > 0 {
		notes = append(notes, skippedNote(noParser))
	}
	if in.owns != nil {
		out = slices.DeleteFunc(out, func(f plainFile) bool { return !in.owns(f.path) })
		if !in.notes {
			notes = nil
		}
	}
	return out, notes, nil
}

// realRoot is p, or the path a symbolic link p leads to: conftest walks a
// linked input from the link's target (runner/test.go getWalkFn calls
// filepath.EvalSymlinks), so findings name the files there.
func realRoot(p string) string {
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return p
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

// skippedNote names the walked files no parser takes (the first few).
func skippedNote(files []string) string {
	const shown = 5
	list := strings.Join(files[:min(len(files), shown)], ", ")
	if len(files) > shown {
		list += fmt.Sprintf(", and %d more", len(files)-shown)
	}
	if len(files) == 1 {
		return "1 file in the input directories has no parser and was not checked, as conftest skips it: " + list
	}
	return fmt.Sprintf("%d files in the input directories have no parser and were not checked, as conftest skips them: %s", len(files), list)
}

// readPlainFile reads and parses one file (stdin for "-", at most
// manifest.MaxInputBytes) into its documents; it gives the size of its
// source too.
func readPlainFile(f plainFile, in plainInput) ([]manifest.Value, int, error) {
	var src []byte
	var err error
	if f.path == "-" {
		if in.stdin == nil {
			return nil, 0, errors.New("-: no standard input")
		}
		if src, err = io.ReadAll(io.LimitReader(in.stdin, manifest.MaxInputBytes+1)); err == nil && len(src) > manifest.MaxInputBytes {
			err = fmt.Errorf("larger than %d bytes", manifest.MaxInputBytes)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("-: %w", err)
		}
	} else if src, err = manifest.ReadFile(f.path); err != nil {
		return nil, 0, err
	}
	vals, err := plainValues(f.path, f.parser, src, in.protoFiles)
	return vals, len(src), err
}

// plainValues are a file's documents as conftest's parser gives them to
// conftest's engine (policy/engine.go Check): YAML as plainDocuments
// splits it, JSON as manifest.DecodeJSONFile reads it, every other
// format by the parsers package, where a value that is an array gives
// each element as a document, as conftest evaluates a file's sub
// configurations (a Dockerfile: its list of instructions).
func plainValues(file, parser string, src []byte, protoFiles []string) ([]manifest.Value, error) {
	switch parser {
	case parsers.YAML:
		return plainDocuments(file, src)
	case parsers.JSON:
		v, err := manifest.DecodeJSONFile(file, src)
		if err != nil {
			return nil, err
		}
		return valueElements(v), nil
	}
	data, err := parsers.Parse(parser, src, parsers.Options{Path: file, ProtoFiles: protoFiles})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return valueElements(manifest.Value{Pos: manifest.Pos{File: file}, Data: manifest.FromJSONNumbers(data)}), nil
}

// valueElements is v's elements when it is an array, else v.
func valueElements(v manifest.Value) []manifest.Value {
	if elems := v.Elements(); elems != nil {
		return elems
	}
	return []manifest.Value{v}
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

// plainSunks are a file's documents as the rules take them: a document
// that is a map is an object too (a kind: List expanded into its items
// with listItems).
func plainSunks(vals []manifest.Value, listItems bool) ([]*sunk, error) {
	var docs []*sunk
	for _, v := range vals {
		obj, ok := v.Object()
		if !ok {
			docs = append(docs, &sunk{writer: &writer{origin: cluster.Origin{Pos: v.Pos}}, doc: v.Data})
			continue
		}
		items := []*manifest.Object{obj}
		if listItems {
			var err error
			if items, err = obj.ExpandList(); err != nil {
				return nil, err
			}
		}
		for _, o := range items {
			docs = append(docs, &sunk{writer: &writer{origin: cluster.Origin{Pos: o.Pos}}, obj: o})
		}
	}
	return docs, nil
}

// plainSuite checks a suite of plain manifests: nothing is rendered, no
// Karmada or KubeVela stage touches the objects, and no field is pruned.
// The rules see each document as conftest does. (Schema validation is
// for rendered suites.) The files stream through the rules a batch at a
// time (plainStreamed), unless the suite's checks see every document at
// once: combined rules, and Gatekeeper, whose data.inventory is every
// object, and conftest's print() and --trace output (plainWhole).
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
	in, err := r.plainInput(s)
	if err != nil {
		res.fail(err, "inputs")
		return res
	}
	files, notes, err := plainFiles(in)
	if err != nil {
		res.fail(err, "inputs")
		return res
	}
	res.Notes = notes
	opts, ok := r.ruleOptions(s)
	ev := &plainEval{ctx: ctx, workers: r.renderWorkers, rep: &rules.Report{}}
	if ok {
		ev.eng, ev.err = r.engine(ctx, opts)
	}
	if ev.err == nil && ev.eng != nil && r.opts.Conftest && (r.opts.Trace || ev.eng.HasPrint()) {
		// conftest's print() and --trace output comes from queries run
		// again on each document (conftestQueries): every one is kept.
		return r.plainWhole(ctx, s)
	}
	var batch []*sunk
	size := 0
	for i, f := range files {
		vals, n, err := readPlainFile(f, in)
		if err == nil {
			vals, err = nil, appendSunks(&batch, vals, in.listItems)
		}
		if err != nil {
			res.fail(err, "inputs")
			return res
		}
		size += n
		if len(batch) >= limit.docs || size >= limit.bytes || i == len(files)-1 {
			ev.eval(batch)
			clear(batch)
			batch, size = batch[:0], 0
		}
	}
	res.Objects = len(ev.objs)
	if len(ev.objs) == 0 {
		r.nothingChecked(s, res, "inputs", "no document in the inputs: nothing was checked")
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
	res.Conftest = conftestResults(s, ev.eng, ev.rep, ev.objs)
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
	in, err := r.plainInput(s)
	if err != nil {
		res.fail(err, "inputs")
		return res
	}
	objs, notes, err := readPlain(in)
	if err != nil {
		res.fail(err, "inputs")
		return res
	}
	res.Notes = notes
	res.Objects = len(objs)
	if len(objs) == 0 {
		r.nothingChecked(s, res, "inputs", "no document in the inputs: nothing was checked")
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

// appendSunks appends a file's documents to batch (see plainSunks).
func appendSunks(batch *[]*sunk, vals []manifest.Value, listItems bool) error {
	docs, err := plainSunks(vals, listItems)
	*batch = append(*batch, docs...)
	return err
}

// plainKey is the key a shard owns a plain suite's file by: its slash
// path relative to the config's directory ("-" for standard input), the
// path as given when it is not under the directory.
func (r *runner) plainKey(file string) string {
	if file == "-" {
		return file
	}
	dir, err1 := filepath.Abs(r.dir)
	abs, err2 := filepath.Abs(file)
	if rel, err := filepath.Rel(dir, abs); err1 == nil && err2 == nil && err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(file)
}

// plainInput is what suite s reads: its inputs, with the suite's parser
// and ignore pattern (conftest test --parser, --ignore).
func (r *runner) plainInput(s Suite) (plainInput, error) {
	in := plainInput{exclude: s.Exclude, skip: r.skip, parser: s.Parser, stdin: r.opts.Stdin, listItems: s.ListItems, notes: true}
	if sh := r.opts.Shard; sh.splits(s) {
		in.owns = func(file string) bool { return sh.Owns(r.plainKey(file)) }
		in.notes = sh.First()
	}
	for _, d := range r.opts.ProtoFileDirs {
		protos, err := manifest.WalkFiles(d, manifest.WalkOptions{Keep: func(name string) bool { return filepath.Ext(name) == ".proto" }})
		if err != nil {
			return in, fmt.Errorf("--proto-file-dirs: %w", err)
		}
		in.protoFiles = append(in.protoFiles, protos...)
	}
	for _, p := range s.Inputs {
		if p == "-" {
			in.paths = append(in.paths, p)
		} else {
			in.paths = append(in.paths, r.paths([]string{p})...)
		}
	}
	if s.Parser != "" && !parsers.Known(s.Parser) {
		return in, fmt.Errorf("parser %q: %w (parsers: %s)", s.Parser, parsers.ErrUnknown, strings.Join(parsers.Names(), ", "))
	}
	if s.IgnorePattern != "" {
		re, err := regexp.Compile(s.IgnorePattern)
		if err != nil {
			return in, fmt.Errorf("ignore pattern: %w", err)
		}
		in.ignore = re
	}
	return in, nil
}
