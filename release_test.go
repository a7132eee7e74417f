package drydock_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	goversion "go/version"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"text/template"

	"github.com/google/go-cmp/cmp"
	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	dockerparser "github.com/moby/buildkit/frontend/dockerfile/parser"
	"sigs.k8s.io/yaml"
)

// This file tests how drydock is built and installed outside a Go
// checkout: the go line, the release configuration (.goreleaser.yaml), the
// container images (Dockerfile, Dockerfile.goreleaser), install.sh, the
// pre-commit wrapper and the GitHub Action. The scripts run for real,
// against a fake release served on the loopback interface.

// goLine is go.mod's go line.
func goLine(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "edit", "-json").Output()
	if err != nil {
		t.Fatalf("go mod edit -json: %v", err)
	}
	var mod struct{ Go string }
	if err := json.Unmarshal(out, &mod); err != nil {
		t.Fatal(err)
	}
	return mod.Go
}

// TestGoLineIsDependenciesMax: go.mod asks for the oldest Go its
// dependencies allow (the highest go line among them), so it cannot drift
// up silently; `GOFLAGS=-mod=mod go mod tidy` after `go mod edit -go=1.21`
// finds the same.
func TestGoLineIsDependenciesMax(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-json", "all").Output()
	if err != nil {
		t.Fatalf("go list -m -json all: %v", err)
	}
	var maxGo, which string
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var m struct {
			Path, Version, GoVersion string
			Main                     bool
		}
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		if m.Main || m.GoVersion == "" {
			continue
		}
		if maxGo == "" || goversion.Compare("go"+m.GoVersion, "go"+maxGo) > 0 {
			maxGo, which = m.GoVersion, m.Path+"@"+m.Version
		}
	}
	if got := goLine(t); got != maxGo {
		t.Errorf("go.mod says go %s, but the highest go line of the dependencies is %s (%s): set go.mod's to it (go mod edit -go=%s)", got, maxGo, which, maxGo)
	}
}

// goreleaser is the part of .goreleaser.yaml the tests read.
type goreleaser struct {
	Version  int
	Builds   []goreleaserBuild
	Archives []struct {
		IDs             []string `json:"ids"`
		Formats         []string
		FormatOverrides []struct {
			Goos    string
			Formats []string
		} `json:"format_overrides"`
		NameTemplate string `json:"name_template"`
	}
	Checksum struct {
		NameTemplate string `json:"name_template"`
		Algorithm    string
	}
	SBOMs     []struct{ Artifacts string } `json:"sboms"`
	DockersV2 []struct {
		IDs        []string `json:"ids"`
		Dockerfile string
		Images     []string
		Platforms  []string
	} `json:"dockers_v2"`
	Changelog struct{ Use string }
}

// goreleaserBuild is one of .goreleaser.yaml's builds.
type goreleaserBuild struct {
	ID, Main, Binary string
	Env              []string
	Goos, Goarch     []string
	Flags, Ldflags   []string
	ModTimestamp     string `json:"mod_timestamp"`
}

func readGoreleaser(t *testing.T) goreleaser {
	t.Helper()
	data, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var g goreleaser
	if err := yaml.Unmarshal(data, &g); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	return g
}

// archiveName is a release archive's name as .goreleaser.yaml names it.
func archiveName(t *testing.T, g goreleaser, version, goos, goarch string) string {
	t.Helper()
	tpl, err := template.New("name").Parse(g.Archives[0].NameTemplate)
	if err != nil {
		t.Fatalf(".goreleaser.yaml: archives name_template: %v", err)
	}
	var b strings.Builder
	data := map[string]string{"ProjectName": "drydock", "Version": strings.TrimPrefix(version, "v"), "Os": goos, "Arch": goarch}
	if err := tpl.Execute(&b, data); err != nil {
		t.Fatal(err)
	}
	return b.String() + ".tar.gz"
}

// TestGoreleaserConfig: releases are two binaries, the front drydock and
// drydock-engine, linux/darwin/windows x amd64/arm64, static, -trimpath,
// stamped with tag, commit and the commit's date (never the clock), file
// times the commit's; archives holding both (zip on Windows), checksums,
// an SBOM per archive, a changelog, the container image with both.
func TestGoreleaserConfig(t *testing.T) {
	g := readGoreleaser(t)
	if g.Version != 2 {
		t.Errorf("version: %d, want 2 (goreleaser v2's schema)", g.Version)
	}
	if len(g.Builds) != 2 {
		t.Fatalf("%d builds, want 2 (drydock, drydock-engine)", len(g.Builds))
	}
	var ids []string
	for i, want := range []struct{ id, main, binary string }{{"drydock", "./cmd/drydock", "drydock"}, {"drydock-engine", "./cmd/drydock-engine", "drydock-engine"}} {
		b := g.Builds[i]
		ids = append(ids, b.ID)
		if b.ID != want.id || b.Main != want.main || b.Binary != want.binary {
			t.Errorf("builds[%d]: id %q main %q binary %q, want %s, %s and %s", i, b.ID, b.Main, b.Binary, want.id, want.main, want.binary)
		}
		checkBuild(t, b)
	}
	if len(g.Archives) != 1 {
		t.Fatalf("%d archives, want 1", len(g.Archives))
	}
	a := g.Archives[0]
	if !slices.Equal(a.IDs, ids) {
		t.Errorf("the archive holds the builds %q, want %q (the front runs the engine beside it)", a.IDs, ids)
	}
	if diff := cmp.Diff([]string{"tar.gz"}, a.Formats); diff != "" {
		t.Errorf("archive formats (-want +got):\n%s", diff)
	}
	if len(a.FormatOverrides) != 1 || a.FormatOverrides[0].Goos != "windows" || !slices.Equal(a.FormatOverrides[0].Formats, []string{"zip"}) {
		t.Errorf("format_overrides %+v, want zip on windows", a.FormatOverrides)
	}
	if got := archiveName(t, g, "v1.2.3", "linux", "arm64"); got != "drydock_1.2.3_linux_arm64.tar.gz" {
		t.Errorf("archive name %q, want drydock_1.2.3_linux_arm64.tar.gz", got)
	}
	if g.Checksum.NameTemplate != "checksums.txt" || g.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum %+v, want checksums.txt, sha256 (what install.sh reads)", g.Checksum)
	}
	if len(g.SBOMs) != 1 || g.SBOMs[0].Artifacts != "archive" {
		t.Errorf("sboms %+v, want one per archive", g.SBOMs)
	}
	if g.Changelog.Use != "git" {
		t.Errorf("changelog.use %q, want git", g.Changelog.Use)
	}
	if len(g.DockersV2) != 1 {
		t.Fatalf("dockers_v2: %d images, want 1", len(g.DockersV2))
	}
	d := g.DockersV2[0]
	if d.Dockerfile != "Dockerfile.goreleaser" || !slices.Equal(d.IDs, ids) || !slices.Equal(d.Images, []string{"ghcr.io/drydock-dev/drydock"}) || !slices.Equal(d.Platforms, []string{"linux/amd64", "linux/arm64"}) {
		t.Errorf("dockers_v2 %+v, want Dockerfile.goreleaser with both builds, ghcr.io/drydock-dev/drydock, linux amd64 and arm64", d)
	}
}

// checkBuild: a release build is linux/darwin/windows x amd64/arm64,
// static, -trimpath, stamped with tag, commit and the commit's date
// (never the clock), file times the commit's.
func checkBuild(t *testing.T, b goreleaserBuild) {
	t.Helper()
	t.Run(b.ID, func(t *testing.T) {
		if diff := cmp.Diff([]string{"linux", "darwin", "windows"}, b.Goos); diff != "" {
			t.Errorf("goos (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{"amd64", "arm64"}, b.Goarch); diff != "" {
			t.Errorf("goarch (-want +got):\n%s", diff)
		}
		if !slices.Contains(b.Env, "CGO_ENABLED=0") {
			t.Errorf("env %q: want CGO_ENABLED=0 (a static binary)", b.Env)
		}
		if !slices.Contains(b.Flags, "-trimpath") {
			t.Errorf("flags %q: want -trimpath", b.Flags)
		}
		if b.ModTimestamp != "{{ .CommitTimestamp }}" {
			t.Errorf("mod_timestamp %q, want {{ .CommitTimestamp }}", b.ModTimestamp)
		}
		ld := strings.Join(b.Ldflags, " ")
		for _, want := range []string{"-X main.version=v{{ .Version }}", "-X main.commit={{ .FullCommit }}", "-X main.date={{ .CommitDate }}"} {
			if !strings.Contains(ld, want) {
				t.Errorf("ldflags %q: want %q", ld, want)
			}
		}
		if strings.Contains(ld, ".Date") && !strings.Contains(ld, ".CommitDate") || strings.Contains(ld, "{{ .Date }}") {
			t.Errorf("ldflags %q stamp the clock: a rebuild would differ", ld)
		}
	})
}

// TestReleaseWorkflow: a pushed tag vX.Y.Z runs goreleaser release with
// the Go of go.mod's go line, from a full clone (the changelog and the
// commit date the binaries are stamped with), with the rights to publish
// the release's assets and image.
func TestReleaseWorkflow(t *testing.T) {
	data, err := os.ReadFile(".github/workflows/release.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		On struct {
			Push struct {
				Tags []string `json:"tags"`
			} `json:"push"`
		} `json:"on"`
		Permissions map[string]string `json:"permissions"`
		Jobs        map[string]struct {
			Steps []struct {
				Uses string            `json:"uses"`
				With map[string]any    `json:"with"`
				Env  map[string]string `json:"env"`
			} `json:"steps"`
		} `json:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(wf.On.Push.Tags, []string{"v*.*.*"}) {
		t.Errorf("on.push.tags %q, want [v*.*.*]", wf.On.Push.Tags)
	}
	if wf.Permissions["contents"] != "write" || wf.Permissions["packages"] != "write" {
		t.Errorf("permissions %v: want contents and packages write", wf.Permissions)
	}
	var checkout, goVersion, release bool
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			switch {
			case strings.HasPrefix(s.Uses, "actions/checkout@"):
				checkout = fmt.Sprint(s.With["fetch-depth"]) == "0"
			case strings.HasPrefix(s.Uses, "actions/setup-go@"):
				goVersion = s.With["go-version-file"] == "go.mod"
			case strings.HasPrefix(s.Uses, "goreleaser/goreleaser-action@"):
				release = s.With["args"] == "release --clean" && s.With["distribution"] == "goreleaser"
			}
		}
	}
	if !checkout || !goVersion || !release {
		t.Errorf("steps: full checkout %v, Go from go.mod %v, goreleaser release --clean %v: want all", checkout, goVersion, release)
	}
}

// dockerStages parses a Dockerfile as BuildKit does.
func dockerStages(t *testing.T, path string) []instructions.Stage {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ast, err := dockerparser.Parse(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	stages, _, err := instructions.Parse(ast.AST, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return stages
}

// checkFinalStage: the image drydock runs in is distroless's static base,
// as its non-root user, in /work, drydock its entrypoint with
// drydock-engine beside it.
func checkFinalStage(t *testing.T, path string, s instructions.Stage) {
	t.Helper()
	if s.BaseName != "gcr.io/distroless/static-debian12:nonroot" {
		t.Errorf("%s: the image's base is %s, want gcr.io/distroless/static-debian12:nonroot", path, s.BaseName)
	}
	var user, workdir string
	var entrypoint, copied []string
	for _, c := range s.Commands {
		switch c := c.(type) {
		case *instructions.CopyCommand:
			for _, src := range c.SourcePaths {
				copied = append(copied, c.DestPath+src[strings.LastIndex(src, "/")+1:])
			}
		case *instructions.UserCommand:
			user = c.User
		case *instructions.WorkdirCommand:
			workdir = c.Path
		case *instructions.EntrypointCommand:
			if c.PrependShell {
				t.Errorf("%s: ENTRYPOINT in shell form: the static image has no shell", path)
			}
			entrypoint = c.CmdLine
		}
	}
	if user != "65532:65532" {
		t.Errorf("%s: USER %q, want 65532:65532 (distroless's nonroot)", path, user)
	}
	if workdir != "/work" {
		t.Errorf("%s: WORKDIR %q, want /work", path, workdir)
	}
	if !slices.Equal(entrypoint, []string{"/usr/local/bin/drydock"}) {
		t.Errorf("%s: ENTRYPOINT %q, want [/usr/local/bin/drydock]", path, entrypoint)
	}
	if want := []string{"/usr/local/bin/drydock", "/usr/local/bin/drydock-engine"}; !slices.Equal(copied, want) {
		t.Errorf("%s: the image gets %q, want %q (the front runs the engine beside it)", path, copied, want)
	}
}

// TestDockerfile: the source build runs on go.mod's Go, builds the two
// static binaries with -trimpath, and the image runs them as a non-root
// user; the release image (Dockerfile.goreleaser) is the same image
// around the release binaries. (Registries are out of reach here: the files are
// checked, not built.)
func TestDockerfile(t *testing.T) {
	stages := dockerStages(t, "Dockerfile")
	if len(stages) != 2 {
		t.Fatalf("Dockerfile: %d stages, want 2 (build, image)", len(stages))
	}
	goMinor := strings.Join(strings.Split(goLine(t), ".")[:2], ".")
	if want := "golang:" + goMinor; stages[0].BaseName != want {
		t.Errorf("Dockerfile: builder %s, want %s (go.mod's go line)", stages[0].BaseName, want)
	}
	var build string
	for _, c := range stages[0].Commands {
		if r, ok := c.(*instructions.RunCommand); ok && strings.Contains(strings.Join(r.CmdLine, " "), "go build") {
			build = strings.Join(r.CmdLine, " ")
		}
	}
	for _, want := range []string{"CGO_ENABLED=0 go build", "-trimpath", "-X main.version=", "./cmd/drydock ", "./cmd/drydock-engine"} {
		if !strings.Contains(build, want) {
			t.Errorf("Dockerfile: the build %q lacks %q", build, want)
		}
	}
	checkFinalStage(t, "Dockerfile", stages[1])

	rel := dockerStages(t, "Dockerfile.goreleaser")
	if len(rel) != 1 {
		t.Fatalf("Dockerfile.goreleaser: %d stages, want 1", len(rel))
	}
	checkFinalStage(t, "Dockerfile.goreleaser", rel[0])
}

// TestVersionStamping: a release build's -X main.version/commit/date is
// what `drydock version` prints, the front's (which answers it) and the
// engine's alike.
func TestVersionStamping(t *testing.T) {
	dir := t.TempDir()
	ld := "-X main.version=v9.8.7 -X main.commit=0123456789abcdef0123456789abcdef01234567 -X main.date=2026-01-02T03:04:05Z"
	for _, pkg := range []string{"./cmd/drydock", "./cmd/drydock-engine"} {
		bin := filepath.Join(dir, filepath.Base(pkg))
		if out, err := exec.Command("go", "build", "-ldflags", ld, "-o", bin, pkg).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
		out, err := exec.Command(bin, "version").Output()
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(out), "\n")
		if want := "drydock v9.8.7 (commit 0123456789ab, built 2026-01-02T03:04:05Z) "; !strings.HasPrefix(first, want) {
			t.Errorf("%s: drydock version: %q, want it to start %q", pkg, first, want)
		}
	}
}

// release is a fake drydock release served over HTTP: per platform, an
// archive named as .goreleaser.yaml names it holding a drydock that prints
// its version and appends its arguments to $DRYDOCK_LOG and a
// drydock-engine; checksums.txt.
type release struct {
	version string
	srv     *httptest.Server
	hits    atomic.Int32
}

// fakeDrydock is the drydock of a fake release.
func fakeDrydock(version, platform string) string {
	return fmt.Sprintf("#!/bin/sh\n# %s\nif [ \"$1\" = version ]; then echo 'drydock %s (commit 0123456789ab) go1.26.0 %s'; exit 0; fi\necho \"$*\" >> \"$DRYDOCK_LOG\"\n", platform, version, platform)
}

// fakeEngine is the drydock-engine of a fake release.
func fakeEngine(version, platform string) string {
	return fmt.Sprintf("#!/bin/sh\n# drydock-engine %s %s\n", version, platform)
}

// checkEngine: the release's drydock-engine for platform is installed,
// executable, beside the drydock at front.
func checkEngine(t *testing.T, front, version, platform string) {
	t.Helper()
	engine := filepath.Join(filepath.Dir(front), "drydock-engine")
	got, err := os.ReadFile(engine)
	if err != nil || string(got) != fakeEngine(version, platform) {
		t.Errorf("%s: %q (%v), want the %s release's engine beside drydock", engine, got, err, platform)
	}
	if fi, err := os.Stat(engine); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("%s is not executable: %v", engine, err)
	}
}

// serveRelease serves version's archives; corrupt names the platform
// whose archive differs from what checksums.txt says.
func serveRelease(t *testing.T, version, corrupt string) *release {
	t.Helper()
	return serveReleaseOf(t, version, corrupt, true)
}

// serveReleaseOf is serveRelease, of a release from before the engine was
// split off (archives holding drydock alone) unless withEngine.
func serveReleaseOf(t *testing.T, version, corrupt string, withEngine bool) *release {
	t.Helper()
	g := readGoreleaser(t)
	files := map[string][]byte{}
	var sums strings.Builder
	for _, goos := range []string{"linux", "darwin"} {
		for _, goarch := range []string{"amd64", "arm64"} {
			name := archiveName(t, g, version, goos, goarch)
			bins := map[string]string{"drydock": fakeDrydock(version, goos+"/"+goarch), "drydock-engine": fakeEngine(version, goos+"/"+goarch), "LICENSE": "Apache-2.0\n"}
			if !withEngine {
				delete(bins, "drydock-engine")
			}
			data := tarGz(t, bins)
			sum := sha256.Sum256(data)
			fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
			if corrupt == goos+"/"+goarch {
				data = tarGz(t, map[string]string{"drydock": "#!/bin/sh\necho tampered\n"})
			}
			files[name] = data
		}
	}
	files[g.Checksum.NameTemplate] = []byte(sums.String())
	r := &release{version: version}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.hits.Add(1)
		dir, name := filepath.Split(req.URL.Path)
		data, ok := files[name]
		if !ok || dir != "/"+version+"/" {
			http.NotFound(w, req)
			return
		}
		w.Write(data)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// tarGz is a .tar.gz of executable files.
func tarGz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o755, Size: int64(len(files[n])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(files[n]))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// machine is the environment a script runs in: a uname that says what the
// test wants (uname -s, uname -m), a home, the fake release's base URL.
type machine struct {
	dir string
	env []string
}

func newMachine(t *testing.T, r *release, unameS, unameM string) *machine {
	t.Helper()
	dir := t.TempDir()
	fake := filepath.Join(dir, "fakebin")
	uname := fmt.Sprintf("#!/bin/sh\ncase $1 in -m) echo %s ;; *) echo %s ;; esac\n", unameM, unameS)
	if err := os.MkdirAll(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fake, "uname"), []byte(uname), 0o755); err != nil {
		t.Fatal(err)
	}
	m := &machine{dir: dir, env: []string{
		"PATH=" + fake + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + filepath.Join(dir, "home"),
		"DRYDOCK_LOG=" + filepath.Join(dir, "drydock.log"),
	}}
	if r != nil {
		m.env = append(m.env, "DRYDOCK_RELEASE_URL="+r.srv.URL)
	}
	return m
}

// putOnPath makes a fake drydock of version the first on the machine's PATH.
func (m *machine) putOnPath(t *testing.T, version string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(m.dir, "fakebin", "drydock"), []byte(fakeDrydock(version, "PATH")), 0o755); err != nil {
		t.Fatal(err)
	}
}

// run runs a command in the machine's environment, in its directory.
func (m *machine) run(name string, args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(name, args...)
	cmd.Env = m.env
	cmd.Dir = m.dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

func (m *machine) log(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(m.dir, "drydock.log"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

// TestInstallScript: install.sh installs the release binary of this
// machine's OS and architecture, and refuses an archive whose checksum is
// not checksums.txt's, an OS or architecture without a release, a version
// without a release.
func TestInstallScript(t *testing.T) {
	abs, err := filepath.Abs("install.sh")
	if err != nil {
		t.Fatal(err)
	}
	r := serveRelease(t, "v0.3.1", "darwin/amd64")
	installs := []struct{ unameS, unameM, platform string }{
		{"Linux", "x86_64", "linux/amd64"},
		{"Linux", "aarch64", "linux/arm64"},
		{"Darwin", "arm64", "darwin/arm64"},
	}
	for _, tt := range installs {
		m := newMachine(t, r, tt.unameS, tt.unameM)
		_, stderr, err := m.run("sh", abs, "-b", "out/bin", "v0.3.1")
		if err != nil {
			t.Errorf("%s %s: install.sh: %v\n%s", tt.unameS, tt.unameM, err, stderr)
			continue
		}
		got, err := os.ReadFile(filepath.Join(m.dir, "out/bin/drydock"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != fakeDrydock("v0.3.1", tt.platform) {
			t.Errorf("%s %s: installed\n%s\nwant the %s binary", tt.unameS, tt.unameM, got, tt.platform)
		}
		if fi, err := os.Stat(filepath.Join(m.dir, "out/bin/drydock")); err != nil || fi.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s %s: the installed drydock is not executable: %v", tt.unameS, tt.unameM, err)
		}
		checkEngine(t, filepath.Join(m.dir, "out/bin/drydock"), "v0.3.1", tt.platform)
		if want := "installed drydock v0.3.1 (" + tt.platform + ") as out/bin/drydock"; !strings.Contains(stderr, want) {
			t.Errorf("%s %s: stderr %q, want it to say %q", tt.unameS, tt.unameM, stderr, want)
		}
	}

	// A release from before the engine was split off: drydock alone.
	m := newMachine(t, serveReleaseOf(t, "v0.0.9", "", false), "Linux", "x86_64")
	if _, stderr, err := m.run("sh", abs, "-b", "out/bin", "v0.0.9"); err != nil {
		t.Errorf("a release without an engine: install.sh: %v\n%s", err, stderr)
	}
	if got, err := os.ReadFile(filepath.Join(m.dir, "out/bin/drydock")); err != nil || string(got) != fakeDrydock("v0.0.9", "linux/amd64") {
		t.Errorf("a release without an engine: installed %q (%v)", got, err)
	}
	if _, err := os.Stat(filepath.Join(m.dir, "out/bin/drydock-engine")); !os.IsNotExist(err) {
		t.Errorf("a release without an engine: a drydock-engine was installed (%v)", err)
	}

	refusals := []struct {
		name, unameS, unameM, version string
		want                          *regexp.Regexp
	}{
		{"bad checksum", "Darwin", "x86_64", "v0.3.1", regexp.MustCompile(`drydock_0\.3\.1_darwin_amd64\.tar\.gz: SHA-256 [0-9a-f]{64}, but checksums.txt says [0-9a-f]{64}: refusing it`)},
		{"unknown OS", "FreeBSD", "amd64", "v0.3.1", regexp.MustCompile(`no release binary for FreeBSD`)},
		{"unknown architecture", "Linux", "riscv64", "v0.3.1", regexp.MustCompile(`no release binary for riscv64`)},
		{"no such release", "Linux", "x86_64", "v0.3.2", regexp.MustCompile(`cannot download http://[^ ]+/v0\.3\.2/checksums\.txt \(is v0\.3\.2 a drydock release\?\)`)},
		{"not a tag", "Linux", "x86_64", "latest", regexp.MustCompile(`version latest is not a release tag`)},
	}
	for _, tt := range refusals {
		m := newMachine(t, r, tt.unameS, tt.unameM)
		_, stderr, err := m.run("sh", abs, "-b", "out/bin", tt.version)
		if err == nil {
			t.Errorf("%s: install.sh succeeded", tt.name)
		}
		if !tt.want.MatchString(stderr) {
			t.Errorf("%s: stderr %q, want %s", tt.name, stderr, tt.want)
		}
		if _, err := os.Stat(filepath.Join(m.dir, "out/bin/drydock")); !os.IsNotExist(err) {
			t.Errorf("%s: something was installed (%v)", tt.name, err)
		}
	}
}

// pinnedIn is the release a script pins: its `version=vX.Y.Z` line.
func pinnedIn(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^version=(v\S+)$`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("%s: no version=vX.Y.Z line", path)
	}
	return string(m[1])
}

// TestPreCommitWrapper: the hooks' wrapper runs a drydock on PATH of the
// pinned version; otherwise it installs the pinned release once into the
// cache and runs that, the next time without downloading.
func TestPreCommitWrapper(t *testing.T) {
	wrapper, err := filepath.Abs("scripts/pre-commit.sh")
	if err != nil {
		t.Fatal(err)
	}
	pinned := pinnedIn(t, "scripts/pre-commit.sh")
	if got := pinnedIn(t, "install.sh"); got != pinned {
		t.Errorf("install.sh pins %s, scripts/pre-commit.sh %s", got, pinned)
	}
	r := serveRelease(t, pinned, "")

	// A drydock of the pinned version on PATH: no download.
	m := newMachine(t, r, "Linux", "x86_64")
	m.putOnPath(t, pinned)
	if _, stderr, err := m.run("sh", wrapper, "test", "--affected", "apps/a.yaml"); err != nil {
		t.Fatalf("pre-commit.sh: %v\n%s", err, stderr)
	}
	if got := m.log(t); got != "test --affected apps/a.yaml\n" {
		t.Errorf("drydock on PATH ran with %q", got)
	}
	if n := r.hits.Load(); n != 0 {
		t.Errorf("%d downloads with the pinned drydock on PATH", n)
	}

	// Another version on PATH: the pinned release, installed into the cache.
	m = newMachine(t, r, "Linux", "aarch64")
	m.putOnPath(t, "v0.0.9")
	cached := filepath.Join(m.dir, "home/.cache/drydock/bin", pinned, "drydock")
	for range 2 {
		if _, stderr, err := m.run("sh", wrapper, "test"); err != nil {
			t.Fatalf("pre-commit.sh: %v\n%s", err, stderr)
		}
	}
	if got := m.log(t); got != "test\ntest\n" {
		t.Errorf("the cached drydock ran with %q, want two runs of test", got)
	}
	if got, err := os.ReadFile(cached); err != nil || string(got) != fakeDrydock(pinned, "linux/arm64") {
		t.Errorf("%s: %q, %v; want the linux/arm64 release binary", cached, got, err)
	}
	checkEngine(t, cached, pinned, "linux/arm64")
	if n := r.hits.Load(); n != 2 {
		t.Errorf("%d downloads for two runs, want 2 (checksums.txt and the archive, once)", n)
	}
}

// TestPreCommitHooks: the hooks run the wrapper (language: script), not a
// compiled drydock (language: golang).
func TestPreCommitHooks(t *testing.T) {
	data, err := os.ReadFile(".pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct{ ID, Entry, Language string }
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hooks {
		got = append(got, h.ID+": "+h.Language+" "+h.Entry)
	}
	want := []string{
		"drydock-test: script scripts/pre-commit.sh test",
		"drydock-render-check: script scripts/pre-commit.sh test --affected",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf(".pre-commit-hooks.yaml (-want +got):\n%s", diff)
	}
}

// action is the part of action.yml the tests read.
type action struct {
	Inputs map[string]struct{ Default string }
	Runs   struct {
		Using string
		Steps []struct {
			ID, Name, Uses, Shell, Run string
			WorkingDirectory           string `json:"working-directory"`
			Env, With                  map[string]string
		}
	}
}

// expr evaluates the ${{ }} expressions of a string from a table; an
// expression the table lacks fails the test.
func expr(t *testing.T, s string, values map[string]string) string {
	t.Helper()
	return regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`).ReplaceAllStringFunc(s, func(e string) string {
		key := strings.TrimSpace(e[3 : len(e)-2])
		v, ok := values[key]
		if !ok {
			t.Fatalf("action.yml: the test does not know ${{ %s }}", key)
		}
		return v
	})
}

// TestAction: action.yml's steps, run as a runner runs them (sh -e, bash
// -eo pipefail, the env and paths a runner gives) against the fake
// release: install.sh installs the release, and the drydock step runs
// `drydock test --ci --format github` or `drydock diff --format github
// --base BASE` with the args input.
func TestAction(t *testing.T) {
	data, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if a.Runs.Using != "composite" || len(a.Runs.Steps) != 3 {
		t.Fatalf("action.yml: runs %s with %d steps, want composite, 3 (cache, install, drydock)", a.Runs.Using, len(a.Runs.Steps))
	}
	pinned := pinnedIn(t, "install.sh")
	if got := a.Inputs["version"].Default; got != pinned {
		t.Errorf("action.yml: version defaults to %s, install.sh to %s", got, pinned)
	}
	for _, s := range a.Runs.Steps {
		if strings.Contains(s.Run, "${{") {
			t.Errorf("action.yml: step %q puts an expression in its script (pass it through env)", s.Name)
		}
	}
	repo, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	r := serveRelease(t, "v0.4.0", "")
	m := newMachine(t, r, "Linux", "x86_64")
	gitInit(t, m)
	base, _, err := m.run("git", "rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	toolCache := filepath.Join(m.dir, "toolcache")
	values := map[string]string{
		"runner.tool_cache": toolCache, "runner.arch": "X64", "runner.os": "Linux",
		"inputs.version": "v0.4.0", "inputs.github-token": "", "inputs.working-directory": ".",
		"inputs.base || github.event.pull_request.base.sha": strings.TrimSpace(base),
	}
	cache, install, run := a.Runs.Steps[0], a.Runs.Steps[1], a.Runs.Steps[2]
	if cache.Uses != "actions/cache@v4" || expr(t, cache.With["path"], values) != expr(t, install.Env["DIR"], values) {
		t.Errorf("action.yml: the cache step %+v does not cache the install step's DIR %s", cache, install.Env["DIR"])
	}

	// The install step.
	out := step(t, m, install.Shell, install.Run, install.Env, values, map[string]string{"GITHUB_ACTION_PATH": repo})
	values["steps.install.outputs.path"] = out["path"]
	if want := filepath.Join(toolCache, "drydock/v0.4.0/X64/drydock"); out["path"] != want {
		t.Errorf("install step: path %q, want %s", out["path"], want)
	}
	if got, err := os.ReadFile(out["path"]); err != nil || string(got) != fakeDrydock("v0.4.0", "linux/amd64") {
		t.Errorf("install step installed %q (%v), want the linux/amd64 release binary", got, err)
	}
	checkEngine(t, out["path"], "v0.4.0", "linux/amd64")

	// The drydock step, for each command.
	for _, tt := range []struct{ command, args, want string }{
		{"test", "", "test --ci --format github"},
		{"test", "--suite web  --workers 2", "test --ci --format github --suite web --workers 2"},
		{"diff", "apps", "diff --format github --base " + strings.TrimSpace(base) + " apps"},
	} {
		values["inputs.command"], values["inputs.args"] = tt.command, tt.args
		os.Remove(filepath.Join(m.dir, "drydock.log"))
		step(t, m, run.Shell, run.Run, run.Env, values, nil)
		if got := m.log(t); got != tt.want+"\n" {
			t.Errorf("command %s args %q: drydock ran with %q, want %q", tt.command, tt.args, got, tt.want)
		}
	}
	values["inputs.command"], values["inputs.args"] = "render", ""
	if _, stdout, err := runStep(t, m, run.Shell, run.Run, run.Env, values, nil); err == nil || !strings.Contains(stdout, "::error title=drydock action::command must be test or diff") {
		t.Errorf("command render: %v, stdout %q; want a failure and an error annotation", err, stdout)
	}
}

// gitInit makes the machine's directory a repository with one commit.
func gitInit(t *testing.T, m *machine) {
	t.Helper()
	m.env = append(m.env, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
	for _, args := range [][]string{{"init", "-q"}, {"commit", "-q", "--allow-empty", "-m", "base"}} {
		if _, stderr, err := m.run("git", args...); err != nil {
			t.Fatalf("git %s: %v\n%s", args, err, stderr)
		}
	}
}

// step runs an action step's script and returns what it wrote to
// $GITHUB_OUTPUT; a failure fails the test.
func step(t *testing.T, m *machine, shell, script string, env, values, extra map[string]string) map[string]string {
	t.Helper()
	outputs, stdout, err := runStep(t, m, shell, script, env, values, extra)
	if err != nil {
		t.Fatalf("step: %v\n%s", err, stdout)
	}
	return outputs
}

// runStep runs a step's script as a runner does: `sh -e FILE` or `bash
// --noprofile --norc -eo pipefail FILE`, with its env evaluated and
// GITHUB_OUTPUT, GITHUB_PATH and GITHUB_STEP_SUMMARY files.
func runStep(t *testing.T, m *machine, shell, script string, env, values, extra map[string]string) (map[string]string, string, error) {
	t.Helper()
	file := filepath.Join(m.dir, "step.sh")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	output := filepath.Join(m.dir, "github_output")
	os.Remove(output)
	saved := m.env
	defer func() { m.env = saved }()
	m.env = append(slices.Clone(m.env), "GITHUB_OUTPUT="+output, "GITHUB_PATH="+filepath.Join(m.dir, "github_path"), "GITHUB_STEP_SUMMARY="+filepath.Join(m.dir, "summary.md"))
	for k, v := range env {
		m.env = append(m.env, k+"="+expr(t, v, values))
	}
	for k, v := range extra {
		m.env = append(m.env, k+"="+v)
	}
	var stdout, stderr string
	var err error
	switch shell {
	case "sh":
		stdout, stderr, err = m.run("sh", "-e", file)
	case "bash":
		stdout, stderr, err = m.run("bash", "--noprofile", "--norc", "-eo", "pipefail", file)
	default:
		t.Fatalf("action.yml: shell %q", shell)
	}
	outputs := map[string]string{}
	data, _ := os.ReadFile(output)
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			outputs[k] = v
		}
	}
	return outputs, stdout + stderr, err
}
