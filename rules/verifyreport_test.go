package rules

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// verifyFixture writes policies and tests that exercise conftest
// verify's switches: a mocked data.conftest.file, skipped tests, a
// failing test with a trace note, a second package, an unused variable.
func verifyFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"policy/main.rego": `package main

deny contains msg if {
	data.conftest.file.name == "bad.yaml"
	msg := "bad"
}
`,
		"policy/main_test.rego": `package main

test_mocked_name if {
	deny["bad"] with data.conftest.file.name as "bad.yaml"
}

test_mocked_file if {
	deny["bad"] with data.conftest.file as {"name": "bad.yaml", "dir": "/x"}
}

test_unmocked if {
	not data.conftest.file
}

test_fails if {
	trace("looking at deny")
	deny["bad"] with data.conftest.file.name as "good.yaml"
}

todo_test_later if false
`,
		"policy/gke_test.rego": `package main.gke

test_gke if {
	x := 1
	true
}
`,
	})
	return dir + "/policy"
}

func outcomes(rep *VerifyReport) map[string]Outcome {
	got := map[string]Outcome{}
	for _, r := range rep.Tests {
		got[r.Package+"."+r.Name] = r.Outcome
	}
	return got
}

// TestVerifyConftestSwitches: data.conftest.file can be mocked (and is
// undefined otherwise, as in conftest verify), todo_test_ rules are
// skipped, --namespace keeps the matching packages (* matching dots),
// --strict refuses an unused variable.
func TestVerifyConftestSwitches(t *testing.T) {
	dir := verifyFixture(t)
	all := map[string]Outcome{"main.test_mocked_name": Pass, "main.test_mocked_file": Pass, "main.test_unmocked": Pass,
		"main.test_fails": Fail, "main.todo_test_later": Skip, "main.gke.test_gke": Pass}
	cases := []struct {
		name       string
		namespaces []string
		want       map[string]Outcome
	}{
		{"all", nil, all},
		{"literal", []string{"main.gke"}, map[string]Outcome{"main.gke.test_gke": Pass}},
		{"star matches dots", []string{"ma*"}, all},
		{"none", []string{"other"}, map[string]Outcome{}},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Verify(context.Background(), VerifyOptions{PolicyDirs: []string{dir}, Namespaces: tt.namespaces})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, outcomes(rep)); d != "" {
				t.Errorf("outcomes (-want +got):\n%s", d)
			}
		})
	}
	_, err := Verify(context.Background(), VerifyOptions{PolicyDirs: []string{dir}, Namespaces: []string{"["}})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), `match pattern "["`) {
		t.Errorf("a malformed pattern: error %v, want ErrInvalid naming it", err)
	}
	_, err = Verify(context.Background(), VerifyOptions{PolicyDirs: []string{dir}, Strict: true})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "assigned var x unused") {
		t.Errorf("--strict: error %v, want the unused variable", err)
	}
}

// TestVerifyTraceAndReport: the traces conftest verify --trace shows, and
// its --report modes cutting the failing test's trace.
func TestVerifyTraceAndReport(t *testing.T) {
	dir := verifyFixture(t)
	rep, err := Verify(context.Background(), VerifyOptions{PolicyDirs: []string{dir}, Namespaces: []string{"main"}})
	if err != nil {
		t.Fatal(err)
	}
	if lines := rep.Tests[0].TraceLines(); lines != nil {
		t.Errorf("TraceLines without Trace = %q, want none", lines)
	}
	rep, err = Verify(context.Background(), VerifyOptions{PolicyDirs: []string{dir}, Namespaces: []string{"main"}, Trace: true})
	if err != nil {
		t.Fatal(err)
	}
	var fails TestResult
	for _, r := range rep.Tests {
		if r.Name == "test_fails" {
			fails = r
		}
	}
	lines := fails.TraceLines()
	if len(lines) == 0 || lines[0] != "Enter data.main.test_fails = _" || !strings.Contains(strings.Join(lines, "\n"), `Note "looking at deny"`) {
		t.Errorf("TraceLines = %q, want the evaluation from Enter with the note", lines)
	}
	cases := []struct {
		mode      string
		want, not []string
	}{
		{ReportFull, []string{"data.main.test_fails: FAIL (", "FAILURES", "Note \"looking at deny\"", "Index data.main.deny (matched 0 rules", "PASS: 3/5", "FAIL: 1/5", "SKIPPED: 1/5"}, nil},
		{ReportNotes, []string{"Note \"looking at deny\""}, []string{"Fail data.main.deny"}},
		{ReportFails, []string{"| Fail data.main.deny.bad with data.conftest.file.name as \"good.yaml\""}, []string{"Note \"looking at deny\""}},
	}
	for _, tt := range cases {
		t.Run(tt.mode, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteReport(&b, rep.Tests, tt.mode, false); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, b.String())
				}
			}
			for _, n := range tt.not {
				if strings.Contains(b.String(), n) {
					t.Errorf("report has %q:\n%s", n, b.String())
				}
			}
		})
	}
	if err := WriteReport(&bytes.Buffer{}, rep.Tests, "some", false); err == nil {
		t.Error("WriteReport of an unknown mode: no error")
	}
}
