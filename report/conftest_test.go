package report

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/drydock-dev/drydock/check"
)

// formatsFixture is the result drydock gives for the fixture of
// cmd/drydock-engine/testdata/script/conftest_output_formats.txtar, whose want/
// files are conftest v0.71.1's own output for it (see that script).
func formatsFixture() *check.Result {
	return &check.Result{Suites: []*check.SuiteResult{{Name: "manifests", Conftest: []check.ConftestResult{
		{File: "in/deploy.yaml", Namespace: "main", Successes: 1, Failures: []check.ConftestMessage{
			{Message: "web must run as non-root", Metadata: map[string]any{"query": "data.main.deny"}},
			{Message: "app uses latest", Metadata: map[string]any{"query": "data.main.deny_latest", "severity": "high"}, LocFile: "in/deploy.yaml", LocLine: "7"},
		}},
		{File: "in/multi.yaml", Namespace: "main", Successes: 4,
			Warnings:   []check.ConftestMessage{{Message: "service svc found", Metadata: map[string]any{"query": "data.main.warn"}}},
			Exceptions: []check.ConftestMessage{{Message: `data.main.exception[_][_] == "latest"`}},
			Prints:     []string{"policy/main.rego:11: service svc\n"}},
		{File: "in/ok.yaml", Namespace: "main", Successes: 3},
	}}}}
}

// TestConftestFormats: every format writes conftest's bytes for the
// fixture (the normalised parts, as the script does).
func TestConftestFormats(t *testing.T) {
	ar, err := txtar.ParseFile("../cmd/drydock-engine/testdata/script/conftest_output_formats.txtar")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, f := range ar.Files {
		if name, ok := strings.CutPrefix(f.Name, "want/"); ok {
			want[name] = os.Expand(string(f.Data), func(v string) string {
				return map[string]string{"GOVERSION": "go-test", "SARIF_VERSION": "9.9.9", "$": "$"}[v]
			})
		}
	}
	want["sarif"] = strings.TrimSuffix(want["sarif"], "\n")
	for _, name := range ConftestFormats {
		f, ok := LookupConftest(name, ConftestOptions{GoVersion: "go-test", ToolVersion: "v9.9.9"})
		if !ok {
			t.Fatalf("LookupConftest(%q) not found", name)
		}
		var buf bytes.Buffer
		if err := f.Write(&buf, formatsFixture()); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want[name], buf.String()); diff != "" {
			t.Errorf("%s (-conftest +drydock):\n%s", name, diff)
		}
	}
	if _, ok := LookupConftest("text", ConftestOptions{}); ok {
		t.Error("LookupConftest(text) found a format conftest does not have")
	}
}

func TestConftestOptions(t *testing.T) {
	res := formatsFixture()
	res.Suites[0].Conftest[1].Traces = []check.ConftestTrace{{Query: "data.main.warn", Lines: []string{"Enter data.main.warn = _"}},
		{Query: "data.main.deny", Passed: true}}
	for _, tc := range []struct {
		name, format string
		o            ConftestOptions
		want         []string
		not          []string
	}{
		{"no colour", "stdout", ConftestOptions{NoColor: true}, []string{"FAIL - in/deploy.yaml - main - web must run as non-root\n", "EXCP - in/multi.yaml"}, []string{"\x1b["}},
		{"suppress exceptions", "stdout", ConftestOptions{NoColor: true, SuppressExceptions: true}, []string{"1 exception\n"}, []string{"EXCP"}},
		{"trace", "stdout", ConftestOptions{NoColor: true, Trace: true},
			[]string{"file: in/multi.yaml | query: data.main.warn\nTRAC   Enter data.main.warn = _\nfile: in/multi.yaml | query: data.main.deny\n"}, []string{"FAIL", "tests"}},
		{"junit hides messages", "junit", ConftestOptions{JUnitHideMessage: true}, []string{`name="in/deploy.yaml" time`}, []string{"in/deploy.yaml - web"}},
		{"github hides passes", "github", ConftestOptions{GitHubHidePassed: true}, []string{`"in/multi.yaml"`}, []string{`"in/ok.yaml"`}},
		{"github relative loc", "github", ConftestOptions{Dir: "/work"}, []string{"::error file=in/deploy.yaml,line=7::app uses latest\n"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _ := LookupConftest(tc.format, tc.o)
			var buf bytes.Buffer
			if err := f.Write(&buf, res); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(buf.String(), w) {
					t.Errorf("no %q in\n%s", w, buf.String())
				}
			}
			for _, n := range tc.not {
				if strings.Contains(buf.String(), n) {
					t.Errorf("%q in\n%s", n, buf.String())
				}
			}
		})
	}
}

// TestConftestLocElsewhere: a _loc in another file than the input gives
// conftest's two annotations, the file made relative to Dir.
func TestConftestLocElsewhere(t *testing.T) {
	res := &check.Result{Suites: []*check.SuiteResult{{Conftest: []check.ConftestResult{{File: "in/a.yaml", Namespace: "main",
		Failures: []check.ConftestMessage{{Message: "m", LocFile: "/work/charts/b.yaml", LocLine: "3"}}}}}}}
	f, _ := LookupConftest("github", ConftestOptions{Dir: "/work"})
	var buf bytes.Buffer
	if err := f.Write(&buf, res); err != nil {
		t.Fatal(err)
	}
	want := `::group::Testing "in/a.yaml" against 1 policies in namespace "main"
::error file=charts/b.yaml,line=3::m
::error file=in/a.yaml,line=1::(ORIGINATING FROM charts/b.yaml L3) m
::notice file=in/a.yaml,line=1::Number of successful checks: 0
::endgroup::
1 test, 0 passed, 0 warnings, 1 failure, 0 exceptions
`
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Error(diff)
	}
}

func TestConftestTrace(t *testing.T) {
	res := &check.Result{Suites: []*check.SuiteResult{{Conftest: []check.ConftestResult{{File: "a.yaml", Namespace: "main",
		Traces: []check.ConftestTrace{{Query: "data.main.deny", Lines: []string{"Enter \x1b[31m"}}, {Query: "q2", Passed: true}}}}}}}
	for _, tc := range []struct {
		noColor bool
		want    string
	}{
		{true, "file: a.yaml | query: data.main.deny\nTRAC   Enter \\x1b[31m\nfile: a.yaml | query: q2\n"},
		{false, "\x1b[31mfile: a.yaml | query: data.main.deny\x1b[0m\n\x1b[34mTRAC \x1b[0m  Enter \\x1b[31m\n\x1b[32mfile: a.yaml | query: q2\x1b[0m\n"},
	} {
		var buf bytes.Buffer
		if err := ConftestTrace(&buf, res, tc.noColor); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, buf.String()); diff != "" {
			t.Errorf("noColor %v:\n%s", tc.noColor, diff)
		}
	}
}
