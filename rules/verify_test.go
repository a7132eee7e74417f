package rules

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

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
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreUnexported(TestResult{})); diff != "" {
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
	if want := "testdata/badtest/main_test.rego:4:2: rego_type_error: built-in http.send is not available"; !strings.Contains(manifest.Format(err, nil), want) {
		t.Errorf("Verify error %q does not name %q", err, want)
	}
}

// TestVerifyAsConftest: verify loads what conftest verify loads (a
// boolean deny, which drydock test refuses), lets tests read their
// fixtures in the repository with parse_config_file and
// parse_combined_config_files (nothing outside it), and refuses a
// directory without policies.
func TestVerifyAsConftest(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "repo")
	writeFiles(t, top, map[string]string{"secret.yaml": "token: x\n"})
	writeFiles(t, dir, map[string]string{
		"policy/main.rego": "package main\n\ndeny contains \"two\" if count(input) == 2\n\nbare if true\n\ndeny_bool if true\n\nno_cluster if drydock.context().cluster == \"\"\n",
		"policy/main_test.rego": `package main

test_combined if {
	deny["two"] with input as parse_combined_config_files(["fixtures/a.yaml", "../data/b.yaml"])
}

test_config_file if {
	parse_config_file("fixtures/a.yaml") == {"a": 1}
}

test_outside if {
	parse_config_file("../../secret.yaml")
}

test_boolean if deny_bool

# Tests run in parallel; these read the evaluation state together.
test_context_1 if no_cluster
test_context_2 if no_cluster
test_context_3 if no_cluster
test_context_4 if no_cluster
`,
		"policy/fixtures/a.yaml": "a: 1\n",
		"data/b.yaml":            "b: 2\n",
		"empty/README.md":        "no policies\n",
	})
	rep, err := Verify(context.Background(), VerifyOptions{PolicyDirs: []string{dir + "/policy"}, DataPaths: []string{dir + "/data"}, Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Outcome{}
	for _, r := range rep.Tests {
		got[r.Name] = r.Outcome
	}
	want := map[string]Outcome{"test_combined": Pass, "test_config_file": Pass, "test_outside": Fail, "test_boolean": Pass,
		"test_context_1": Pass, "test_context_2": Pass, "test_context_3": Pass, "test_context_4": Pass}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	// test_outside fails because the sandbox refuses the read.
	rep, err = Verify(context.Background(), VerifyOptions{PolicyDirs: []string{dir + "/policy"}, DataPaths: []string{dir + "/data"}, Run: "test_outside", StrictBuiltinErrors: true, Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tests) != 1 || rep.Tests[0].Outcome != Error || !strings.Contains(rep.Tests[0].Error, "secret.yaml: outside the repository") {
		t.Errorf("test_outside with strict built-in errors: %+v, want an error refusing secret.yaml", rep.Tests)
	}

	_, err = Verify(context.Background(), VerifyOptions{PolicyDirs: []string{dir + "/empty"}})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(manifest.Format(err, nil), "no policies found in") {
		t.Errorf("Verify of a directory without policies: error %v, want no policies found", err)
	}
}
