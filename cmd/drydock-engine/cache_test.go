package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// renderThrice runs args without a cache, then twice with the cache dir
// (cold, then warm), in dir, and fails unless the three give the same
// exit code, stdout and stderr byte for byte. It returns the number of
// entries the cache holds.
func renderThrice(t *testing.T, dir, cacheDir string, args []string) int {
	t.Helper()
	t.Chdir(dir)
	type outcome struct {
		code           int
		stdout, stderr string
	}
	one := func(extra ...string) outcome {
		var stdout, stderr bytes.Buffer
		code := run(append(append([]string(nil), args...), extra...), strings.NewReader(""), &stdout, &stderr)
		return outcome{code, stdout.String(), stderr.String()}
	}
	want := one("--no-cache")
	for _, pass := range []string{"cold", "warm"} {
		got := one("--cache", cacheDir)
		if got != want {
			t.Errorf("%s cache: differs from a render without it\nwant exit %d\n%s\n%s\ngot exit %d\n%s\n%s", pass, want.code, want.stdout, want.stderr, got.code, got.stdout, got.stderr)
		}
	}
	n := 0
	filepath.WalkDir(cacheDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasPrefix(d.Name(), ".") && d.Name() != "trim.txt" {
			n++
		}
		return nil
	})
	return n
}

// TestCacheColdWarm renders every case of the conformance corpora and
// the examples without the render cache, into it and from it, and
// compares the outputs byte for byte (the YAML stream with its # Source:
// comments, warnings, errors, exit codes).
func TestCacheColdWarm(t *testing.T) {
	if testing.Short() {
		t.Skip("renders every corpus three times")
	}
	total := coldWarmCorpora(t)
	examples, _ := filepath.Abs("../../examples")
	for _, args := range [][]string{
		{"render", "first-vela-app.yaml"},
		{"render", "vela-karmada", "--clusters-from-inputs"},
		{"render", "first-vela-app.yaml", "--trace"},
		{"render", "first-vela-app.yaml", "--format", "json"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			total += renderThrice(t, examples, t.TempDir(), args)
		})
	}
	if total == 0 {
		t.Error("no render was cached")
	}
	t.Logf("%d entries cached", total)
}

// TestCacheColdWarmValidate is TestCacheColdWarm with --validate: the
// render cache and the findings cache (validation's findings by object
// content, Kubernetes version and CRDs) give what a validating render
// without them gives, findings and their places included.
func TestCacheColdWarmValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("renders every corpus three times")
	}
	total := coldWarmCorpora(t, "--validate")
	examples, _ := filepath.Abs("../../examples")
	for _, args := range [][]string{
		{"render", "first-vela-app.yaml", "--validate"},
		{"render", "vela-karmada", "--clusters-from-inputs", "--validate", "--kube-version", "1.27"},
		{"render", "first-vela-app.yaml", "--validate", "--strict"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			total += renderThrice(t, examples, t.TempDir(), args)
		})
	}
	if total == 0 {
		t.Error("no render was cached")
	}
	t.Logf("%d entries cached", total)
}

// coldWarmCorpora runs renderThrice on every render case of the
// conformance corpora, with extra flags, and returns the entries cached.
func coldWarmCorpora(t *testing.T, extra ...string) int {
	kubevelaDefs, _ := filepath.Abs(filepath.Join(conformanceRoot, "kubevela", "definitions"))
	total := 0
	for _, corpus := range []string{"kubevela", "karmada", "addons"} {
		root := filepath.Join(conformanceRoot, corpus)
		for _, c := range corpusCases(t, root) {
			t.Run(corpus+"/"+c, func(t *testing.T) {
				if _, skip := conformanceSkip[corpus+"/"+c]; skip {
					t.Skip("on the conformance skip list")
				}
				dir := filepath.Join(root, "cases", c)
				cmdline, err := os.ReadFile(filepath.Join(dir, "cmd"))
				if err != nil {
					t.Fatal(err)
				}
				args, err := shellWords(strings.ReplaceAll(strings.TrimSpace(string(cmdline)), "{defs}", kubevelaDefs))
				if err != nil {
					t.Fatal(err)
				}
				args = append(args, conformanceFlags[caseKey(dir)]...)
				if len(args) == 0 || args[0] != "render" {
					t.Skip("not a render: " + strings.Join(args, " "))
				}
				args = append(append(args, "--clusters-from-inputs"), extra...)
				total += renderThrice(t, dir, t.TempDir(), args)
			})
		}
	}
	return total
}

// TestCacheColdWarmSuite: `drydock test` of a suite with a golden tree,
// validation and rules (each on its own, then together) reports the
// same without the render cache, into it and from it (where the objects
// of unchanged applications reach the checks undecoded, cluster.Lazy),
// byte for byte: after --update, and again with one application drifted
// from its golden file and another breaking a rule.
func TestCacheColdWarmSuite(t *testing.T) {
	app := func(i int, image string, replicas int) string {
		return fmt.Sprintf(`apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: app-%[1]d
  namespace: team-%[2]d
spec:
  components:
    - name: web-%[1]d
      type: webservice
      properties:
        image: %[3]s
        ports:
          - port: 8080
            expose: true
      traits:
        - type: scaler
          properties:
            replicas: %[4]d
`, i, i%3, image, replicas)
	}
	const policy = `package main
import rego.v1

deny contains msg if {
	input.kind == "Deployment"
	input.spec.replicas > 5
	msg := sprintf("Deployment %s has %d replicas", [input.metadata.name, input.spec.replicas])
}

warn contains msg if {
	input.kind == "Service"
	msg := sprintf("Service %s", [input.metadata.name])
}
`
	for _, keys := range []string{"golden: golden", "golden: golden, validate: false", "policies: [policy]", "golden: golden, policies: [policy]"} {
		t.Run(keys, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, data string) {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 12 {
				write(fmt.Sprintf("apps/app-%d.yaml", i), app(i, fmt.Sprintf("registry.example.com/web:%d", i), 1+i%3))
			}
			write("policy/main.rego", policy)
			write("drydock.yaml", "suites:\n  - {name: fleet, inputs: [apps], "+keys+"}\n")
			t.Chdir(dir)
			var stdout, stderr bytes.Buffer
			if code := run([]string{"test", "--update", "--no-cache"}, strings.NewReader(""), &stdout, &stderr); code != 0 && code != 1 {
				t.Fatalf("test --update: exit %d\n%s%s", code, stdout.String(), stderr.String())
			}
			cacheDir := t.TempDir()
			renderThrice(t, dir, cacheDir, []string{"test"})
			write("apps/app-4.yaml", app(4, "registry.example.com/web:4-drifted", 2))
			write("apps/app-7.yaml", app(7, "registry.example.com/web:7", 9))
			if n := renderThrice(t, dir, cacheDir, []string{"test"}); n == 0 {
				t.Error("nothing was cached")
			}
			stdout.Reset()
			code := run([]string{"test", "--cache", cacheDir}, strings.NewReader(""), &stdout, &stderr)
			out := stdout.String()
			if code != 1 || (strings.Contains(keys, "golden") && !strings.Contains(out, "web:4-drifted")) || (strings.Contains(keys, "policies") && !strings.Contains(out, "web-7 has 9 replicas")) {
				t.Errorf("the drifted run (exit %d) does not report the drift and the rule:\n%s", code, out)
			}
		})
	}
}
