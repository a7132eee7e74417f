package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/report"
	"github.com/drydock-dev/drydock/tree"
)

// debounce is how long the watcher waits for a burst of saves to settle.
const debounce = 200 * time.Millisecond

// runWatch renders in, then again after every change of its files, until
// interrupted (exit 0): each render prints what changed since the last
// one (created, updated with a diff, deleted), updates the tree under
// outDir when given (as render -o does), and a render that fails prints
// its error and waits for the next save.
func runWatch(in pipeline.Inputs, outDir string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return watch(ctx, in, outDir, stdout, stderr)
}

// watch is runWatch until ctx ends. Only the files the render reads
// trigger it (in.Reads): not its output directory, nor the file stdout
// goes to, nor an editor's temporary files.
func watch(ctx context.Context, in pipeline.Inputs, outDir string, stdout, stderr io.Writer) int {
	if outDir != "" {
		in.Skip = append(in.Skip, outDir)
	}
	in.Skip = append(in.Skip, stdoutInputs(in, stdout)...)
	var w watched
	t := trigger{file: in.Reads, dir: in.Enters, stdout: regularFile(stdout)}
	return watchPaths(ctx, in.ReadPaths(), t, stderr, func() { renderAndShow(ctx, in, outDir, stdout, stderr, &w) })
}

// watched is what a watched render keeps for the next: its tree, and the
// files of the output directory known equal to it (not read again while
// unchanged).
type watched struct {
	last  tree.Tree
	known tree.Known
}

// trigger tells which file events run a watched command again.
type trigger struct {
	// file reports whether the command reads the file at a path (which
	// may be gone: removed or renamed away).
	file func(path string) bool
	// dir reports whether the command reads files below a directory.
	dir func(path string) bool
	// stdout is the file the command's stdout goes to (nil: not a
	// file): its own writes.
	stdout os.FileInfo
}

// fires reports whether ev is a change of the command's inputs. A new
// directory it reads is watched (add) and counts when it holds an input;
// watched are the directories being watched, whose removal counts.
func (t trigger) fires(ev fsnotify.Event, watched map[string]bool, add func(dir string) (bool, error)) bool {
	if ev.Op == fsnotify.Chmod || editorTemp(filepath.Base(ev.Name)) || t.isStdout(ev.Name) {
		return false // a mode bit, an editor's scratch file, the command's own output
	}
	if info, err := os.Lstat(ev.Name); err == nil && info.IsDir() {
		if watched[ev.Name] || !t.dir(ev.Name) {
			return false
		}
		found, _ := add(ev.Name) // a new directory of inputs (one that fails to watch shows in the render)
		return found
	}
	if watched[ev.Name] && ev.Has(fsnotify.Remove|fsnotify.Rename) {
		delete(watched, ev.Name) // a directory of inputs went
		return true
	}
	return t.file(ev.Name)
}

// isStdout reports whether the file at p is the one stdout goes to.
func (t trigger) isStdout(p string) bool {
	if t.stdout == nil {
		return false
	}
	info, err := os.Stat(p)
	return err == nil && os.SameFile(info, t.stdout)
}

// editorTemp reports whether name is one of the scratch files editors
// write beside the file being saved: vim's swap files (.x.swp, .swo, ...,
// .swx), its write test 4913 (4913 + 123n), backups (x~), emacs's
// auto-save (#x#) and lock (.#x) files, JetBrains' x___jb_tmp___ and
// x___jb_old___.
func editorTemp(name string) bool {
	switch {
	case strings.HasSuffix(name, "~"), strings.HasPrefix(name, ".#"),
		len(name) > 1 && strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"),
		strings.HasSuffix(name, "___jb_tmp___"), strings.HasSuffix(name, "___jb_old___"):
		return true
	case vimSwap.MatchString(name):
		return true
	}
	n, err := strconv.Atoi(name)
	return err == nil && n >= 4913 && (n-4913)%123 == 0
}

// vimSwap matches vim's swap file names: .swp, then .swo down to .swa,
// and .swx (its directory-writability test).
var vimSwap = regexp.MustCompile(`^\..*\.sw[a-px]$`)

// regularFile is the file w writes to when it is an *os.File open on a
// regular file (stdout redirected to a file), else nil; run's
// StickyWriter is looked through.
func regularFile(w io.Writer) os.FileInfo {
	if s, ok := w.(*report.StickyWriter); ok {
		w = s.W
	}
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return nil
	}
	return info
}

// stdoutInputs are the input files of in that are the file stdout goes
// to (as with render . > out.yaml or >> out.yaml in an input directory):
// the render's own output, which it must not read back.
func stdoutInputs(in pipeline.Inputs, stdout io.Writer) []string {
	info := regularFile(stdout)
	if info == nil {
		return nil
	}
	files, _ := pipeline.InputFiles(in.ReadPaths(), in.Exclude, in.Skip) // an error shows in the render
	var out []string
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && os.SameFile(fi, info) {
			out = append(out, f)
		}
	}
	return out
}

// watchPaths runs once, then again after every settled burst of changes
// under paths that t fires on, until ctx ends (exit 0).
func watchPaths(ctx context.Context, paths []string, t trigger, stderr io.Writer, once func()) int {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		fmt.Fprintf(stderr, "drydock: --watch: %s\n", errText(err))
		return exitUsage
	}
	defer w.Close()
	watched := map[string]bool{}
	add := func(dir string) (bool, error) { return addWatches(w, dir, t, watched) }
	for _, p := range paths {
		if _, err := add(p); err != nil {
			fmt.Fprintf(stderr, "drydock: --watch: %s\n", errText(err))
			return exitUsage
		}
	}
	changes := make(chan struct{}, 1)
	go func() {
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if !t.fires(ev, watched, add) {
					continue
				}
				select {
				case changes <- struct{}{}:
				default:
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			}
		}
	}()
	return watchLoop(ctx, changes, func() <-chan time.Time { return time.After(debounce) }, once)
}

// watchLoop runs once, then once per settled burst of changes, until ctx
// ends: a burst has settled when settle's channel fires with no change
// since it was asked for.
func watchLoop(ctx context.Context, changes <-chan struct{}, settle func() <-chan time.Time, once func()) int {
	once()
	for {
		select {
		case <-ctx.Done():
			return exitOK
		case <-changes:
		}
		quiet := settle()
	burst:
		for {
			select {
			case <-ctx.Done():
				return exitOK
			case <-changes:
				quiet = settle()
			case <-quiet:
				break burst
			}
		}
		once()
	}
}

// renderAndShow renders in, prints what changed since w's last tree
// (nil: the first render), writes outDir when given, and keeps the new tree
// in w (the last stays when the render failed).
func renderAndShow(ctx context.Context, in pipeline.Inputs, outDir string, stdout, stderr io.Writer, w *watched) {
	last := w.last
	rendered, warnings, err := renderWatched(ctx, in)
	stamp := time.Now().Format("15:04:05")
	if err != nil {
		fmt.Fprintf(stderr, "drydock: %s: the render failed; waiting for the next save:\n", stamp)
		reportError(stderr, err)
		return
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "drydock: %s\n", located("warning", w))
	}
	if outDir != "" { // as render -o writes it: what no longer renders goes
		if w.known, err = updateKnown(outDir, rendered, w.known); err != nil {
			fmt.Fprintf(stderr, "drydock: %s\n", errText(err))
		}
	}
	created, updated, deleted := printTreeChanges(stdout, last, rendered)
	if last == nil {
		fmt.Fprintf(stderr, "drydock: %s: rendered %s; watching for changes (Ctrl-C ends)\n", stamp, report.Count(len(rendered), "object"))
	} else {
		fmt.Fprintf(stderr, "drydock: %s: rendered %s: %d created, %d updated, %d deleted\n", stamp, report.Count(len(rendered), "object"), created, updated, deleted)
	}
	w.last = rendered
}

// updateStart is when an update of the output directory began (tests move
// it, so that files written just before are not racy).
var updateStart = func(t time.Time) time.Time { return t }

// updateKnown is tree.Update(dir, got) with pruning that does not read the
// files known equal to their content (each file's digest the SHA-256 of
// its bytes), and returns what the next may take as known.
func updateKnown(dir string, got tree.Tree, known tree.Known) (tree.Known, error) {
	if err := got.Validate(true); err != nil {
		return nil, err
	}
	u, err := tree.NewUpdater(dir, tree.UpdateOptions{Prune: true})
	if err != nil {
		return nil, err
	}
	u.Known, u.Start = known, updateStart(u.Start)
	for _, p := range got.Paths() {
		data := got[p]
		if err := u.PutDigest(p, sha256.Sum256(data), func() ([]byte, error) { return data, nil }); err != nil {
			u.Abort()
			return nil, err
		}
	}
	if _, err := u.Commit(); err != nil {
		return nil, err
	}
	learned, _ := u.Learned()
	return learned, nil
}

// renderWatched renders in into a tree.
func renderWatched(ctx context.Context, in pipeline.Inputs) (tree.Tree, []string, error) {
	res, err := pipeline.Run(ctx, in)
	if err != nil {
		return nil, nil, err
	}
	got, err := pipeline.Tree(res.Clusters)
	return got, res.SortedWarnings(), err
}

// printTreeChanges prints how now differs from was (nil: the first
// render, nothing printed) and counts the changes: the creates and
// updates in path order, then the deletes.
func printTreeChanges(w io.Writer, was, now tree.Tree) (created, updated, deleted int) {
	if was == nil {
		return 0, 0, 0
	}
	changes, _ := tree.Changes(was, now, strings.Compare, bytes.Equal)
	for _, c := range changes {
		switch c.Action {
		case tree.Added:
			created++
			fmt.Fprintf(w, "+ create %s\n", c.Key)
		case tree.Changed:
			updated++
			fmt.Fprintf(w, "~ update %s\n", c.Key)
			for _, line := range strings.Split(strings.TrimRight(golden.Unified("before/"+c.Key, "after/"+c.Key, c.Old, c.New), "\n"), "\n") {
				fmt.Fprintf(w, "    %s\n", line)
			}
		}
	}
	for _, c := range changes {
		if c.Action == tree.Removed {
			deleted++
			fmt.Fprintf(w, "- delete %s\n", c.Key)
		}
	}
	return created, updated, deleted
}

// addWatches watches p: a file's directory (editors replace files), or a
// directory and every directory under it that t reads (dot directories
// left out), recording them in watched. It reports whether p holds a file
// t reads.
func addWatches(w *fsnotify.Watcher, p string, t trigger, watched map[string]bool) (found bool, err error) {
	info, err := os.Stat(p)
	if err != nil {
		return false, err
	}
	if !info.IsDir() {
		return true, w.Add(filepath.Dir(p))
	}
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case !d.IsDir():
			found = found || t.file(path)
			return nil
		case path != p && (strings.HasPrefix(d.Name(), ".") || !t.dir(path)):
			return filepath.SkipDir
		}
		watched[path] = true
		return w.Add(path)
	})
	return found, err
}
