package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/pipeline"
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
	waitFor(t, &stderr, "rendered 1 objects; watching for changes")

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
		done <- watchPaths(ctx, []string{dir}, &stderr, func() {
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
	last := renderAndShow(context.Background(), in, out, &stdout, &stderr, nil)
	mine := filepath.Join(out, "mine.txt")
	if err := os.WriteFile(mine, []byte("the user's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(app, []byte(one), 0o644); err != nil {
		t.Fatal(err)
	}
	renderAndShow(context.Background(), in, out, &stdout, &stderr, last)
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
