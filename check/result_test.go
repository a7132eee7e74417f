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
