package report

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/manifest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden with the reports written now")

// fixedResult has one suite of each status, and findings that exercise
// every format's corners: no place, an absolute place, a golden diff, a
// message quoting a workflow command, a table pipe and a line break.
func fixedResult() *check.Result {
	return &check.Result{Config: "drydock.yaml", Suites: []*check.SuiteResult{
		{Name: "clean", Objects: 2, Checks: []string{"render", "golden"}, Updated: []string{"local/default/configmap_c.yaml"}},
		{Name: "shop", Objects: 3, Checks: []string{"render", "golden", "rules/main", "rules/main.deny", "rules/main.warn"},
			Findings: []check.Finding{
				{Suite: "shop", Check: "render", Level: check.LevelWarning, Message: "ConfigMap default/c: no PropagationPolicy selects it"},
				{Suite: "shop", Check: "golden", Level: check.LevelError, Object: "local/default/deployment.apps_web.yaml",
					Pos:     manifest.Pos{File: "apps/app.yaml", Line: 7, Col: 7},
					Message: "local/default/deployment.apps_web.yaml differs from the golden tree (run drydock test --update to accept it)",
					Diff:    "--- golden\n+++ render\n@@ -1 +1 @@\n-  replicas: 1\n+  replicas: 3\n"},
				{Suite: "shop", Check: "golden", Level: check.LevelError, Object: "local/default/secret_s.yaml",
					Pos:     manifest.Pos{File: "/repo/golden/shop/local/default/secret_s.yaml", Line: 1, Col: 1},
					Message: "local/default/secret_s.yaml is in the golden tree but no longer renders"},
				{Suite: "shop", Check: "rules/main.deny", Level: check.LevelError, Object: "local/default/deployment.apps_web.yaml",
					Pos: manifest.Pos{File: "apps/app.yaml", Line: 7, Col: 7}, Message: "web\n::add-mask::secret | pipe"},
				{Suite: "shop", Check: "rules/main.warn", Level: check.LevelWarning, Object: "local", Message: "100% of, clusters: local"},
			}},
		{Name: "broken", Checks: []string{"render"}, Err: errors.New("apps/bad.yaml:2: invalid YAML near line 2\nsecond line"),
			Findings: []check.Finding{{Suite: "broken", Check: "render", Level: check.LevelError,
				Pos: manifest.Pos{File: "apps/bad.yaml", Line: 2}, Message: "invalid YAML near line 2\nsecond line"}}},
	}}
}

// TestFormats writes the fixed result in every format and compares it
// with testdata/<format>.golden (go test ./report -update rewrites them).
func TestFormats(t *testing.T) {
	opts := Options{Version: "v9.9.9-test", Dir: "/repo"}
	tests := []struct {
		name  string
		write func(w *bytes.Buffer, r *check.Result) error
	}{
		{"summary", func(w *bytes.Buffer, r *check.Result) error { return StepSummary(w, r) }},
	}
	for _, name := range Formats {
		f, ok := Lookup(name, opts)
		if !ok {
			t.Fatalf("Lookup(%q) found nothing", name)
		}
		tests = append(tests, struct {
			name  string
			write func(w *bytes.Buffer, r *check.Result) error
		}{name, func(w *bytes.Buffer, r *check.Result) error { return f.Write(w, r) }})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got bytes.Buffer
			if err := tt.write(&got, fixedResult()); err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join("testdata", tt.name+".golden"), got.Bytes())
		})
	}
}

// compareGolden compares got with the file golden, or rewrites the file
// with -update.
func compareGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", golden, diff)
	}
}

func TestLookup(t *testing.T) {
	opts := Options{Version: "v1", Dir: "/d"}
	tests := []struct {
		name string
		want Format
		ok   bool
	}{
		{"text", Text{}, true},
		{"json", JSON{}, true},
		{"junit", JUnit{}, true},
		{"sarif", SARIF{Version: "v1", Dir: "/d"}, true},
		{"github", GitHub{}, true},
		{"yaml", nil, false},
		{"", nil, false},
		{"Text", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Lookup(tt.name, opts)
			if diff := cmp.Diff(tt.want, got); diff != "" || ok != tt.ok {
				t.Errorf("Lookup(%q) = %v, %t; want %v, %t", tt.name, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestGitHubAnnotationCap: past AnnotationCap findings of a level, the
// rest are counted in one notice.
func TestGitHubAnnotationCap(t *testing.T) {
	tests := []struct {
		name        string
		errs, warns int
		annotations int
		notice      string
	}{
		{"under the cap", 3, 2, 5, ""},
		{"at the cap", AnnotationCap, AnnotationCap, 2 * AnnotationCap, ""},
		{"errors past the cap", AnnotationCap + 3, 1, AnnotationCap + 1,
			"::notice title=drydock::3 more findings are not annotated (GitHub shows 10 per level); see the job summary or the text report\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &check.SuiteResult{Name: "s", Checks: []string{"render"}}
			for i := range tt.errs + tt.warns {
				level := check.LevelError
				if i >= tt.errs {
					level = check.LevelWarning
				}
				s.Findings = append(s.Findings, check.Finding{Suite: "s", Check: "render", Level: level, Message: fmt.Sprint(i)})
			}
			var out bytes.Buffer
			if err := (GitHub{}).Write(&out, &check.Result{Suites: []*check.SuiteResult{s}}); err != nil {
				t.Fatal(err)
			}
			got := struct {
				Annotations int
				Notice      string
			}{bytes.Count(out.Bytes(), []byte("\n::error ")) + bytes.Count(out.Bytes(), []byte("\n::warning ")), ""}
			if bytes.HasPrefix(out.Bytes(), []byte("::error ")) || bytes.HasPrefix(out.Bytes(), []byte("::warning ")) {
				got.Annotations++
			}
			if i := bytes.Index(out.Bytes(), []byte("::notice ")); i >= 0 {
				got.Notice = string(out.Bytes()[i : i+bytes.IndexByte(out.Bytes()[i:], '\n')+1])
			}
			want := struct {
				Annotations int
				Notice      string
			}{tt.annotations, tt.notice}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

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

// TestWriteErrors: every format reports a failed write, wherever it
// happens, so a truncated report never passes for a whole one.
func TestWriteErrors(t *testing.T) {
	formats := map[string]func(w *failingWriter) error{
		"summary": func(w *failingWriter) error { return StepSummary(w, fixedResult()) },
	}
	for _, name := range Formats {
		f, _ := Lookup(name, Options{})
		formats[name] = func(w *failingWriter) error { return f.Write(w, fixedResult()) }
	}
	for _, name := range manifest.SortedKeys(formats) {
		for _, n := range []int{0, 40, 400} {
			t.Run(fmt.Sprintf("%s after %d bytes", name, n), func(t *testing.T) {
				if err := formats[name](&failingWriter{n: n}); err == nil {
					t.Errorf("no error from a writer failing after %d bytes", n)
				}
			})
		}
	}
}
