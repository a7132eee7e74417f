package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// failingWriter fails every write after the first n bytes.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("no space left on device")
	}
	w.n -= len(p)
	return len(p), nil
}

func TestWriteFailuresExitNonZero(t *testing.T) {
	example := filepath.Join("..", "..", "examples", "first-vela-app.yaml")
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{name: "render stream", args: []string{"render", example}, wantCode: exitUsage,
			wantErr: "drydock: write standard output: no space left on device\n"},
		{name: "version", args: []string{"version"}, wantCode: exitUsage,
			wantErr: "drydock: write standard output: no space left on device\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			code := run(tt.args, nil, &failingWriter{n: 10}, &stderr)
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tt.wantCode, stderr.String())
			}
			if diff := cmp.Diff(tt.wantErr, stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func TestInternalErrorIsOneLine(t *testing.T) {
	for _, debug := range []string{"", "1"} {
		t.Run("DRYDOCK_DEBUG="+debug, func(t *testing.T) {
			t.Setenv("DRYDOCK_DEBUG", debug)
			var stderr bytes.Buffer
			code := internalError(&stderr, "boom", []byte("goroutine 1 [running]:\n"))
			if code != exitInternal {
				t.Errorf("exit code %d, want %d", code, exitInternal)
			}
			want := "drydock: internal error: boom (set DRYDOCK_DEBUG=1 for the stack); please report it with the inputs that caused it\n"
			if debug == "1" {
				want += "goroutine 1 [running]:\n"
			}
			if diff := cmp.Diff(want, stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReportToFullDevice(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "drydock.yaml")
	app := "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: [{name: web, type: webservice, properties: {image: nginx:1.25}}]\n"
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(app), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte("suites:\n  - {name: s, inputs: [app.yaml]}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"test", "--config", cfg, "-o", "/dev/full"}, nil, &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "write the report to /dev/full: ") {
		t.Errorf("exit %d, stderr %q; want exit 2 naming /dev/full", code, stderr.String())
	}
}

// TestRegoTimeIsUTC runs a rule reading the "Local" zone with the process
// zone set to Tokyo: drydock's verdict must be the UTC one.
func TestRegoTimeIsUTC(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip("no tzdata")
	}
	defer func(l *time.Location) { time.Local = l }(time.Local)
	time.Local = tokyo
	dir := t.TempDir()
	files := map[string]string{
		"drydock.yaml":     "suites:\n  - {name: s, inputs: [app.yaml]}\n",
		"app.yaml":         "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: [{name: web, type: webservice, properties: {image: nginx:1.25}}]\n",
		"policy/main.rego": "package main\n\nwarn contains msg if {\n\tinput.kind == \"Deployment\"\n\tmsg := sprintf(\"clock %v\", [time.clock([0, \"Local\"])])\n}\n",
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	run([]string{"test", "--config", filepath.Join(dir, "drydock.yaml")}, nil, &stdout, &stderr)
	if !strings.Contains(stdout.String(), "clock [0, 0, 0]") {
		t.Errorf("want the UTC clock [0, 0, 0]:\n%s%s", stdout.String(), stderr.String())
	}
}
