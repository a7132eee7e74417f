package rules

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

func TestVerify(t *testing.T) {
	const policy, tests = "testdata/verify/policy/main.rego", "testdata/verify/policy/main_test.rego"
	test := func(name string, line int, o Outcome, output string) TestResult {
		return TestResult{Package: "main", Name: name, Pos: manifest.Pos{File: tests, Line: line, Col: 1}, Outcome: o, Output: output}
	}
	all := []TestResult{
		test("test_latest_denied", 5, Pass, ""),
		test("test_pinned_allowed", 9, Pass, ""),
		test("test_prod_replicas", 13, Pass, "min 3\n"),
		test("test_prod_replicas_unmocked", 20, Fail, ""),
		test("todo_test_later", 24, Skip, ""),
	}
	cases := []struct {
		name string
		opts VerifyOptions
		want *VerifyReport
	}{
		{
			name: "all tests with coverage",
			opts: VerifyOptions{Coverage: true},
			want: &VerifyReport{
				Tests: all,
				Coverage: &Coverage{Percent: 80, Files: []FileCoverage{
					// warn_unused (lines 15-16) is never evaluated.
					{File: policy, Percent: 80, Covered: 8, NotCovered: 2, Uncovered: [][2]int{{15, 15}, {16, 16}}},
				}},
			},
		},
		{
			name: "selected tests without coverage",
			opts: VerifyOptions{Run: "pinned|latest"},
			want: &VerifyReport{Tests: all[:2]},
		},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.PolicyDirs = []string{"testdata/verify/policy"}
			tt.opts.DataPaths = []string{"testdata/verify/data"}
			got, err := Verify(context.Background(), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Verify (-want +got):\n%s", diff)
			}
			if wantPassed := len(tt.want.Tests) == 2; got.Passed() != wantPassed {
				t.Errorf("Passed() = %v, want %v", got.Passed(), wantPassed)
			}
		})
	}
}

func TestVerifySandbox(t *testing.T) {
	_, err := Verify(context.Background(), VerifyOptions{PolicyDirs: []string{"testdata/badtest"}})
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("Verify error %v, want ErrInvalid", err)
	}
	if want := "testdata/badtest/main_test.rego:4:2: rego_type_error: built-in http.send is not available"; !strings.Contains(err.Error(), want) {
		t.Errorf("Verify error %q does not name %q", err, want)
	}
}
