package check

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drydock-dev/drydock/manifest"
)

// TestLoadConfigErrors: every refusal of drydock.yaml starts with the
// file:line:col of what it is about and says it in the config's terms.
func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		name, config, want string
	}{
		{"unknown top-level key", "suites:\n  - name: s\n    inputs: [app.yaml]\nsweets: true\n",
			`drydock.yaml:4:1: unknown key "sweets" (valid keys at the top level: diff, limits, suites)`},
		{"unknown key of suites[3]", "suites:\n  - {name: a, inputs: [app.yaml]}\n  - {name: b, inputs: [app.yaml]}\n  - {name: c, inputs: [app.yaml]}\n  - name: d\n    inputs: [app.yaml]\n    goldne: golden/d\n",
			`drydock.yaml:7:5: suites[3]: unknown key "goldne" (valid keys of a suite: addons, allNamespaces, capabilities, charts, clusters, clustersFromInputs, combine, compareRevisionHash, crds, data, definitions, enableK8sNativeValidation, exclude, fieldValidation, gatekeeper, gatekeeperEmptyNamespace, golden, ignore, ignorePattern, inputs, kubeVersion, listItems, name, namespaces, noBuiltins, now, observed, parser, plain, policies, regoVersion, sources, stopAtSuspend, strict, strictBuiltinErrors, tests, validate); did you mean "golden"?`},
		{"unknown field validation", "suites:\n  - name: s\n    inputs: [app.yaml]\n    fieldValidation: Warm\n",
			`drydock.yaml:4:22: suite "s": fieldValidation "Warm": want strict, warn or ignore (did you mean "warn"?)`},
		{"parser on a rendered suite", "suites:\n  - name: s\n    inputs: [app.yaml]\n    parser: toml\n",
			`drydock.yaml:4:13: suite "s": parser is for plain suites (plain: true)`},
		{"unknown parser", "suites:\n  - name: s\n    plain: true\n    inputs: [app.yaml]\n    parser: csv\n",
			`drydock.yaml:5:13: suite "s": parser "csv": unknown parser (parsers: codeowners, cue, cyclonedx, dockerfile, dotenv, edn, groovy, hcl1, hcl2, hocon, ignore, ini, json, jsonc, jsonnet, nginx, properties, spdx, textproto, toml, vcl, xml, yaml)`},
		{"ignorePattern that does not compile", "suites:\n  - name: s\n    plain: true\n    inputs: [app.yaml]\n    ignorePattern: \"[\"\n",
			"drydock.yaml:5:20: suite \"s\": ignorePattern: error parsing regexp: missing closing ]: `[`"},
		{"unknown key of limits", "limits:\n  evalTimeot: 5s\nsuites: [{name: s, inputs: [app.yaml]}]\n",
			`drydock.yaml:2:3: limits: unknown key "evalTimeot" (valid keys of limits: evalTimeout, memory, ruleTimeout); did you mean "evalTimeout"?`},
		{"unknown key with a mapping value points at the key", "suites: [{name: s, inputs: [app.yaml]}]\nlimitz:\n  evalTimeout: 5s\n",
			`drydock.yaml:2:1: unknown key "limitz" (valid keys at the top level: diff, limits, suites); did you mean "limits"?`},
		{"inputs is a string", "suites:\n  - name: s\n    inputs: app.yaml\n",
			`drydock.yaml:3:13: suites[0].inputs: want a list of strings, found the string "app.yaml"`},
		{"suites is a mapping", "suites:\n  s:\n    inputs: [app.yaml]\n",
			`drydock.yaml:2:3: suites: want a list of mappings, found a mapping`},
		{"combine is a string", "suites:\n  - name: s\n    inputs: [app.yaml]\n    combine: \"yes please\"\n",
			`drydock.yaml:4:14: suites[0].combine: want true or false, found the string "yes please"`},
		{"a path that YAML reads as a boolean", "suites:\n  - name: s\n    inputs: [app.yaml, on]\n",
			`drydock.yaml:3:24: suites[0].inputs[1]: want a string, found the boolean true (YAML reads unquoted yes/no/on/off/true/false as booleans: quote it)`},
		{"a null path", "suites:\n  - name: s\n    inputs: [app.yaml, ~]\n",
			`drydock.yaml:3:24: suites[0].inputs[1]: want a string, found null`},
		{"a suite that is a string", "suites: [s]\n",
			`drydock.yaml:1:10: suites[0]: want a mapping, found the string "s"`},
		{"bad evalTimeout", "limits:\n  evalTimeout: forever\n  memory: lots\nsuites:\n  - name: s\n    inputs: [app.yaml]\n",
			`drydock.yaml:2:16: limits.evalTimeout "forever": want a duration such as 30s or 2m`},
		{"bad ruleTimeout", "limits: {ruleTimeout: 5}\nsuites: [{name: s, inputs: [app.yaml]}]\n",
			`drydock.yaml:1:23: limits.ruleTimeout "5": want a duration such as 10s or 1m`},
		{"bad memory", "limits: {memory: lots}\nsuites: [{name: s, inputs: [app.yaml]}]\n",
			`drydock.yaml:1:18: limits.memory "lots": want a size such as 512MiB or 4GiB`},
		{"bad diff.ignore rule", "suites: [{name: s, inputs: [app.yaml]}]\ndiff:\n  ignore:\n    - spec.replicas\n    - \"Deployment:\"\n",
			`drydock.yaml:5:7: diff.ignore "Deployment:": no field path (want e.g. spec.replicas or Deployment:spec.replicas)`},
		{"unknown key of diff", "suites: [{name: s, inputs: [app.yaml]}]\ndiff: {ignor: [spec.replicas]}\n",
			`drydock.yaml:2:8: diff: unknown key "ignor" (valid keys of diff: ignore); did you mean "ignore"?`},
		{"bad regoVersion", "suites:\n  - name: s\n    inputs: [app.yaml]\n    regoVersion: v2\n",
			`drydock.yaml:4:18: suite "s": regoVersion "v2": want v0 or v1`},
		{"duplicate suite name", "suites:\n  - name: s\n    inputs: [app.yaml]\n  - name: s\n    inputs: [app.yaml]\n",
			`drydock.yaml:4:11: suites[1]: duplicate suite name "s" (first at drydock.yaml:2:11)`},
		{"suite without a name", "suites:\n  - inputs: [app.yaml]\n",
			`drydock.yaml:2:5: suites[0]: name is required`},
		{"suite without inputs", "suites:\n  - name: s\n",
			`drydock.yaml:2:5: suite "s": inputs are required (or addons, for a suite of addons alone)`},
		{"duplicate key", "suites:\n  - inputs: [app.yaml]\n    inputs: [app.yaml]\n",
			`drydock.yaml:3:5: invalid YAML: duplicate key "inputs" (first defined at line 2)`},
		{"no suites", "limits: {memory: 1GiB}\n", `drydock.yaml:1:1: no suites (want suites: a list of {name, inputs, ...})`},
		{"empty file", "", `drydock.yaml:1:1: no suites: the file is empty`},
		{"two documents", "suites: [{name: s, inputs: [app.yaml]}]\n---\nsuites: []\n",
			`drydock.yaml:3:1: a second YAML document: drydock.yaml holds one (suites and limits)`},
		{"missing input", "suites:\n  - name: s\n    inputs: [app.yaml, missing.yaml]\n",
			`drydock.yaml:3:24: suite "s": inputs: missing.yaml: no such file or directory`},
		{"missing policy directory", "suites:\n  - name: s\n    inputs: [app.yaml]\n    policies: [nope]\n",
			`drydock.yaml:4:16: suite "s": policies: nope: no such file or directory`},
		{"sources is a list", "suites:\n  - name: s\n    inputs: [app.yaml]\n    sources: [podinfo]\n",
			`drydock.yaml:4:14: suites[0].sources: want a mapping, found a list`},
		{"a source that is not a string", "suites:\n  - name: s\n    inputs: [app.yaml]\n    sources: {podinfo: [a]}\n",
			`drydock.yaml:4:24: suites[0].sources.podinfo: want a string, found a list`},
		{"a null source", "suites:\n  - name: s\n    inputs: [app.yaml]\n    sources: {podinfo: ~}\n",
			`drydock.yaml:4:24: suites[0].sources.podinfo: want a string, found null`},
		{"missing source directory", "suites:\n  - name: s\n    inputs: [app.yaml]\n    sources: {podinfo: git/podinfo}\n",
			`drydock.yaml:4:24: suite "s": sources: git/podinfo: no such file or directory`},
		{"source outside the repository", "suites:\n  - name: s\n    inputs: [app.yaml]\n    sources: {podinfo: /tmp}\n",
			`drydock.yaml:4:24: suites[0].sources.podinfo: "/tmp": absolute paths are refused; give a path relative to drydock.yaml`},
		{"missing chart cache", "suites:\n  - name: s\n    inputs: [app.yaml]\n    charts: [charts]\n",
			`drydock.yaml:4:14: suite "s": charts: charts: no such file or directory`},
		{"input below a file", "suites:\n  - name: s\n    inputs: [app.yaml/x]\n",
			`drydock.yaml:3:14: suites[0].inputs[0]: "app.yaml/x": not a directory`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			if err := os.WriteFile("app.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile("drydock.yaml", []byte(tt.config), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadConfig("drydock.yaml")
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoadConfig: what the strict reading accepts.
func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"apps", "policy", "charts", "git"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	config := `limits: {evalTimeout: 5s, ruleTimeout: 1m, memory: 1GiB}
suites:
  - name: prod
    inputs: [apps]
    golden: golden/prod
    policies: [policy]
    namespaces: [main, 5]
    combine: true
    noBuiltins: null
    regoVersion: v0
    charts: [charts]
    sources: {flux-system/podinfo: git}
`
	path := filepath.Join(dir, "drydock.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		File: path, Dir: dir,
		Limits: Limits{EvalTimeout: "5s", RuleTimeout: "1m", Memory: "1GiB"},
		Suites: []Suite{{Name: "prod", Inputs: []string{"apps"}, Golden: "golden/prod", Policies: []string{"policy"},
			Namespaces: []string{"main", "5"}, Combine: true, RegoVersion: "v0",
			Charts: []string{"charts"}, Sources: map[string]string{"flux-system/podinfo": "git"}}},
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
}

// TestParseSize: sizes as drydock.yaml and --memory-limit write them.
func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"0", 0, true},
		{"4096", 4096, true},
		{"512MiB", 512 << 20, true},
		{"4GiB", 4 << 30, true},
		{"8Gi", 8 << 30, true},
		{"1TiB", 1 << 40, true},
		{" 64 MiB ", 64 << 20, true},
		{"100B", 100, true},
		{"", 0, false},
		{"lots", 0, false},
		{"-1GiB", 0, false},
		{"1.5GiB", 0, false},
		{"99999999999TiB", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSize(tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseSize(%q) (-want +got):\n%s", tt.in, diff)
			}
			if (err == nil) != tt.ok {
				t.Errorf("ParseSize(%q) error %v, want ok %t", tt.in, err, tt.ok)
			}
		})
	}
}

// TestLimitsDurations: the limits parsed, unset ones zero; a bad one is
// named as drydock.yaml names it.
func TestLimitsDurations(t *testing.T) {
	tests := []struct {
		name       string
		limits     Limits
		eval, rule time.Duration
		err        string
	}{
		{"unset", Limits{}, 0, 0, ""},
		{"both", Limits{EvalTimeout: "5s", RuleTimeout: "1m"}, 5 * time.Second, time.Minute, ""},
		{"rule only", Limits{RuleTimeout: "0"}, 0, 0, ""},
		{"bad eval", Limits{EvalTimeout: "soon"}, 0, 0, `limits.evalTimeout "soon": want a duration such as 30s or 2m`},
		{"bad rule", Limits{RuleTimeout: "5"}, 0, 0, `limits.ruleTimeout "5": want a duration such as 10s or 1m`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eval, rule, err := tt.limits.Durations()
			got := ""
			if err != nil {
				got = manifest.Format(err, nil)
			}
			if diff := cmp.Diff(tt.err, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if eval != tt.eval || rule != tt.rule {
				t.Errorf("Durations() = %v, %v; want %v, %v", eval, rule, tt.eval, tt.rule)
			}
		})
	}
}
