package source_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/charts/source"
)

const exampleRepo = "https://charts.example.com/stable"

// TestResolveAsHelmPull: constraints resolve to the version `helm pull`
// fetched from a server holding the same packages
// (testdata/repo/resolved.txt, facts), cases translated from Helm's
// pkg/repo index tests (build metadata, prereleases, ranges).
func TestResolveAsHelmPull(t *testing.T) {
	data, err := os.ReadFile("testdata/repo/resolved.txt")
	if err != nil {
		t.Fatal(err)
	}
	c := open(t, source.Config{Charts: []string{"testdata/repo"}})
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		constraint, want, _ := strings.Cut(line, "\t")
		constraint = strings.Trim(constraint, "'")
		t.Run(constraint, func(t *testing.T) {
			ch, err := c.Chart(source.ChartRef{RepoURL: exampleRepo, Name: "mini", Version: constraint})
			if want == "none" {
				if !errors.Is(err, source.ErrChartNotFound) {
					t.Fatalf("got %v, want ErrChartNotFound", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ch.Metadata.Version != want {
				t.Errorf("resolved %s, helm pull fetched %s", ch.Metadata.Version, want)
			}
		})
	}
}

func open(t testing.TB, cfg source.Config) *source.Cache {
	t.Helper()
	c, err := source.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// helmCache is Helm's cache layout: <repo>-index.yaml beside two of its
// packages.
func helmCache(t *testing.T, dir string) string {
	copyFile(t, "testdata/repo/index.yaml", filepath.Join(dir, "example-index.yaml"))
	copyFile(t, "testdata/repo/mini-0.1.0.tgz", filepath.Join(dir, "mini-0.1.0.tgz"))
	copyFile(t, "testdata/repo/mini-0.2.0.tgz", filepath.Join(dir, "mini-0.2.0.tgz"))
	return dir
}

// ociLayout writes an OCI image layout holding pkg as a Helm chart
// tagged ref.
func ociLayout(t *testing.T, dir, pkg, ref string) string {
	t.Helper()
	blob := func(data []byte) string {
		d := fmt.Sprintf("%x", sha256.Sum256(data))
		if err := os.MkdirAll(filepath.Join(dir, "blobs", "sha256"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "blobs", "sha256", d), data, 0o644); err != nil {
			t.Fatal(err)
		}
		return "sha256:" + d
	}
	layer, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	cfg := blob([]byte(`{"apiVersion":"v2","name":"mini","version":"0.2.0"}`))
	man, _ := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"config":        map[string]any{"mediaType": "application/vnd.cncf.helm.config.v1+json", "digest": cfg},
		"layers":        []any{map[string]any{"mediaType": "application/vnd.cncf.helm.chart.content.v1.tar+gzip", "digest": blob(layer)}},
	})
	idx, _ := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"manifests": []any{map[string]any{
			"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": blob(man),
			"annotations": map[string]any{"org.opencontainers.image.ref.name": ref},
		}},
	})
	if err := os.WriteFile(filepath.Join(dir, "index.json"), idx, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "oci-layout"), []byte(`{"imageLayoutVersion":"1.0.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestForms: every supported form of a Config.Charts entry, and how its
// repository must agree with the ref's.
func TestForms(t *testing.T) {
	tmp := t.TempDir()
	cacheDir := helmCache(t, filepath.Join(tmp, "helmcache"))
	oci := ociLayout(t, filepath.Join(tmp, "oci"), "testdata/repo/mini-0.2.0.tgz", "ghcr.io/example/charts/mini:0.2.0")
	ociTag := ociLayout(t, filepath.Join(tmp, "ocitag"), "testdata/repo/mini-0.2.0.tgz", "0.2.0")
	scan := filepath.Join(tmp, "scan")
	helmCache(t, filepath.Join(scan, "a"))
	copyFile(t, "testdata/src/mini/Chart.yaml", filepath.Join(scan, "b", "c", "Chart.yaml"))
	copyFile(t, "testdata/repo/mini-1.0.0-rc.1.tgz", filepath.Join(scan, ".hidden", "mini-1.0.0-rc.1.tgz"))
	copyFile(t, "testdata/repo/mini-0.1.8.tgz", filepath.Join(scan, "mini-0.1.8.tgz"))
	for _, tc := range []struct {
		name  string
		cfg   source.Config
		ref   source.ChartRef
		want  string // version, or an error text
		isErr bool
	}{
		{"package", source.Config{Charts: []string{"testdata/repo/mini-0.1.8.tgz"}}, source.ChartRef{RepoURL: "https://any.example.com", Name: "mini"}, "0.1.8", false},
		{"chart dir", source.Config{Charts: []string{"testdata/src/mini"}}, source.ChartRef{Name: "mini", Version: "~0.1"}, "0.1.0", false},
		{"repository cache", source.Config{Charts: []string{"testdata/repo"}}, source.ChartRef{RepoURL: exampleRepo + "/", Name: "mini"}, "0.2.0", false},
		{"repository cache, other URL", source.Config{Charts: []string{"testdata/repo"}}, source.ChartRef{RepoURL: "https://other.example.com", Name: "mini", Version: "0.2.0"},
			`chart "mini" version "0.2.0" of repository https://other.example.com is not in the chart cache (cached for other repositories: ` +
				`https://charts.example.com/stable: 0.1.0, 0.1.8, 0.1.8+beta, 0.1.9+alpha, 0.1.9+beta, 0.2.0, 1.0.0-rc.1); ` +
				"vendor it with `helm pull mini --repo https://other.example.com --version '0.2.0' -d DIR` and put DIR on --charts (drydock.yaml charts:)", true},
		{"helm cache", source.Config{Charts: []string{cacheDir}}, source.ChartRef{RepoURL: exampleRepo, Name: "mini"}, "0.2.0", false},
		{"helm cache, version not there", source.Config{Charts: []string{cacheDir}}, source.ChartRef{RepoURL: exampleRepo, Name: "mini", Version: "0.1.8"},
			`chart "mini" version "0.1.8" of repository https://charts.example.com/stable is not in the chart cache (cached: 0.1.0, 0.2.0); ` +
				"vendor it with `helm pull mini --repo https://charts.example.com/stable --version '0.1.8' -d DIR` and put DIR on --charts (drydock.yaml charts:)", true},
		{"oci layout", source.Config{Charts: []string{oci}}, source.ChartRef{RepoURL: "oci://ghcr.io/example/charts", Name: "mini", Version: "0.2.0"}, "0.2.0", false},
		{"oci layout, other registry", source.Config{Charts: []string{oci}}, source.ChartRef{RepoURL: "oci://registry.example.com/charts", Name: "mini", Version: ">=0.2"},
			`chart "mini" version ">=0.2" of repository oci://registry.example.com/charts is not in the chart cache (cached for other repositories: oci://ghcr.io/example/charts: 0.2.0); ` +
				"vendor it with `helm pull oci://registry.example.com/charts/mini --version '>=0.2' -d DIR` and put DIR on --charts (drydock.yaml charts:)", true},
		{"oci layout, bare tag", source.Config{Charts: []string{ociTag}}, source.ChartRef{RepoURL: "oci://registry.example.com/charts", Name: "mini"}, "0.2.0", false},
		{"scanned directory", source.Config{Charts: []string{scan}}, source.ChartRef{RepoURL: exampleRepo, Name: "mini", Version: ">0.0.0-0"}, "0.2.0", false},
		{"scanned directory, other URL", source.Config{Charts: []string{scan}}, source.ChartRef{RepoURL: "https://x.example.com", Name: "mini", Version: ">0.0.0-0"}, "0.1.8", false},
		{"scanned directory, hidden skipped", source.Config{Charts: []string{scan}}, source.ChartRef{Name: "mini", Version: "1.0.0-rc.1"},
			`chart "mini" version "1.0.0-rc.1" of repository URL is not in the chart cache (cached: 0.1.0, 0.1.8, 0.2.0); ` +
				"vendor it with `helm pull mini --repo URL --version '1.0.0-rc.1' -d DIR` and put DIR on --charts (drydock.yaml charts:)", true},
		{"mapped repository", source.Config{Repositories: map[string]string{"https://mapped.example.com/": cacheDir}}, source.ChartRef{RepoURL: "https://mapped.example.com", Name: "mini"}, "0.2.0", false},
		{"mapped repository, other URL", source.Config{Charts: []string{"testdata/src/mini"}, Repositories: map[string]string{"https://mapped.example.com": cacheDir}}, source.ChartRef{RepoURL: "https://other.example.com", Name: "mini"}, "0.1.0", false},
		{"missing chart", source.Config{Charts: []string{"testdata/repo"}}, source.ChartRef{RepoURL: exampleRepo, Name: "podinfo", Version: "6.x"},
			`chart "podinfo" version "6.x" of repository https://charts.example.com/stable is not in the chart cache (no version of it cached); ` +
				"vendor it with `helm pull podinfo --repo https://charts.example.com/stable --version '6.x' -d DIR` and put DIR on --charts (drydock.yaml charts:)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := open(t, tc.cfg)
			ch, err := c.Chart(tc.ref)
			if tc.isErr {
				if !errors.Is(err, source.ErrChartNotFound) {
					t.Fatalf("got %v, want ErrChartNotFound", err)
				}
				if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ch.Metadata.Version != tc.want {
				t.Errorf("version %s, want %s", ch.Metadata.Version, tc.want)
			}
		})
	}
}

// TestFS: through an fs.FS (a git revision's tree) paths are relative
// to it, and the forms read the same.
func TestFS(t *testing.T) {
	fsys := os.DirFS("testdata")
	c := open(t, source.Config{FS: fsys, Charts: []string{"repo", "./src/mini"}})
	for ref, want := range map[source.ChartRef]string{
		{RepoURL: exampleRepo, Name: "mini", Version: "<0.1.9"}: "0.1.8+beta",
		{RepoURL: exampleRepo, Name: "mini"}:                    "0.2.0",
	} {
		ch, err := c.Chart(ref)
		if err != nil {
			t.Fatal(err)
		}
		if ch.Metadata.Version != want {
			t.Errorf("%v: %s, want %s", ref, ch.Metadata.Version, want)
		}
	}
	mem := fstest.MapFS{"charts/mini/Chart.yaml": {Data: []byte("apiVersion: v2\nname: mini\nversion: 3.0.0\n")}}
	c = open(t, source.Config{FS: mem, Charts: []string{"charts"}})
	ch, err := c.Chart(source.ChartRef{Name: "mini"})
	if err != nil || ch.Metadata.Version != "3.0.0" {
		t.Fatalf("map FS: %v, %v", ch, err)
	}
	if ch, err := c.ChartDir("charts/mini"); err != nil || ch.Name() != "mini" {
		t.Errorf("ChartDir through FS: %v", err)
	}
}

// TestLoadedOnce: a (chart, version) is parsed once per process, however
// many caches ask for it; the same *chart.Chart is shared.
func TestLoadedOnce(t *testing.T) {
	ref := source.ChartRef{RepoURL: exampleRepo, Name: "mini", Version: "0.1.9+beta"}
	a, err := open(t, source.Config{Charts: []string{"testdata/repo"}}).Chart(ref)
	if err != nil {
		t.Fatal(err)
	}
	n := source.LoadCount()
	b, err := open(t, source.Config{Charts: []string{"testdata"}}).Chart(ref)
	if err != nil {
		t.Fatal(err)
	}
	if a != b || source.LoadCount() != n {
		t.Errorf("loaded again: same chart %v, loads %d → %d", a == b, n, source.LoadCount())
	}
	d1, err := open(t, source.Config{}).ChartDir("testdata/src/mini")
	if err != nil {
		t.Fatal(err)
	}
	d2, err := open(t, source.Config{FS: os.DirFS("testdata/src")}).ChartDir("mini")
	if err != nil || d1 != d2 {
		t.Errorf("chart directory loaded twice (%v)", err)
	}
}

// TestBadEntries: an entry that is none of the forms, or a package
// Helm's loader refuses, is an error naming it.
func TestBadEntries(t *testing.T) {
	tmp := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	text := write("notes.txt", []byte("hello"))
	empty := filepath.Join(tmp, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	corrupt := write("bad-1.0.0.tgz", []byte("not a gzip stream"))
	for _, tc := range []struct {
		entry string
		want  error
		text  string
	}{
		{text, source.ErrBadEntry, "chart cache entry " + text + ": neither a chart directory"},
		{empty, source.ErrBadEntry, "chart cache entry " + empty + ": neither a chart directory"},
		{filepath.Join(tmp, "nope"), source.ErrBadEntry, "no such file or directory"},
		{corrupt, source.ErrBadChart, "chart cache entry " + corrupt + ": chart cannot be loaded: " + corrupt + ": gzip: invalid header"},
	} {
		_, err := source.Open(source.Config{Charts: []string{tc.entry}})
		if !errors.Is(err, tc.want) || !errors.Is(err, source.ErrBadEntry) || !strings.Contains(fmt.Sprint(err), tc.text) {
			t.Errorf("%s: got %v, want %v containing %q", tc.entry, err, tc.want, tc.text)
		}
	}
	// A package an index lists whose body is corrupt: Chart.yaml reads
	// (the scan takes the index's word), Helm's loader refuses it.
	repo := filepath.Join(tmp, "repo")
	copyFile(t, "testdata/repo/index.yaml", filepath.Join(repo, "index.yaml"))
	write("repo/mini-0.2.0.tgz", truncatedPackage(t))
	_, err := open(t, source.Config{Charts: []string{repo}}).Chart(source.ChartRef{Name: "mini"})
	if !errors.Is(err, source.ErrBadChart) {
		t.Errorf("corrupt package: %v, want ErrBadChart", err)
	}
}

// truncatedPackage is a gzip'd tar with a Chart.yaml and a template
// whose body is cut short.
func truncatedPackage(t *testing.T) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	body := []byte("apiVersion: v2\nname: mini\nversion: 0.2.0\n")
	_ = tw.WriteHeader(&tar.Header{Name: "mini/Chart.yaml", Mode: 0o644, Size: int64(len(body))})
	_, _ = tw.Write(body)
	_ = tw.WriteHeader(&tar.Header{Name: "mini/templates/x.yaml", Mode: 0o644, Size: 1000})
	_, _ = tw.Write([]byte("short"))
	_ = gz.Close()
	return buf.Bytes()
}

// TestDir: sources map "namespace/name", then "name", then the URL.
func TestDir(t *testing.T) {
	c := open(t, source.Config{Sources: map[string]string{
		"flux-system/podinfo": "testdata/src",
		"podinfo":             "testdata/repo",
		"https://github.com/stefanprodan/podinfo": "testdata",
		"https://github.com/example/missing-dir":  "testdata/nope",
	}})
	for _, tc := range []struct{ ns, name, url, want string }{
		{"flux-system", "podinfo", "https://github.com/stefanprodan/podinfo", "testdata/src"},
		{"apps", "podinfo", "https://github.com/stefanprodan/podinfo", "testdata/repo"},
		{"apps", "other", "https://github.com/stefanprodan/podinfo/", "testdata"},
	} {
		got, err := c.Dir("GitRepository", tc.ns, tc.name, tc.url)
		if err != nil || got != tc.want {
			t.Errorf("%s/%s: %q, %v; want %q", tc.ns, tc.name, got, err, tc.want)
		}
	}
	_, err := c.Dir("GitRepository", "apps", "web", "https://github.com/example/web")
	want := "GitRepository apps/web (https://github.com/example/web) is not mapped to a local directory: give `--source apps/web=DIR` or add `sources: {web: DIR}` to drydock.yaml (e.g. after `git clone https://github.com/example/web DIR`)"
	if !errors.Is(err, source.ErrSourceNotFound) || err.Error() != want {
		t.Errorf("missing source: %v\nwant %s", err, want)
	}
	_, err = c.Dir("Bucket", "apps", "b", "https://github.com/example/missing-dir")
	if !errors.Is(err, source.ErrSourceNotFound) || !strings.Contains(err.Error(), "mapped to testdata/nope, which is not a directory") {
		t.Errorf("mapped to nothing: %v", err)
	}
}

// BenchmarkChartAgain: asking a cache again for a (chart, version) it
// resolved costs a map lookup.
func BenchmarkChartAgain(b *testing.B) {
	c := open(b, source.Config{Charts: []string{"testdata/repo"}})
	ref := source.ChartRef{RepoURL: exampleRepo, Name: "mini", Version: "~0.1"}
	if _, err := c.Chart(ref); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Chart(ref); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChartNewCache: a new cache (another revision, another run of
// the pipeline) reads and hashes the package but does not parse it.
func BenchmarkChartNewCache(b *testing.B) {
	ref := source.ChartRef{RepoURL: exampleRepo, Name: "mini", Version: "~0.1"}
	n := source.LoadCount()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := open(b, source.Config{Charts: []string{"testdata/repo"}}).Chart(ref); err != nil {
			b.Fatal(err)
		}
	}
	if source.LoadCount() > n+1 {
		b.Errorf("parsed %d times", source.LoadCount()-n)
	}
}

// TestChartConcurrently: goroutines asking one cache for one chart get
// the same chart, parsed once (run with -race).
func TestChartConcurrently(t *testing.T) {
	c := open(t, source.Config{Charts: []string{"testdata/repo"}})
	ref := source.ChartRef{RepoURL: exampleRepo, Name: "mini", Version: ">=1.0.0-0"}
	n := source.LoadCount()
	got := make(chan any, 8)
	for range 8 {
		go func() {
			ch, err := c.Chart(ref)
			if err != nil {
				got <- err
				return
			}
			got <- ch
		}()
	}
	first := <-got
	for range 7 {
		if g := <-got; g != first {
			t.Errorf("got %v and %v", first, g)
		}
	}
	if source.LoadCount() > n+1 { // once, or not at all when an earlier test loaded it
		t.Errorf("parsed %d times", source.LoadCount()-n)
	}
}
