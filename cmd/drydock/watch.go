package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/pipeline"
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

// watch is runWatch until ctx ends.
func watch(ctx context.Context, in pipeline.Inputs, outDir string, stdout, stderr io.Writer) int {
	var last golden.Tree
	return watchPaths(ctx, in.ReadPaths(), stderr, func() { last = renderAndShow(ctx, in, outDir, stdout, stderr, last) })
}

// watchPaths runs once, then again after every settled burst of changes
// of the files under paths, until ctx ends (exit 0).
func watchPaths(ctx context.Context, paths []string, stderr io.Writer, once func()) int {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		fmt.Fprintf(stderr, "drydock: --watch: %v\n", err)
		return exitUsage
	}
	defer w.Close()
	for _, p := range paths {
		if err := addWatches(w, p); err != nil {
			fmt.Fprintf(stderr, "drydock: --watch: %v\n", err)
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
				if ev.Has(fsnotify.Create) {
					if info, err := os.Stat(ev.Name); err == nil && info.IsDir() {
						_ = addWatches(w, ev.Name) // a new directory of inputs
					}
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
	return watchLoop(ctx, changes, once)
}

// watchLoop runs once, then once per settled burst of changes, until ctx
// ends.
func watchLoop(ctx context.Context, changes <-chan struct{}, once func()) int {
	once()
	for {
		select {
		case <-ctx.Done():
			return exitOK
		case <-changes:
		}
		// Let a burst of saves settle.
		timer := time.NewTimer(debounce)
	settle:
		for {
			select {
			case <-ctx.Done():
				timer.Stop()
				return exitOK
			case <-changes:
				timer.Reset(debounce)
			case <-timer.C:
				break settle
			}
		}
		once()
	}
}

// renderAndShow renders in, prints what changed since last (nil: the
// first render), writes outDir when given, and returns the new tree (last
// again when the render failed).
func renderAndShow(ctx context.Context, in pipeline.Inputs, outDir string, stdout, stderr io.Writer, last golden.Tree) golden.Tree {
	tree, warnings, err := renderWatched(ctx, in)
	stamp := time.Now().Format("15:04:05")
	if err != nil {
		fmt.Fprintf(stderr, "drydock: %s: the render failed; waiting for the next save:\n", stamp)
		reportError(stderr, err)
		return last
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "drydock: warning: %s\n", w)
	}
	if outDir != "" { // as render -o writes it: what no longer renders goes
		if _, err := golden.Update(outDir, tree, golden.UpdateOptions{Prune: true}); err != nil {
			fmt.Fprintf(stderr, "drydock: %v\n", err)
		}
	}
	created, updated, deleted := printTreeChanges(stdout, last, tree)
	if last == nil {
		fmt.Fprintf(stderr, "drydock: %s: rendered %d objects; watching for changes (Ctrl-C ends)\n", stamp, len(tree))
	} else {
		fmt.Fprintf(stderr, "drydock: %s: rendered %d objects: %d created, %d updated, %d deleted\n", stamp, len(tree), created, updated, deleted)
	}
	return tree
}

// renderWatched renders in into a tree.
func renderWatched(ctx context.Context, in pipeline.Inputs) (golden.Tree, []string, error) {
	res, err := pipeline.Run(ctx, in)
	if err != nil {
		return nil, nil, err
	}
	tree, err := pipeline.Tree(res.Clusters)
	return tree, res.SortedWarnings(), err
}

// printTreeChanges prints how now differs from was (nil: the first
// render, nothing printed) and counts the changes.
func printTreeChanges(w io.Writer, was, now golden.Tree) (created, updated, deleted int) {
	if was == nil {
		return 0, 0, 0
	}
	for _, p := range now.Paths() {
		old, ok := was[p]
		switch {
		case !ok:
			created++
			fmt.Fprintf(w, "+ create %s\n", p)
		case string(old) != string(now[p]):
			updated++
			fmt.Fprintf(w, "~ update %s\n", p)
			for _, line := range strings.Split(strings.TrimRight(golden.Unified("before/"+p, "after/"+p, old, now[p]), "\n"), "\n") {
				fmt.Fprintf(w, "    %s\n", line)
			}
		}
	}
	for _, p := range was.Paths() {
		if _, ok := now[p]; !ok {
			deleted++
			fmt.Fprintf(w, "- delete %s\n", p)
		}
	}
	return created, updated, deleted
}

// addWatches watches p: a file's directory (editors replace files), or a
// directory and every directory under it.
func addWatches(w *fsnotify.Watcher, p string) error {
	info, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return w.Add(filepath.Dir(p))
	}
	return filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != p && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		return w.Add(path)
	})
}
