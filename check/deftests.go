package check

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/deftest"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
)

// loadDefTests reads a test file strictly: unknown keys are errors at
// their place, as in drydock.yaml, and deftest.Prepare checks the rest.
// It returns the tests and the file's document (positions).
func loadDefTests(file string) ([]deftest.Test, *manifest.Object, error) {
	data, err := manifest.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	docs, err := manifest.Decode(file, data, manifest.DecodeOptions{KeepLists: true, KeyPositions: true})
	if err != nil {
		return nil, nil, err
	}
	if len(docs) != 1 {
		return nil, nil, manifest.At(manifest.Pos{File: file, Line: 1, Col: 1}, "a definition test file holds one YAML document (tests: ...)")
	}
	doc := docs[0]
	var f deftest.File
	d := configDecoder{doc: doc}
	if err := d.value(nil, doc.Data, reflect.ValueOf(&f).Elem()); err != nil {
		return nil, nil, err
	}
	if err := deftest.Prepare(file, doc, &f); err != nil {
		return nil, nil, err
	}
	return f.Tests, doc, nil
}

// defTestFiles are the definition test files of suite s: those its tests
// lists (files, or directories searched for *_test.yaml) and the
// *_test.yaml files under its definitions.
func (r *runner) defTestFiles(s Suite) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	keep := manifest.WalkOptions{Keep: deftest.IsFile, SkipDir: func(name string) bool { return strings.HasPrefix(name, ".") }}
	for _, group := range [][]string{r.paths(s.Tests), r.paths(s.Definitions)} {
		for _, p := range group {
			info, err := os.Stat(p)
			if err != nil {
				return nil, err
			}
			var files []string
			if info.IsDir() {
				if files, err = manifest.WalkFiles(p, keep); err != nil {
					return nil, err
				}
			} else if deftest.IsFile(p) || slices.Contains(r.paths(s.Tests), p) {
				files = []string{p}
			}
			for _, f := range files {
				if !seen[f] {
					seen[f] = true
					out = append(out, f)
				}
			}
		}
	}
	return out, nil
}

// defJob is one definition test of a suite: the file it is in, that
// file's document (positions) and its index there.
type defJob struct {
	file  string
	doc   *manifest.Object
	index int
	test  deftest.Test
}

// defTests runs the suite's definition tests: a check per test
// ("tests/<name>"), a finding per failed assertion at its line.
func (r *runner) defTests(ctx context.Context, s Suite, res *SuiteResult) error {
	files, err := r.defTestFiles(s)
	if err != nil || len(files) == 0 {
		return err
	}
	var jobs []defJob
	for _, file := range files {
		tests, doc, err := loadDefTests(file)
		if err != nil {
			return &stageError{"tests", err}
		}
		for i, t := range tests {
			jobs = append(jobs, defJob{file, doc, i, t})
		}
	}
	defs, warnings, err := pipeline.LoadDefinitionsFields(r.paths(s.Definitions), s.NoBuiltins, r.fieldValidation(s))
	if err != nil {
		return &stageError{"tests", err}
	}
	for _, w := range warnings {
		res.Findings = append(res.Findings, Finding{Suite: s.Name, Check: "tests", Level: LevelWarning, Message: w})
	}
	if r.opts.Coverage {
		cov := deftest.NewCoverage(defs)
		for _, j := range jobs {
			cov.Add(j.test)
		}
		res.Coverage = append(res.Coverage, cov.Result()...)
	}
	// The tests run in parallel; their results keep the files' order.
	outcomes := make([]deftest.Outcome, len(jobs))
	errs := make([]error, len(jobs))
	opts := deftest.Options{Limits: r.opts.Limits, CI: r.opts.CI, Update: r.opts.Update}
	parallel(len(jobs), r.renderWorkers, func(i int) {
		j := jobs[i]
		outcomes[i], errs[i] = deftest.Run(ctx, defs, j.file, j.doc.FieldPos(fieldpath.New("tests", j.index)), j.test, opts)
	})
	testFiles := make([]string, len(jobs))
	for i, j := range jobs {
		testFiles[i] = j.file
		check := "tests/" + j.test.Name
		res.Checks = append(res.Checks, check)
		if errs[i] != nil {
			return &stageError{"tests", errs[i]}
		}
		for _, f := range outcomes[i].Failures {
			res.Findings = append(res.Findings, Finding{Suite: s.Name, Check: check, Level: LevelError,
				Message: fmt.Sprintf("test %q: %s", j.test.Name, f.Message), Diff: f.Diff,
				Pos: j.doc.FieldPos(fieldpath.New("tests", j.index, "asserts", f.Assert))})
		}
	}
	written, err := deftest.WriteSnapshots(testFiles, outcomes, r.opts.Update, r.opts.Prune)
	res.Updated = append(res.Updated, written...) // announced as golden updates are
	if err != nil {
		return &stageError{"tests", err}
	}
	return nil
}
