package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/gitrev"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/reconcile"
	"github.com/drydock-dev/drydock/report"
	"github.com/drydock-dev/drydock/schemas"
)

func runDiff(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("diff", "diff (--base REV | --base-dir DIR) [PATH...] [flags]", "PATHs default to the current directory.\n"+
		"Renders the inputs at the base and as they are now, and prints what the change does to\n"+
		"each cluster: the objects created, updated and deleted (KubeVela's garbage collection\n"+
		"included), with their reasons. With --suite and --base REV, the base side reads the suite of\n"+
		"drydock.yaml as it is at REV.")
	fs := cmd.fs
	var rf renderFlags
	rf.register(fs)
	rev := fs.String("base", "", "git revision of the repository holding the paths to compare with (HEAD, HEAD~1, main, a hash)")
	baseDir := fs.String("base-dir", "", "directory holding the base inputs, at the same relative paths, instead of a git revision")
	format := fs.StringP("format", "o", "text", "output format: text, markdown, json or github (text for an Actions log, the markdown as the job summary)")
	exitCode := fs.Bool("exit-code", false, "exit 1 when any object changes beyond KubeVela's bookkeeping labels and --ignore'd fields")
	maxLines := fs.Int("max-diff-lines", 0, "show at most N lines of each object's diff, then how many were left out (0: all)")
	showBookkeeping := fs.Bool("show-bookkeeping", false, "also show one by one, with their diffs, the objects whose only change is KubeVela's bookkeeping labels (app.oam.dev/appRevision and the like), which are otherwise summed up in one line per application")
	ignores := fs.StringArray("ignore", nil, "a field whose change does not count: a field path (spec.replicas, metadata.labels[app.kubernetes.io/version], spec.template.spec.containers[*].image), optionally for one kind (Deployment:spec.replicas); repeatable, added to drydock.yaml's diff.ignore. An object only these fields change is counted, not shown. (Not test --ignore, which skips input files.)")
	maxSize := fs.Int("max-size", report.CommentCap, "--format markdown: at most N bytes (default: GitHub's 65,536-character limit of a pull-request comment), leaving out whole sections, the objects' diffs first, with a notice saying what and where the whole report is (0: no cap). The job summary of --format github is always kept within GitHub's 1 MiB")
	fullReport := fs.String("full-report", "", "also write the whole report, never capped, to FILE (with --format github, the job summary's Markdown); a capped report's notice names it")
	colorFlag := fs.String("color", "auto", "colour the text format: auto (on a terminal, unless NO_COLOR is set), always or never")
	if code, done := cmd.parse(args, stdout, stderr); done {
		return code
	}
	if *maxLines < 0 {
		return cmd.fail(stderr, fmt.Errorf("--max-diff-lines %d: want 0 (all) or more", *maxLines))
	}
	if *maxSize < 0 {
		return cmd.fail(stderr, fmt.Errorf("--max-size %d: want 0 (no cap) or more", *maxSize))
	}
	write, ok := report.LookupDiff(*format)
	if !ok {
		return cmd.fail(stderr, fmt.Errorf("--format %q: want text, markdown, json or github", *format))
	}
	var paint bool
	switch *colorFlag {
	case "auto":
		paint = *format == "text" && colour(stdout)
	case "always":
		paint = *format == "text"
	case "never":
	default:
		return cmd.fail(stderr, fmt.Errorf("--color %q: want auto, always or never", *colorFlag))
	}
	var rules []reconcile.Ignore
	for _, t := range *ignores {
		r, err := reconcile.ParseIgnore(t)
		if err != nil {
			return cmd.fail(stderr, fmt.Errorf("--%w", err))
		}
		rules = append(rules, r)
	}
	if (*rev == "") == (*baseDir == "") {
		return cmd.fail(stderr, errors.New("give the base: --base REV or --base-dir DIR"))
	}
	paths := fs.Args()
	if len(paths) == 0 && len(rf.addons) == 0 && rf.suite.name == "" {
		paths = []string{"."} // the repository as it is checked out
	}
	head, err := rf.inputs(paths)
	if err != nil {
		return cmd.usageError(stderr, err)
	}
	configured, err := configIgnores(rf.suite.configuration(fs))
	if err != nil {
		fmt.Fprintf(stderr, "drydock diff: %s\n", errText(err))
		return exitUsage
	}
	rules = append(configured, rules...)
	if slices.Contains(head.Paths, "-") {
		fmt.Fprintln(stderr, "drydock diff: - (stdin) has no base; give files or directories")
		return exitUsage
	}
	baseSide := head
	if *rev != "" && rf.suite.name != "" {
		// The suite as the configuration at the base has it.
		var note string
		if baseSide, note, err = rf.suiteAt(head, *rev); err != nil {
			fmt.Fprintf(stderr, "drydock diff: %s\n", errText(err))
			return exitUsage
		}
		if note != "" {
			fmt.Fprintf(stderr, "drydock diff: %s\n", note)
		}
	}
	base, name, err := baseInputs(baseSide, *rev, *baseDir)
	if err != nil {
		fmt.Fprintf(stderr, "drydock diff: %s\n", errText(err))
		return exitUsage
	}
	if note := baseChartsNote(base.Charts, baseSide.Charts, name); note != "" {
		fmt.Fprintf(stderr, "drydock diff: %s\n", note)
	}
	ctx := context.Background()
	base.Record.AppState, head.Record.AppState = true, true
	store := rf.cache.open(stderr, "rendering without it", false)
	base.Cache, head.Cache = store, store
	var cacheErr error
	defer func() { closeCache(store, cacheErr, stderr) }()
	baseObjects, headObjects := reconcile.NewRecorder(), reconcile.NewRecorder()
	was, err := pipeline.Stream(ctx, base, baseObjects)
	if was != nil {
		cacheErr = was.CacheError
	}
	if err != nil {
		fmt.Fprintf(stderr, "drydock diff: the base (%s) does not render:\n", name)
		return reportError(stderr, err)
	}
	// An Application that changed renders as KubeVela's next revision.
	head.BaseRevisions = was.AppState.RevisionHashes
	now, err := pipeline.Stream(ctx, head, headObjects)
	if now != nil && cacheErr == nil {
		cacheErr = now.CacheError
	}
	if err != nil {
		fmt.Fprintln(stderr, "drydock diff: the inputs as they are now do not render:")
		return reportError(stderr, err)
	}
	printWarnings(stderr, now.SortedWarnings())
	plan, err := reconcile.Compute(
		reconcile.Side{Objects: baseObjects, Resources: was.AppState.Resources, Suspended: was.AppState.Suspended, Frozen: was.Works.Frozen, Preserved: was.Works.Preserved},
		reconcile.Side{Objects: headObjects, Resources: now.AppState.Resources, Suspended: now.AppState.Suspended, Frozen: now.Works.Frozen, Preserved: now.Works.Preserved})
	if err != nil {
		fmt.Fprintf(stderr, "drydock diff: %s\n", errText(err))
		return exitInternal
	}
	plan.MaxDiffLines = *maxLines
	if err := plan.Classify(rules); err != nil {
		fmt.Fprintf(stderr, "drydock diff: %s\n", errText(err))
		return exitInternal
	}
	opts := report.DiffOptions{ShowBookkeeping: *showBookkeeping, Colour: paint}
	if *format == "markdown" {
		opts.MaxSize = *maxSize
	}
	if *fullReport != "" {
		full := write
		if *format == "github" {
			full = report.DiffMarkdown
		}
		if err := writeFile(*fullReport, func(w io.Writer) error {
			return full(w, plan, name, report.DiffOptions{ShowBookkeeping: *showBookkeeping})
		}); err != nil {
			fmt.Fprintf(stderr, "drydock diff: --full-report %s: %s\n", *fullReport, errText(err))
			return exitUsage
		}
		opts.WholeReport = report.MarkdownCode(*fullReport)
	}
	out := stdout
	if paint { // the text format escapes what it quotes, its colours aside
		out = raw(stdout)
	}
	if err := write(out, plan, name, opts); err != nil {
		fmt.Fprintf(stderr, "drydock diff: %s\n", errText(err))
		return exitUsage
	}
	if *format == "github" { // as drydock test --format github does
		if err := appendStepSummary(func(f io.Writer, room int) error {
			o := opts
			o.MaxSize, o.MaxSizeName, o.WholeReport = max(room, 1), report.SummaryCapName(room), summaryWhole(*fullReport)
			return report.DiffMarkdown(f, plan, name, o)
		}); err != nil {
			fmt.Fprintf(stderr, "drydock diff: writing the job summary: %s\n", errText(err))
			return exitUsage
		}
	}
	if *exitCode && slices.ContainsFunc(plan.Changes, func(c reconcile.Change) bool { return c.Noise == reconcile.Real }) {
		return exitCheck
	}
	return exitOK
}

// suiteAt is the --suite as the configuration file holds it at git
// revision rev (read from the git object store, at the file's place in
// the work tree), with the flags and PATHs given laid over it as over
// the suite now (head): the inputs diff reads at the base, as paths in
// the work tree for baseInputs to map. A file or suite the revision does
// not have is a base with no inputs, said in note: everything the suite
// renders now is created. A configuration that does not parse there is
// an error naming the revision and the file.
func (r *renderFlags) suiteAt(head pipeline.Inputs, rev string) (in pipeline.Inputs, note string, err error) {
	cfg := r.suite.cfg
	repo, err := gitrev.Open(filepath.Dir(cfg.File))
	if err != nil {
		return in, "", fmt.Errorf("--base %s: %w", rev, err)
	}
	tree, err := repo.FS(rev)
	if err != nil {
		return in, "", fmt.Errorf("--base: %w", err)
	}
	at, err := repo.Rel(cfg.File)
	if err != nil {
		return in, "", fmt.Errorf("--base %s: %w", rev, err)
	}
	var suite check.Suite
	var baseCfg *check.Config
	data, err := tree.ReadFile(at)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		note = fmt.Sprintf("%s is not at %s: suite %s has no base, everything it renders is created", cfg.File, rev, r.suite.name)
	case err != nil:
		return in, "", fmt.Errorf("--base %s: %s: %w", rev, cfg.File, err)
	default:
		if baseCfg, err = check.ParseConfig(cfg.File, data); err != nil {
			return in, "", fmt.Errorf("--base %s: %s as it is at %s does not load: %w", rev, cfg.File, rev, err)
		}
		if suite, err = baseCfg.Suite(r.suite.name); err != nil {
			baseCfg = nil
			note = fmt.Sprintf("%s at %s has no suite %s: everything it renders is created", cfg.File, rev, r.suite.name)
		}
	}
	if baseCfg != nil {
		if suite.Plain {
			return in, "", fmt.Errorf("--base %s: suite %s of %s at %s is a plain suite (manifests checked as they are): it renders nothing", rev, r.suite.name, cfg.File, rev)
		}
		if in, err = check.SuiteInputs(baseCfg.Dir, suite); err != nil {
			return in, "", fmt.Errorf("--base %s: suite %s of %s at %s: %w", rev, r.suite.name, cfg.File, rev, err)
		}
	}
	kept := r.suiteValidation
	in = r.overSuite(in, r.flagged)
	r.suiteValidation = kept
	in.Limits, in.Skip = head.Limits, head.Skip
	return in, note, nil
}

// configIgnores are the ignore rules of drydock.yaml's diff.ignore (no
// configuration: none).
func configIgnores(cfg *check.Config, err error) ([]reconcile.Ignore, error) {
	if cfg == nil || err != nil {
		return nil, err
	}
	var rules []reconcile.Ignore
	for _, t := range cfg.Diff.Ignore {
		r, err := reconcile.ParseIgnore(t) // LoadConfig checked it
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// summaryWhole says, in a capped job summary, where the whole diff is:
// the step's log, which holds the text format whole (with the run's
// address when GitHub Actions gives it), and the --full-report file.
func summaryWhole(fullReport string) string {
	s := "this step's log, which holds the text report, never capped"
	server, repo, run := os.Getenv("GITHUB_SERVER_URL"), os.Getenv("GITHUB_REPOSITORY"), os.Getenv("GITHUB_RUN_ID")
	if server != "" && repo != "" && run != "" {
		s += " (" + report.MarkdownText(server+"/"+repo+"/actions/runs/"+run) + ")"
	}
	if fullReport != "" {
		s += ", and " + report.MarkdownCode(fullReport) + ", which this step wrote"
	}
	return s
}

// baseCharts is the chart cache of the base side: its charts read from
// fsys (the revision, or --base-dir) when every chart path is inside it
// and no source is mapped; else head's, the working tree's, as they are
// (kustomize reads a source's directory from the disk, and a path out of
// the repository has no revision).
func baseCharts(head source.Config, fsys fs.FS, at func(string) (string, error)) source.Config {
	if len(head.Charts) == 0 || len(head.Sources) > 0 || len(head.Repositories) > 0 {
		return head
	}
	out := head
	out.Charts = nil
	for _, p := range head.Charts {
		q, err := at(p)
		if err != nil {
			return head
		}
		if _, err := fs.Stat(fsys, q); err != nil {
			return head
		}
		out.Charts = append(out.Charts, q)
	}
	out.FS = fsys
	return out
}

// baseChartsNote says when the base side reads the working tree's charts
// and sources: "" when it reads none, or reads them at the base.
func baseChartsNote(base, head source.Config, name string) string {
	if base.FS != nil || len(head.Charts)+len(head.Sources)+len(head.Repositories) == 0 {
		return ""
	}
	why := "a chart path is not in it"
	if len(head.Sources) > 0 || len(head.Repositories) > 0 {
		why = "sources are read from the disk"
	}
	return fmt.Sprintf("the base (%s) renders with the working tree's charts and sources (%s): a change to them shows in neither side", name, why)
}

// baseInputs are head's inputs read at the base: from the git revision
// rev of the repository holding them, or from the directory dir at the
// same relative paths. A path the base does not have is left out (its
// objects are new). name is how the base is named to the user.
func baseInputs(head pipeline.Inputs, rev, dir string) (in pipeline.Inputs, name string, err error) {
	in = head
	// What the base held is what the API server kept of it: its unknown
	// fields dropped (a change that fixes a misspelt field diffs).
	in.FieldValidation = schemas.FieldIgnore
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
	in.Charts = baseCharts(head.Charts, fsys, at)
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
