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
		"included), with their reasons.")
	fs := cmd.fs
	var rf renderFlags
	rf.register(fs)
	rev := fs.String("base", "", "git revision of the repository holding the paths to compare with (HEAD, HEAD~1, main, a hash)")
	baseDir := fs.String("base-dir", "", "directory holding the base inputs, at the same relative paths, instead of a git revision")
	format := fs.StringP("format", "o", "text", "output format: text, markdown, json or github (text for an Actions log, the markdown as the job summary)")
	exitCode := fs.Bool("exit-code", false, "exit 1 when anything changes")
	maxLines := fs.Int("max-diff-lines", 0, "show at most N lines of each object's diff, then how many were left out (0: all)")
	if code, done := cmd.parse(args, stdout, stderr); done {
		return code
	}
	if *maxLines < 0 {
		return cmd.fail(stderr, fmt.Errorf("--max-diff-lines %d: want 0 (all) or more", *maxLines))
	}
	write, ok := report.LookupDiff(*format)
	if !ok {
		return cmd.fail(stderr, fmt.Errorf("--format %q: want text, markdown, json or github", *format))
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
	if slices.Contains(head.Paths, "-") {
		fmt.Fprintln(stderr, "drydock diff: - (stdin) has no base; give files or directories")
		return exitUsage
	}
	base, name, err := baseInputs(head, *rev, *baseDir)
	if err != nil {
		fmt.Fprintf(stderr, "drydock diff: %s\n", errText(err))
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
	printWarnings(stderr, now.SortedWarnings())
	plan, err := reconcile.Compute(
		reconcile.Side{Objects: baseObjects, Resources: was.AppState.Resources, Suspended: was.AppState.Suspended, Frozen: was.Works.Frozen, Preserved: was.Works.Preserved},
		reconcile.Side{Objects: headObjects, Resources: now.AppState.Resources, Suspended: now.AppState.Suspended, Frozen: now.Works.Frozen, Preserved: now.Works.Preserved})
	if err != nil {
		fmt.Fprintf(stderr, "drydock diff: %s\n", errText(err))
		return exitInternal
	}
	plan.MaxDiffLines = *maxLines
	if err := write(stdout, plan, name); err != nil {
		fmt.Fprintf(stderr, "drydock diff: %s\n", errText(err))
		return exitUsage
	}
	if *format == "github" { // as drydock test --format github does
		if err := appendStepSummary(func(f io.Writer) error { return report.DiffMarkdown(f, plan, name) }); err != nil {
			fmt.Fprintf(stderr, "drydock diff: writing the job summary: %s\n", errText(err))
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
