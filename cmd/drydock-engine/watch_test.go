package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/pipeline"
	"github.com/drydock-dev/drydock/report"
	"github.com/drydock-dev/drydock/tree"
)

// syncBuffer is a buffer the watcher writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls until buf holds want (the watcher reacts to file events
// asynchronously), failing after a generous time.
func waitFor(t *testing.T, buf *syncBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if strings.Contains(buf.String(), want) {
			return
		}
	}
	t.Fatalf("no %q after 20s; got:\n%s", want, buf.String())
}

const watchApp = `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: shop}
spec:
  components:
    - name: web
      type: webservice
      properties: {image: nginx}
      traits: [{type: scaler, properties: {replicas: REPLICAS}}]
`

// render --watch: an edit re-renders and prints the change; a bad save
// prints its error and the next good one renders; cancelling exits 0.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	app := filepath.Join(dir, "apps", "app.yaml")
	if err := os.MkdirAll(filepath.Dir(app), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(s string) {
		if err := os.WriteFile(app, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(strings.ReplaceAll(watchApp, "REPLICAS", "1"))
	var stdout, stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		done <- watch(ctx, pipeline.Inputs{Paths: []string{filepath.Join(dir, "apps")}, Workers: 1}, "", &stdout, &stderr)
	}()
	waitFor(t, &stderr, "rendered 1 object; watching for changes")

	write(strings.ReplaceAll(watchApp, "REPLICAS", "3"))
	waitFor(t, &stdout, "~ update local/default/deployment.apps_web.yaml")
	waitFor(t, &stdout, "+  replicas: 3")
	waitFor(t, &stderr, "1 updated, 0 deleted")

	write("kind: [\n")
	waitFor(t, &stderr, "the render failed; waiting for the next save")
	// A new file in a new directory is picked up too.
	extra := filepath.Join(dir, "apps", "more", "cm.yaml")
	if err := os.MkdirAll(filepath.Dir(extra), 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * debounce) // let the new directory be watched
	if err := os.WriteFile(extra, []byte("apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: extra}\nspec:\n  components: [{name: extra, type: k8s-objects, properties: {objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: extra}}]}}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(strings.ReplaceAll(watchApp, "REPLICAS", "3"))
	waitFor(t, &stdout, "+ create local/default/configmap_extra.yaml")

	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher did not stop")
	}
}

// test --watch: a run per settled change under the config's directory.
func TestTestWatch(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "drydock.yaml")
	app := filepath.Join(dir, "app.yaml")
	for name, data := range map[string]string{cfg: "suites:\n  - {name: s, inputs: [app.yaml], validate: false}\n", app: strings.ReplaceAll(watchApp, "REPLICAS", "1")} {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		done <- watchPaths(ctx, []string{dir}, trigger{file: everything, dir: everything}, &stderr, func() {
			code := run([]string{"test", "--config", cfg}, nil, &stdout, &stderr)
			stderr.Write([]byte("run done, exit " + string(rune('0'+code)) + "\n"))
		})
	}()
	waitFor(t, &stderr, "run done, exit 0")
	if err := os.WriteFile(app, []byte("kind: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, &stderr, "run done, exit 2")
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("exit %d", code)
	}
}

// Each render of render --watch -o updates the tree as render -o does:
// the file of an object no longer rendered goes, the user's files stay.
func TestWatchOutputPrunes(t *testing.T) {
	dir := t.TempDir()
	app, out := filepath.Join(dir, "app.yaml"), filepath.Join(dir, "out")
	two := "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: shop}\nspec:\n  components:\n" +
		"    - {name: a, type: k8s-objects, properties: {objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}]}}\n"
	one := two
	two += "    - {name: b, type: k8s-objects, properties: {objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: b}}]}}\n"
	in := pipeline.Inputs{Paths: []string{app}, Workers: 1}
	var stdout, stderr bytes.Buffer
	if err := os.WriteFile(app, []byte(two), 0o644); err != nil {
		t.Fatal(err)
	}
	var w watched
	renderAndShow(context.Background(), in, out, &stdout, &stderr, &w)
	mine := filepath.Join(out, "mine.txt")
	if err := os.WriteFile(mine, []byte("the user's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(app, []byte(one), 0o644); err != nil {
		t.Fatal(err)
	}
	renderAndShow(context.Background(), in, out, &stdout, &stderr, &w)
	for p, want := range map[string]bool{"local/default/configmap_a.yaml": true, "local/default/configmap_b.yaml": false, "mine.txt": true} {
		if _, err := os.Stat(filepath.Join(out, p)); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v (stderr: %s)", p, err == nil, want, stderr.String())
		}
	}
	if !strings.Contains(stdout.String(), "- delete local/default/configmap_b.yaml") {
		t.Errorf("stdout lacks the deletion:\n%s", stdout.String())
	}
}

// Under test --watch every run reads drydock.yaml again: a limit the
// config no longer sets is back at the flag's default.
func TestTestOptionsReadEachConfig(t *testing.T) {
	o := testFlags{}
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	o.register(fs)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	first, err := o.options(fs, check.Limits{EvalTimeout: "5s", RuleTimeout: "1s"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := o.options(fs, check.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if first.Limits.EvalTimeout != 5*time.Second || first.RuleTimeout != time.Second {
		t.Errorf("with the config's limits: %v, %v", first.Limits.EvalTimeout, first.RuleTimeout)
	}
	if second.Limits.EvalTimeout != defaultEvalTimeout || second.RuleTimeout != defaultRuleTimeout {
		t.Errorf("without them: %v, %v; want the defaults %v, %v", second.Limits.EvalTimeout, second.RuleTimeout, defaultEvalTimeout, defaultRuleTimeout)
	}
}

// everything is a trigger's file or dir that takes every path.
func everything(string) bool { return true }

// rendersIn counts the renders of render --watch that stderr reports,
// failed ones included.
func rendersIn(stderr *syncBuffer) int {
	return strings.Count(stderr.String(), ": rendered ") + strings.Count(stderr.String(), ": the render failed")
}

// waitRenders waits (generously) until stderr reports n renders, then a
// further second (five debounce periods), and requires exactly n.
func waitRenders(t *testing.T, stderr *syncBuffer, n int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); rendersIn(stderr) < n && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(time.Second)
	if got := rendersIn(stderr); got != n {
		t.Fatalf("%d renders, want %d; stderr:\n%s", got, n, stderr.String())
	}
}

// startWatch runs watch on dir's files until the test ends.
func startWatch(t *testing.T, in pipeline.Inputs, outDir string, stdout io.Writer, stderr *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() { done <- watch(ctx, in, outDir, stdout, stderr) }()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("exit %d", code)
		}
	})
}

// watchedApp writes apps/app.yaml under a new directory with replicas n
// and returns the directory and a function writing it again.
func watchedApp(t *testing.T) (dir string, write func(replicas string)) {
	dir = t.TempDir()
	app := filepath.Join(dir, "app.yaml")
	write = func(replicas string) {
		t.Helper()
		if err := os.WriteFile(app, []byte(strings.ReplaceAll(watchApp, "REPLICAS", replicas)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("1")
	return dir, write
}

// render --watch -o DIR with DIR inside the watched input directory: the
// render's writes to DIR trigger nothing, nor is DIR read as input; an
// input change renders once, and what that render writes, nothing.
func TestWatchOutputInsideInputs(t *testing.T) {
	dir, write := watchedApp(t)
	out := filepath.Join(dir, "out")
	var stdout, stderr syncBuffer
	startWatch(t, pipeline.Inputs{Paths: []string{dir}, Workers: 1}, out, &stdout, &stderr)
	waitRenders(t, &stderr, 1)
	write("3")
	waitRenders(t, &stderr, 2)
	if strings.Contains(stderr.String(), "warning") || !strings.Contains(stderr.String(), "0 created, 1 updated, 0 deleted") {
		t.Errorf("the output was read back as input:\n%s", stderr.String())
	}
	if data, err := os.ReadFile(filepath.Join(out, "local/default/deployment.apps_web.yaml")); err != nil || !strings.Contains(string(data), "replicas: 3") {
		t.Errorf("the output tree was not updated: %v\n%s", err, data)
	}
}

// render --watch DIR > DIR/out.yaml: the render's own printing triggers
// nothing and out.yaml is not read as input.
func TestWatchStdoutInsideInputs(t *testing.T) {
	dir, write := watchedApp(t)
	f, err := os.Create(filepath.Join(dir, "out.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var stderr syncBuffer
	// As run hands it on: through a StickyWriter.
	startWatch(t, pipeline.Inputs{Paths: []string{dir}, Workers: 1}, "", &report.StickyWriter{W: f}, &stderr)
	waitRenders(t, &stderr, 1)
	write("3")
	waitRenders(t, &stderr, 2) // it printed the change to out.yaml
	write("4")
	waitRenders(t, &stderr, 3)
	data, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(data), "~ update local/default/deployment.apps_web.yaml") != 2 || strings.Contains(stderr.String(), "failed") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", data, stderr.String())
	}
}

// Editors' scratch files (vim, emacs, JetBrains), other files the render
// does not read and chmod trigger nothing.
func TestWatchIgnoresNonInputs(t *testing.T) {
	dir, write := watchedApp(t)
	var stdout, stderr syncBuffer
	startWatch(t, pipeline.Inputs{Paths: []string{dir}, Workers: 1, Exclude: []string{"*.tmpl.yaml"}}, "", &stdout, &stderr)
	waitRenders(t, &stderr, 1)
	for _, name := range []string{".app.yaml.swp", ".app.yaml.swx", "4913", "5036", "app.yaml~", "#app.yaml#", ".#app.yaml",
		"app.yaml___jb_tmp___", "app.yaml___jb_old___", "notes.md", "x.tmpl.yaml", ".hidden/a.yaml", "drydock.yaml"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("kind: [\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "app.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	waitRenders(t, &stderr, 1)
	write("2") // the watcher still runs
	waitRenders(t, &stderr, 2)
}

// A burst of saves renders once; a new input file in a new directory
// renders once.
func TestWatchBurst(t *testing.T) {
	dir, write := watchedApp(t)
	var stdout, stderr syncBuffer
	startWatch(t, pipeline.Inputs{Paths: []string{dir}, Workers: 1}, "", &stdout, &stderr)
	waitRenders(t, &stderr, 1)
	for i := range 20 {
		write(strconv.Itoa(i + 2))
	}
	waitRenders(t, &stderr, 2)
	if !strings.Contains(stdout.String(), "+  replicas: 21") {
		t.Errorf("the render did not see the last save:\n%s", stdout.String())
	}
	extra := filepath.Join(dir, "more", "cm.yaml")
	if err := os.MkdirAll(filepath.Dir(extra), 0o755); err != nil {
		t.Fatal(err)
	}
	waitRenders(t, &stderr, 2) // an empty new directory renders nothing new
	other := strings.NewReplacer("REPLICAS", "1", "name: shop", "name: other", "name: web", "name: api").Replace(watchApp)
	if err := os.WriteFile(extra, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	waitRenders(t, &stderr, 3)
	if !strings.Contains(stderr.String(), "1 created, 0 updated") {
		t.Errorf("the new file was not rendered:\n%s", stderr.String())
	}
}

// The loop renders once per settled burst: a change asks for a new quiet
// period, an earlier one's end does nothing (a fake clock: each settle
// channel is the test's to fire).
func TestWatchLoopDebounce(t *testing.T) {
	changes := make(chan struct{})
	asked := make(chan chan time.Time, 100)
	ran := make(chan struct{}, 100)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		done <- watchLoop(ctx, changes, func() <-chan time.Time {
			c := make(chan time.Time, 1)
			asked <- c
			return c
		}, func() { ran <- struct{}{} })
	}()
	<-ran // the first run
	for range 20 {
		changes <- struct{}{}
	}
	var quiet []chan time.Time
	for range 20 {
		quiet = append(quiet, <-asked)
	}
	quiet[0] <- time.Time{} // a stale quiet period ends: nothing
	changes <- struct{}{}   // the loop is still settling
	last := <-asked
	select {
	case <-ran:
		t.Fatal("ran before the burst settled")
	default:
	}
	last <- time.Time{}
	<-ran
	changes <- struct{}{}
	(<-asked) <- time.Time{}
	<-ran
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("exit %d", code)
	}
	if len(ran) != 0 || len(asked) != 0 {
		t.Errorf("%d more runs, %d more quiet periods asked", len(ran), len(asked))
	}
}

// editorTemp knows the scratch files of the common editors and no input.
func TestEditorTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".app.yaml.swp": true, ".app.yaml.swo": true, ".app.yaml.swx": true, "4913": true, "5036": true,
		"app.yaml~": true, "#app.yaml#": true, ".#app.yaml": true, "app.yaml___jb_tmp___": true, "app.yaml___jb_old___": true,
		"app.yaml": false, "4914": false, "#": false, "swp.yaml": false, ".app.yaml": false, "a.cue": false,
	} {
		if got := editorTemp(name); got != want {
			t.Errorf("editorTemp(%q) = %v, want %v", name, got, want)
		}
	}
}

// test --watch runs on the config and the suites' files only: not on the
// file its report goes to, nor on a file no suite reads.
func TestTestWatchInputsOnly(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "drydock.yaml")
	app := filepath.Join(dir, "apps", "app.yaml")
	writeAll(t, map[string]string{cfg: "suites:\n  - {name: s, inputs: [apps], validate: false}\n",
		app: strings.ReplaceAll(watchApp, "REPLICAS", "1"), filepath.Join(dir, "notes.yaml"): "a: 1\n"})
	report, err := os.Create(filepath.Join(dir, "apps", "report.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer report.Close()
	o := testFlags{stdout: report}
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	o.register(fs)
	if err := fs.Parse([]string{"--config", cfg}); err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		done <- watchPaths(ctx, []string{dir}, o.trigger(report), &stderr, func() {
			code := o.once(ctx, fs, report, &stderr)
			stderr.Write([]byte("drydock: run: rendered (test), exit " + strconv.Itoa(code) + "\n"))
		})
	}()
	waitRenders(t, &stderr, 1) // its report went to apps/report.yaml
	writeAll(t, map[string]string{filepath.Join(dir, "notes.yaml"): "a: 2\n", filepath.Join(dir, ".app.yaml.swp"): "x"})
	waitRenders(t, &stderr, 1)
	writeAll(t, map[string]string{app: strings.ReplaceAll(watchApp, "REPLICAS", "2")})
	waitRenders(t, &stderr, 2)
	writeAll(t, map[string]string{cfg: "suites:\n  - {name: s, inputs: [apps/app.yaml], validate: false}\n"})
	waitRenders(t, &stderr, 3)
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("exit %d", code)
	}
	if strings.Count(stderr.String(), "exit 0") != 3 {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

// writeAll writes files (path to content).
func writeAll(t *testing.T, files map[string]string) {
	t.Helper()
	for name, data := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// render DIR >> DIR/all.yaml: the file stdout goes to is not read as
// input, so a second render appends what the first did.
func TestRenderStdoutInsideInputs(t *testing.T) {
	dir, _ := watchedApp(t)
	f, err := os.OpenFile(filepath.Join(dir, "all.yaml"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := range 2 {
		var stderr bytes.Buffer
		if code := run([]string{"render", dir}, nil, f, &stderr); code != exitOK || stderr.Len() > 0 {
			t.Fatalf("render %d: exit %d, stderr:\n%s", i+1, code, stderr.String())
		}
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "# Source: "); n != 2 {
		t.Errorf("%d objects in all.yaml, want 2:\n%s", n, data)
	}
}

// TestPrintTreeChanges pins the whole of what --watch prints between two
// renders: creates and updates (with the diff) in path order, then the
// deletes; nothing for the first render.
func TestPrintTreeChanges(t *testing.T) {
	was := tree.Tree{"a/gone.yaml": []byte("x: 1\n"), "b/same.yaml": []byte("y: 1\n"), "c/edit.yaml": []byte("z: 1\n")}
	now := tree.Tree{"b/same.yaml": []byte("y: 1\n"), "c/edit.yaml": []byte("z: 2\n"), "d/new.yaml": []byte("n: 1\n")}
	var out bytes.Buffer
	if c, u, d := printTreeChanges(&out, nil, now); c+u+d != 0 || out.Len() != 0 {
		t.Errorf("first render: %d %d %d, printed %q", c, u, d, out.String())
	}
	created, updated, deleted := printTreeChanges(&out, was, now)
	want := "~ update c/edit.yaml\n" +
		"    --- before/c/edit.yaml\n    +++ after/c/edit.yaml\n    @@ -1 +1 @@\n    -z: 1\n    +z: 2\n" +
		"+ create d/new.yaml\n" +
		"- delete a/gone.yaml\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	if created != 1 || updated != 1 || deleted != 1 {
		t.Errorf("counts %d created, %d updated, %d deleted; want 1 each", created, updated, deleted)
	}
}

// Under render --watch --output-dir a render does not read the files of
// the output directory the last one found equal to their objects, but
// rewrites one edited by hand since (even with its size and modification
// time kept) and one whose object changed.
func TestWatchOutputKnown(t *testing.T) {
	defer func(was func(time.Time) time.Time) { updateStart = was }(updateStart)
	updateStart = func(time.Time) time.Time { return time.Now().Add(time.Hour) }
	dir := t.TempDir()
	app, out := filepath.Join(dir, "app.yaml"), filepath.Join(dir, "out")
	cm := func(name, v string) string {
		return "    - {name: " + name + ", type: k8s-objects, properties: {objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: " + name + "}, data: {v: '" + v + "'}}]}}\n"
	}
	head := "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: shop}\nspec:\n  components:\n"
	in := pipeline.Inputs{Paths: []string{app}, Workers: 1}
	var w watched
	render := func(a, b string) {
		t.Helper()
		if err := os.WriteFile(app, []byte(head+cm("a", a)+cm("b", b)), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		renderAndShow(context.Background(), in, out, &stdout, &stderr, &w)
		if stderr.Len() > 0 && strings.Contains(stderr.String(), "failed") {
			t.Fatal(stderr.String())
		}
	}
	fileA, fileB := filepath.Join(out, "local", "default", "configmap_a.yaml"), filepath.Join(out, "local", "default", "configmap_b.yaml")
	render("1", "1")
	render("1", "1")
	if len(w.known) != 2 {
		t.Fatalf("known after two renders: %v", w.known)
	}
	// a edited by hand, its size and modification time kept; b's object changes.
	fi, err := os.Stat(fileA)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(fileA)
	if err := os.WriteFile(fileA, bytes.Replace(data, []byte("v: \"1\""), []byte("v: \"9\""), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(fileA, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	render("1", "2")
	for f, want := range map[string]string{fileA: "v: \"1\"", fileB: "v: \"2\""} {
		if got, _ := os.ReadFile(f); !bytes.Contains(got, []byte(want)) {
			t.Errorf("%s:\n%s\nwant %s", f, got, want)
		}
	}
}

// test --watch opens the cache once and keeps it for every run; none with
// --no-cache.
func TestTestStoreOnce(t *testing.T) {
	var stderr bytes.Buffer
	o := testFlags{cache: cacheFlags{dir: t.TempDir()}}
	first := o.openStore(&stderr)
	if first == nil || o.openStore(&stderr) != first {
		t.Errorf("openStore gave %p, then another: %s", first, stderr.String())
	}
	o.closeStore(&stderr)
	if none := (&testFlags{cache: cacheFlags{off: true, dir: t.TempDir()}}).openStore(&stderr); none != nil {
		t.Error("--no-cache opened a cache")
	}
}
