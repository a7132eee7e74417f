package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/check"
	"github.com/drydock-dev/drydock/manifest"
)

// init surveys what it can read: a file past MaxInputBytes (a big JSON
// fixture) is passed over, not an error.
func TestSurveySkipsLargeFiles(t *testing.T) {
	root := t.TempDir()
	app := "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec: {components: []}\n"
	if err := os.MkdirAll(filepath.Join(root, "apps"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "apps", "app.yaml"), []byte(app), 0o644); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(root, "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(manifest.MaxInputBytes + 1); err != nil { // sparse
		t.Fatal(err)
	}
	big.Close()
	found, err := survey(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(found.inputs) != 1 || found.inputs[0] != "apps" {
		t.Errorf("inputs %q, want [apps]", found.inputs)
	}
}

// init writes drydock.yaml through the YAML encoder: directory names that
// plain YAML would read as something else (a flow separator, a boolean, a
// comment, a mapping, a list item) load back as themselves.
func TestInitConfigRoundTrips(t *testing.T) {
	dirs := []string{"a,b", "yes", "#notes", "x: y", "-dash", "[x]", "'q'", "on"}
	repo := filepath.Join(t.TempDir(), "yes")
	for _, d := range dirs {
		writeTestFile(t, filepath.Join(repo, d, "app.yaml"), "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec: {components: []}\n")
	}
	t.Chdir(repo)
	var stdout, stderr strings.Builder
	if code := runInit(nil, &stdout, &stderr); code != exitOK {
		t.Fatalf("drydock init: exit %d: %s", code, stderr.String())
	}
	cfg, err := check.LoadConfig("drydock.yaml")
	if err != nil {
		data, _ := os.ReadFile("drydock.yaml")
		t.Fatalf("the written drydock.yaml does not load: %v\n%s", err, data)
	}
	type suite struct {
		Name, Golden string
		Inputs       []string
	}
	want := []suite{{Name: "yes", Golden: "golden/yes", Inputs: slices.Sorted(slices.Values(dirs))}}
	var got []suite
	for _, s := range cfg.Suites {
		got = append(got, suite{s.Name, s.Golden, slices.Sorted(slices.Values(s.Inputs))})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		data, _ := os.ReadFile("drydock.yaml")
		t.Errorf("suites (-want +got):\n%s\ndrydock.yaml:\n%s", diff, data)
	}
}

// init writes nothing through a symbolic link leading out of the
// repository; a link inside it is followed.
func TestInitLinks(t *testing.T) {
	tests := []struct {
		name string
		// link is made at from, to (relative to the repository's parent).
		from, to string
		code     int
		stderr   string
		// written is where the workflow lands ("" for nowhere).
		written string
	}{
		// The survey's walk refuses this one before init writes.
		{name: ".github out", from: "repo/.github", to: "../outside", code: exitUsage,
			stderr: "drydock init: .github: symlink leads outside the repository"},
		{name: ".github/workflows out", from: "repo/.github/workflows", to: "../../outside", code: exitUsage,
			stderr: "drydock init: .github/workflows: a symbolic link that leads outside the repository (to " + filepath.Join("ABS", "outside") + "): .github/workflows/drydock.yml not written"},
		{name: ".github/workflows absolute out", from: "repo/.github/workflows", to: "ABS/outside", code: exitUsage,
			stderr: "drydock init: .github/workflows: a symbolic link that leads outside the repository (to " + filepath.Join("ABS", "outside") + "): .github/workflows/drydock.yml not written"},
		{name: "dangling .github/workflows", from: "repo/.github/workflows", to: "nowhere", code: exitUsage,
			stderr: "drydock init: .github/workflows: a symbolic link that does not resolve"},
		{name: ".github/workflows inside", from: "repo/.github/workflows", to: "../ci", code: exitOK, written: "repo/ci/drydock.yml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := t.TempDir()
			realTop, err := filepath.EvalSymlinks(top)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(top, "outside"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(top, "repo", "ci"), 0o755); err != nil {
				t.Fatal(err)
			}
			from := filepath.Join(top, tt.from)
			if err := os.MkdirAll(filepath.Dir(from), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(strings.ReplaceAll(tt.to, "ABS", top), from); err != nil {
				t.Fatal(err)
			}
			t.Chdir(filepath.Join(top, "repo"))
			var stdout, stderr strings.Builder
			if code := runInit(nil, &stdout, &stderr); code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr.String())
			}
			if want := strings.ReplaceAll(tt.stderr, "ABS", realTop); !strings.Contains(stderr.String(), want) {
				t.Errorf("stderr %q, want it to contain %q", stderr.String(), tt.stderr)
			}
			if entries, _ := os.ReadDir(filepath.Join(top, "outside")); len(entries) > 0 {
				t.Errorf("init wrote outside the repository: %v", entries)
			}
			if tt.written == "" && strings.Contains(stdout.String(), "wrote") {
				t.Errorf("init wrote files before refusing: %q", stdout.String())
			}
			if tt.written != "" {
				if _, err := os.Lstat(filepath.Join(top, tt.written)); err != nil {
					t.Errorf("the workflow is not at %s: %v", tt.written, err)
				}
			}
		})
	}
}

func writeTestFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An existing policy directory without Rego is neither written into nor
// named as the suites' policies (it would hold no rule); without one,
// policy/main.rego is written and named.
func TestInitPolicyDir(t *testing.T) {
	app := "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec: {components: []}\n"
	for _, tt := range []struct {
		name     string
		policy   map[string]string
		wantKey  bool
		wantRego bool
	}{
		{name: "none", wantKey: true, wantRego: true},
		{name: "empty", policy: map[string]string{"README.md": "notes\n"}, wantKey: false},
		{name: "rego", policy: map[string]string{"deny.rego": "package main\n"}, wantKey: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			repo := filepath.Join(t.TempDir(), "repo")
			writeTestFile(t, filepath.Join(repo, "apps", "app.yaml"), app)
			for name, body := range tt.policy {
				writeTestFile(t, filepath.Join(repo, "policy", name), body)
			}
			t.Chdir(repo)
			var stdout, stderr strings.Builder
			if code := runInit(nil, &stdout, &stderr); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			cfg, err := check.LoadConfig("drydock.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if got := len(cfg.Suites[0].Policies) > 0; got != tt.wantKey {
				t.Errorf("policies key %v, want %v", cfg.Suites[0].Policies, tt.wantKey)
			}
			_, err = os.Stat(filepath.Join("policy", "main.rego"))
			if got := err == nil; got != tt.wantRego {
				t.Errorf("policy/main.rego written: %v, want %v\n%s", got, tt.wantRego, stdout.String())
			}
		})
	}
}
