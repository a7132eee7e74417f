package golden

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drydock-dev/drydock/tree"
)

// TestComparerLearnedModel: random sequences of Put and PutDigest (paths
// Put again, vouched for by Known or not, equal, changed, new, never Put)
// against a model of what a Comparer learns and reports, written the
// plain way: learned is rebuilt file by file, a second Put replaces the
// first, and Learned's changed is a comparison of the whole maps.
func TestComparerLearnedModel(t *testing.T) {
	dir := t.TempDir()
	golden := map[string]string{}
	for i := range 6 {
		golden[fmt.Sprintf("a/%d.yaml", i)] = fmt.Sprintf("v%d\n", i)
	}
	tr := tree.Tree{}
	for p, d := range golden {
		tr[p] = []byte(d)
	}
	if err := tree.Write(dir, tr); err != nil {
		t.Fatal(err)
	}
	start := time.Now().Add(time.Hour) // nothing racy
	// The FileIDs, as a first comparison learns them.
	_, all, _ := knownRun(t, dir, nil, start, golden)
	if len(all) != len(golden) {
		t.Fatalf("first comparison learned %d of %d", len(all), len(golden))
	}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 1000 {
		known := tree.Known{}
		for p, f := range all {
			switch r.IntN(4) {
			case 0: // not known
			case 1: // known for another rendered object
				f.Rendered = contentDigest("other\n")
				known[p] = f
			default:
				known[p] = f
			}
		}
		c, err := NewComparer(dir)
		if err != nil {
			t.Fatal(err)
		}
		c.Known, c.Start = maps.Clone(known), start // the Comparer changes it
		model := tree.Known{}
		last := map[string]string{} // path: added, changed, unchanged or known
		var trace []string
		var paths []string
		if r.IntN(2) == 0 { // every path once, then at random
			paths = slices.Sorted(maps.Keys(golden))
		}
		for range r.IntN(12) {
			paths = append(paths, fmt.Sprintf("a/%d.yaml", r.IntN(8))) // 6 and 7 have no golden file
		}
		for _, p := range paths {
			data := golden[p]
			if data == "" || r.IntN(3) == 0 {
				data = "other\n"
			}
			digest := r.IntN(3) > 0
			trace = append(trace, fmt.Sprintf("%s %q digest=%t", p, data, digest))
			delete(model, p)
			state := "added"
			switch g, ok := golden[p]; {
			case ok && g == data:
				state = "unchanged"
			case ok:
				state = "changed"
			}
			if digest {
				want := tree.KnownFile{File: all[p].File, Rendered: contentDigest(data)}
				if k, ok := known[p]; ok && k == want {
					model[p], state = k, "known"
				} else if state == "unchanged" {
					model[p] = want
				}
				err = c.PutDigest(p, contentDigest(data), func() ([]byte, error) { return []byte(data), nil })
			} else {
				err = c.Put(p, []byte(data))
			}
			if err != nil {
				t.Fatal(err)
			}
			last[p] = state
		}
		want := &Report{}
		for _, p := range slices.Sorted(maps.Keys(last)) {
			switch last[p] {
			case "added":
				want.Added = append(want.Added, p)
			case "changed":
				want.Changed = append(want.Changed, p)
			case "known":
				want.Known++
				want.Unchanged++
			default:
				want.Unchanged++
			}
		}
		for _, p := range slices.Sorted(maps.Keys(golden)) {
			if _, ok := last[p]; !ok {
				want.Removed = append(want.Removed, p)
			}
		}
		rep := c.Report()
		learned, changed := c.Learned()
		if diff := cmp.Diff(want, rep, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(Report{}, "Diffs")); diff != "" {
			t.Fatalf("round %d: report (-want +got):\n%s\nsteps:\n%q", round, diff, trace)
		}
		if diff := cmp.Diff(model, learned, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round %d: learned (-want +got):\n%s\nsteps:\n%q", round, diff, trace)
		}
		if want := !maps.Equal(model, known); changed != want {
			t.Fatalf("round %d: changed %t, want %t\nsteps:\n%q", round, changed, want, trace)
		}
		var differ []string // the paths whose entry changed
		for _, p := range slices.Sorted(maps.Keys(golden)) {
			f, ok := model[p]
			if g, had := known[p]; ok != had || f != g {
				differ = append(differ, p)
			}
		}
		if diff := cmp.Diff(differ, c.Changed(), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round %d: Changed (-want +got):\n%s\nsteps:\n%q", round, diff, trace)
		}
	}
}
