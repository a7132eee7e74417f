package deftest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/tree"
)

// Options steer a test's Run.
type Options struct {
	// Limits bound the test's render (zero fields: none).
	Limits pipeline.Limits
	// CI fails a snapshot assertion whose snapshot is missing instead of
	// writing it.
	CI bool
	// Update rewrites the snapshots drydock owns that differ.
	Update bool
}

// Failure is an assertion that did not hold.
type Failure struct {
	// Assert is the assertion's index in Test.Asserts.
	Assert int
	// Message says what differs.
	Message string
	// Diff is a snapshot's unified diff ("" for other assertions).
	Diff string
}

// Outcome is what one definition test produced: a Failure per assertion
// that did not hold, the snapshots to write, and whether a snapshot
// assertion could not compare (its render failed: its snapshot is not to
// be pruned).
type Outcome struct {
	Failures []Failure
	// Err is the render's error as pipeline returned it (nil when the
	// definition rendered): a manifest.Error naming the application and
	// component, without a position (the test's objects have none).
	Err error
	// writes are the snapshots to write; incomplete is set when a
	// snapshot assertion could not compare (WriteSnapshots reads both).
	writes     []snapshotWrite
	incomplete bool
}

// Run renders test t of file (its snapshots live beside it) with defs
// and checks its assertions. pos is the test's place, for an error that
// is about the test as a whole. An error means the test could not run
// (a malformed test, a snapshot that cannot be read, a render refused
// with pipeline.ErrNotRun), not that an assertion failed.
func Run(ctx context.Context, defs *pipeline.DefinitionSet, file string, pos manifest.Pos, t Test, opts Options) (Outcome, error) {
	objs, policy, err := testObjects(pipeline.DefinitionKind(defs, t.Definition), t, pos)
	if err != nil {
		return Outcome{}, err
	}
	in := pipeline.Inputs{Objects: objs, ClustersFromInputs: true, Definitions: defs, Workers: 1, Limits: opts.Limits}
	res, renderErr := pipeline.Run(ctx, in)
	if errors.Is(renderErr, pipeline.ErrNotRun) {
		return Outcome{}, renderErr // not the test's outcome: it did not run
	}
	out := Outcome{Err: renderErr}
	var got rendered
	status := statusOf{healthy: true}
	if renderErr == nil {
		entries := res.Clusters.List(t.Context.Cluster)
		if policy != "" && t.Context.Cluster != cluster.Local { // a policy's output goes to the hub
			entries = append(entries, res.Clusters.List(cluster.Local)...)
		}
		got = classify(observe(entries, t.Observed), policy)
		if st, ok := pipeline.DefinitionStatus(defs, t.Definition, got.statusContext(t), t.Properties); ok {
			status = statusOf{healthy: st.Healthy, message: st.Message, details: st.Details, healthErr: st.HealthErr, messageErr: st.MessageErr}
		}
	}
	for i, a := range t.Asserts {
		msg, diff := "", ""
		switch {
		case a.Snapshot != nil:
			var w *snapshotWrite
			if msg, diff, w, err = opts.snapshot(file, t.Name, a.Snapshot, got.objs, renderErr); err != nil {
				return Outcome{}, err
			}
			if w != nil {
				out.writes = append(out.writes, *w)
			}
			out.incomplete = out.incomplete || renderErr != nil
		case a.Healthy != nil || a.Message != nil || a.Details != nil:
			msg = a.checkStatus(status, renderErr)
		default:
			msg = a.check(got, renderErr)
		}
		if msg != "" {
			out.Failures = append(out.Failures, Failure{Assert: i, Message: msg, Diff: diff})
		}
	}
	return out, nil
}

// snapshot compares what a test rendered with its stored snapshot: what
// differs ("" when it matches or is to be written), the diff, and the
// snapshot to write (nil for none): a missing one (outside CI mode) and,
// with Update, one drydock owns. A snapshot drydock did not write is
// never rewritten: it differs, with a hint on how to adopt it.
func (o Options) snapshot(file, name string, spec *snapshotSpec, objs []*manifest.Object, renderErr error) (string, string, *snapshotWrite, error) {
	if renderErr != nil {
		return fmt.Sprintf("the render failed: %s", manifest.Format(renderErr, nil)), "", nil, nil
	}
	got, err := snapshotBytes(spec, objs)
	if err != nil {
		return "", "", nil, err
	}
	testDir, dir, snap := snapshotPlace(file, name)
	p, w := snapshotPath(file, name), &snapshotWrite{testDir, dir, snap, got}
	want, err := readInside(testDir, dir+"/"+snap)
	switch {
	case errors.Is(err, fs.ErrNotExist) && o.CI:
		return fmt.Sprintf("no snapshot %s (run drydock test --update locally and commit it)", p), "", nil, nil
	case errors.Is(err, fs.ErrNotExist):
		return "", "", w, nil
	case err != nil:
		return "", "", nil, err
	case !o.Update && string(want) == string(got):
		return "", "", nil, nil
	case !o.Update:
		return fmt.Sprintf("differs from its snapshot %s (run drydock test --update to accept it)", p),
			golden.Unified("snapshot/"+snap, "rendered/"+snap, want, got), nil, nil
	}
	owned, err := snapshotOwned(testDir, dir)
	switch {
	case err != nil:
		return "", "", nil, err
	case owned[snap]:
		return "", "", w, nil
	case string(want) == string(got):
		return "", "", nil, nil
	}
	own := filepath.Join(filepath.Dir(p), tree.OwnershipFile)
	return fmt.Sprintf("differs from %s, which drydock did not write (%s does not list it), so --update leaves it: delete it, or add the line %q to %s, to let drydock rewrite it", p, own, snap, own),
		golden.Unified("snapshot/"+snap, "rendered/"+snap, want, got), nil, nil
}

// snapshotBytes is what a snapshot holds: the objects sorted by key,
// each canonical YAML with the ignored paths left out.
func snapshotBytes(spec *snapshotSpec, objs []*manifest.Object) ([]byte, error) {
	sorted := slices.Clone(objs)
	slices.SortFunc(sorted, func(a, b *manifest.Object) int { return strings.Compare(a.Key().String(), b.Key().String()) })
	var got []byte
	for i, o := range sorted {
		masked := &manifest.Object{Data: manifest.DeepCopy(o.Data).(map[string]any)}
		for _, p := range spec.Ignore {
			if fp, err := fieldpath.Parse(p); err == nil {
				fieldpath.Delete(masked.Data, fp)
			}
		}
		data, err := tree.Encode(masked)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			got = append(got, "---\n"...)
		}
		got = append(got, data...)
	}
	return got, nil
}

// WriteSnapshots writes the snapshots the outcomes ask for (outcomes[i]
// is that of a test of files[i]), one snapshot directory (one test
// file's) at a time, once every test has run. With update and prune, the
// owned snapshots no test of the file rendered are deleted, unless one of
// its snapshot assertions could not compare. It gives the snapshot files
// it created, rewrote or deleted, in order.
func WriteSnapshots(files []string, outcomes []Outcome, update, prune bool) ([]string, error) {
	var dirs []string
	byDir, incomplete := map[string][]snapshotWrite{}, map[string]bool{}
	for i, o := range outcomes {
		testDir, dir, _ := snapshotPlace(files[i], "")
		key := filepath.Join(testDir, filepath.FromSlash(dir))
		incomplete[key] = incomplete[key] || o.incomplete
		if len(o.writes) > 0 && byDir[key] == nil {
			dirs = append(dirs, key)
		}
		byDir[key] = append(byDir[key], o.writes...)
	}
	var written []string
	for _, d := range dirs {
		w, err := writeSnapshots(byDir[d], update && prune && !incomplete[d])
		if err != nil {
			return written, err
		}
		written = append(written, w...)
	}
	return written, nil
}
