package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/drydock-dev/drydock/internal/conformance"
)

// TestMain lets testscript run the CLI in-process as the `drydock` command,
// and says loudly when the conformance corpora are missing (failing with
// DRYDOCK_REQUIRE_CONFORMANCE set).
func TestMain(m *testing.M) {
	testscript.Main(privateCache{thenDone{conformance.Guard(m, conformanceRoot)}}, map[string]func(){
		"drydock": func() { os.Exit(process()) },
	})
}

// privateCache runs the tests with a render cache of their own (a
// temporary XDG_CACHE_HOME, removed after), so that no test reads or
// writes the user's; a script's drydock gets one per script (Setup). It
// also unsets CI, so the runner's environment does not change the tests.
type privateCache struct{ m conformance.TestingM }

func (p privateCache) Run() int {
	dir, err := os.MkdirTemp("", "drydock-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_CACHE_HOME", dir)
	// The tests see the same defaults on a laptop and on a CI runner
	// (CI=true turns on test --ci, which refuses --update); a test of CI
	// mode sets CI itself.
	os.Unsetenv("CI")
	return p.m.Run()
}

// benchDone, when the benchmarks built a drydock binary (bench_test.go),
// removes it once the tests and benchmarks have run.
var benchDone func()

// thenDone runs the tests, then benchDone.
type thenDone struct{ m testscript.TestingM }

func (t thenDone) Run() int {
	code := t.m.Run()
	if benchDone != nil {
		benchDone()
	}
	return code
}

// TestScripts runs the CLI scenarios in testdata/script.
func TestScripts(t *testing.T) {
	examples, _ := filepath.Abs("../../examples")
	schema, _ := filepath.Abs("testdata/sarif-schema-2.1.0.json")
	stepdefs, _ := filepath.Abs("testdata/stepdefs")
	addonsteps, _ := filepath.Abs("testdata/addonsteps")
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("EXAMPLES", examples)
			// The render cache of this script, beside its work directory.
			env.Setenv("XDG_CACHE_HOME", env.WorkDir+"-cache")
			env.Defer(func() { os.RemoveAll(env.WorkDir + "-cache") })
			env.Setenv("SARIF_SCHEMA", schema)
			// KubeVela v1.11's WorkflowStepDefinitions (vela-core chart)
			env.Setenv("STEPDEFS", stepdefs)
			// kubevela/catalog's kruise-rollout addon: canary-deploy and its trait
			env.Setenv("ADDONSTEPS", addonsteps)
			// conftest's junit names the Go it was built with, its sarif
			// its version: the conftest_output scripts compare with these.
			env.Setenv("GOVERSION", runtime.Version())
			env.Setenv("SARIF_VERSION", strings.TrimPrefix(version, "v"))
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"sarif-check":  sarifCheck,
			"exits":        exits,
			"cmpenv-noeol": cmpenvNoEOL,
			"fill":         fill,
			"size-at-most": sizeAtMost,
		},
	})
}

// sarifCheck validates a SARIF file against the official 2.1.0 JSON
// schema (with OPA's JSON Schema validator) and checks that every region
// starts at line 1 or later.
func sarifCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sarif-check FILE")
	}
	var doc, schema any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc))
	data, err := os.ReadFile(ts.Getenv("SARIF_SCHEMA"))
	ts.Check(err)
	ts.Check(json.Unmarshal(data, &schema))
	rs, err := rego.New(rego.Query("r := json.match_schema(input.doc, input.schema)"),
		rego.Input(map[string]any{"doc": doc, "schema": schema})).Eval(context.Background())
	ts.Check(err)
	if len(rs) != 1 {
		ts.Fatalf("schema check gave %d results", len(rs))
	}
	r := rs[0].Bindings["r"].([]any)
	if ok, _ := r[0].(bool); !ok {
		ts.Fatalf("%s does not validate against the SARIF 2.1.0 schema: %v", args[0], r[1])
	}
	for _, run := range doc.(map[string]any)["runs"].([]any) {
		for _, res := range run.(map[string]any)["results"].([]any) {
			for _, loc := range res.(map[string]any)["locations"].([]any) {
				region := loc.(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
				if line, _ := region["startLine"].(float64); line < 1 {
					ts.Fatalf("a result starts at line %v", region["startLine"])
				}
			}
		}
	}
	fmt.Fprintf(ts.Stdout(), "%s: valid SARIF 2.1.0\n", args[0])
}

// cmpenvNoEOL is cmpenv for output without a final newline (conftest's
// sarif): the output must not end in one, and with one added it must be
// the file, its $VARs expanded (a txtar file always ends in a newline).
func cmpenvNoEOL(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cmpenv-noeol stdout|FILE WANT")
	}
	got := ts.ReadFile(args[0])
	if strings.HasSuffix(got, "\n") {
		ts.Fatalf("%s ends in a newline", args[0])
	}
	want := os.Expand(ts.ReadFile(args[1]), ts.Getenv)
	if got+"\n" != want {
		ts.Fatalf("%s and %s differ:\n%s\n%s", args[0], args[1], got, want)
	}
}

// fill writes a file of N bytes (lines of x): `fill summary.md 1000`.
func fill(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fill FILE BYTES")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	line := strings.Repeat("x", 79) + "\n"
	data := strings.Repeat(line, n/len(line)+1)[:n]
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(data), 0o644))
}

// sizeAtMost checks that a file holds at most N bytes: `size-at-most
// summary.md 1048576`.
func sizeAtMost(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: size-at-most FILE BYTES")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	fi, err := os.Stat(ts.MkAbs(args[0]))
	ts.Check(err)
	if fi.Size() > int64(n) {
		ts.Fatalf("%s holds %d bytes, more than %d", args[0], fi.Size(), n)
	}
}

// exits runs a command (exec's way: in the work directory, its output the
// script's stdout and stderr) and checks its exit status is exactly the
// one given: `exits 2 drydock render --bogus`. exec only tells zero from
// non-zero.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE COMMAND [ARG...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", strings.Join(args[1:], " "), got, want)
	}
}

// TestScriptsStateExitCodes: exit codes are a contract, so a script
// expecting drydock to fail states which code (`exits N drydock ...`),
// never just non-zero (`! exec drydock`).
func TestScriptsStateExitCodes(t *testing.T) {
	files, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "! exec drydock") {
				t.Errorf("%s:%d: %q: state the exit code (exits N drydock ...)", f, i+1, line)
			}
		}
	}
}
