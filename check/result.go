package check

import (
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/deftest"
	"github.com/drydock-dev/drydock/manifest"
)

// Exit codes, like diff and grep: the contract of DESIGN.md that
// Result.ExitCode follows and cmd/drydock-engine returns.
const (
	// ExitOK: every check passed.
	ExitOK = 0
	// ExitFail: a check failed (golden drift, a rule violation).
	ExitFail = 1
	// ExitInput: bad usage or bad input (unreadable, invalid, an
	// evaluation error): a suite could not be checked.
	ExitInput = 2
	// ExitInternal: a bug in drydock. Run never returns it; a panic
	// reaches the caller, which maps it to this code.
	ExitInternal = 3
)

// Level says whether a finding fails its suite.
type Level string

// Finding levels; the values are what the reports print.
const (
	// LevelError fails the suite.
	LevelError Level = "error"
	// LevelWarning is reported but passes.
	LevelWarning Level = "warning"
	// LevelException is a rule's finding an exception[rules] waived (as
	// conftest reports them): reported, never failing or warning.
	LevelException Level = "exception"
)

// Finding is one thing a check reports, located in the authored input.
type Finding struct {
	// Suite is the name of the suite that reported it.
	Suite string
	// Check is "render", "golden" or "rules/<namespace>.<rule>".
	Check   string
	Level   Level
	Message string
	// Pos is where the finding points: the component, policy or template
	// that produced the object, the golden file, or the input error's
	// place. It is not valid when the finding has no place of its own.
	Pos manifest.Pos
	// Related are other places the finding relates to (an input error's
	// manifest.Error.Related that have a place: the template line).
	Related []manifest.Related
	// Object is the object's path in the output tree (for combined rules,
	// the cluster), when the finding is about one.
	Object string
	// Origin is the authored input that produced the object, when the
	// finding is about one rendered object.
	Origin cluster.Origin
	// Diff is the unified diff of a changed golden file.
	Diff string
	// Field is the object's field the finding is about (a
	// fieldpath.Path's string form), when it is about one.
	Field string
	// Metadata is a rule finding's metadata: the result object's keys
	// besides msg (details, id, severity...), the rule's query, and the
	// package's __rego_metadata__ when it has one.
	Metadata map[string]any
}

// SuiteResult is what running one suite found.
type SuiteResult struct {
	Name string
	// Objects is the number of objects the suite rendered.
	Objects int
	// Checks are the checks that ran ("render", "golden", "rules/<ns>"
	// and "rules/<ns>.<rule>"), for reports listing passes too.
	Checks   []string
	Findings []Finding
	// Updated lists the golden files an update wrote or removed.
	Updated []string
	// Adopted lists the golden files an update took over (Options.Adopt):
	// drydock had not written them and owns them from now on.
	Adopted []string
	// Coverage is, with Options.Coverage, every if of the tested
	// definitions' templates and the ways the definition tests took it.
	Coverage []BranchCoverage
	// Conftest is, for a suite of plain manifests, its rule results as
	// conftest groups them: per namespace and file.
	Conftest []ConftestResult
	// Err is bad input: the suite could not be checked.
	Err error
	// Unclaimed are, in a shard that checks a part of the suite
	// (Options.Shard), the findings that hold of the suite only if every
	// shard has them (report merge decides), so they fail nothing here:
	// golden files the shard did not render (stale only if no shard
	// renders them), and "nothing to check" when it checked nothing.
	Unclaimed []Finding
	// Notes tell what the suite left out that the user should know of
	// (a plain suite's input files no parser takes, as conftest skips
	// them); they change no outcome.
	Notes []string
}

// Failed reports whether a finding of the suite is at LevelError.
func (r *SuiteResult) Failed() bool {
	for _, f := range r.Findings {
		if f.Level == LevelError {
			return true
		}
	}
	return false
}

// Status is the suite's one-word outcome: "ERROR" when it could not be
// checked (Err), "FAIL" when it Failed, else "ok".
func (r *SuiteResult) Status() string {
	switch {
	case r.Err != nil:
		return "ERROR"
	case r.Failed():
		return "FAIL"
	}
	return "ok"
}

// Counts returns the numbers of the suite's findings at LevelError and
// at any other level.
func (r *SuiteResult) Counts() (errs, warns int) {
	for _, f := range r.Findings {
		switch f.Level {
		case LevelError:
			errs++
		case LevelWarning:
			warns++
		}
	}
	return errs, warns
}

// Result is what a Run found, suite by suite.
type Result struct {
	// Config is the configuration file the suites came from (Config.File):
	// where a finding without a place of its own points.
	Config string
	// Suites are in the order Run ran them: sorted by name.
	Suites []*SuiteResult
	// Shard is the part of the work the run did (Options.Shard).
	Shard Shard
}

// OK reports whether every suite's Status is "ok".
func (r *Result) OK() bool { return r.FailedSuites() == 0 }

// FailedSuites is the number of suites whose Status is not "ok".
func (r *Result) FailedSuites() int {
	n := 0
	for _, s := range r.Suites {
		if s.Status() != "ok" {
			n++
		}
	}
	return n
}

// ExitCode is the exit code the results call for: ExitInput when a suite
// could not be checked, else ExitFail when a suite failed, else ExitOK.
func (r *Result) ExitCode() int {
	code := ExitOK
	for _, s := range r.Suites {
		switch {
		case s.Err != nil:
			code = max(code, ExitInput)
		case s.Failed():
			code = max(code, ExitFail)
		}
	}
	return code
}

// Warned reports whether a suite has a warning finding.
func (r *Result) Warned() bool {
	for _, s := range r.Suites {
		if _, warns := s.Counts(); warns > 0 {
			return true
		}
	}
	return false
}

// Exit is the exit code of drydock test: ExitCode, with failOnWarn
// turning a run that only warned into ExitFail; with conftest, conftest's
// codes instead: 1 for any suite that could not be checked or failed,
// and with failOnWarn 2 for failures and 1 for warnings only.
func (r *Result) Exit(failOnWarn, conftest bool) int {
	if !conftest {
		code := r.ExitCode()
		if failOnWarn && code == ExitOK && r.Warned() {
			code = ExitFail
		}
		return code
	}
	failed := false
	for _, s := range r.Suites {
		if s.Err != nil {
			return 1
		}
		failed = failed || s.Failed()
	}
	switch {
	case failed && failOnWarn:
		return 2
	case failed, failOnWarn && r.Warned():
		return 1
	}
	return 0
}

// BranchCoverage is one `if` of a tested definition's template and
// whether the definition tests made its condition true and false.
type BranchCoverage = deftest.BranchCoverage
