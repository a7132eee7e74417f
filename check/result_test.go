package check

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResultExitCode: the exit code contract over a run's suites: bad
// input (2) outranks a failed check (1), which outranks warnings (0).
func TestResultExitCode(t *testing.T) {
	ok := &SuiteResult{Name: "ok"}
	warned := &SuiteResult{Name: "warned", Findings: []Finding{{Level: LevelWarning}}}
	failed := &SuiteResult{Name: "failed", Findings: []Finding{{Level: LevelWarning}, {Level: LevelError}}}
	broken := &SuiteResult{Name: "broken", Err: errors.New("bad input")}
	tests := []struct {
		name   string
		suites []*SuiteResult
		want   int
		ok     bool
		failed int
	}{
		{"no suites", nil, ExitOK, true, 0},
		{"all ok", []*SuiteResult{ok, ok}, ExitOK, true, 0},
		{"warnings pass", []*SuiteResult{ok, warned}, ExitOK, true, 0},
		{"a failure", []*SuiteResult{ok, failed, warned}, ExitFail, false, 1},
		{"bad input", []*SuiteResult{broken}, ExitInput, false, 1},
		{"bad input outranks a failure", []*SuiteResult{failed, broken, ok}, ExitInput, false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Result{Suites: tt.suites}
			got := struct {
				Code, Failed int
				OK           bool
			}{r.ExitCode(), r.FailedSuites(), r.OK()}
			want := struct {
				Code, Failed int
				OK           bool
			}{tt.want, tt.failed, tt.ok}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSuiteResultStatus(t *testing.T) {
	tests := []struct {
		name        string
		r           SuiteResult
		status      string
		errs, warns int
	}{
		{"empty", SuiteResult{}, "ok", 0, 0},
		{"warnings", SuiteResult{Findings: []Finding{{Level: LevelWarning}, {Level: LevelWarning}}}, "ok", 0, 2},
		{"an error", SuiteResult{Findings: []Finding{{Level: LevelError}, {Level: LevelWarning}}}, "FAIL", 1, 1},
		{"bad input", SuiteResult{Err: errors.New("x"), Findings: []Finding{{Level: LevelError}}}, "ERROR", 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs, warns := tt.r.Counts()
			got := []any{tt.r.Status(), errs, warns}
			if diff := cmp.Diff([]any{tt.status, tt.errs, tt.warns}, got); diff != "" {
				t.Errorf("status, errors, warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestResultExit: drydock test's exit codes with --fail-on-warn and
// conftest's (--conftest): conftest exits 1 for any error or failure, and
// with --fail-on-warn 2 for failures, 1 for warnings only.
func TestResultExit(t *testing.T) {
	ok := &SuiteResult{Name: "ok"}
	warned := &SuiteResult{Name: "warned", Findings: []Finding{{Level: LevelWarning}, {Level: LevelException}}}
	excepted := &SuiteResult{Name: "excepted", Findings: []Finding{{Level: LevelException}}}
	failed := &SuiteResult{Name: "failed", Findings: []Finding{{Level: LevelError}}}
	broken := &SuiteResult{Name: "broken", Err: errors.New("bad policy")}
	tests := []struct {
		name                 string
		suites               []*SuiteResult
		failOnWarn, conftest bool
		want                 int
	}{
		{"ok", []*SuiteResult{ok}, false, false, 0},
		{"warnings pass", []*SuiteResult{warned}, false, false, 0},
		{"exceptions never fail", []*SuiteResult{excepted}, true, true, 0},
		{"fail-on-warn", []*SuiteResult{warned}, true, false, 1},
		{"fail-on-warn with a failure", []*SuiteResult{warned, failed}, true, false, 1},
		{"bad input", []*SuiteResult{broken, failed}, true, false, 2},
		{"conftest: failure", []*SuiteResult{failed}, false, true, 1},
		{"conftest: warnings pass", []*SuiteResult{warned}, false, true, 0},
		{"conftest: fail-on-warn, warnings", []*SuiteResult{warned}, true, true, 1},
		{"conftest: fail-on-warn, a failure", []*SuiteResult{warned, failed}, true, true, 2},
		{"conftest: any error is 1", []*SuiteResult{failed, broken}, true, true, 1},
	}
	for _, tt := range tests {
		r := &Result{Suites: tt.suites}
		if got := r.Exit(tt.failOnWarn, tt.conftest); got != tt.want {
			t.Errorf("%s: Exit(%t, %t) = %d, want %d", tt.name, tt.failOnWarn, tt.conftest, got, tt.want)
		}
	}
}
