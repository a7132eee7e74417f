package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/gitrev"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/reconcile"
	"github.com/drydock-dev/drydock/report"
)

func runDiff(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("diff", "diff (--base REV | --base-dir DIR) [PATH...] [flags]", "PATHs default to the current directory.\n"+
		"Renders the inputs at the base and as they are now, and prints what the change does to\n"+
		"each cluster: the objects created, updated and deleted (KubeVela's garbage collection\n"+
		"included), with their reasons.")
	fs := cmd.fs
	var rf renderFlags
	rf.register(fs)
	rev := fs.String("base", "", "git revision of the repository holding the paths to compare with (HEAD, HEAD~1, main, a hash)")
	baseDir := fs.String("base-dir", "", "directory holding the base inputs, at the same relative paths, instead of a git revision")
	format := fs.String("format", "text", "output format: text, markdown, json or github (text for an Actions log, the markdown as the job summary)")
	exitCode := fs.Bool("exit-code", false, "exit 1 when anything changes")
	if code, done := cmd.parse(args, stdout, stderr); done {
		return code
	}
	write, ok := diffFormats[*format]
	if !ok {
		return cmd.fail(stderr, fmt.Errorf("--format %q: want text, markdown, json or github", *format))
	}
	if (*rev == "") == (*baseDir == "") {
		return cmd.fail(stderr, errors.New("give the base: --base REV or --base-dir DIR"))
	}
	paths := fs.Args()
	if len(paths) == 0 && len(rf.addons) == 0 {
		paths = []string{"."} // the repository as it is checked out
	}
	head, err := rf.inputs(paths)
	if err != nil {
		return cmd.usageError(stderr, err)
	}
	if slices.Contains(head.Paths, "-") {
		fmt.Fprintln(stderr, "drydock diff: - (stdin) has no base; give files or directories")
		return exitUsage
	}
	base, name, err := baseInputs(head, *rev, *baseDir)
	if err != nil {
		fmt.Fprintf(stderr, "drydock diff: %v\n", err)
		return exitUsage
	}
	ctx := context.Background()
	base.Record.AppState, head.Record.AppState = true, true
	baseObjects, headObjects := reconcile.NewRecorder(), reconcile.NewRecorder()
	was, err := pipeline.Stream(ctx, base, baseObjects)
	if err != nil {
		fmt.Fprintf(stderr, "drydock diff: the base (%s) does not render:\n", name)
		return reportError(stderr, err)
	}
	// An Application that changed renders as KubeVela's next revision.
	head.BaseRevisions = was.AppState.RevisionHashes
	now, err := pipeline.Stream(ctx, head, headObjects)
	if err != nil {
		fmt.Fprintln(stderr, "drydock diff: the inputs as they are now do not render:")
		return reportError(stderr, err)
	}
	plan, err := reconcile.Compute(
		reconcile.Side{Objects: baseObjects, Resources: was.AppState.Resources, Suspended: was.AppState.Suspended, Frozen: was.Works.Frozen, Preserved: was.Works.Preserved},
		reconcile.Side{Objects: headObjects, Resources: now.AppState.Resources, Suspended: now.AppState.Suspended, Frozen: now.Works.Frozen, Preserved: now.Works.Preserved})
	if err != nil {
		fmt.Fprintf(stderr, "drydock diff: %v\n", err)
		return exitInternal
	}
	if err := write(stdout, plan, name); err != nil {
		fmt.Fprintf(stderr, "drydock diff: %v\n", err)
		return exitUsage
	}
	if *format == "github" { // as drydock test --format github does
		if err := appendStepSummary(func(f io.Writer) error { return diffMarkdown(f, plan, name) }); err != nil {
			fmt.Fprintf(stderr, "drydock diff: writing the job summary: %v\n", err)
			return exitUsage
		}
	}
	if *exitCode && len(plan.Changes) > 0 {
		return exitCheck
	}
	return exitOK
}

// baseInputs are head's inputs read at the base: from the git revision
// rev of the repository holding them, or from the directory dir at the
// same relative paths. A path the base does not have is left out (its
// objects are new). name is how the base is named to the user.
func baseInputs(head pipeline.Inputs, rev, dir string) (in pipeline.Inputs, name string, err error) {
	in = head
	var fsys fs.FS
	var at func(p string) (string, error)
	if rev != "" {
		first := "."
		if len(head.Paths) > 0 {
			first = head.Paths[0]
		}
		repo, err := gitrev.Open(first)
		if err != nil {
			return in, "", fmt.Errorf("--base %s: %w", rev, err)
		}
		tree, err := repo.FS(rev)
		if err != nil {
			return in, "", fmt.Errorf("--base: %w", err)
		}
		fsys, at, name = tree, repo.Rel, rev
		in.FromName = rev + ":"
	} else {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return in, "", fmt.Errorf("--base-dir %s: not a directory", dir)
		}
		// Its links may not lead out of it, as the work tree's may not
		// lead out of the repository.
		if fsys, err = manifest.DirFS(dir); err != nil {
			return in, "", fmt.Errorf("--base-dir %w", err)
		}
		name = dir
		in.FromName = filepath.ToSlash(filepath.Clean(dir)) + "/"
		at = func(p string) (string, error) {
			if !filepath.IsLocal(p) {
				return "", fmt.Errorf("%s: with --base-dir, paths must be relative and below the current directory", p)
			}
			return filepath.ToSlash(filepath.Clean(p)), nil
		}
	}
	in.From = fsys
	mapAll := func(paths []string) ([]string, error) {
		var out []string
		for _, p := range paths {
			q, err := at(p)
			if err != nil {
				return nil, err
			}
			if _, err := fs.Stat(fsys, q); errors.Is(err, fs.ErrNotExist) {
				continue
			}
			out = append(out, q)
		}
		return out, nil
	}
	if in.Paths, err = mapAll(head.Paths); err != nil {
		return in, "", err
	}
	if in.DefinitionPaths, err = mapAll(head.DefinitionPaths); err != nil {
		return in, "", err
	}
	if in.ClusterPaths, err = mapAll(head.ClusterPaths); err != nil {
		return in, "", err
	}
	if in.ObservedPaths, err = mapAll(head.ObservedPaths); err != nil {
		return in, "", err
	}
	in.Addons = nil
	for _, a := range head.Addons {
		d, err := mapAll([]string{a.Dir})
		if err != nil {
			return in, "", err
		}
		if len(d) == 1 {
			in.Addons = append(in.Addons, pipeline.Addon{Dir: d[0], Params: a.Params})
		}
	}
	return in, name, nil
}

// diffFormats print a plan; base names the base.
var diffFormats = map[string]func(w io.Writer, p *reconcile.Plan, base string) error{
	"text":     diffText,
	"markdown": diffMarkdown,
	"json":     diffJSON,
	"github":   diffGitHub,
}

// diffGitHub is the text for a GitHub Actions log, inert (no line of an
// object can run a workflow command), and a notice with the summary;
// runDiff appends the markdown to the job summary.
func diffGitHub(w io.Writer, p *reconcile.Plan, base string) error {
	var text strings.Builder
	if err := diffText(&text, p, base); err != nil {
		return err
	}
	sw := &report.StickyWriter{W: w}
	report.WriteInert(sw, text.String())
	report.Notice(sw, "drydock diff", summaryLine(p, base))
	return sw.Err
}

var actionMarks = map[reconcile.Action]string{reconcile.Create: "+", reconcile.Update: "~", reconcile.Delete: "-"}

// objectName is how a change names its object: kind[.group] name (the
// namespace is printed apart).
func objectName(k manifest.Key) string {
	k.Namespace = ""
	return k.String()
}

// namespaceOf is how the output names an object's namespace.
func namespaceOf(ns string) string {
	if ns == "" {
		return "(cluster-scoped)"
	}
	return ns
}

// diffText groups the changes by cluster and namespace, each update with
// its diff, and ends with a summary line. It writes through a
// report.PrintableWriter: names, reasons and diff lines from inputs keep
// their controls visible.
func diffText(w io.Writer, p *reconcile.Plan, base string) error {
	sw := &report.StickyWriter{W: w}
	pw := &report.PrintableWriter{W: sw}
	lastCluster, lastNS := "", "\x00"
	for _, c := range p.Changes {
		if c.Cluster != lastCluster {
			fmt.Fprintf(pw, "cluster %s\n", c.Cluster)
			lastCluster, lastNS = c.Cluster, "\x00"
		}
		if c.Key.Namespace != lastNS {
			fmt.Fprintf(pw, "  namespace %s\n", namespaceOf(c.Key.Namespace))
			lastNS = c.Key.Namespace
		}
		fmt.Fprintf(pw, "    %s %s %s: %s\n", actionMarks[c.Action], c.Action, objectName(c.Key), c.Reason)
		if c.Action == reconcile.Update {
			for line := range strings.Lines(c.Diff()) {
				fmt.Fprintf(pw, "        %s", line)
			}
		}
	}
	for _, k := range p.Kept {
		fmt.Fprintf(pw, "kept in cluster %s, namespace %s: %s: %s\n", k.Cluster, namespaceOf(k.Key.Namespace), objectName(k.Key), k.Reason)
	}
	fmt.Fprintf(pw, "%s\n", summaryLine(p, base))
	return sw.Err
}

func summaryLine(p *reconcile.Plan, base string) string {
	line := fmt.Sprintf("compared with %s: %d to create, %d to update, %d to delete, %d unchanged",
		base, p.Count(reconcile.Create), p.Count(reconcile.Update), p.Count(reconcile.Delete), p.Unchanged)
	if len(p.Kept) > 0 {
		line += fmt.Sprintf(", %d kept as they are by the controllers", len(p.Kept))
	}
	return line
}

// diffMarkdown is a pull-request comment: a table per cluster, each
// object's diff in a collapsed section. Every name, kind, namespace and
// reason is report.MarkdownText or MarkdownCode and every diff a
// MarkdownFence: nothing from an input becomes markup.
func diffMarkdown(w io.Writer, p *reconcile.Plan, base string) error {
	sw := &report.StickyWriter{W: w}
	fmt.Fprintf(sw, "### drydock diff\n\n%s.\n", summaryLine(p, report.MarkdownCode(base)))
	byCluster := map[string][]reconcile.Change{}
	var clusters []string
	for _, c := range p.Changes {
		if byCluster[c.Cluster] == nil {
			clusters = append(clusters, c.Cluster)
		}
		byCluster[c.Cluster] = append(byCluster[c.Cluster], c)
	}
	for _, cl := range clusters {
		changes := byCluster[cl]
		counts := map[reconcile.Action]int{}
		for _, c := range changes {
			counts[c.Action]++
		}
		fmt.Fprintf(sw, "\n#### cluster %s\n\n| create | update | delete |\n|---|---|---|\n| %d | %d | %d |\n\n",
			report.MarkdownCode(cl), counts[reconcile.Create], counts[reconcile.Update], counts[reconcile.Delete])
		for _, c := range changes {
			fmt.Fprintf(sw, "<details><summary>%s %s %s in %s: %s</summary>\n\n%s\n</details>\n",
				c.Action, report.MarkdownText(c.Key.Kind), report.MarkdownCode(c.Key.Name), report.MarkdownText(namespaceOf(c.Key.Namespace)),
				report.MarkdownText(c.Reason), report.MarkdownFence("diff", c.Diff()))
		}
	}
	if len(p.Kept) > 0 {
		fmt.Fprintf(sw, "\n#### kept as they are by the controllers\n\n")
		for _, k := range p.Kept {
			fmt.Fprintf(sw, "- %s %s %s in %s: %s\n", report.MarkdownCode(k.Cluster), report.MarkdownText(k.Key.Kind), report.MarkdownCode(k.Key.Name),
				report.MarkdownText(namespaceOf(k.Key.Namespace)), report.MarkdownText(k.Reason))
		}
	}
	return sw.Err
}

// diffJSON is the plan for machines: a summary and every change (the
// unchanged and kept objects are counted as unchanged; the kept ones
// are also listed with their reasons).
func diffJSON(w io.Writer, p *reconcile.Plan, _ string) error {
	type change struct {
		Cluster    string `json:"cluster"`
		Namespace  string `json:"namespace"`
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Name       string `json:"name"`
		Action     string `json:"action,omitempty"`
		Reason     string `json:"reason"`
		Diff       string `json:"diff,omitempty"`
	}
	type summary struct {
		Create    int `json:"create"`
		Update    int `json:"update"`
		Delete    int `json:"delete"`
		Unchanged int `json:"unchanged"`
	}
	out := struct {
		Summary summary  `json:"summary"`
		Changes []change `json:"changes"`
		Kept    []change `json:"kept"`
	}{
		Summary: summary{p.Count(reconcile.Create), p.Count(reconcile.Update), p.Count(reconcile.Delete), p.Unchanged + len(p.Kept)},
		Changes: []change{},
		Kept:    []change{},
	}
	for _, c := range p.Changes {
		out.Changes = append(out.Changes, change{Cluster: c.Cluster, Namespace: c.Key.Namespace, APIVersion: c.APIVersion, Kind: c.Key.Kind,
			Name: c.Key.Name, Action: string(c.Action), Reason: c.Reason, Diff: c.Diff()})
	}
	for _, k := range p.Kept {
		out.Kept = append(out.Kept, change{Cluster: k.Cluster, Namespace: k.Key.Namespace, APIVersion: k.APIVersion, Kind: k.Key.Kind, Name: k.Key.Name, Reason: k.Reason})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
