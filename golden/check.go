package golden

import (
	"flag"
	"strconv"
	"sync"

	"github.com/drydock-dev/drydock/tree"
)

// TB is the part of testing.TB that Check uses; *testing.T and
// *testing.B satisfy it.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// updateFlag finds the -update flag of the test binary, defining it on
// flag.CommandLine if no one has. Users' own -update flags win: this runs
// at the first Check, after every package's flags are defined.
var updateFlag = sync.OnceValue(func() *flag.Flag {
	if f := flag.Lookup("update"); f != nil {
		return f
	}
	flag.Bool("update", false, "rewrite golden files instead of comparing with them")
	return flag.Lookup("update")
})

// updating reports whether the -update flag is set; a flag whose value is
// not a boolean counts as unset.
func updating() bool { return isTrue(updateFlag().Value) }

// isTrue reports whether a flag value is the boolean true.
func isTrue(v flag.Value) bool {
	if g, ok := v.(flag.Getter); ok {
		if b, ok := g.Get().(bool); ok {
			return b
		}
	}
	b, _ := strconv.ParseBool(v.String())
	return b
}

// Check compares got with the golden directory dir for a Go test. On drift
// it calls t.Errorf with the Report (counts, then diffs); on an error
// (unreadable directory, invalid path) t.Fatalf. When the -update flag is
// set it calls tree.Update with Prune instead, and t.Logf with what
// changed. tree.Update rewrites only files drydock wrote
// (tree.OwnershipFile): to take over a golden directory written before
// ownership files existed, call tree.Update once with
// tree.UpdateOptions{Adopt: true}.
//
// Check looks the flag up by name on flag.CommandLine at its first call
// and defines it (as a bool) only if it is absent, so it shares a user's
// own -update flag. For `go test -update` to parse, the flag must exist
// before the test binary parses its arguments: the test package defines
// it, e.g. `var _ = flag.Bool("update", false, "rewrite golden files")`.
func Check(t TB, dir string, got tree.Tree) {
	t.Helper()
	if updating() {
		rep, err := update(dir, got)
		if err != nil {
			t.Fatalf("golden: update %s: %v", dir, err)
			return
		}
		if !rep.OK() {
			t.Logf("golden: updated %s\n%s", dir, rep)
		}
		return
	}
	rep, err := Compare(dir, got)
	if err != nil {
		t.Fatalf("golden: compare %s: %v", dir, err)
		return
	}
	if !rep.OK() {
		t.Errorf("golden: %s differs from the rendered tree (run the test with -update to accept it)\n%s", dir, rep)
	}
}

// update is tree.Update with Prune, reported with the diff of each
// changed file as Compare reports it.
func update(dir string, got tree.Tree) (*Report, error) {
	diffs := map[string]string{}
	rep, err := tree.Update(dir, got, tree.UpdateOptions{Prune: true, Changed: func(p string, old, rendered []byte) {
		diffs[p] = Unified("golden/"+p, "rendered/"+p, old, rendered)
	}})
	if err != nil {
		return nil, err
	}
	return &Report{Report: *rep, Diffs: diffs}, nil
}
