package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/report"
	"github.com/drydock-dev/drydock/tree"
)

// output is where a render's objects go as the pipeline writes them: the
// tree under --output-dir, one YAML stream on stdout, or nowhere (-q).
type output interface {
	cluster.Sink
	// finish completes the output (notes: the addon's NOTES, "" for none).
	finish(notes string) error
	// abort discards what was put: the render failed.
	abort()
}

// encodeError is an object the canonical encoding refuses: a bug, not bad
// input.
type encodeError struct{ err error }

func (e *encodeError) Error() string { return e.err.Error() }
func (e *encodeError) Unwrap() error { return e.err }

// encode is e's object as its file in the output tree holds it.
func encode(e cluster.Entry) ([]byte, error) {
	data, err := tree.Encode(e.Object)
	if err != nil {
		return nil, &encodeError{fmt.Errorf("encode %s: %w", e.Object.Key(), err)}
	}
	return data, nil
}

// encodeJSON is e's object as render --format json prints it.
func encodeJSON(e cluster.Entry) ([]byte, error) {
	data, err := json.Marshal(e.Object.Data)
	if err != nil {
		return nil, &encodeError{fmt.Errorf("encode %s: %w", e.Object.Key(), err)}
	}
	return data, nil
}

// outputCode is the exit code of an output's failure: 3 for an encoding
// bug, else 2 (an output directory drydock may not write, a full disk).
func outputCode(err error) int {
	var ee *encodeError
	if errors.As(err, &ee) {
		return exitInternal
	}
	return exitUsage
}

// newOutput returns the output of a render: the tree under to.dir, else
// the stream on w; nothing with quiet.
func newOutput(w io.Writer, to treeOutput, quiet bool) output {
	switch {
	case quiet:
		return discard{}
	case to.dir != "":
		return &to
	}
	return &streamOutput{w: w, index: map[string]map[manifest.Key]spooled{}}
}

// newAddonOutput is newOutput for addon render, whose tree also holds the
// addon's NOTES.txt.
func newAddonOutput(w io.Writer, to treeOutput) output {
	to.notes = true
	return newOutput(w, to, false)
}

// newJSONOutput returns the stream of render --format json.
func newJSONOutput(w io.Writer) output {
	return &streamOutput{w: w, index: map[string]map[manifest.Key]spooled{}, json: true}
}

// discard is the output of a render that only checks its inputs.
type discard struct{}

func (discard) Put(string, cluster.Entry) error { return nil }
func (discard) finish(string) error             { return nil }
func (discard) abort()                          {}

// treeOutput writes the objects into the tree under dir as they come, in
// place (tree.Updater): staged beside their files and put in place at
// the end under the directory's journal. Files drydock wrote there before
// (listed in its ownership file) and no longer renders are removed; files
// it did not write are never rewritten or removed (with adopt, those at
// rendered paths are taken over and listed on log). The directory is taken
// at the first object, so that a render that fails on its inputs reports
// them, not a problem with the directory.
type treeOutput struct {
	dir   string
	adopt bool
	log   io.Writer
	u     *tree.Updater
	// notes makes NOTES.txt the addon's: written with its notes, removed
	// when it has none. A render's tree leaves a NOTES.txt alone.
	notes bool
	// cache keeps, under key, the files the last update into dir found
	// equal to their objects (tree.Known): they are not read or encoded
	// again while they and their objects are unchanged (nil: all are).
	cache *cache.Store
	key   cache.Key
}

func (t *treeOutput) updater() error {
	if t.u != nil {
		return nil
	}
	u, err := tree.NewUpdater(t.dir, tree.UpdateOptions{Prune: true, Adopt: t.adopt})
	t.u = u
	if err == nil && t.cache != nil {
		t.known()
	}
	return err
}

// known gives the update what the cache keeps of the last one into the
// directory (by real path, for this build).
func (t *treeOutput) known() {
	real, err := manifest.RealPath(t.dir)
	if err != nil {
		t.cache = nil
		return
	}
	t.key = cache.NewHasher("output").String(real).String(cache.BuildID()).Key()
	if data, ok := t.cache.Get(t.key); ok {
		t.u.Known, _ = tree.ParseKnown(data) // one that does not read: every file is read
	}
}

func (t *treeOutput) Put(c string, e cluster.Entry) error {
	if t.cache != nil {
		if d, ok := tree.DigestOf(e.Object); ok {
			if err := t.updater(); err != nil {
				return err
			}
			return t.u.PutDigest(tree.Path(c, e.Object), d, func() ([]byte, error) { return encode(e) })
		}
	}
	data, err := encode(e)
	if err != nil {
		return err
	}
	if err := t.updater(); err != nil {
		return err
	}
	return t.u.Put(tree.Path(c, e.Object), data)
}

func (t *treeOutput) finish(notes string) error {
	if err := t.updater(); err != nil {
		return err
	}
	if t.notes && notes != "" { // owned: pruned when the addon has no notes
		if err := t.u.Put("NOTES.txt", []byte(notes)); err != nil {
			return err
		}
	}
	rep, err := t.u.Commit()
	if err != nil {
		return err
	}
	if learned, changed := t.u.Learned(); t.cache != nil && changed {
		if err := t.cache.Put(t.key, learned.Marshal()); err != nil && t.log != nil {
			fmt.Fprintf(t.log, "drydock: warning: the cache: %s\n", errText(err))
		}
	}
	t.report(rep)
	return nil
}

// report says on log what the update did, in a line (files written, new
// and changed, removed, unchanged), and lists the files it removed (the
// first maxListedRemovals), took over or could not prune, and what it
// completed of a killed update.
func (t *treeOutput) report(rep *tree.Report) {
	if t.log == nil {
		return
	}
	for _, l := range rep.Leftovers {
		fmt.Fprintf(t.log, "drydock: %s: %s\n", t.dir, l)
	}
	removed := rep.Removed
	if !rep.Pruned {
		removed = nil
	}
	removed = slices.DeleteFunc(slices.Clone(removed), func(p string) bool { return slices.Contains(rep.Kept, p) })
	fmt.Fprintf(t.log, "drydock: %s: %s\n", t.dir, treeSummary(len(rep.Added), len(rep.Changed), len(removed), rep.Unchanged))
	for i, p := range removed {
		if i == maxListedRemovals {
			fmt.Fprintf(t.log, "drydock: %s: and %d more removed\n", t.dir, len(removed)-i)
			break
		}
		fmt.Fprintf(t.log, "drydock: %s: removed %s (no longer rendered)\n", t.dir, p)
	}
	for _, p := range rep.Adopted {
		fmt.Fprintf(t.log, "drydock: %s: adopted %s (drydock owns it from now on)\n", t.dir, p)
	}
	for _, p := range rep.Kept {
		fmt.Fprintf(t.log, "drydock: %s: kept %s: it no longer renders but lies on another file system\n", t.dir, p)
	}
}

// maxListedRemovals is how many removed files a tree update names.
const maxListedRemovals = 20

// treeSummary is what a tree update did, in a line: "wrote 3 files (1
// new, 2 changed), removed 1, 40 unchanged"; "up to date: 40 files
// unchanged" when it wrote and removed nothing.
func treeSummary(added, changed, removed, unchanged int) string {
	if added+changed+removed == 0 {
		return fmt.Sprintf("up to date: %s unchanged", report.Count(unchanged, "file"))
	}
	return fmt.Sprintf("wrote %s (%d new, %d changed), removed %d, %d unchanged", report.Count(added+changed, "file"), added, changed, removed, unchanged)
}

func (t *treeOutput) abort() {
	if t.u != nil {
		t.u.Abort()
	}
}

// streamOutput prints every object as one YAML stream, each document
// preceded by a comment naming where it lands and what produced it. The
// stream is ordered by cluster and key, so the objects are kept, encoded,
// until the render ends: in a spool, with one small index entry each.
type streamOutput struct {
	w     io.Writer
	spool spool
	index map[string]map[manifest.Key]spooled
	// json makes the stream one JSON array of {cluster, namespace,
	// source, object} (render --format json), source a report.Source.
	json bool
}

// spooled is an encoded object in the stream's spool.
type spooled struct {
	at     span
	source string
}

func (s *streamOutput) Put(c string, e cluster.Entry) error {
	encodeAs := encode
	if s.json {
		encodeAs = encodeJSON
	}
	data, err := encodeAs(e)
	if err != nil {
		return err
	}
	at, err := s.spool.add(data)
	if err != nil {
		return err
	}
	m := s.index[c]
	if m == nil {
		m = map[manifest.Key]spooled{}
		s.index[c] = m
	}
	source := e.Source
	if s.json { // the source object, encoded now: the entry is gone at finish
		b, err := json.Marshal(report.EntrySource(e))
		if err != nil {
			return err
		}
		source = string(b)
	}
	m[e.Object.Key()] = spooled{at: at, source: source}
	return nil
}

func (s *streamOutput) finish(notes string) error {
	defer s.spool.close()
	if s.json {
		fmt.Fprint(s.w, "[")
		sep := "\n"
		err := s.each(func(c string, k manifest.Key, source string, data []byte) error {
			head, err := json.Marshal(struct {
				Cluster   string          `json:"cluster"`
				Namespace string          `json:"namespace"`
				Source    json.RawMessage `json:"source"`
			}{c, k.Namespace, json.RawMessage(source)})
			fmt.Fprintf(s.w, "%s  %s,\"object\":%s}", sep, head[:len(head)-1], data)
			sep = ",\n"
			return err
		})
		fmt.Fprint(s.w, "\n]\n")
		return err
	}
	first := true
	err := s.each(func(c string, k manifest.Key, source string, data []byte) error {
		if !first {
			fmt.Fprintln(s.w, "---")
		}
		first = false
		// The comment stays one comment line whatever the names say.
		fmt.Fprintf(s.w, "# Source: cluster %s, namespace %s, %s\n", c, report.NamespaceOf(k.Namespace), report.PrintableLine(source))
		s.w.Write(data) // a failing stdout is the run's StickyWriter's to report
		return nil
	})
	if err != nil {
		return err
	}
	if notes != "" {
		fmt.Fprintln(s.w, "---")
		fmt.Fprintln(s.w, "# NOTES:")
		for _, line := range strings.Split(notes, "\n") {
			fmt.Fprintf(s.w, "#   %s\n", report.PrintableLine(line))
		}
	}
	return nil
}

// each calls f with every spooled object in the stream's order: by
// cluster, then key.
func (s *streamOutput) each(f func(c string, k manifest.Key, source string, data []byte) error) error {
	for _, c := range manifest.SortedKeys(s.index) {
		m := s.index[c]
		for _, k := range manifest.SortedObjectKeys(m) {
			data, err := s.spool.bytes(m[k].at)
			if err != nil {
				return err
			}
			if err := f(c, k, m[k].source, data); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *streamOutput) abort() { s.spool.close() }

// filterOutput passes on the objects of the applications, clusters and
// components asked for (render --app, --cluster, --component; none asked:
// any).
type filterOutput struct {
	output
	apps, clusters, components []string
	// seen are the values the render wrote, by flag.
	seen map[string]map[string]bool
}

func (f *filterOutput) Put(c string, e cluster.Entry) error {
	if f.seen == nil {
		f.seen = map[string]map[string]bool{"--app": {}, "--cluster": {}, "--component": {}}
	}
	f.seen["--app"][e.Origin.Application] = true
	f.seen["--cluster"][c] = true
	f.seen["--component"][e.Origin.Component] = true
	match := func(list []string, v string) bool { return len(list) == 0 || slices.Contains(list, v) }
	if !match(f.clusters, c) || !match(f.apps, e.Origin.Application) || !match(f.components, e.Origin.Component) {
		return nil
	}
	return f.output.Put(c, e)
}

// emitStore writes the objects of a finished render's store to out and
// finishes it.
func emitStore(out output, store *cluster.Store, notes string) error {
	for _, c := range store.Clusters() {
		for _, e := range store.List(c) {
			if err := out.Put(c, e); err != nil {
				out.abort()
				return err
			}
		}
	}
	return out.finish(notes)
}

// unmatched are warnings for the values asked for that no object had.
func (f *filterOutput) unmatched() []string {
	var out []string
	for _, flag := range []struct {
		name   string
		values []string
	}{{"--app", f.apps}, {"--cluster", f.clusters}, {"--component", f.components}} {
		var known []string
		for v := range f.seen[flag.name] {
			if v != "" {
				known = append(known, v)
			}
		}
		slices.Sort(known)
		for _, v := range flag.values {
			if f.seen[flag.name][v] {
				continue
			}
			msg := fmt.Sprintf("%s %s: no object rendered has it (rendered: %s)", flag.name, v, strings.Join(known, ", "))
			if best := manifest.Closest(v, known); best != "" {
				msg += fmt.Sprintf("; did you mean %s?", best)
			}
			out = append(out, msg)
		}
	}
	return out
}

// writeFile writes what write writes to the file path, reporting a
// failed write or close.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	sw := &report.StickyWriter{W: f}
	err = write(sw)
	if cerr := f.Close(); err == nil && sw.Err == nil {
		err = cerr
	}
	return errors.Join(err, sw.Err)
}
