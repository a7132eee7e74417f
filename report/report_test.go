package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/shards"
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
					Pos: manifest.Pos{File: "apps/app.yaml", Line: 7, Col: 7}, Message: "web\n::add-mask::secret | pipe",
					Origin: cluster.Origin{Application: "shop", Component: "web"}},
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
		{"summary", func(w *bytes.Buffer, r *check.Result) error { return StepSummary(w, r, 0) }},
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
		{"json", JSON{Version: "v1"}, true},
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
		"summary": func(w *failingWriter) error { return StepSummary(w, fixedResult(), 0) },
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

// hostileResult has every field an input controls set to something a
// terminal, a CI log, Markdown or XML could take as a command or markup.
func hostileResult() *check.Result {
	name := "evil\x1b]0;title\x07\x1b[2J<script>x</script>`|"
	return &check.Result{Config: "drydock.yaml", Suites: []*check.SuiteResult{
		{Name: name, Objects: 1, Checks: []string{"render", "rules/x\x1b[31m"}, Updated: []string{"local/default/configmap_\x1b[31m.yaml"},
			Findings: []check.Finding{
				{Suite: name, Check: "rules/x\x1b[31m", Level: check.LevelError, Object: "local/ns\x1b[1m/configmap_c.yaml",
					Pos:     manifest.Pos{File: "/repo/apps/a b#c\x1b[31m.yaml", Line: 3, Col: 9},
					Message: "name \x1b[31mred\x1b[0m\r\n::error file=x::injected\x00\x0b\u009b|<img src=x onerror=alert(1)>`code`"},
				{Suite: name, Check: "golden", Level: check.LevelWarning, Object: "local/default/configmap_c.yaml",
					Pos:     manifest.Pos{File: "apps/ü,x:y.yaml", Line: 1},
					Message: "differs", Diff: "--- golden\n+++ render\n-\x1b[2J\n+```\n+\u202eevil\n"},
			}},
		{Name: "broken", Checks: []string{"render"}, Err: errors.New("apps/x.yaml:1:1: kind \x1b[31m: bad\x00")},
	}}
}

// TestHostileFormats writes the hostile result in every format: each
// matches its golden file (testdata/hostile/) and keeps its promise
// whatever the input says.
func TestHostileFormats(t *testing.T) {
	opts := Options{Version: "v9.9.9-test", Dir: "/repo"}
	writers := map[string]func(w *bytes.Buffer) error{
		"summary": func(w *bytes.Buffer) error { return StepSummary(w, hostileResult(), 0) },
	}
	for _, name := range Formats {
		f, _ := Lookup(name, opts)
		writers[name] = func(w *bytes.Buffer) error { return f.Write(w, hostileResult()) }
	}
	coloured := Text{Colour: true}
	writers["text-colour"] = func(w *bytes.Buffer) error { return coloured.Write(w, hostileResult()) }
	promises := map[string]func(t *testing.T, out []byte){
		"text":        noControls,
		"github":      func(t *testing.T, out []byte) { noControls(t, out); oneCommandPerLine(t, out) },
		"text-colour": onlyOwnColours,
		"summary":     markdownStaysText,
		"junit":       wellFormedXML,
		"json":        validJSON,
		"sarif":       func(t *testing.T, out []byte) { validJSON(t, out); sarifURIs(t, out) },
	}
	for _, name := range manifest.SortedKeys(writers) {
		t.Run(name, func(t *testing.T) {
			var got bytes.Buffer
			if err := writers[name](&got); err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join("testdata", "hostile", name+".golden"), got.Bytes())
			promises[name](t, got.Bytes())
		})
	}
}

// noControls: no control byte but tab and line feed, no C1 control.
func noControls(t *testing.T, out []byte) {
	t.Helper()
	for i, r := range string(out) {
		if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0xfffd) {
			t.Errorf("control %q at byte %d", r, i)
		}
	}
}

// onlyOwnColours: the only escape sequences are the text format's SGR
// colours around its status words.
func onlyOwnColours(t *testing.T, out []byte) {
	t.Helper()
	rest := out
	for _, c := range []string{"\x1b[31m", "\x1b[33m", "\x1b[32m", "\x1b[0m"} {
		rest = bytes.ReplaceAll(rest, []byte(c), nil)
	}
	if bytes.Count(out, []byte("\x1b[0m")) == 0 {
		t.Error("no colour at all")
	}
	noControls(t, rest)
}

// oneCommandPerLine: outside the stop-commands fence every line is one
// of drydock's commands, and inside it none can be one.
func oneCommandPerLine(t *testing.T, out []byte) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	end := ""
	for _, line := range lines {
		switch {
		case end != "":
			if line == end {
				end = ""
			}
		case strings.HasPrefix(line, "::stop-commands::"):
			end = "::" + strings.TrimPrefix(line, "::stop-commands::") + "::"
		case strings.HasPrefix(line, "::error file=/repo/apps/a b#c\\x1b[31m.yaml,line=3,col=9,title="),
			strings.HasPrefix(line, "::warning file=apps/ü%2Cx%3Ay.yaml,line=1,title="):
			// GitHub reads the properties up to the first "::"; the
			// message runs to the end of the line.
			if props, _, _ := strings.Cut(line[2:], "::"); strings.Count(props, ",") != strings.Count(props, "=")-1 {
				t.Errorf("annotation whose properties do not split as written: %q", props)
			}
		default:
			t.Errorf("line outside the fence that is not drydock's command: %q", line)
		}
	}
	if end != "" {
		t.Errorf("stop-commands not ended (%s)", end)
	}
}

// markdownStaysText: no tag from the inputs, every table row has its
// six cell separators.
func markdownStaysText(t *testing.T, out []byte) {
	t.Helper()
	noControls(t, out)
	for _, bad := range []string{"<script", "<img", "`"} {
		if bytes.Contains(out, []byte(bad)) {
			t.Errorf("summary holds %q from an input", bad)
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "|") && strings.Count(line, "|") != 6 {
			t.Errorf("table row with %d pipes: %q", strings.Count(line, "|"), line)
		}
	}
}

// wellFormedXML: encoding/xml reads the JUnit report back, the controls
// shown as text.
func wellFormedXML(t *testing.T, out []byte) {
	t.Helper()
	var got junitSuites
	if err := xml.Unmarshal(out, &got); err != nil {
		t.Fatalf("JUnit report does not decode: %v", err)
	}
	if len(got.Suites) != 2 || !strings.Contains(got.Suites[0].Name, `\x1b]0;title\x07`) {
		t.Errorf("suites = %+v", got.Suites)
	}
	noControls(t, out)
}

func validJSON(t *testing.T, out []byte) {
	t.Helper()
	if !json.Valid(out) {
		t.Error("not valid JSON")
	}
}

// sarifURIs: every artifact URI parses as a relative URI reference that
// names its file.
func sarifURIs(t *testing.T, out []byte) {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range log.Runs[0].Results {
		uri := r.Locations[0].PhysicalLocation.ArtifactLocation.URI
		u, err := url.Parse(uri)
		if err != nil || u.Scheme != "" || u.Fragment != "" || u.RawQuery != "" {
			t.Errorf("URI %q: %+v, %v", uri, u, err)
			continue
		}
		got = append(got, u.Path)
	}
	if diff := cmp.Diff([]string{"apps/a b#c\x1b[31m.yaml", "apps/ü,x:y.yaml"}, got); diff != "" {
		t.Errorf("paths of the URIs (-want +got):\n%s", diff)
	}
}

// TestJSONRoundTrip: a JSON report read back (shards.Read, ResultOf)
// writes JSON, JUnit and SARIF as the result it was written from, so that
// `drydock report merge` writes JUnit and SARIF as drydock test does; a
// shard's report keeps its shard and unclaimed findings.
func TestJSONRoundTrip(t *testing.T) {
	r := fixedResult()
	r.Shard = check.Shard{Index: 2, Count: 3}
	shop := r.Suites[1]
	shop.Findings[1].Related = []manifest.Related{{What: "template", Note: "n", Pos: manifest.Pos{File: "defs/web.cue", Line: 4, Col: 2}}}
	shop.Findings[3].Metadata = map[string]any{"id": "K8S-1", "severity": "high"}
	shop.Unclaimed = []check.Finding{{Suite: "shop", Check: "golden", Level: check.LevelError, Object: "local/default/secret_t.yaml",
		Pos: manifest.Pos{File: "golden/shop/local/default/secret_t.yaml", Line: 1, Col: 1}, Message: "stale"}}
	var js bytes.Buffer
	if err := (JSON{}).Write(&js, r); err != nil {
		t.Fatal(err)
	}
	read, err := shards.Read(js.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if read.Shard == nil || *read.Shard != (shards.Shard{Index: 2, Count: 3}) || len(read.Suites[1].Unclaimed) != 1 {
		t.Errorf("the shard's report lost its shard or unclaimed findings: %+v", read)
	}
	back := ResultOf(read)
	for _, name := range []string{"json", "junit", "sarif"} {
		f, _ := Lookup(name, Options{Version: "v1", Dir: "/repo"})
		var want, got bytes.Buffer
		if err := f.Write(&want, r); err != nil {
			t.Fatal(err)
		}
		if err := f.Write(&got, back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), got.String()); diff != "" {
			t.Errorf("%s of the result read back (-want +got):\n%s", name, diff)
		}
	}
}
