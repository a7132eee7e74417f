package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stamp is a release build's -ldflags for version v.
func stamp(v string) string {
	return "-X main.version=" + v + " -X main.commit=0123456789abcdef0123456789abcdef01234567 -X main.date=2026-01-02T03:04:05Z"
}

// build builds pkg as releases are built (static, -trimpath), stamped
// with version v, into out.
func build(t *testing.T, pkg, v, out string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", stamp(v), "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
}

// ran is what a process did.
type ran struct {
	Code           int
	Stdout, Stderr string
}

// run runs exe with args, stdin and env added to this process's (minus
// the front's variables), in dir.
func run(t *testing.T, dir, exe, stdin string, env []string, args ...string) ran {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, engineEnv+"=") && !strings.HasPrefix(kv, frontVersionEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if cmd.ProcessState == nil {
		t.Fatalf("%s %q: %v", exe, args, err)
	}
	return ran{cmd.ProcessState.ExitCode(), o.String(), e.String()}
}

// TestFront: the front built as released answers version itself, byte
// for byte as the engine does, and runs every other command in the
// engine beside it (or named by DRYDOCK_ENGINE) with the same arguments,
// standard streams, environment and exit code; a missing engine, or an
// engine of another version, is a usage error that says how to install
// both.
func TestFront(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Fatal("this test runs the front's Unix exec path; Windows' is built by TestFrontBuildsForWindows")
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "bin")
	front, engine := filepath.Join(dir, "drydock"), filepath.Join(dir, "drydock-engine")
	build(t, ".", "v9.8.7", front)
	build(t, "../drydock-engine", "v9.8.7", engine)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	app, err := os.ReadFile(filepath.Join(repo, "examples/first-vela-app.yaml"))
	if err != nil {
		t.Fatal(err)
	}

	// What the front does is what the engine does.
	same := []struct {
		name, stdin string
		args        []string
		code        int // the engine's
	}{
		{"version", "", []string{"version"}, 0},
		{"--version", "", []string{"--version"}, 0},
		{"version --help (the engine's usage)", "", []string{"version", "--help"}, 0},
		{"version with an argument (the engine's usage error)", "", []string{"version", "x"}, 2},
		{"no command", "", nil, 2},
		{"help", "", []string{"help"}, 0},
		{"render --help", "", []string{"render", "--help"}, 0},
		{"an unknown command", "", []string{"nosuch"}, 2},
		{"render from stdin", string(app), []string{"render", "-"}, 0},
		{"render a file", "", []string{"render", "examples/first-vela-app.yaml"}, 0},
		{"completion", "", []string{"completion", "bash"}, 0},
	}
	for _, tt := range same {
		want := run(t, repo, engine, tt.stdin, nil, tt.args...)
		if want.Code != tt.code || want.Stdout == "" && want.Stderr == "" {
			t.Errorf("%s: the engine exits %d (want %d) with stdout %q, stderr %q", tt.name, want.Code, tt.code, want.Stdout, want.Stderr)
		}
		got := run(t, repo, front, tt.stdin, nil, tt.args...)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: drydock %q (-engine +front):\n%s", tt.name, tt.args, diff)
		}
	}
	if got := run(t, repo, front, "", nil, "version"); !strings.HasPrefix(got.Stdout, "drydock v9.8.7 (commit 0123456789ab, built 2026-01-02T03:04:05Z) ") {
		t.Errorf("drydock version: %q, want the stamped version, commit and date", got.Stdout)
	}

	// The environment reaches the engine: DRYDOCK_USAGE makes it report
	// its cost; version, the front's own, reports the front's.
	for _, args := range [][]string{{"version"}, {"render", "--help"}} {
		usage := filepath.Join(tmp, "usage")
		os.Remove(usage)
		if got := run(t, repo, front, "", []string{"DRYDOCK_USAGE=" + usage}, args...); got.Code != 0 {
			t.Errorf("drydock %q with DRYDOCK_USAGE: %+v", args, got)
		}
		if data, err := os.ReadFile(usage); err != nil || len(strings.Fields(string(data))) != 2 {
			t.Errorf("drydock %q: DRYDOCK_USAGE file %q (%v), want CPU and peak RSS", args, data, err)
		}
	}

	// A symlink to the front runs the engine beside the front itself.
	links := filepath.Join(tmp, "links")
	if err := os.Mkdir(links, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(front, filepath.Join(links, "drydock")); err != nil {
		t.Fatal(err)
	}
	if got := run(t, repo, filepath.Join(links, "drydock"), "", nil, "render", "--help"); got.Code != 0 || !strings.HasPrefix(got.Stdout, "Usage: drydock render") {
		t.Errorf("drydock through a symlink: %+v", got)
	}

	// A front alone: version works, anything else says where it looked
	// and how to install both.
	alone := filepath.Join(tmp, "alone")
	if err := os.Mkdir(alone, 0o755); err != nil {
		t.Fatal(err)
	}
	lone := filepath.Join(alone, "drydock")
	build(t, ".", "v9.8.7", lone)
	if got := run(t, repo, lone, "", nil, "version"); got.Code != 0 || !strings.HasPrefix(got.Stdout, "drydock v9.8.7 ") {
		t.Errorf("drydock version without an engine: %+v", got)
	}
	missing := ran{Code: 2, Stderr: "drydock: cannot run the drydock engine " + filepath.Join(alone, "drydock-engine") + ": no such file or directory\n" +
		"drydock: every command but version runs in drydock-engine, installed beside drydock (or named by DRYDOCK_ENGINE): install both from one release: go install github.com/drydock-dev/drydock/cmd/...@v9.8.7, or make build in a checkout (bin/drydock and bin/drydock-engine)\n"}
	for _, args := range [][]string{{"render", "--help"}, nil, {"help"}} {
		if diff := cmp.Diff(missing, run(t, repo, lone, "", nil, args...)); diff != "" {
			t.Errorf("drydock %q without an engine (-want +got):\n%s", args, diff)
		}
	}

	// DRYDOCK_ENGINE names the engine; one that is not there is named.
	if got := run(t, repo, lone, "", []string{"DRYDOCK_ENGINE=" + engine}, "render", "--help"); got.Code != 0 || !strings.HasPrefix(got.Stdout, "Usage: drydock render") {
		t.Errorf("drydock with DRYDOCK_ENGINE: %+v", got)
	}
	nowhere := filepath.Join(tmp, "nowhere", "engine")
	if got := run(t, repo, front, "", []string{"DRYDOCK_ENGINE=" + nowhere}, "render"); got.Code != 2 || !strings.HasPrefix(got.Stderr, "drydock: cannot run the drydock engine "+nowhere+": no such file or directory\n") {
		t.Errorf("drydock with DRYDOCK_ENGINE=%s: %+v", nowhere, got)
	}

	// An engine of another version: refused, naming both.
	older := filepath.Join(tmp, "older")
	build(t, ".", "v9.8.6", older)
	skew := ran{Code: 2, Stderr: "drydock: drydock is v9.8.6 but its engine " + engine + " is v9.8.7: install both from one release (go install github.com/drydock-dev/drydock/cmd/...@VERSION, or make build in a checkout)\n"}
	if diff := cmp.Diff(skew, run(t, repo, older, "", []string{"DRYDOCK_ENGINE=" + engine}, "render", "--help")); diff != "" {
		t.Errorf("a v9.8.6 front with a v9.8.7 engine (-want +got):\n%s", diff)
	}
	// The front's variable set by hand (a front of the same version that
	// ran a script running the engine directly is the engine's own check).
	if got := run(t, repo, engine, "", []string{frontVersionEnv + "=v1"}, "version"); got.Code != 2 || !strings.Contains(got.Stderr, "drydock is v1 but its engine") {
		t.Errorf("the engine with %s=v1: %+v", frontVersionEnv, got)
	}
}

// TestFrontBuildsForWindows: the front's Windows exec path (a child
// process, its exit code) compiles.
func TestFrontBuildsForWindows(t *testing.T) {
	cmd := exec.Command("go", "vet", ".")
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=windows go vet ./cmd/drydock: %v\n%s", err, b)
	}
}

// TestIsVersion: only `version` alone and `--version` are the front's.
func TestIsVersion(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{
		{[]string{"version"}, true},
		{[]string{"--version"}, true},
		{[]string{"--version", "x"}, true},
		{[]string{"version", "--help"}, false},
		{[]string{"version", "x"}, false},
		{nil, false},
		{[]string{"render", "version"}, false},
		{[]string{"-version"}, false},
	} {
		if got := isVersion(tt.args); got != tt.want {
			t.Errorf("isVersion(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

// TestWithEnv: the front's version replaces any the environment had.
func TestWithEnv(t *testing.T) {
	got := withEnv([]string{"A=1", "DRYDOCK_FRONT_VERSION=v0", "B=2"}, "DRYDOCK_FRONT_VERSION", "v1")
	if diff := cmp.Diff([]string{"A=1", "B=2", "DRYDOCK_FRONT_VERSION=v1"}, got); diff != "" {
		t.Errorf("withEnv (-want +got):\n%s", diff)
	}
}
