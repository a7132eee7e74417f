package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realworldRoot is the real-world KubeVela corpus: every Application of
// kubevela/kubevela@5a44b5f's examples and test data, with the trees
// KubeVela's own controller (Reconciler.Reconcile, run offline on fake
// clusters) dispatched, or the error with which it refused the app.
const realworldRoot = "testdata/realworld/kubevela"

// TestRealWorldKubeVela runs the real-world corpus with the conformance
// runner. A case listed in known-differences.md must still differ from
// KubeVela (the list only shrinks); a case with a no-reference file has no
// KubeVela tree to compare with and is skipped with the reason.
func TestRealWorldKubeVela(t *testing.T) {
	defs, _ := filepath.Abs(filepath.Join(conformanceRoot, "kubevela", "definitions"))
	if _, err := os.Stat(defs); err != nil {
		t.Skipf("KubeVela definitions not found: %v", err)
	}
	known := knownDifferences(t, filepath.Join(realworldRoot, "known-differences.md"))
	runCorpusAt(t, realworldRoot, "realworld", func(t *testing.T, dir string) {
		if why, err := os.ReadFile(filepath.Join(dir, "no-reference")); err == nil {
			t.Skipf("no KubeVela reference: %s", strings.TrimSpace(string(why)))
		}
		why, ok := known[filepath.Base(dir)]
		if !ok {
			runCase(t, dir, defs, maskVolatile)
			return
		}
		if failures := runRecorded(t, func(tb testing.TB) { runCase(tb, dir, defs, maskVolatile) }); len(failures) == 0 {
			t.Errorf("matches KubeVela now: remove it from known-differences.md (%s)", why)
		} else {
			t.Logf("known difference: %s", why)
		}
	})
}

// knownDifferences reads the case names and reasons of the table in path.
func knownDifferences(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) < 2 || !strings.HasPrefix(cells[0], "| `") {
			continue
		}
		out[strings.Trim(cells[0], "| `")] = strings.TrimSuffix(strings.Join(cells[1:], " | "), " |")
	}
	return out
}

// recorder is a testing.TB whose failures are collected, not reported.
type recorder struct {
	testing.TB
	failures []string
}

type stopRecorded struct{}

func (r *recorder) Error(args ...any)                 { r.failures = append(r.failures, fmt.Sprint(args...)) }
func (r *recorder) Errorf(format string, args ...any) { r.Error(fmt.Sprintf(format, args...)) }
func (r *recorder) Fatal(args ...any)                 { r.Error(args...); panic(stopRecorded{}) }
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(stopRecorded{})
}
func (r *recorder) Fail()        { r.Error("failed") }
func (r *recorder) FailNow()     { r.Fatal("failed") }
func (r *recorder) Failed() bool { return len(r.failures) > 0 }

// runRecorded runs f with a recorder and returns what it reported.
func runRecorded(t *testing.T, f func(testing.TB)) (failures []string) {
	r := &recorder{TB: t}
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(stopRecorded); !ok {
				panic(p)
			}
		}
		failures = r.failures
	}()
	f(r)
	return r.failures
}
