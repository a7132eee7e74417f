package rules

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/google/go-cmp/cmp"
)

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// messages are the results' "namespace kind message" lines.
func messages(rep *Report) []string {
	var out []string
	for _, r := range rep.Results {
		out = append(out, r.Namespace+" "+r.Kind.String()+" "+r.Message)
	}
	return out
}

// TestConftestBuiltins: parse_config, parse_config_file (relative to
// the policy's directory, inside the repository),
// parse_combined_config_files and data.conftest.file behave as
// conftest's.
func TestConftestBuiltins(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "repo")
	writeFiles(t, top, map[string]string{"secret.yaml": "token: x\n"})
	writeFiles(t, dir, map[string]string{
		"policy/main.rego": `package main

deny contains msg if {
	cfg := parse_config("yaml", "a: 1\n---\nb: 2\n")
	count(cfg) == 2
	msg := sprintf("parse_config gives %d documents", [count(cfg)])
}

deny contains msg if {
	cfg := parse_config("yaml", "# header\n---\nenabled: yes\n---\n")
	msg := sprintf("parse_config reads as conftest: %v", [cfg])
}

deny contains msg if {
	f := parse_config_file("../inputs/settings.json")
	msg := sprintf("settings.json has mode %s", [f.mode])
}

deny contains msg if {
	c := parse_combined_config_files(["../inputs/settings.json", "../inputs/two.yaml"])
	msg := sprintf("combined: %d entries, first %s", [count(c), c[0].path])
}

deny contains msg if {
	parse_config_file("../../secret.yaml")
	msg := "read a file outside the repository"
}

deny contains msg if {
	cfg := parse_config("toml", "[server]\nport = 8080\n")
	msg := sprintf("toml port %v", [cfg.server.port])
}

deny contains msg if {
	f := parse_config_file("../limits.toml")
	msg := sprintf("limits.toml cpu %v", [f.limits.cpu])
}

deny contains msg if {
	msg := sprintf("file %s", [data.conftest.file.name])
}
`,
		"inputs/settings.json": `{"mode": "fast"}`,
		"inputs/two.yaml":      "a: 1\n---\nb: 2\n",
		"limits.toml":          "[limits]\ncpu = \"500m\"\n",
	})
	e, err := Load(context.Background(), Options{PolicyDirs: []string{filepath.Join(dir, "policy")}, Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if ns := e.Namespaces(); !cmp.Equal(ns, []string{"main"}) {
		t.Errorf("Namespaces() = %q: data.conftest is not a namespace of the policies", ns)
	}
	in := Input{Object: object("v1", "ConfigMap", "shop", "a"), Context: Context{File: filepath.Join(dir, "inputs", "cm.yaml")}}
	rep, err := e.Eval(context.Background(), []Input{in}, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"main failure combined: 3 entries, first " + filepath.Join(dir, "inputs", "settings.json"),
		"main failure file cm.yaml",
		"main failure limits.toml cpu 500m",
		"main failure parse_config gives 2 documents",
		`main failure parse_config reads as conftest: [null, {"enabled": true}, null]`,
		"main failure settings.json has mode fast",
		"main failure toml port 8080",
	}
	if diff := cmp.Diff(want, messages(rep)); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}

	// Reading outside the repository is a built-in error: undefined by
	// default, an error naming the file when built-in errors are strict.
	e, err = Load(context.Background(), Options{PolicyDirs: []string{filepath.Join(dir, "policy")}, Root: dir, StrictBuiltinErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Eval(context.Background(), []Input{in}, 1)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(manifest.Format(err, nil), "secret.yaml: outside the repository") {
		t.Errorf("strict built-in errors: Eval error %v, want the refusal of secret.yaml", err)
	}
}

// TestNamespaceGlobs: a pattern selects namespaces with path.Match, as
// conftest does; names without glob characters are taken as written.
func TestNamespaceGlobs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.rego":     "package main\n\ndeny contains \"main\" if true\n",
		"gke.rego":      "package main.gke\n\ndeny contains \"main.gke\" if true\n",
		"deep.rego":     "package main.gke.deep\n\ndeny contains \"main.gke.deep\" if true\n",
		"other.rego":    "package other\n\ndeny contains \"other\" if true\n",
		"mainish.rego":  "package mainish\n\ndeny contains \"mainish\" if true\n",
		"not_used.rego": "package z\n",
	})
	for _, tt := range []struct {
		patterns []string
		want     []string
	}{
		{[]string{"main.*"}, []string{"main.gke", "main.gke.deep"}},
		{[]string{"main*"}, []string{"main", "main.gke", "main.gke.deep", "mainish"}},
		{[]string{"main", "o?her"}, []string{"main", "other"}},
		{[]string{"main"}, []string{"main"}},
	} {
		e, err := Load(context.Background(), Options{PolicyDirs: []string{dir}, Namespaces: tt.patterns})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := e.Eval(context.Background(), []Input{{Object: object("v1", "ConfigMap", "", "a")}}, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rep.Results {
			got = append(got, r.Message)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("namespaces %q (-want +got):\n%s", tt.patterns, diff)
		}
	}
	if _, err := Load(context.Background(), Options{PolicyDirs: []string{dir}, Namespaces: []string{"main["}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a bad pattern: Load error %v, want ErrInvalid", err)
	}
}

// TestCapabilitiesFile: a capabilities file limits the built-ins, as
// conftest --capabilities; the sandbox's removals stay removed.
func TestCapabilitiesFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"p/main.rego": "package main\n\ndeny contains msg if {\n\tmsg := upper(input.kind)\n}\n",
		"caps.json":   `{"builtins": [{"name": "eq", "decl": {"type": "function", "args": [{"type": "any"}, {"type": "any"}], "result": {"type": "boolean"}}}, {"name": "assign", "decl": {"type": "function", "args": [{"type": "any"}, {"type": "any"}], "result": {"type": "boolean"}}}], "features": ["rego_v1"]}`,
	})
	_, err := Load(context.Background(), Options{PolicyDirs: []string{filepath.Join(dir, "p")}, Capabilities: filepath.Join(dir, "caps.json")})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(manifest.Format(err, nil), "undefined function upper") {
		t.Errorf("Load error %v, want undefined function upper", err)
	}
	if _, err := Load(context.Background(), Options{PolicyDirs: []string{filepath.Join(dir, "p")}, Capabilities: filepath.Join(dir, "missing.json")}); !errors.Is(err, ErrInvalid) {
		t.Errorf("a missing capabilities file: Load error %v, want ErrInvalid", err)
	}
}

// TestParseConfigFileRefusals: what conftest would read but drydock
// refuses (a link out of the repository, a link, a directory), and a
// parser conftest lacks, are errors naming the file or parser, never
// a silent undefined, with strict built-in errors.
func TestParseConfigFileRefusals(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "repo")
	writeFiles(t, top, map[string]string{"outside.yaml": "a: 1\n"})
	writeFiles(t, dir, map[string]string{"inside.yaml": "a: 1\n", "inside.unknown": "a\n", "sub/x.yaml": "a: 1\n"})
	if err := os.Symlink(filepath.Join(top, "outside.yaml"), filepath.Join(dir, "out.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("inside.yaml", filepath.Join(dir, "in.yaml")); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		`parse_config_file("../out.yaml")`:             "out.yaml",
		`parse_config_file("../in.yaml")`:              "in.yaml",
		`parse_config_file("../sub")`:                  "sub",
		`parse_config_file("../missing.yaml")`:         "missing.yaml",
		`parse_config_file("../inside.unknown")`:       "unknown parser",
		`parse_config("csv", "a,b")`:                   `unknown parser "csv"`,
		`parse_config("toml", "a = ")`:                 "toml",
		`parse_combined_config_files(["../out.yaml"])`: "out.yaml",
	}
	for call, want := range cases {
		t.Run(call, func(t *testing.T) {
			d := filepath.Join(dir, "p"+strings.NewReplacer("/", "_", `"`, "", "(", "_", ")", "", ".", "", " ", "", ",", "", "[", "", "]", "").Replace(call))
			writeFiles(t, d, map[string]string{"main.rego": "package main\n\ndeny contains \"read\" if " + call + "\n"})
			e, err := Load(context.Background(), Options{PolicyDirs: []string{d}, Root: dir, StrictBuiltinErrors: true})
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.Eval(context.Background(), []Input{{Object: object("v1", "ConfigMap", "shop", "a")}}, 1)
			if err == nil || !strings.Contains(manifest.Format(err, nil), want) {
				t.Errorf("error %v, want one naming %q", err, want)
			}
		})
	}
}
