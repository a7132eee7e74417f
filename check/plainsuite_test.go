package check

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIsManifest pins the files a plain suite reads from a directory:
// those conftest has a parser for (parser.FileSupported).
func TestIsManifest(t *testing.T) {
	tests := map[string]bool{
		"a.yaml": true, "a.yml": true, "a.json": true, "dir/A.YAML": true, "b.JSON": true,
		"a.cue": true, "a.toml": true, "main.tf": true, "Dockerfile": true, ".gitignore": true,
		"a.rego": false, "README": false, "a.yaml.bak": false, "a.md": false,
	}
	for name, want := range tests {
		if got := isManifest(name); got != want {
			t.Errorf("isManifest(%q) = %v, want %v", name, got, want)
		}
	}
}

const (
	plainDeploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\n"
	plainSvc    = "apiVersion: v1\nkind: Service\nmetadata: {name: svc, namespace: default}\n"
	plainList   = "apiVersion: v1\nkind: List\nitems:\n  - {apiVersion: apps/v1, kind: Deployment, metadata: {name: a}}\n  - {apiVersion: apps/v1, kind: Deployment, metadata: {name: b}}\n"
	denyString  = "package main\n\ndeny contains msg if {\n\tis_string(input)\n\tmsg := sprintf(\"a string: %s\", [input])\n}\n"
	// denyCombined fails once per Deployment of the whole input list.
	denyCombined = "package main\n\ndeny contains msg if {\n\tsome d in input\n\td.contents.kind == \"Deployment\"\n\tmsg := sprintf(\"%s: %s is a Deployment\", [d.path, d.contents.metadata.name])\n}\n"
)

// TestPlainSuite runs suites of plain manifests: each YAML or JSON
// document is checked as written, at its place, with no render.
func TestPlainSuite(t *testing.T) {
	plain := func(extra string) string {
		return "suites: [{name: p, plain: true, inputs: [in]" + extra + "}]\n"
	}
	tests := []struct {
		name  string
		files map[string]string
		opts  Options
		want  []suiteSummary
		code  int
	}{
		{
			name: "each document is checked at its place",
			files: map[string]string{"drydock.yaml": plain(""), "in/m.yaml": plainDeploy + "---\n" + plainSvc,
				"in/skip.md": "no parser\n", "policy/main.rego": denyAll},
			want: []suiteSummary{{Name: "p", Status: "FAIL", Objects: 2, Checks: []string{"inputs", "rules/main", "rules/main.deny"},
				Findings: []string{"in/m.yaml:1:1 error [rules/main.deny] : web is a Deployment"}}},
			code: ExitFail,
		},
		{
			name:  "a List is one document",
			files: map[string]string{"drydock.yaml": plain(""), "in/l.yaml": plainList, "policy/main.rego": denyAll},
			want:  []suiteSummary{{Name: "p", Status: "ok", Objects: 1, Checks: []string{"inputs", "rules/main"}}},
		},
		{
			name:  "listItems gives the List's items one by one",
			files: map[string]string{"drydock.yaml": plain(", listItems: true"), "in/l.yaml": plainList, "policy/main.rego": denyAll},
			want: []suiteSummary{{Name: "p", Status: "FAIL", Objects: 2, Checks: []string{"inputs", "rules/main", "rules/main.deny"},
				Findings: []string{
					"in/l.yaml:4:5 error [rules/main.deny] : a is a Deployment",
					"in/l.yaml:5:5 error [rules/main.deny] : b is a Deployment",
				}}},
			code: ExitFail,
		},
		{
			name:  "a document that is no object goes to the rules as it is",
			files: map[string]string{"drydock.yaml": plain(""), "in/s.yaml": "hello\n", "policy/main.rego": denyString},
			want: []suiteSummary{{Name: "p", Status: "FAIL", Objects: 1, Checks: []string{"inputs", "rules/main", "rules/main.deny"},
				Findings: []string{"in/s.yaml:1:1 error [rules/main.deny] : a string: hello"}}},
			code: ExitFail,
		},
		{
			name:  "combine gives the rules every document at once",
			files: map[string]string{"drydock.yaml": plain(", combine: true"), "in/m.yaml": plainDeploy + "---\n" + plainSvc, "policy/main.rego": denyCombined},
			want: []suiteSummary{{Name: "p", Status: "FAIL", Objects: 2, Checks: []string{"inputs", "rules/main", "rules/main.deny"},
				Findings: []string{" error [rules/main.deny] : in/m.yaml: web is a Deployment"}}},
			code: ExitFail,
		},
		{
			name:  "no document: a warning",
			files: map[string]string{"drydock.yaml": plain(""), "in/a.json": "[]", "policy/main.rego": denyAll},
			want: []suiteSummary{{Name: "p", Status: "ok", Checks: []string{"inputs", "rules/main"},
				Findings: []string{" warning [inputs] : no document in the inputs: nothing was checked (inputs: in)"}}},
		},
		{
			name:  "no file a parser takes: an error, as conftest's no files found",
			files: map[string]string{"drydock.yaml": plain(""), "in/a.md": "# a\n", "policy/main.rego": denyAll},
			want: []suiteSummary{{Name: "p", Status: "ERROR", Checks: []string{"inputs"},
				Findings: []string{` error [inputs] : no files found: no file in the inputs has a parser (conftest test: "no files found")`},
				Err:      `no files found: no file in the inputs has a parser (conftest test: "no files found")`}},
			code: ExitInput,
		},
		{
			name: "other formats are parsed as conftest parses them: a TOML file, a CUE file, a Dockerfile's instructions",
			files: map[string]string{"drydock.yaml": plain(""), "in/c.toml": "[server]\nport = 80\n", "in/d.cue": "kind: \"Deployment\"\nmetadata: name: \"cue\"\n",
				"in/Dockerfile": "FROM alpine\nUSER root\n", "in/.hidden/e.toml": "[server]\nport = 81\n",
				"policy/main.rego": denyAll + "\ndeny contains msg if {\n\tinput.server.port < 1024\n\tmsg := sprintf(\"port %d\", [input.server.port])\n}\n\ndeny contains msg if {\n\tsome c in input\n\tc.Cmd == \"user\"\n\tmsg := sprintf(\"user %s\", c.Value)\n}\n"},
			want: []suiteSummary{{Name: "p", Status: "FAIL", Objects: 4, Checks: []string{"inputs", "rules/main", "rules/main.deny"},
				Findings: []string{
					"in/.hidden/e.toml error [rules/main.deny] : port 81",
					"in/Dockerfile error [rules/main.deny] : user root",
					"in/c.toml error [rules/main.deny] : port 80",
					"in/d.cue error [rules/main.deny] : cue is a Deployment",
				}}},
			code: ExitFail,
		},
		{
			name:  "no document in a strict suite: an error",
			files: map[string]string{"drydock.yaml": plain(""), "in/a.json": "[]", "policy/main.rego": denyAll},
			opts:  Options{Strict: true},
			want: []suiteSummary{{Name: "p", Status: "FAIL", Checks: []string{"inputs", "rules/main"},
				Findings: []string{" error [inputs] : no document in the inputs: nothing was checked (inputs: in)"}}},
			code: ExitFail,
		},
		{
			name:  "no policies and no constraints",
			files: map[string]string{"drydock.yaml": plain(""), "in/m.yaml": plainDeploy},
			want: []suiteSummary{{Name: "p", Status: "ERROR", Objects: 1, Checks: []string{"inputs"},
				Findings: []string{" error [rules] : no policies to check the manifests with: give policies (-p DIR) or Gatekeeper constraints (--gatekeeper); policy/ does not exist"},
				Err:      "no policies to check the manifests with: give policies (-p DIR) or Gatekeeper constraints (--gatekeeper); policy/ does not exist"}},
			code: ExitInput,
		},
		{
			name:  "an input named that no parser takes",
			files: map[string]string{"drydock.yaml": "suites: [{name: p, plain: true, inputs: [a.md]}]\n", "a.md": "a: 1\n", "policy/main.rego": denyAll},
			want: []suiteSummary{{Name: "p", Status: "ERROR", Checks: []string{"inputs"},
				Findings: []string{` error [inputs] : a.md: no parser for its name (unknown parser for extension "md"): give one with --parser`},
				Err:      `a.md: no parser for its name (unknown parser for extension "md"): give one with --parser`}},
			code: ExitInput,
		},
		{
			name:  "parser and ignorePattern: every file read as the parser says, the paths matched left out",
			files: map[string]string{"drydock.yaml": plain(", parser: yaml, ignorePattern: skip"), "in/m.txt": plainDeploy, "in/m.yaml": plainDeploy, "in/skip.yaml": plainDeploy, "policy/main.rego": denyAll},
			want: []suiteSummary{{Name: "p", Status: "FAIL", Objects: 1, Checks: []string{"inputs", "rules/main", "rules/main.deny"},
				Findings: []string{"in/m.yaml:1:1 error [rules/main.deny] : web is a Deployment"}}},
			code: ExitFail,
		},
		{
			name:  "a file a parser refuses is an error naming it",
			files: map[string]string{"drydock.yaml": plain(""), "in/c.toml": "a = \n", "policy/main.rego": denyAll},
			want: []suiteSummary{{Name: "p", Status: "ERROR", Checks: []string{"inputs"},
				Findings: []string{" error [inputs] : in/c.toml: toml: unmarshal toml: toml: line 1 (last key \"a\"): expected value but found '\\n' instead"},
				Err:      "in/c.toml: toml: unmarshal toml: toml: line 1 (last key \"a\"): expected value but found '\\n' instead"}},
			code: ExitInput,
		},
		{
			name:  "invalid YAML is an inputs error at its line",
			files: map[string]string{"drydock.yaml": plain(""), "in/bad.yaml": "a: [\n", "policy/main.rego": denyAll},
			want: []suiteSummary{{Name: "p", Status: "ERROR", Checks: []string{"inputs"},
				Findings: []string{"in/bad.yaml:1 error [inputs] : invalid YAML near line 1: did not find expected node content"},
				Err:      "in/bad.yaml:1: invalid YAML near line 1: did not find expected node content"}},
			code: ExitInput,
		},
		{
			name:  "a policy that does not compile is a rules error",
			files: map[string]string{"drydock.yaml": plain(""), "in/m.yaml": plainDeploy, "policy/main.rego": "package main\n\ndeny contains msg if {\n}\n}\n"},
			want: []suiteSummary{{Name: "p", Status: "ERROR", Objects: 1, Checks: []string{"inputs"},
				Findings: []string{"policy/main.rego:5:1 error [rules] : rego_parse_error: unexpected } token"},
				Err:      "policy/main.rego:5:1: rego_parse_error: unexpected } token"}},
			code: ExitInput,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runFiles(t, tt.files, tt.opts)
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("suites (-want +got):\n%s", diff)
			}
			if got := res.ExitCode(); got != tt.code {
				t.Errorf("ExitCode() = %d, want %d", got, tt.code)
			}
		})
	}
}
