package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drydock-dev/drydock/report"
)

// scaleApp is application n: a web service with a Service, a worker and
// a ConfigMap, all of image.
func scaleApp(n int, image string) string {
	return fmt.Sprintf(`apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: app-%03d}
spec:
  components:
    - name: app-%03[1]d-web
      type: webservice
      properties:
        image: %[2]s
        ports: [{port: 8080, expose: true}]
        env: [{name: MODE, value: production}, {name: LOG_LEVEL, value: info}, {name: REGION, value: eu-west-1}]
        cpu: "0.5"
        memory: 256Mi
    - name: app-%03[1]d-jobs
      type: worker
      properties: {image: %[2]s, cmd: [run, --queue, default]}
    - name: app-%03[1]d-settings
      type: k8s-objects
      properties: {objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: app-%03[1]d-settings}, data: {greeting: hello}}]}
`, n, image)
}

// TestDiffAtScale: an image bump across 300 applications (issue 31).
// The Markdown comment keeps within GitHub's 65,536 characters, the job
// summary within 1 MiB, each with its notice; every application's
// Service and ConfigMap, whose only change is the revision, are one line
// per application, not 600 diffs.
func TestDiffAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 300 applications twice per run")
	}
	dir := t.TempDir()
	for _, side := range []string{"base", "."} {
		image := "registry.example.com/shop/app:1.4.2"
		if side == "." {
			image = "registry.example.com/shop/app:1.5.0"
		}
		if err := os.MkdirAll(filepath.Join(dir, side, "apps"), 0o755); err != nil {
			t.Fatal(err)
		}
		for n := range 300 {
			if err := os.WriteFile(filepath.Join(dir, side, "apps", fmt.Sprintf("app-%03d.yaml", n)), []byte(scaleApp(n, image)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Chdir(dir)
	diff := func(args ...string) string {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if code := runDiff(append([]string{"--base-dir", "base", "apps"}, args...), &stdout, &stderr); code != exitOK {
			t.Fatalf("drydock diff %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
		}
		return stdout.String()
	}

	comment := diff("--format", "markdown", "--full-report", "whole.md")
	wholeData, err := os.ReadFile("whole.md")
	if err != nil {
		t.Fatal(err)
	}
	whole := string(wholeData)
	t.Logf("markdown: %d bytes whole, %d capped", len(whole), len(comment))
	if len(whole) <= report.CommentCap {
		t.Fatalf("the whole markdown is %d bytes: too small to test the cap", len(whole))
	}
	if len(comment) > report.CommentCap || !utf8.ValidString(comment) {
		t.Errorf("the comment is %d bytes, over %d (or not UTF-8)", len(comment), report.CommentCap)
	}
	for _, want := range []string{
		"compared with <code>base</code>: 0 to create, 1200 to update (600 only in KubeVela's bookkeeping labels), 0 to delete, 0 unchanged.",
		"| <code>local</code> | 0 | 1200 | 0 | 600 |",
		"| <code>default/app-299</code> | 0 | 4 | 0 | 2 |",
		"- application <code>default/app-000</code>: 2 objects differ only in KubeVela's bookkeeping labels (<code>app.oam.dev/appRevision: app-000-v1 → app-000-v2</code>",
		"**Cut to fit 65,536 bytes**: left out ",
		"The whole report: <code>whole.md</code>.\n",
	} {
		if !strings.Contains(comment, want) {
			t.Errorf("the comment lacks %q", want)
		}
	}
	if n := strings.Count(whole, "<details>"); n != 600 {
		t.Errorf("the whole markdown has %d object diffs, want 600 (the two Deployments of each application)", n)
	}

	// The job summary, every object shown: over 1 MiB whole. An earlier
	// command of the step (drydock test) wrote 100 KiB of it already.
	summary := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(summary, bytes.Repeat([]byte("earlier summary line\n"), 100<<10/21), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	log := diff("--format", "github", "--show-bookkeeping", "--full-report", "summary-whole.md")
	if fi, err := os.Stat("summary-whole.md"); err != nil || fi.Size() <= report.SummaryCap-100<<10 {
		t.Fatalf("the whole job summary: %v, %v: too small to test the cap", fi.Size(), err)
	}
	data, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("github: %d bytes of log, %d of job summary", len(log), len(data))
	if len(data) > report.SummaryCap || !utf8.ValidString(string(data)) || !bytes.HasPrefix(data, []byte("earlier summary line\n")) {
		t.Errorf("the job summary is %d bytes, over %d (or not UTF-8)", len(data), report.SummaryCap)
	}
	if !strings.Contains(string(data), "**Cut to fit the 946,180 bytes left of the job summary's 1 MiB**: left out ") || !strings.Contains(string(data), "The whole report: this step's log, which holds the text report, never capped, and <code>summary-whole.md</code>, which this step wrote.") {
		t.Errorf("the job summary's notice:\n%s", data[max(0, len(data)-400):])
	}
	if n := strings.Count(log, "~ update "); n != 1200 {
		t.Errorf("the log shows %d updates, want all 1200", n)
	}
}
