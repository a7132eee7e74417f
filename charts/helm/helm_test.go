package helm_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"helm.sh/helm/v4/pkg/chart/loader/archive"
	"helm.sh/helm/v4/pkg/chart/v2/loader"

	"github.com/drydock-dev/drydock/charts/helm"
	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// tcase is one testdata/cases directory: the helm template arguments
// of its cmd file, read back into Options.
type tcase struct {
	chart string // relative to the case directory
	opts  helm.Options
}

func parseCmd(t *testing.T, dir string) tcase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "cmd"))
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Fields(string(data))
	if len(args) < 3 || args[0] != "template" {
		t.Fatalf("%s: cmd is not `template NAME CHART ...`", dir)
	}
	c := tcase{chart: args[2]}
	c.opts.ReleaseName = args[1]
	for i := 3; i < len(args); i++ {
		next := func() string { i++; return args[i] }
		switch args[i] {
		case "--namespace":
			c.opts.Namespace = next()
		case "--kube-version":
			c.opts.Capabilities.KubeVersion = next()
		case "--api-versions":
			c.opts.Capabilities.APIVersions = append(c.opts.Capabilities.APIVersions, next())
		case "-f":
			raw, err := os.ReadFile(filepath.Join(dir, next()))
			if err != nil {
				t.Fatal(err)
			}
			vals, err := loader.LoadValues(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			c.opts.Values = vals
		case "--include-crds":
			c.opts.IncludeCRDs = true
		case "--no-hooks":
			c.opts.DisableHooks = true
		case "--skip-tests":
			c.opts.SkipTests = true
		default:
			t.Fatalf("%s: cmd flag %s not understood by the test", dir, args[i])
		}
	}
	return c
}

type rendered struct {
	Template string
	Data     map[string]any
}

var sourceLine = regexp.MustCompile(`(?m)^---\n# Source: (.*)\n`)

// parseHelm splits helm template's output at its `# Source:` lines.
func parseHelm(t *testing.T, out string) []rendered {
	t.Helper()
	var got []rendered
	locs := sourceLine.FindAllStringSubmatchIndex(out, -1)
	for i, l := range locs {
		end := len(out)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		name := out[l[2]:l[3]]
		objs, err := manifest.Decode(name, []byte(out[l[1]:end]), manifest.DecodeOptions{KeepLists: true})
		if err != nil {
			t.Fatalf("helm output %s: %v", name, err)
		}
		for _, o := range objs {
			got = append(got, rendered{name, o.Data})
		}
	}
	return got
}

// TestRenderAsHelmTemplate renders every case through charts/source and
// Render and compares, object by object and in order, with what
// `helm template` printed (testdata/cases/*/want.yaml), or its error
// (want-error.txt) with Render's.
func TestRenderAsHelmTemplate(t *testing.T) {
	dirs, err := filepath.Glob("testdata/cases/*/cmd")
	if err != nil || len(dirs) == 0 {
		t.Fatal("no cases", err)
	}
	cache, err := source.Open(source.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cmdFile := range dirs {
		dir := filepath.Dir(cmdFile)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			c := parseCmd(t, dir)
			ch, err := cache.ChartDir(filepath.Join(dir, c.chart))
			if err != nil {
				t.Fatal(err)
			}
			objs, err := helm.Render(ch, c.opts)
			if wantErr, rerr := os.ReadFile(filepath.Join(dir, "want-error.txt")); rerr == nil {
				want := strings.TrimPrefix(string(wantErr), "Error: ")
				want = strings.TrimSuffix(want, "\n")
				want = strings.TrimSuffix(want, "\n\nUse --debug flag to render out invalid YAML")
				if err == nil {
					t.Fatalf("rendered, want the error %q", want)
				}
				// Helm lists schema violations in a random order; Render sorts them.
				want = helm.SortViolations(want)
				if diff := cmp.Diff(strings.TrimSpace(want), strings.TrimSpace(err.Error())); diff != "" {
					t.Errorf("error (-helm +drydock):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			out, err := os.ReadFile(filepath.Join(dir, "want.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			var got []rendered
			for _, o := range objs {
				got = append(got, rendered{o.Template, o.Object.Data})
				checkMarks(t, o)
			}
			want := parseHelm(t, string(out))
			unrandom(want)
			unrandom(got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("objects (-helm template +Render):\n%s", diff)
			}
		})
	}
}

// randSuffix is podinfo's test pods' `{{ randAlphaNum 5 | lower }}`.
var randSuffix = regexp.MustCompile(`-[a-z0-9]{5}$`)

// unrandom masks the random name suffix of the test pods, which differs
// on every helm template run (Render's is seeded: TestRenderReproducible).
func unrandom(rs []rendered) {
	for _, r := range rs {
		if !strings.Contains(r.Template, "/templates/tests/") {
			continue
		}
		md := r.Data["metadata"].(map[string]any)
		md["name"] = randSuffix.ReplaceAllString(md["name"].(string), "-RAND")
	}
}

// checkMarks: Hooks are the helm.sh/hook annotation's events, CRD marks
// the crds/ files.
func checkMarks(t *testing.T, o helm.Object) {
	t.Helper()
	ann, _ := o.Object.Data["metadata"].(map[string]any)["annotations"].(map[string]any)
	hook, _ := ann["helm.sh/hook"].(string)
	var want []string
	for h := range strings.SplitSeq(hook, ",") {
		switch h = strings.TrimSpace(h); h {
		case "":
		case "test-success":
			want = append(want, "test")
		default:
			want = append(want, h)
		}
	}
	if diff := cmp.Diff(want, o.Hooks); diff != "" {
		t.Errorf("%s: Hooks (-annotation +got):\n%s", o.Template, diff)
	}
	if crd := strings.Contains(o.Template, "/crds/"); crd != o.CRD {
		t.Errorf("%s: CRD = %v, want %v", o.Template, o.CRD, crd)
	}
}

// TestRenderKeepsChartIntact: two renders of one loaded chart with
// different conditions each get their own subcharts (Helm's dependency
// processing drops disabled ones from the chart it is given).
func TestRenderKeepsChartIntact(t *testing.T) {
	cache, err := source.Open(source.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := cache.ChartDir("testdata/charts/helm-testcharts/subchart")
	if err != nil {
		t.Fatal(err)
	}
	count := func(vals map[string]any) map[string]int {
		objs, err := helm.Render(ch, helm.Options{ReleaseName: "r", Namespace: "ns", Values: vals, DisableHooks: true})
		if err != nil {
			t.Fatal(err)
		}
		n := map[string]int{}
		for _, o := range objs {
			n[strings.SplitN(o.Template, "/templates/", 2)[0]]++
		}
		return n
	}
	off := map[string]any{"subcharta": map[string]any{"enabled": false}, "subchartb": map[string]any{"enabled": false}}
	for i := range 2 {
		if n := count(off); n["subchart/charts/subcharta"] != 0 || n["subchart/charts/subchartb"] != 0 {
			t.Errorf("round %d, both disabled: %v", i, n)
		}
		if n := count(nil); n["subchart/charts/subcharta"] != 1 || n["subchart/charts/subchartb"] != 1 {
			t.Errorf("round %d, defaults: %v", i, n)
		}
	}
	if len(ch.Dependencies()) != 2 || len(ch.Metadata.Dependencies) != 2 {
		t.Errorf("the loaded chart changed: %d dependencies, %d in metadata", len(ch.Dependencies()), len(ch.Metadata.Dependencies))
	}
}

// TestRenderRefusals are refusals Helm makes with no `helm template`
// run to compare with.
func TestRenderRefusals(t *testing.T) {
	cache, err := source.Open(source.Config{})
	if err != nil {
		t.Fatal(err)
	}
	lib, err := cache.ChartDir("testdata/charts/helm-testcharts/chart-with-template-lib-dep/charts/common")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := helm.Render(lib, helm.Options{ReleaseName: "r"}); !errors.Is(err, helm.ErrNotInstallable) {
		t.Errorf("library chart: %v, want ErrNotInstallable", err)
	}
	pod, err := cache.ChartDir("testdata/charts/podinfo")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := helm.Render(pod, helm.Options{ReleaseName: "Bad_Name"}); err == nil || !strings.Contains(err.Error(), `release name "Bad_Name"`) {
		t.Errorf("bad release name: %v", err)
	}
	if _, err := helm.Render(pod, helm.Options{ReleaseName: "r", Capabilities: helm.Capabilities{KubeVersion: "one"}}); err == nil || !strings.Contains(err.Error(), "invalid kube version 'one'") {
		t.Errorf("bad kube version: %v", err)
	}
	// Without a KubeVersion, Helm's default (v1.20.0 under go test) is
	// below podinfo's kubeVersion: >=1.23.0-0.
	if _, err := helm.Render(pod, helm.Options{ReleaseName: "r"}); err == nil || !strings.Contains(err.Error(), "incompatible with Kubernetes v1.20.0") {
		t.Errorf("default kube version: %v", err)
	}
}

// TestRenderReproducible: sprig's random functions are seeded by chart,
// release and namespace: the same render twice is the same, another
// release differs.
func TestRenderReproducible(t *testing.T) {
	cache, err := source.Open(source.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := cache.ChartDir("testdata/charts/podinfo")
	if err != nil {
		t.Fatal(err)
	}
	names := func(release string) []string {
		objs, err := helm.Render(ch, helm.Options{ReleaseName: release, Namespace: "apps", Capabilities: helm.Capabilities{KubeVersion: "1.31.0"}})
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, o := range objs {
			n = append(n, o.Object.Data["metadata"].(map[string]any)["name"].(string))
		}
		return n
	}
	a, b := names("rel"), names("rel")
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two renders differ:\n%s", diff)
	}
	if c := names("rel2"); cmp.Equal(a[len(a)-1][len("rel"):], c[len(c)-1][len("rel2"):]) {
		t.Errorf("another release drew the same random suffix: %s, %s", a[len(a)-1], c[len(c)-1])
	}
}

// TestRenderReleaseAndOffline: IsUpgrade sets .Release.IsUpgrade (as
// helm template --is-upgrade), lookup finds nothing and getHostByName
// resolves nothing, as in helm template; NOTES.txt is not an object.
func TestRenderReleaseAndOffline(t *testing.T) {
	files := []*archive.BufferedFile{
		{Name: "Chart.yaml", Data: []byte("apiVersion: v2\nname: t\nversion: 0.1.0\n")},
		{Name: "templates/cm.yaml", Data: []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}
  namespace: {{ .Release.Namespace }}
data:
  upgrade: {{ .Release.IsUpgrade | quote }}
  install: {{ .Release.IsInstall | quote }}
  lookup: {{ lookup "v1" "Secret" "default" "x" | len | quote }}
  host: {{ getHostByName "example.com" | quote }}
  kube: {{ .Capabilities.KubeVersion.Version | quote }}
  api: {{ .Capabilities.APIVersions.Has "example.com/v1" | quote }}
`)},
		{Name: "templates/NOTES.txt", Data: []byte("notes")},
	}
	ch, err := loader.LoadFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := helm.Render(ch, helm.Options{ReleaseName: "r", Namespace: "ns", IsUpgrade: true,
		Capabilities: helm.Capabilities{KubeVersion: "1.29.3", APIVersions: []string{"example.com/v1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 {
		t.Fatalf("%d objects, want 1", len(objs))
	}
	want := map[string]any{"upgrade": "true", "install": "false", "lookup": "0", "host": "", "kube": "v1.29.3", "api": "true"}
	if diff := cmp.Diff(want, objs[0].Object.Data["data"]); diff != "" {
		t.Errorf("data (-want +got):\n%s", diff)
	}
}

// TestRenderConcurrently: one loaded chart rendered by many goroutines
// with different values (run with -race: Render only reads the chart).
func TestRenderConcurrently(t *testing.T) {
	cache, err := source.Open(source.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := cache.ChartDir("testdata/charts/helm-testcharts/subchart")
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			vals := map[string]any{"subcharta": map[string]any{"enabled": i%2 == 0}, "SCBexported1A": map[string]any{"SC1extra7": i}}
			objs, err := helm.Render(ch, helm.Options{ReleaseName: "r", Namespace: "ns", Values: vals, IncludeCRDs: true})
			if err == nil {
				n := 0
				for _, o := range objs {
					if strings.HasPrefix(o.Template, "subchart/charts/subcharta/") {
						n++
					}
				}
				if (n == 1) != (i%2 == 0) {
					err = fmt.Errorf("render %d: %d subcharta objects", i, n)
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
