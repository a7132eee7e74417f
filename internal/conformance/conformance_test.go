package conformance

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeM counts its runs and returns code.
type fakeM struct {
	runs, code int
}

func (m *fakeM) Run() int { m.runs++; return m.code }

func TestRun(t *testing.T) {
	present := t.TempDir()
	missing := filepath.Join(present, "shared", "conformance")
	file := filepath.Join(present, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		root     string
		required bool
		// wantRuns is whether the tests ran; wantCode the exit code.
		wantRuns, wantCode int
		// wantBanner is a line the banner must hold ("": no banner).
		wantBanner string
	}{
		{name: "present", root: present, wantRuns: 1, wantCode: 7},
		{name: "present and required", root: present, required: true, wantRuns: 1, wantCode: 7},
		{name: "missing: tests run, the banner says so", root: missing, wantRuns: 1, wantCode: 7,
			wantBanner: "CI sets DRYDOCK_REQUIRE_CONFORMANCE=1 and fails without them."},
		{name: "missing and required: fail without running", root: missing, required: true, wantCode: 1,
			wantBanner: "DRYDOCK_REQUIRE_CONFORMANCE is set: failing instead of skipping them."},
		{name: "a file is no corpus", root: file, required: true, wantCode: 1, wantBanner: "is not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeM{code: 7}
			var stderr, tty bytes.Buffer
			code := run(m, tt.root, tt.required, []io.Writer{&stderr, &tty})
			if code != tt.wantCode || m.runs != tt.wantRuns {
				t.Errorf("exit %d after %d runs; want %d after %d", code, m.runs, tt.wantCode, tt.wantRuns)
			}
			if stderr.String() != tty.String() {
				t.Errorf("stderr and terminal differ:\n%s\n%s", stderr.String(), tty.String())
			}
			switch {
			case tt.wantBanner == "" && stderr.Len() > 0:
				t.Errorf("unexpected banner:\n%s", stderr.String())
			case tt.wantBanner != "" && !strings.Contains(stderr.String(), tt.wantBanner):
				t.Errorf("banner lacks %q:\n%s", tt.wantBanner, stderr.String())
			}
		})
	}
}

// TestBanner pins the whole message for a missing corpus.
func TestBanner(t *testing.T) {
	line := strings.Repeat("=", 72) + "\n"
	err := Check("no/such/dir")
	want := line +
		"WARNING: the conformance corpora were NOT run: conformance corpora: stat no/such/dir: no such file or directory\n" +
		"Clone the shared repository beside this one (../shared) to run them.\n" +
		"CI sets DRYDOCK_REQUIRE_CONFORMANCE=1 and fails without them.\n" + line
	if diff := cmp.Diff(want, Banner(err, false)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestGuard runs Guard's Run (the environment, stderr and a terminal,
// here a file) on a missing corpus, required and not.
func TestGuard(t *testing.T) {
	dir := t.TempDir()
	missing, tty := filepath.Join(dir, "conformance"), filepath.Join(dir, "tty")
	for _, required := range []string{"", "1"} {
		if err := os.WriteFile(tty, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv(RequireEnv, required)
		m := &fakeM{}
		var stderr bytes.Buffer
		code := guarded{m: m, root: missing, stderr: &stderr, tty: tty}.Run()
		wantCode, wantRuns := 0, 1
		if required != "" {
			wantCode, wantRuns = 1, 0
		}
		if code != wantCode || m.runs != wantRuns {
			t.Errorf("%s=%q: exit %d after %d runs; want %d after %d", RequireEnv, required, code, m.runs, wantCode, wantRuns)
		}
		onTTY, err := os.ReadFile(tty)
		if err != nil {
			t.Fatal(err)
		}
		if want := Banner(Check(missing), required != ""); stderr.String() != want || string(onTTY) != want {
			t.Errorf("%s=%q: stderr %q, terminal %q; want %q on both", RequireEnv, required, stderr.String(), onTTY, want)
		}
	}
	if g := Guard(&fakeM{}, "x").(guarded); g.stderr != os.Stderr || g.tty != "/dev/tty" {
		t.Errorf("Guard writes to %v and %s, want stderr and /dev/tty", g.stderr, g.tty)
	}
}
