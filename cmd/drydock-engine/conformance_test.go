package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// conformanceRoot is the shared corpus, beside the repository.
const conformanceRoot = "../../../shared/conformance"

// conformanceSkip lists the cases drydock cannot pass yet, with why. It
// only shrinks; every entry is printed when the suite runs.
var conformanceSkip = map[string]string{}

// conformanceFlags are flags a case runs with after its cmd's, by
// corpus/case, each with why; TestConformanceFieldValidation runs the
// case without them.
var conformanceFlags = map[string][]string{
	// The input (pkg/appfile/dryrun/testdata/invalid-app-format.yaml) has
	// spec.traits, a field the Application CRD does not declare: the API
	// server refuses it under kubectl's default strict field validation,
	// and so does drydock by default. The expected error is vela
	// dry-run's, which reads the file with json.Unmarshal, dropping
	// unknown fields silently (references/cli/dryrun.go,
	// readApplicationFromFiles): the case runs as dry-run reads it.
	"kubevela/dryrun-error-unknown-component-type": {"--field-validation=ignore"},
	// The case's --set cpu=0.5 is what vela addon enable is given as the
	// string "0.5" (strvals types only integers), which the addon's
	// `cpu: *0.1 | number` refuses. drydock types --set by the parameter
	// (a number takes 0.5); --set-string, which wins over --set, gives
	// the case vela's string, refused as parameter.cpu as vela refuses
	// it. TestConformanceAddonTyping runs the case as written.
	"addons/vela-prism-cpu": {"--set-string", "cpu=0.5"},
}

// TestConformanceKubeVela runs every case of the KubeVela corpus in-process
// and compares the output tree with expected/ under the corpus's masking
// rules.
func TestConformanceKubeVela(t *testing.T) {
	root := filepath.Join(conformanceRoot, "kubevela")
	defs, _ := filepath.Abs(filepath.Join(root, "definitions"))
	runCorpus(t, "kubevela", func(t *testing.T, dir string) { runCase(t, dir, defs, maskVolatile) })
}

// TestConformanceKarmada runs every case of the Karmada corpus: placement
// and overrides per member cluster, compared object by object.
func TestConformanceKarmada(t *testing.T) {
	runCorpus(t, "karmada", func(t *testing.T, dir string) { runCase(t, dir, "", maskVolatile) })
}

// TestConformanceAddons runs every case of the addon corpus through
// `drydock addon render` and compares objects (with the corpus's
// normalisation) and NOTES.
func TestConformanceAddons(t *testing.T) {
	runCorpus(t, "addons", func(t *testing.T, dir string) { runCase(t, dir, "", maskAddon) })
}

// runCorpus runs one corpus's cases, honouring the skip list, and logs
// the counts `make test` prints.
func runCorpus(t *testing.T, corpus string, runOne func(t *testing.T, dir string)) {
	runCorpusAt(t, filepath.Join(conformanceRoot, corpus), corpus, runOne)
}

// runCorpusAt is runCorpus for a corpus rooted at root.
func runCorpusAt(t *testing.T, root, corpus string, runOne func(t *testing.T, dir string)) {
	cases := corpusCases(t, root)
	printSkips(t, corpus, cases)
	var passed, failed, skipped int
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			// Counted on the way out, so a Fatal counts as a failure.
			defer func() {
				switch {
				case t.Skipped():
					skipped++
				case t.Failed():
					failed++
				default:
					passed++
				}
			}()
			if why, ok := conformanceSkip[corpus+"/"+c]; ok {
				t.Skip(why)
			}
			runOne(t, filepath.Join(root, "cases", c))
		})
	}
	t.Logf("%s conformance: %d passed, %d failed, %d skipped", corpus, passed, failed, skipped)
}

// maskAddon drops what the addon corpus README says a comparator treats
// as absent.
func maskAddon(_ testing.TB, _ objectKey, want, got map[string]any) {
	normaliseAddonObject(want)
	normaliseAddonObject(got)
}

func normaliseAddonObject(o map[string]any) {
	if md := manifest.Map(o, "metadata"); md != nil {
		if v, ok := md["creationTimestamp"]; ok && v == nil {
			delete(md, "creationTimestamp")
		}
		delete(md, "ownerReferences")
		delete(md, "resourceVersion")
		if a := manifest.Map(md, "annotations"); a != nil {
			if v, _ := a["app.oam.dev/publishVersion"].(string); strings.HasPrefix(v, "addon-") {
				delete(a, "app.oam.dev/publishVersion")
			}
		}
	}
	if st, ok := o["status"].(map[string]any); ok && len(st) == 0 {
		delete(o, "status")
	}
}

// shellWords splits a POSIX shell command line (quotes and backslashes,
// no expansion), as the corpus's cmd files are written.
func shellWords(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" in %q", s)
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

func corpusCases(t *testing.T, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, "cases"))
	if err != nil {
		t.Skipf("conformance corpus not found at %s: %v", root, err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

func printSkips(t *testing.T, corpus string, cases []string) {
	var skips []string
	for _, c := range cases {
		if why, ok := conformanceSkip[corpus+"/"+c]; ok {
			skips = append(skips, fmt.Sprintf("  %s/%s: %s", corpus, c, why))
		}
	}
	sort.Strings(skips)
	if len(skips) == 0 {
		fmt.Printf("conformance skip list (%s): empty\n", corpus)
		return
	}
	fmt.Printf("conformance skip list (%d of %d %s cases):\n%s\n", len(skips), len(cases), corpus, strings.Join(skips, "\n"))
}

// runCase runs a case's cmd (split like a POSIX shell, {defs} replaced)
// with the case directory as working directory, and compares the tree
// (each object pair passed through mask first) and the NOTES.
func runCase(t testing.TB, dir, defs string, mask func(t testing.TB, k objectKey, want, got map[string]any)) {
	t.Helper()
	cmdline, err := os.ReadFile(filepath.Join(dir, "cmd"))
	if err != nil {
		t.Fatal(err)
	}
	args, err := shellWords(strings.ReplaceAll(strings.TrimSpace(string(cmdline)), "{defs}", defs))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	args = append(args, conformanceFlags[caseKey(dir)]...)
	if len(args) > 0 && args[0] == "render" {
		// The corpora keep their Cluster objects beside the other
		// inputs: their inventory, opted into.
		args = append(args, "--clusters-from-inputs")
	}
	args = append(args, "--output-dir", out)
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(""), &stdout, &stderr)
	if want, err := os.ReadFile("expected-error"); err == nil {
		checkExpectedError(t, code, stderr.String(), string(want))
		return
	}
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	compareTrees(t, "expected", out, mask)
	wantNotes, _ := os.ReadFile("expected-notes.txt")
	gotNotes, _ := os.ReadFile(filepath.Join(out, "NOTES.txt"))
	if string(wantNotes) != string(gotNotes) {
		t.Errorf("NOTES differ:\nwant %q\n got %q", wantNotes, gotNotes)
	}
}

// caseKey is corpus/case of the case directory dir
// (<corpus>/cases/<case>).
func caseKey(dir string) string {
	return filepath.Base(filepath.Dir(filepath.Dir(dir))) + "/" + filepath.Base(dir)
}

// TestConformanceFieldValidation runs the KubeVela cases of conformanceFlags
// without those flags: under strict field validation, the default, their
// inputs are refused for their unknown fields at their lines, as the API
// server refuses them.
func TestConformanceFieldValidation(t *testing.T) {
	defs, _ := filepath.Abs(filepath.Join(conformanceRoot, "kubevela", "definitions"))
	want := map[string]string{
		"kubevela/dryrun-error-unknown-component-type": `drydock: input/invalid-app-format.yaml:13:3: application "website": strict decoding error: unknown field "spec.traits"` + "\n",
	}
	for key := range want {
		t.Run(key, func(t *testing.T) {
			t.Chdir(filepath.Join(conformanceRoot, filepath.Dir(key), "cases", filepath.Base(key)))
			var stdout, stderr bytes.Buffer
			code := run([]string{"render", "-d", defs, "--clusters-from-inputs", "input"}, strings.NewReader(""), &stdout, &stderr)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if diff := cmp.Diff(want[key], stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConformanceAddonTyping runs the addon case of conformanceFlags as
// written: --set cpu=0.5 sets the addon's number parameter to 0.5, where
// vela addon enable gives it the string "0.5" and fails.
func TestConformanceAddonTyping(t *testing.T) {
	t.Chdir(filepath.Join(conformanceRoot, "addons", "cases", "vela-prism-cpu"))
	var stdout, stderr bytes.Buffer
	if code := run([]string{"addon", "render", "input/vela-prism", "--set", "cpu=0.5"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "cpu: 0.5\n") {
		t.Errorf("the render has no cpu: 0.5:\n%s", stdout.String())
	}
}

func checkExpectedError(t testing.TB, code int, stderr, want string) {
	t.Helper()
	if code == 0 {
		t.Fatalf("exit 0, want an error containing %q", want)
	}
	if code == exitInternal {
		t.Errorf("exit %d (internal), want a bad-input exit", code)
	}
	for _, line := range strings.Split(want, "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.Contains(strings.ToLower(stderr), strings.ToLower(line)) {
			t.Errorf("stderr lacks %q:\n%s", line, stderr)
		}
	}
}

// objectKey is how the corpus keys objects.
type objectKey struct{ cluster, apiVersion, kind, namespace, name string }

func readTree(t testing.TB, dir string) map[objectKey]map[string]any {
	t.Helper()
	out := map[objectKey]map[string]any{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		cluster := strings.Split(filepath.ToSlash(rel), "/")[0]
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		objs, err := manifest.Decode(path, data, manifest.DecodeOptions{})
		if err != nil {
			return err
		}
		for _, o := range objs {
			k := objectKey{cluster, o.APIVersion(), o.Kind(), o.Namespace(), o.Name()}
			out[k] = o.Data
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var revisionHash = regexp.MustCompile(`^[0-9a-f]{1,16}$`)

// compareTrees compares like the corpus READMEs say: keys, then objects
// with volatile values masked.
func compareTrees(t testing.TB, wantDir, gotDir string, mask func(t testing.TB, k objectKey, want, got map[string]any)) {
	t.Helper()
	want, got := readTree(t, wantDir), readTree(t, gotDir)
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("missing %v", k)
			continue
		}
		w, g = manifest.DeepCopy(w).(map[string]any), manifest.DeepCopy(g).(map[string]any)
		mask(t, k, w, g)
		if diff := cmp.Diff(w, g, numberCompare); diff != "" {
			t.Errorf("%v differs (-want +got):\n%s", k, diff)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("extra %v", k)
		}
	}
}

func maskVolatile(t testing.TB, k objectKey, want, got map[string]any) {
	wl := manifest.Map(want, "metadata", "labels")
	gl := manifest.Map(got, "metadata", "labels")
	const hashKey = "app.oam.dev/app-revision-hash"
	if w, ok := wl[hashKey]; ok {
		// The corpus asks only for 1-16 hex digits; drydock computes
		// KubeVela's own hash (render/revision), so the value is the
		// corpus's, which KubeVela's code produced.
		if h, _ := gl[hashKey].(string); !revisionHash.MatchString(h) {
			t.Errorf("%v: label %s = %q, want 1-16 hex digits", k, hashKey, h)
		} else if want := fmt.Sprint(w); h != want {
			t.Errorf("%v: label %s = %q, want KubeVela's %q", k, hashKey, h, want)
		}
		delete(wl, hashKey)
		delete(gl, hashKey)
	}
	for _, m := range []map[string]any{want, got} {
		if a := manifest.Map(m, "metadata", "annotations"); a != nil {
			delete(a, "oam.dev/kubevela-version")
		}
		meta := manifest.Map(m, "metadata")
		for _, f := range []string{"labels", "annotations"} {
			if mm, ok := meta[f].(map[string]any); ok && len(mm) == 0 {
				delete(meta, f)
			}
		}
	}
}

// numberCompare compares numbers by value (1 equals 1.0).
var numberCompare = cmp.FilterValues(func(a, b any) bool {
	_, aok := number(a)
	_, bok := number(b)
	return aok && bok
}, cmp.Comparer(func(a, b any) bool {
	fa, _ := number(a)
	fb, _ := number(b)
	return fa == fb
}))

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}
