package main

import (
	"bytes"
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
