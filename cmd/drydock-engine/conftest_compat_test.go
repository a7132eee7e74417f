package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConftestCompatibility runs conftest-style policies over plain
// manifests (testdata/conftest/<case>: policy/ and manifests/) and
// asserts the verdicts conftest gives on the same files: each failure,
// warning and exception as "<file> <namespace> <kind> <message>", and
// the exit code under --conftest. The expectations follow conftest's
// documented behaviour and were confirmed by running conftest v0.71.1
// (`conftest test -o json` with the same flags) on these fixtures.
func TestConftestCompatibility(t *testing.T) {
	// conftest's verdicts on the k8s fixtures' manifests/, with or without
	// --fail-on-warn.
	k8sAll := []string{
		"manifests/app.yaml main failures Deployment web: container web uses :latest",
		"manifests/app.yaml main failures Deployment web: containers must not run as root",
		"manifests/app.yaml main failures Service web: NodePort is not allowed",
		"manifests/app.yaml main warnings Deployment web has no team label",
		"manifests/list.yaml main warnings a List of 1 items is one document",
	}
	tests := []struct {
		name string
		dir  string
		args []string
		want []string
		exit int
	}{
		{
			name: "deny, violation, warn and metadata over multi-document files; a List is one document",
			dir:  "k8s",
			args: []string{"manifests/"},
			want: k8sAll,
			exit: 1,
		},
		{
			name: "--fail-on-warn: 2 for failures",
			dir:  "k8s",
			args: []string{"--fail-on-warn", "manifests/"},
			want: k8sAll,
			exit: 2,
		},
		{
			name: "--fail-on-warn: 1 for warnings only",
			dir:  "k8s",
			args: []string{"--fail-on-warn", "manifests/ok.json", "manifests/list.yaml"},
			want: []string{"manifests/list.yaml main warnings a List of 1 items is one document"},
			exit: 1,
		},
		{
			name: "warnings only: 0",
			dir:  "k8s",
			args: []string{"manifests/ok.json", "manifests/list.yaml"},
			want: []string{"manifests/list.yaml main warnings a List of 1 items is one document"},
			exit: 0,
		},
		{
			name: "a failing built-in makes the rule undefined for that object; the others' failures stand",
			dir:  "builtins",
			args: []string{"manifests/"},
			want: []string{
				"manifests/deploy.yaml main failures b: cpu limit over 2",
				"manifests/deploy.yaml main failures forbidden name",
			},
			exit: 1,
		},
		{
			name: "--show-builtin-errors: an error, exit 1",
			dir:  "builtins",
			args: []string{"--show-builtin-errors", "manifests/"},
			exit: 1,
		},
		{
			name: "namespace glob main.* matches main.gke and main.eks, not main",
			dir:  "namespaces",
			args: []string{"--namespace", "main.*", "manifests/"},
			want: []string{
				"manifests/cm.json main.eks warnings main.eks",
				"manifests/cm.json main.gke failures main.gke",
			},
			exit: 1,
		},
		{
			name: "--all-namespaces, and data.conftest.file names the input",
			dir:  "namespaces",
			args: []string{"--all-namespaces", "manifests/"},
			want: []string{
				"manifests/cm.json main failures main",
				"manifests/cm.json main.eks warnings main.eks",
				"manifests/cm.json main.gke failures main.gke",
				"manifests/cm.json other failures other: ConfigMap in cm.json",
			},
			exit: 1,
		},
		{
			name: "exceptions waive named rules, reported as conftest's queries",
			dir:  "exceptions",
			args: []string{"--fail-on-warn", "manifests/"},
			want: []string{
				`manifests/pods.yaml main exceptions data.main.exception[_][_] == "no_limits"`,
				`manifests/pods.yaml main exceptions data.main.exception[_][_] == "run_as_root"`,
				"manifests/pods.yaml main failures privileged",
				"manifests/pods.yaml main failures privileged",
				"manifests/pods.yaml main failures runs as root",
				"manifests/pods.yaml main warnings no limits",
			},
			exit: 2,
		},
		{
			name: "every document as conftest splits a file: empty ones are null, scalars and sequences are inputs, a top-level array's items",
			dir:  "documents",
			args: []string{"manifests/"},
			want: []string{
				`manifests/array.json main failures a document without a kind: {"metadata": {"name": "second"}}`,
				"manifests/array.json main warnings ConfigMap first",
				"manifests/crlf.yaml main failures a document without a kind: null",
				"manifests/crlf.yaml main warnings ConfigMap crlf",
				"manifests/empty.yaml main failures a document without a kind: null",
				"manifests/header.yaml main failures a document without a kind: null",
				"manifests/header.yaml main warnings ConfigMap header",
				"manifests/leading.yaml main warnings ConfigMap leading",
				"manifests/nonewline.yaml main warnings ConfigMap no-final-newline",
				"manifests/trailing.yaml main failures a document without a kind: null",
				"manifests/trailing.yaml main warnings ConfigMap trailing",
				`manifests/values.yaml main failures a document without a kind: ["a", "b"]`,
				"manifests/values.yaml main failures a document without a kind: plain text",
				"manifests/values.yaml main warnings ConfigMap before-list",
			},
			exit: 1,
		},
		{
			name: "--combine over plain manifests: conftest's {path, contents} entries, every document in file order, data.conftest.file",
			dir:  "combine",
			args: []string{"--combine", "manifests/"},
			want: []string{
				`Combined main failures 5 entries: ["manifests/a.yaml {\"kind\": \"A\"}", "manifests/a.yaml null", "manifests/b.json {\"kind\": \"B\"}", "manifests/c.yaml {\"kind\": \"C\"}", "manifests/c.yaml {\"kind\": \"D\"}"]`,
				"Combined main warnings data.conftest.file.name is Combined",
			},
			exit: 1,
		},
		{
			name: "no policies: an error, exit 1",
			dir:  "k8s",
			args: []string{"-p", "manifests", "manifests/"},
			exit: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir("testdata/conftest/" + tt.dir)
			var stdout, stderr bytes.Buffer
			args := append([]string{"test", "--conftest", "--format", "json"}, tt.args...)
			code := run(args, strings.NewReader(""), &stdout, &stderr)
			if code != tt.exit {
				t.Errorf("exit %d, conftest's is %d; stderr:\n%s", code, tt.exit, stderr.String())
			}
			if got := verdicts(t, stdout.Bytes()); !cmp.Equal(tt.want, got, cmpEmpty) {
				t.Errorf("verdicts (-conftest +drydock):\n%s", cmp.Diff(tt.want, got))
			}
		})
	}
}

// cmpEmpty makes nil and empty lists equal.
var cmpEmpty = cmp.Comparer(func(a, b []string) bool { return slices.Equal(a, b) })

// verdicts reads drydock's JSON report as conftest's verdict lines.
func verdicts(t *testing.T, out []byte) []string {
	t.Helper()
	var rep struct {
		Suites []struct {
			Findings []struct {
				Check, Level, Message, File string
			}
		}
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	kinds := map[string]string{"error": "failures", "warning": "warnings", "exception": "exceptions"}
	var lines []string
	for _, s := range rep.Suites {
		for _, f := range s.Findings {
			rule, ok := strings.CutPrefix(f.Check, "rules/")
			if !ok {
				continue
			}
			ns := rule[:strings.LastIndex(rule, ".")]
			file := f.File
			if file == "" {
				file = "Combined" // conftest's name for --combine's input
			}
			lines = append(lines, strings.Join([]string{file, ns, kinds[f.Level], f.Message}, " "))
		}
	}
	slices.Sort(lines)
	return lines
}
