package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/karmada/controller"
	"github.com/drydock-dev/drydock/karmada/propagation"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/report"
)

// runExplain renders with provenance and prints where the fields of one
// object came from: every leaf with the stage that last set it, one
// field's chain of stages, or the leaves under a field.
func runExplain(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("explain", "explain [PATH...] OBJECT [FIELD] [flags]",
		"Renders the inputs and explains one object: OBJECT is cluster/namespace/kind/name as in the\n"+
			"output tree (_cluster for a cluster-scoped object), or a unique suffix of it (Deployment/web,\n"+
			"web). Without FIELD every field is printed with the stage that set it; with FIELD (spec.replicas,\n"+
			"spec.template.spec.containers[0].image) the chain of stages that set it, oldest first; a FIELD\n"+
			"that holds a mapping or a list (spec.template) prints each leaf under it with its stage. The\n"+
			"object's placement (why each cluster holds it or not, and its replicas) follows.\n"+
			"PATHs are the arguments that exist as files or directories; the next one is OBJECT.")
	fs := cmd.fs
	var rf renderFlags
	rf.register(fs)
	// explain renders with provenance, which the render cache does not
	// keep (pipeline: Inputs.cacheable): the flags are accepted, as every
	// render command's are, and say so.
	fs.Lookup("cache").Usage = "ignored: explain renders every application again, with provenance, which the render cache does not keep"
	fs.Lookup("no-cache").Usage = "accepted for symmetry with render: explain never reads or writes the render cache"
	format := fs.StringP("format", "o", "text", "output format: text or json")
	if code, done := cmd.parse(args, stdout, stderr); done {
		return code
	}
	if fs.Changed("cache") {
		fmt.Fprintln(stderr, "drydock: warning: --cache is ignored: explain renders every application again, with provenance, which the render cache does not keep")
	}
	paths, target, field, err := explainArgs(fs.Args())
	if err != nil {
		return cmd.fail(stderr, err)
	}
	if *format != "text" && *format != "json" {
		return cmd.fail(stderr, fmt.Errorf("--format %q: want text or json", *format))
	}
	in, err := rf.inputs(paths)
	if err != nil {
		return cmd.usageError(stderr, err)
	}
	in.Record.Provenance = true
	in.Record.Placement = true
	res, err := pipeline.Run(context.Background(), in)
	if err != nil {
		return reportError(stderr, err)
	}
	printWarnings(stderr, res.SortedWarnings())
	c, e, err := findObject(res.Clusters, target)
	if err != nil {
		fmt.Fprintf(stderr, "drydock explain: %s\n", errText(err))
		return exitUsage
	}
	x := newExplanation(c, e, res.Placement)
	leaf := field != ""
	if field != "" {
		fp, err := fieldpath.Parse(field)
		kept := 0
		if err == nil {
			kept, leaf = x.only(fp)
		}
		if kept == 0 {
			var paths []string // the leaves and the fields above them
			for p := range e.Object.Provenance {
				if fp, err := fieldpath.Parse(p); err == nil {
					for q := range fp.PrefixStrings() {
						if q != "" && !slices.Contains(paths, q) {
							paths = append(paths, q)
						}
					}
				}
			}
			fmt.Fprintf(stderr, "drydock explain: %s has no field %q%s\n", x.Object, field, manifest.DidYouMean(field, paths))
			return exitUsage
		}
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(x); err != nil {
			fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
			return exitInternal
		}
		return exitOK
	}
	x.print(stdout, leaf)
	return exitOK
}

// explainArgs splits the arguments into the input paths (those that
// exist, or -), OBJECT and FIELD.
func explainArgs(args []string) (paths []string, object, field string, err error) {
	i := 0
	for i < len(args) {
		if _, err := os.Stat(args[i]); err != nil && args[i] != "-" {
			break
		}
		i++
	}
	rest := args[i:]
	switch len(rest) {
	case 0:
		return nil, "", "", errors.New("give the object to explain (cluster/namespace/kind/name, or a unique suffix of it)")
	case 1, 2:
	default:
		return nil, "", "", fmt.Errorf("too many arguments after the object %q: %s (a path that does not exist?)", rest[0], strings.Join(rest[1:], " "))
	}
	object = rest[0]
	if len(rest) == 2 {
		field = rest[1]
	}
	return args[:i], object, field, nil
}

// objectID is how explain names an object: cluster/namespace/kind/name.
func objectID(c string, o *manifest.Object) string {
	ns := o.Namespace()
	if ns == "" {
		ns = "_cluster"
	}
	return c + "/" + ns + "/" + o.Kind() + "/" + o.Name()
}

// findObject finds the one object whose id is target or ends with
// "/"+target (kinds compared case-insensitively).
func findObject(store *cluster.Store, target string) (string, cluster.Entry, error) {
	type hit struct {
		c string
		e cluster.Entry
	}
	var hits []hit
	var ids []string
	want := strings.ToLower(target)
	for _, c := range store.Clusters() {
		for _, e := range store.List(c) {
			id := objectID(c, e.Object)
			ids = append(ids, id)
			low := strings.ToLower(id)
			if low == want || strings.HasSuffix(low, "/"+want) {
				hits = append(hits, hit{c, e})
			}
		}
	}
	switch len(hits) {
	case 1:
		return hits[0].c, hits[0].e, nil
	case 0:
		return "", cluster.Entry{}, fmt.Errorf("no rendered object %s%s", target, manifest.DidYouMean(target, ids))
	}
	var names []string
	for _, h := range hits {
		names = append(names, objectID(h.c, h.e.Object))
	}
	sort.Strings(names)
	return "", cluster.Entry{}, fmt.Errorf("%s names %d objects; give more of it: %s", target, len(hits), strings.Join(names, ", "))
}

// explanation is what explain prints (and its JSON form).
type explanation struct {
	Object    string                   `json:"object"`
	Source    *report.Source           `json:"source,omitempty"`
	Fields    []explainedField         `json:"fields"`
	Placement *propagation.Explanation `json:"placement,omitempty"`
}

type explainedField struct {
	Path    string          `json:"path"`
	Value   any             `json:"value"`
	Origins []explainOrigin `json:"origins"`
	path    fieldpath.Path
}

type explainOrigin struct {
	Stage  string `json:"stage"`
	Name   string `json:"name,omitempty"`
	Detail string `json:"detail,omitempty"`
	// Source is where the stage's setting is authored ({file, line,
	// column}).
	Source *report.Source `json:"source,omitempty"`
	Value  any            `json:"value"`
}

func newExplanation(c string, e cluster.Entry, placements *controller.Placements) *explanation {
	x := &explanation{Object: objectID(c, e.Object), Source: report.EntrySource(e)}
	if p := placements.Of(c, e.Object.Key()); p != nil {
		x.Placement = p
	}
	manifest.WalkLeaves(e.Object.Data, func(path fieldpath.Path, v any) {
		f := explainedField{Path: path.String(), Value: v, path: path}
		for _, o := range e.Object.Provenance.Chain(path) {
			f.Origins = append(f.Origins, explainOrigin{Stage: string(o.Stage), Name: o.Name, Detail: o.Detail, Source: report.SourceOf(o.Pos, cluster.Origin{}), Value: o.Value})
		}
		x.Fields = append(x.Fields, f)
	})
	return x
}

// only keeps the field at path: the leaf (leaf true), or every leaf
// under it (a mapping or a list: its subtree). It returns how many it
// kept.
func (x *explanation) only(path fieldpath.Path) (kept int, leaf bool) {
	var sub []explainedField
	for _, f := range x.Fields {
		switch {
		case f.path.Equal(path) && len(f.Origins) > 0:
			x.Fields = []explainedField{f}
			return 1, true
		case len(f.path) > len(path) && f.path.HasPrefix(path):
			sub = append(sub, f)
		}
	}
	x.Fields = sub
	return len(sub), false
}

func (x *explanation) print(w io.Writer, chain bool) {
	fmt.Fprintf(w, "%s\n", x.Object)
	if x.Source != nil && x.Source.Text != "" {
		fmt.Fprintf(w, "  from %s\n", x.Source.Text)
	}
	fmt.Fprintln(w)
	for _, f := range x.Fields {
		if chain {
			steps := make([]string, len(f.Origins))
			for i, o := range f.Origins {
				steps[i] = fmt.Sprintf("%s (%s)", compact(o.Value), o.describe())
			}
			if len(steps) == 0 {
				steps = []string{compact(f.Value) + " (no recorded origin)"}
			}
			fmt.Fprintf(w, "%s: %s\n", f.Path, strings.Join(steps, " → "))
			continue
		}
		origin := "no recorded origin"
		if n := len(f.Origins); n > 0 {
			origin = f.Origins[n-1].describe()
		}
		fmt.Fprintf(w, "%s: %s  # %s\n", f.Path, compact(f.Value), origin)
	}
	if x.Placement != nil {
		fmt.Fprintln(w)
		printPlacement(w, x.Placement)
	}
}

// printPlacement writes why the object is where it is: the policy and
// its rivals, each cluster with + (holds it) or -, and the division.
func printPlacement(w io.Writer, p *propagation.Explanation) {
	fmt.Fprintf(w, "placement: %s\n", p.Policy)
	for _, why := range p.Why {
		fmt.Fprintf(w, "  %s\n", why)
	}
	for _, c := range p.Clusters {
		mark := "-"
		if c.Selected {
			mark = "+"
		}
		line := fmt.Sprintf("  %s %s: %s", mark, c.Cluster, c.Why)
		switch {
		case c.Replicas == 1:
			line += " (1 replica)"
		case c.Replicas > 1:
			line += fmt.Sprintf(" (%d replicas)", c.Replicas)
		}
		fmt.Fprintln(w, line)
	}
	if len(p.Replicas) > 0 {
		fmt.Fprintln(w, "  replicas:")
		for _, r := range p.Replicas {
			fmt.Fprintf(w, "    %s\n", r)
		}
	}
}

// describe is an origin as explain prints it: what set the value, then
// where.
func (o explainOrigin) describe() string {
	s := manifest.Origin{Stage: manifest.Stage(o.Stage), Name: o.Name, Detail: o.Detail}.Describe()
	if o.Source != nil {
		s += ", " + manifest.Pos{File: o.Source.File, Line: o.Source.Line, Col: o.Source.Column}.String()
	}
	return s
}

// compact is a value on one line, as JSON.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
