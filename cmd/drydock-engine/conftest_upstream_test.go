package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// upstreamDir holds conftest v0.71.1's examples/ and the acceptance tests
// of its tests/ directory, the table of cases translated from
// acceptance.bats and tests/*/test.bats (cases.json), and what conftest
// gave on each (expected/, written by gen.sh with the real binary).
const upstreamDir = "testdata/conftest-upstream"

// pendingConftest lists the cases drydock does not yet answer as conftest
// does, each with the missing feature. TestConftestUpstream requires each
// of them to still differ, so the feature that fixes one must remove its
// row (and update the counts in the README).
var pendingConftest = map[string]string{}

// divergentConftest lists the cases where drydock differs from conftest on
// purpose, each with why; like pendingConftest, each must still differ.
var divergentConftest = map[string]string{
	"capabilities":       "drydock's sandbox refuses opa.runtime and http.send in its own words (regosandbox: \"not available in drydock's sandbox: it reads the environment\"), where conftest says \"undefined function\" from the capabilities file; both stop with exit 1",
	"tests-if-invalid":   "a `deny if` rule whose head is an object is refused in drydock's words (rules/load.go shapeProblem: \"rule deny is an object ... write `deny contains msg if`\"), where conftest says \"'if' keyword without 'contains' keyword\"; both stop with exit 1",
	"tests-if-bare-deny": "a boolean `deny if { ... }` is refused at compile (rules/load.go shapeProblem): conftest counts it as passing even when it is true (policy/engine.go query: a value that is not a set is a success), a rule that can never fail",
}

// upstreamCase is one row of cases.json: a conftest invocation.
type upstreamCase struct {
	Name string
	// Type is the input type the case is counted under (yaml, hcl2, ...;
	// verify for the Rego unit tests).
	Type string
	// From names the bats test the case translates.
	From string
	// Dir is the working directory, relative to upstreamDir.
	Dir string
	// Stdin names the file given on standard input (relative to Dir).
	Stdin string
	// Args are conftest's arguments, subcommand included.
	Args []string
	// Errors are the messages the bats test looks for in the output of a
	// run that stops on an error (conftest's are in expected/<case>.stderr).
	Errors []string
}

// finding is one verdict, as conftest's JSON report gives it: a test's
// failure, warning or exception, or a verify test's success, failure or
// skip (the message is then the test's data.<package>.<name>, empty for a
// success, as conftest leaves it).
type finding struct {
	File, Namespace, Kind, Message string
}

// outcome is what a run is compared by.
type outcome struct {
	Exit int
	// Errored: the run stopped on an error instead of reporting results
	// (conftest prints no JSON; drydock reports a suite error or no
	// result).
	Errored bool
	// Evaluated: at least one input (test) or one Rego test (verify) was
	// evaluated. It tells "every rule passed" from "nothing was read".
	Evaluated bool
	Findings  []finding
	// Errors are those of the case's Errors the run printed.
	Errors []string
	// inputs is, for conftest test, the number of files it reported on,
	// and for drydock test the number of documents it evaluated (0 for
	// verify): fewer documents
	// than conftest's files means an input was left out (compared by
	// tooFewInputs, not by cmp: a file may hold several documents).
	inputs int
}

// TestConftestUpstream runs every case of testdata/conftest-upstream
// through drydock in conftest mode (`drydock test --conftest ARGS`,
// `drydock verify --conftest ARGS`, in-process) and compares its findings,
// exit code and whether it errored with conftest v0.71.1's on the same
// files, which gen.sh recorded by running `conftest ARGS -o json` (the
// findings are read from JSON whatever -o the bats test gave: conftest's
// with -o json, drydock's from its --format json report, or for verify
// from its text lines).
func TestConftestUpstream(t *testing.T) {
	cases := readUpstreamCases(t)
	for _, m := range []map[string]string{pendingConftest, divergentConftest} {
		for name := range m {
			if !slices.ContainsFunc(cases, func(c upstreamCase) bool { return c.Name == name }) {
				t.Errorf("%q is listed as differing but is not a case", name)
			}
		}
	}
	total, passed := map[string]int{}, map[string]int{}
	for _, c := range cases {
		total[c.Type]++
		t.Run(c.Name, func(t *testing.T) {
			want := expectedOutcome(t, c)
			got, stderr := drydockOutcome(t, c)
			diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(outcome{})) + tooFewInputs(want, got)
			reason, pending := pendingConftest[c.Name]
			if why, ok := divergentConftest[c.Name]; ok {
				reason, pending = why, true
			}
			switch {
			case pending && diff == "":
				t.Errorf("%s now gives conftest's result: remove it from pendingConftest or divergentConftest (%s)", c.Name, reason)
			case pending:
				t.Logf("differs: %s\n(-conftest +drydock):\n%s", reason, diff)
			case diff != "":
				t.Errorf("%s: conftest %q\n(-conftest +drydock):\n%s\ndrydock's stderr:\n%s", c.From, c.Args, diff, firstLines(stderr, 5))
			default:
				passed[c.Type]++
			}
		})
	}
	counts := upstreamCounts(total, passed)
	t.Logf("conftest's acceptance cases drydock answers as conftest does, per input type:\n%s", counts)
	checkReadmeCounts(t, counts)
}

// readUpstreamCases reads cases.json.
func readUpstreamCases(t *testing.T) []upstreamCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(upstreamDir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []upstreamCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("cases.json: %v", err)
	}
	return cases
}

// expectedOutcome reads what gen.sh recorded of conftest's run.
func expectedOutcome(t *testing.T, c upstreamCase) outcome {
	t.Helper()
	base := filepath.Join(upstreamDir, "expected", c.Name)
	b, err := os.ReadFile(base + ".exit")
	if err != nil {
		t.Fatalf("%v (run gen.sh)", err)
	}
	exit, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("%s.exit: %v", base, err)
	}
	stderr, _ := os.ReadFile(base + ".stderr")
	var o outcome
	if out, err := os.ReadFile(base + ".txt"); err == nil {
		o = verifyTextOutcome(out)
		stderr = append(stderr, out...)
	} else {
		out, err := os.ReadFile(base + ".json")
		if err != nil {
			t.Fatal(err)
		}
		if o, err = conftestJSONOutcome(out); err != nil {
			t.Fatalf("%s.json: %v", base, err)
		}
	}
	o.Exit = exit
	o.Errors = printed(c.Errors, string(stderr))
	if !slices.Equal(o.Errors, c.Errors) {
		t.Fatalf("conftest's output (%s.stderr) lacks the errors cases.json gives: %q", base, c.Errors)
	}
	return o
}

// printed is those of msgs that out holds.
func printed(msgs []string, out string) []string {
	var found []string
	for _, m := range msgs {
		if strings.Contains(out, m) {
			found = append(found, m)
		}
	}
	return found
}

// drydockOutcome runs the case through drydock in conftest mode.
func drydockOutcome(t *testing.T, c upstreamCase) (outcome, string) {
	t.Helper()
	t.Chdir(filepath.Join(upstreamDir, c.Dir))
	args := drydockArgs(c.Args)
	var stdin bytes.Buffer
	if c.Stdin != "" {
		b, err := os.ReadFile(c.Stdin)
		if err != nil {
			t.Fatal(err)
		}
		stdin.Write(b)
	}
	var stdout, stderr bytes.Buffer
	exit := run(args, &stdin, &stdout, &stderr)
	var o outcome
	var err error
	switch {
	case args[0] == "verify" && !slices.Contains(args, "json"):
		o = verifyTextOutcome(stdout.Bytes())
	case args[0] == "verify":
		o, err = conftestJSONOutcome(stdout.Bytes())
	default:
		o, err = drydockJSONOutcome(stdout.Bytes())
	}
	if err != nil {
		o = outcome{Errored: true}
		fmt.Fprintf(&stderr, "(the test harness: %v)\n", err)
	}
	o.Exit = exit
	o.Errors = printed(c.Errors, stdout.String()+stderr.String())
	return o, stderr.String()
}

// drydockArgs are conftest's arguments as drydock takes them in conftest
// mode: the subcommand first, then --conftest, then every other argument
// in order, with -o json in place of the case's -o/--output (gen.sh
// likewise runs conftest with -o json), so that findings compare whatever
// format the bats test printed; except verify with --report, whose text
// lines are read (gen.sh keeps those as written: conftest allows --report
// only with its stdout output).
func drydockArgs(args []string) []string {
	i := slices.IndexFunc(args, func(a string) bool { return a == "test" || a == "verify" })
	sub := args[i]
	rest := slices.Concat(args[:i], args[i+1:])
	out := []string{sub, "--conftest"}
	if sub == "verify" && slices.ContainsFunc(rest, func(a string) bool { return strings.HasPrefix(a, "--report") }) {
		return append(out, rest...) // its text lines are read
	}
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		switch {
		case a == "-o" || a == "--output":
			j++
		case strings.HasPrefix(a, "--output=") || strings.HasPrefix(a, "-o"):
		default:
			out = append(out, a)
		}
	}
	return append(out, "-o", "json") // conftest's JSON, as gen.sh asks conftest
}

// conftestResult is one entry of conftest's JSON report (output.CheckResult
// at v0.71.1, output/result.go).
type conftestResult struct {
	Filename   string
	Namespace  string
	Successes  int
	Failures   []conftestMessage
	Warnings   []conftestMessage
	Exceptions []conftestMessage
	Skipped    []conftestMessage
}

// conftestMessage is conftest's output.Result, as far as it is compared.
type conftestMessage struct {
	Msg string
}

// conftestJSONOutcome reads conftest's -o json report; empty output is a
// run that stopped on an error.
func conftestJSONOutcome(out []byte) (outcome, error) {
	if len(bytes.TrimSpace(out)) == 0 {
		return outcome{Errored: true}, nil
	}
	var results []conftestResult
	if err := json.Unmarshal(out, &results); err != nil {
		return outcome{}, err
	}
	o := outcome{Evaluated: len(results) > 0}
	files := map[string]bool{}
	add := func(r conftestResult, kind string, ms []conftestMessage) {
		for _, m := range ms {
			o.Findings = append(o.Findings, finding{cleanFile(r.Filename), r.Namespace, kind, m.Msg})
		}
	}
	for _, r := range results {
		if r.Namespace != "" { // a test's result, per file and namespace
			files[r.Filename] = true
		}
		if r.Namespace == "" { // verify: one result per test
			for range r.Successes {
				o.Findings = append(o.Findings, finding{File: cleanFile(r.Filename), Kind: "success"})
			}
		}
		add(r, "failure", r.Failures)
		add(r, "warning", r.Warnings)
		add(r, "exception", r.Exceptions)
		add(r, "skipped", r.Skipped)
	}
	o.inputs = len(files)
	sortFindings(o.Findings)
	return o, nil
}

// drydockJSONOutcome reads drydock's --format json report of a test run:
// rule findings are conftest's; any other error finding or a suite error
// means the run errored. conftest's own JSON shape is read too, for when
// conftest mode prints it.
func drydockJSONOutcome(out []byte) (outcome, error) {
	if t := bytes.TrimSpace(out); len(t) > 0 && t[0] == '[' {
		return conftestJSONOutcome(t)
	}
	var rep struct {
		Suites []struct {
			Objects  int
			Error    string
			Findings []struct {
				Check, Level, Message, File string
			}
		}
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		return outcome{}, fmt.Errorf("drydock's report: %w", err)
	}
	if len(rep.Suites) == 0 {
		return outcome{}, errors.New("drydock's report has no suite")
	}
	kinds := map[string]string{"error": "failure", "warning": "warning", "exception": "exception"}
	var o outcome
	for _, s := range rep.Suites {
		o.Errored = o.Errored || s.Error != ""
		o.Evaluated = o.Evaluated || s.Objects > 0
		o.inputs += s.Objects
		for _, f := range s.Findings {
			rule, ok := strings.CutPrefix(f.Check, "rules/")
			dot := strings.LastIndex(rule, ".")
			if !ok || dot < 0 {
				o.Errored = o.Errored || f.Level == "error"
				continue
			}
			file := f.File
			if file == "" {
				file = "Combined" // conftest's name for --combine's input
			}
			o.Findings = append(o.Findings, finding{cleanFile(file), rule[:dot], kinds[f.Level], f.Message})
		}
	}
	if o.Errored {
		return outcome{Errored: true}, nil
	}
	sortFindings(o.Findings)
	return o, nil
}

// tooFewInputs says, when drydock evaluated fewer documents than conftest
// reported files, that drydock left an input out.
func tooFewInputs(want, got outcome) string {
	if want.Errored || got.Errored || got.inputs >= want.inputs {
		return ""
	}
	return fmt.Sprintf("conftest reported on %d files, drydock evaluated %d documents: an input was left out\n", want.inputs, got.inputs)
}

// verifyLine is a verify test's line: drydock's
// `file:line:col: package.test_name: STATUS` or, with conftest's --report,
// `data.package.test_name: STATUS (duration)` after a `file:line:` line.
var (
	verifyLine   = regexp.MustCompile(`^(?:(\S+?):\d+:\d+: )?(?:data\.)?(\S+)\.(\w+): (PASS|FAIL|SKIPPED|ERROR)(?: \(.*\))?$`)
	verifyPlace  = regexp.MustCompile(`^(\S+?):\d+:$`)
	verifySumary = regexp.MustCompile(`^(?:\d+ tests: \d+ passed|(?:PASS|FAIL): \d+/\d+$)`)
)

// verifyTextOutcome reads a verify run's text: drydock's lines, or
// conftest's --report text (where a test's line follows its place; the
// FAILURES section repeats the lines without it and is not read again).
func verifyTextOutcome(out []byte) outcome {
	kinds := map[string]string{"PASS": "success", "FAIL": "failure", "SKIPPED": "skipped", "ERROR": "error"}
	var o outcome
	place := ""
	summary := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		summary = summary || verifySumary.MatchString(line)
		if m := verifyPlace.FindStringSubmatch(line); m != nil {
			place = m[1]
			continue
		}
		m := verifyLine.FindStringSubmatch(line)
		if m == nil || (m[1] == "" && place == "") {
			place = ""
			continue
		}
		file := m[1]
		if file == "" {
			file = place
		}
		place = ""
		f := finding{File: cleanFile(file), Kind: kinds[m[4]]}
		if f.Kind != "success" {
			f.Message = "data." + m[2] + "." + m[3]
		}
		o.Findings = append(o.Findings, f)
	}
	o.Evaluated = len(o.Findings) > 0
	o.Errored = !summary
	if o.Errored {
		return outcome{Errored: true}
	}
	sortFindings(o.Findings)
	return o
}

// firstLines is the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "")
}

// cleanFile writes a reported path as conftest's and drydock's compare.
func cleanFile(f string) string {
	if f == "" || f == "Combined" {
		return f
	}
	return filepath.ToSlash(filepath.Clean(f))
}

func sortFindings(fs []finding) {
	slices.SortFunc(fs, func(a, b finding) int {
		return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
	})
}

// upstreamCounts is the table of cases per input type and how many pass,
// as the README gives it.
func upstreamCounts(total, passed map[string]int) string {
	types := make([]string, 0, len(total))
	for k := range total {
		types = append(types, k)
	}
	slices.Sort(types)
	var b strings.Builder
	all, ok := 0, 0
	for _, k := range types {
		fmt.Fprintf(&b, "| %s | %d | %d |\n", k, total[k], passed[k])
		all += total[k]
		ok += passed[k]
	}
	fmt.Fprintf(&b, "| all | %d | %d |\n", all, ok)
	return b.String()
}

// checkReadmeCounts requires the README's table of counts to be the one
// measured.
func checkReadmeCounts(t *testing.T, counts string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(upstreamDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| [a-z0-9]+ \| \d+ \| \d+ \|\n`)
	got := strings.Join(row.FindAllString(string(b), -1), "")
	if got != counts {
		t.Errorf("the counts in %s/README.md (-README +measured):\n%s", upstreamDir, cmp.Diff(got, counts))
	}
}
