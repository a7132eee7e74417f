//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// The benchmarks here run drydock as users do, one process per
// operation (this test binary, which is the CLI under the name
// "drydock": see TestMain), and report what the process cost: CPU
// seconds (user+sys), peak RSS and, for renders of many applications,
// applications per second of wall time. Output trees go to a directory
// under $DRYDOCK_BENCH_DIR (default: the test's temporary directory), so
// that a file system slow to create files can be kept out of the figures.

// BenchmarkCLIRender1000Apps: `drydock render --output-dir` of 1,000
// webservice+scaler applications.
func BenchmarkCLIRender1000Apps(b *testing.B) { benchApps(b, 1000) }

// BenchmarkCLIRender10000Apps: the same with 10,000.
func BenchmarkCLIRender10000Apps(b *testing.B) { benchApps(b, 10000) }

// BenchmarkCLIRender1000AppsValidate: the 1,000 applications rendered
// with --validate (compare with BenchmarkCLIRender1000Apps).
func BenchmarkCLIRender1000AppsValidate(b *testing.B) { benchApps(b, 1000, "--validate") }

func benchApps(b *testing.B, n int, flags ...string) {
	in := writeBenchFile(b, "apps.yaml", generateApps(n))
	m := benchCLI(b, func(out string) []string { return append([]string{"render", in, "--output-dir", out}, flags...) })
	b.ReportMetric(float64(n)/m.wall.Seconds(), "apps/s")
}

// BenchmarkCLIDiff1000Apps: `drydock diff --base-dir` of the 1,000 apps
// against a base where every tenth one had another image: two renders
// and the reconcile (compare with BenchmarkCLIRender1000Apps).
func BenchmarkCLIDiff1000Apps(b *testing.B) {
	dir := b.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "base"), 0o755); err != nil {
		b.Fatal(err)
	}
	now := generateApps(1000)
	was := strings.ReplaceAll(now, "0\n        ports:", "0-old\n        ports:")
	for name, data := range map[string]string{"apps.yaml": now, "base/apps.yaml": was} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	m := benchCLI(b, func(string) []string { return []string{"diff", "--base-dir", filepath.Join(dir, "base"), "apps.yaml"} }, dir)
	b.ReportMetric(1000/m.wall.Seconds(), "apps/s")
}

// BenchmarkCLIColdRender: one process rendering the bundled example, the
// cost of a pre-commit hook's single render.
func BenchmarkCLIColdRender(b *testing.B) {
	example, err := filepath.Abs("../../examples/first-vela-app.yaml")
	if err != nil {
		b.Fatal(err)
	}
	benchCLI(b, func(out string) []string { return []string{"render", example, "--output-dir", out} })
}

// BenchmarkCLIVersion: the cost of starting the process.
func BenchmarkCLIVersion(b *testing.B) {
	benchCLI(b, func(string) []string { return []string{"version"} })
}

// BenchmarkCLIKarmada: 1,000 Deployment templates propagated to 10
// member clusters through one ClusterPropagationPolicy and 5 override
// policies (10,000 objects out).
func BenchmarkCLIKarmada(b *testing.B) {
	in := writeBenchFile(b, "karmada.yaml", generateKarmada(1000, 10))
	m := benchCLI(b, func(out string) []string {
		return []string{"render", in, "--clusters-from-inputs", "--output-dir", out}
	})
	b.ReportMetric(float64(10000)/m.wall.Seconds(), "objects/s")
}

// BenchmarkCLIDefinitionTests: `drydock test --definitions-only` of 200
// definition tests of webservice, with the built-in definitions' CUE
// given again as -d (a suite whose authors keep their definitions in
// the repository): the tests share the suite's definitions.
func BenchmarkCLIDefinitionTests(b *testing.B) {
	dir := b.TempDir()
	defs := filepath.Join(dir, "defs")
	if err := os.Mkdir(defs, 0o755); err != nil {
		b.Fatal(err)
	}
	builtins, err := filepath.Glob("../../render/builtin/*.cue")
	if err != nil || len(builtins) == 0 {
		b.Fatalf("no built-in definitions: %v", err)
	}
	for _, f := range builtins {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(defs, filepath.Base(f)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var tests strings.Builder
	tests.WriteString("tests:\n")
	for i := range 200 {
		fmt.Fprintf(&tests, `  - name: web %d
    definition: webservice
    properties: {image: "nginx:%d", ports: [{port: 80, expose: true}]}
    asserts:
      - equal: {path: "output.spec.template.spec.containers[0].image", value: "nginx:%d"}
`, i, i, i)
	}
	files := map[string]string{
		"drydock.yaml":       "suites:\n  - {name: defs, inputs: [app.yaml], definitions: [defs], validate: false}\n",
		"app.yaml":           "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: []\n",
		"defs/web_test.yaml": tests.String(),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	benchCLI(b, func(string) []string { return []string{"test", "--definitions-only"} }, dir)
}

// BenchmarkCLIPlainFiles500: `drydock test -p policy DIR` of 500 plain
// manifest files (plainbench_test.go) with conftest's examples/kubernetes
// policy. With the 1,290 and 2,580 file ones, it shows whether peak RSS
// grows with the number of files.
func BenchmarkCLIPlainFiles500(b *testing.B) { benchPlain(b, 500) }

// BenchmarkCLIPlainFiles1290: the same with 1,290 files.
func BenchmarkCLIPlainFiles1290(b *testing.B) { benchPlain(b, 1290) }

// BenchmarkCLIPlainFiles2580: the same with 2,580 files.
func BenchmarkCLIPlainFiles2580(b *testing.B) { benchPlain(b, 2580) }

func benchPlain(b *testing.B, n int) {
	dir := b.TempDir()
	if err := writePlainFiles(filepath.Join(dir, "manifests"), n); err != nil {
		b.Fatal(err)
	}
	policy, err := filepath.Abs("testdata/plainbench/policy")
	if err != nil {
		b.Fatal(err)
	}
	// The policy denies some documents: drydock exits 1.
	m := benchCLIExit(b, 1, func(string) []string { return []string{"test", "-p", policy, "manifests"} }, dir)
	b.ReportMetric(float64(n)/m.wall.Seconds(), "files/s")
}

// usageEnv names the file a benchmarked drydock process writes its cost
// to (writeUsage): the process measures itself because the kernel's
// figure for a child (wait4's ru_maxrss) includes the memory of the
// parent it was forked from, this benchmark's own heap, before the exec.
const usageEnv = "DRYDOCK_USAGE"

// measured is what b.N processes cost, per process.
type measured struct {
	wall, cpu time.Duration
	peakKiB   int64
}

// benchCLI runs drydock b.N times with the arguments args gives for a
// fresh output directory, and reports cpu-s/op and peak-rss-MiB (the
// highest of the runs).
func benchCLI(b *testing.B, args func(out string) []string, dir ...string) measured {
	b.Helper()
	return benchCLIExit(b, 0, args, dir...)
}

// benchCLIExit is benchCLI for a command that exits with code.
func benchCLIExit(b *testing.B, code int, args func(out string) []string, dir ...string) measured {
	b.Helper()
	exe := drydockExe(b)
	base := os.Getenv("DRYDOCK_BENCH_DIR")
	if base == "" {
		base = b.TempDir()
	}
	var total measured
	n := 0
	for b.Loop() {
		out, err := os.MkdirTemp(base, "drydock-bench-")
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.RemoveAll(out) }) // when a run fails
		usage := filepath.Join(out, "usage")
		cmd := exec.Command(exe, args(filepath.Join(out, "tree"))...)
		cmd.Env = append(os.Environ(), usageEnv+"="+usage)
		if len(dir) > 0 {
			cmd.Dir = dir[0]
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		start := time.Now()
		if err := cmd.Run(); cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != code {
			b.Fatalf("drydock %s: %v\n%s", strings.Join(cmd.Args[1:], " "), err, stderr.String())
		}
		total.wall += time.Since(start)
		var cpuNs, peak int64
		if data, err := os.ReadFile(usage); err != nil {
			b.Fatal(err)
		} else if _, err := fmt.Sscan(string(data), &cpuNs, &peak); err != nil {
			b.Fatalf("%s: %v", usage, err)
		}
		total.cpu += time.Duration(cpuNs)
		total.peakKiB = max(total.peakKiB, peak)
		n++
		b.StopTimer()
		if err := os.RemoveAll(out); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	per := measured{wall: total.wall / time.Duration(n), cpu: total.cpu / time.Duration(n), peakKiB: total.peakKiB}
	b.ReportMetric(per.cpu.Seconds(), "cpu-s/op")
	b.ReportMetric(float64(per.peakKiB)/1024, "peak-rss-MiB")
	return per
}

// drydockExe is drydock built as it is released (.goreleaser.yaml,
// Dockerfile: CGO_ENABLED=0, -trimpath): the front, drydock, with this
// package, drydock-engine, beside it, once per benchmark process, into a
// temporary directory that TestMain removes (benchDone). It returns the
// front, which answers version itself and execs the engine for the rest:
// the figures are those of the binaries users run (one process, the exec
// included), not of this test binary, which links the tests' packages
// and cgo.
func drydockExe(b *testing.B) string {
	b.Helper()
	benchExe.once.Do(func() {
		dir, err := os.MkdirTemp("", "drydock-bench-exe-")
		if err != nil {
			benchExe.err = err
			return
		}
		benchDone = func() { os.RemoveAll(dir) }
		cmd := exec.Command("go", "build", "-trimpath", "-o", dir+string(filepath.Separator), "../drydock", ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			benchExe.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		benchExe.path = filepath.Join(dir, "drydock")
	})
	if benchExe.err != nil {
		b.Fatal(benchExe.err)
	}
	return benchExe.path
}

// benchExe is drydockExe's build.
var benchExe struct {
	once sync.Once
	path string
	err  error
}

func writeBenchFile(b *testing.B, name, data string) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// generateApps is n Applications of one webservice with a scaler each,
// over 10 namespaces.
func generateApps(n int) string {
	var sb strings.Builder
	for i := range n {
		fmt.Fprintf(&sb, `---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: app-%d
  namespace: team-%d
spec:
  components:
    - name: web-%d
      type: webservice
      properties:
        image: registry.example.com/web:%d
        ports:
          - port: 8080
            expose: true
        env:
          - name: INDEX
            value: "%d"
      traits:
        - type: scaler
          properties:
            replicas: %d
`, i, i%10, i, i, i, 1+i%5)
	}
	return sb.String()
}

// generateKarmada is members member clusters, a ClusterPropagationPolicy
// placing every Deployment on all of them, 5 override policies (image,
// labels, command, plaintext, annotations) and n Deployment templates.
func generateKarmada(n, members int) string {
	var sb strings.Builder
	for i := range members {
		fmt.Fprintf(&sb, "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member%02d\n  labels: {env: prod, zone: z%d}\nspec: {provider: aws, region: r%d}\n", i, i%3, i%2)
	}
	sb.WriteString(`---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: all}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    clusterAffinity: {labelSelector: {matchLabels: {env: prod}}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: registry}
spec:
  overrideRules:
    - targetCluster: {fieldSelector: {matchExpressions: [{key: region, operator: In, values: [r1]}]}}
      overriders:
        imageOverrider: [{component: Registry, operator: replace, value: mirror.example.com}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: labels}
spec:
  overrideRules:
    - overriders:
        labelsOverrider: [{operator: add, value: {team: shop, tier: web}}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: command, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: web}}}]
  overrideRules:
    - targetCluster: {labelSelector: {matchLabels: {zone: z1}}}
      overriders:
        commandOverrider: [{containerName: web, operator: add, value: [--verbose]}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: replicas, namespace: default}
spec:
  overrideRules:
    - targetCluster: {clusterNames: [member00, member01]}
      overriders:
        plaintext: [{path: /spec/replicas, operator: replace, value: 5}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: annotations, namespace: default}
spec:
  overrideRules:
    - overriders:
        annotationsOverrider: [{operator: add, value: {owner: platform}}]
`)
	for i := range n {
		fmt.Fprintf(&sb, `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web-%d, namespace: default, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: registry.example.com/team/web:%d
          command: [/bin/web]
          env: [{name: INDEX, value: "%d"}]
`, i, i, i)
	}
	return sb.String()
}

// BenchmarkCLIRender1000AppsWarm: the 1,000 applications rendered with a
// render cache warmed outside the timed loop, one application changed
// per op (its image): one render, 999 hits.
func BenchmarkCLIRender1000AppsWarm(b *testing.B) { benchAppsWarm(b, 1000) }

// BenchmarkCLIRender10000AppsWarm: the same with 10,000.
func BenchmarkCLIRender10000AppsWarm(b *testing.B) { benchAppsWarm(b, 10000) }

// BenchmarkCLIRender1000AppsValidateWarm: BenchmarkCLIRender1000AppsWarm
// with --validate (the findings cache: one application's objects
// validated again).
func BenchmarkCLIRender1000AppsValidateWarm(b *testing.B) { benchAppsWarm(b, 1000, "--validate") }

func benchAppsWarm(b *testing.B, n int, flags ...string) {
	apps := generateApps(n)
	in := writeBenchFile(b, "apps.yaml", apps)
	cacheDir := b.TempDir()
	warm := exec.Command(drydockExe(b), append([]string{"render", in, "--cache", cacheDir, "--output-dir", filepath.Join(b.TempDir(), "tree")}, flags...)...)
	if out, err := warm.CombinedOutput(); err != nil {
		b.Fatalf("warm the cache: %v\n%s", err, out)
	}
	op := 0
	m := benchCLI(b, func(out string) []string {
		// App op%n gets another image, the others are as cached (the
		// one changed by the op before is back to its cached self).
		i := op % n
		op++
		changed := strings.Replace(apps, fmt.Sprintf("web:%d\n", i), fmt.Sprintf("web:%d-changed\n", i), 1)
		if err := os.WriteFile(in, []byte(changed), 0o644); err != nil {
			b.Fatal(err)
		}
		return append([]string{"render", in, "--cache", cacheDir, "--output-dir", out}, flags...)
	})
	b.ReportMetric(float64(n)/m.wall.Seconds(), "apps/s")
}

// BenchmarkCLITest10000AppsOneChanged: `drydock test` of a drydock.yaml
// suite of 10,000 applications (one file each, webservice+scaler) with
// its golden tree, the pre-commit case: before each run one application's
// image is edited and its golden file updated with it, and the test
// passes. Set up outside the timed runs: `drydock test --update` once and
// one warm run (the cache, in its own directory, then holds every
// render and golden comparison).
func BenchmarkCLITest10000AppsOneChanged(b *testing.B) { benchTestFleet(b, 10000, true) }

// BenchmarkCLITest10000AppsOneChangedNoValidate: the same with the suite's
// validation off (validate: false): the render cache's part alone.
func BenchmarkCLITest10000AppsOneChangedNoValidate(b *testing.B) {
	benchTestFleet(b, 10000, true, "validate: false")
}

// BenchmarkCLITest10000AppsOneDrifted: the same suite, but the golden
// file is not updated: the test reports the drift and its cause (the
// image's line), rendering again only that application with provenance.
func BenchmarkCLITest10000AppsOneDrifted(b *testing.B) { benchTestFleet(b, 10000, false) }

func benchTestFleet(b *testing.B, n int, updateGolden bool, suiteKeys ...string) {
	dir := b.TempDir()
	if base := os.Getenv("DRYDOCK_BENCH_DIR"); base != "" {
		var err error
		if dir, err = os.MkdirTemp(base, "drydock-fleet-"); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.RemoveAll(dir) })
	}
	f := writeFleet(b, dir, n, suiteKeys...)
	b.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache")) // the cache starts empty
	for _, args := range [][]string{{"test", "--update"}, {"test"}} {
		cmd := exec.Command(drydockExe(b), args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("drydock %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	code, op := 0, 0
	if !updateGolden {
		code = 1
	}
	m := benchCLIExit(b, code, func(string) []string {
		op++
		f.edit(b, op, updateGolden)
		return []string{"test"}
	}, dir)
	b.ReportMetric(m.wall.Seconds(), "wall-s/op")
}

// fleet is a suite of applications written by writeFleet.
type fleet struct {
	dir string
	n   int
	// edited is the application the last edit changed (-1: none).
	edited int
}

// writeFleet writes n applications as generateApps makes them, one file
// each (apps/team-K/app-I.yaml), and a drydock.yaml with one suite of them
// with a golden tree (golden/) and suiteKeys.
func writeFleet(b *testing.B, dir string, n int, suiteKeys ...string) *fleet {
	f := &fleet{dir: dir, n: n, edited: -1}
	for i := range n {
		f.write(b, i, "")
	}
	keys := strings.Join(append([]string{"name: fleet", "inputs: [apps]", "golden: golden"}, suiteKeys...), ", ")
	if err := os.WriteFile(filepath.Join(dir, "drydock.yaml"), []byte("suites:\n  - {"+keys+"}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return f
}

// write writes application i (generateApps's) with its image's tag
// suffixed by suffix.
func (f *fleet) write(b *testing.B, i int, suffix string) {
	app := fmt.Sprintf(`apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: app-%[1]d
  namespace: team-%[2]d
spec:
  components:
    - name: web-%[1]d
      type: webservice
      properties:
        image: registry.example.com/web:%[1]d%[4]s
        ports:
          - port: 8080
            expose: true
        env:
          - name: INDEX
            value: "%[1]d"
      traits:
        - type: scaler
          properties:
            replicas: %[3]d
`, i, i%10, 1+i%5, suffix)
	p := filepath.Join(f.dir, "apps", fmt.Sprintf("team-%d", i%10), fmt.Sprintf("app-%d.yaml", i))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(app), 0o644); err != nil {
		b.Fatal(err)
	}
}

// edit changes one application's image for run op (another application
// each run) and, with golden, its golden file as drydock test --update
// would; without, the application edited before is put back first, so
// that one application drifts.
func (f *fleet) edit(b *testing.B, op int, golden bool) {
	i := op * 7919 % f.n
	suffix := fmt.Sprintf("-v%d", op)
	if !golden && f.edited >= 0 {
		f.write(b, f.edited, "")
	}
	f.write(b, i, suffix)
	f.edited = i
	if !golden {
		return
	}
	p := filepath.Join(f.dir, "golden", "local", fmt.Sprintf("team-%d", i%10), fmt.Sprintf("deployment.apps_web-%d.yaml", i))
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	re := regexp.MustCompile(fmt.Sprintf(`web:%d(-v\d+)?\n`, i))
	if !re.Match(data) {
		b.Fatalf("%s: no image web:%d", p, i)
	}
	if err := os.WriteFile(p, re.ReplaceAll(data, []byte(fmt.Sprintf("web:%d%s\n", i, suffix))), 0o644); err != nil {
		b.Fatal(err)
	}
}
