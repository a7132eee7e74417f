package check

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/parsers"
	"github.com/drydock-dev/drydock/rules"
)

// The files and policies of TestPlainStreamedIsWhole: documents of every
// shape a plain suite reads, spread over files, and rules that deny, warn,
// excuse and print, with metadata.
const (
	streamPolicy = `package main

deny contains msg if {
	input.kind == "Deployment"
	msg := sprintf("%s is a Deployment", [input.metadata.name])
}

deny_labels contains {"msg": msg, "details": {"name": input.metadata.name}} if {
	input.kind == "Deployment"
	not input.metadata.labels
	msg := sprintf("%s has no labels", [input.metadata.name])
}

warn contains msg if {
	input.kind == "Service"
	print("service", input.metadata.name)
	msg := sprintf("%s is a Service", [input.metadata.name])
}

deny contains msg if {
	is_string(input)
	msg := sprintf("a string: %s", [input])
}

violation contains {"msg": "an array", "n": count(input)} if is_array(input)

exception contains rules if {
	input.metadata.name == "excused"
	rules := ["labels"]
}
`
	// streamConflict fails to evaluate on the Service named "clash": its
	// complete rule has two values.
	streamConflict = `package main

clash := v if {
	input.metadata.name == "clash"
	some v in [1, 2]
}

deny contains "clash" if clash == 1
`
)

// streamFiles are manifest files: several documents each, empty and
// comment-only ones, a scalar, a JSON array, a List, a CUE file skipped.
func streamFiles() map[string]string {
	files := map[string]string{
		"drydock.yaml": "suites:\n" +
			"  - {name: p, plain: true, inputs: [in]}\n" +
			"  - {name: items, plain: true, inputs: [in], listItems: true}\n",
		"policy/main.rego": streamPolicy,
		"in/skip.cue":      "a: 1\n",
		"in/z/scalar.yaml": "hello\n",
		"in/z/array.json":  `[{"kind": "Deployment", "metadata": {"name": "j1"}}, {"kind": "Service", "metadata": {"name": "j2"}}]`,
		"in/z/list.yaml":   "apiVersion: v1\nkind: List\nitems:\n  - {apiVersion: apps/v1, kind: Deployment, metadata: {name: li1}}\n  - {apiVersion: v1, kind: Service, metadata: {name: li2}}\n",
		"in/z/empty.yaml":  "# only a comment\n---\n---\n",
	}
	for i := range 12 {
		var docs []string
		for j := range 1 + i%4 {
			name := fmt.Sprintf("d%d-%d", i, j)
			if i == 5 && j == 0 {
				name = "excused"
			}
			switch (i + j) % 3 {
			case 0:
				docs = append(docs, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: "+name+"}\n")
			case 1:
				docs = append(docs, "apiVersion: v1\nkind: Service\nmetadata: {name: "+name+", labels: {a: b}}\n")
			default:
				docs = append(docs, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "+name+"}\ndata: {k: v}\n")
			}
		}
		files[fmt.Sprintf("in/f%02d.yaml", i)] = "# header\n---\n" + strings.Join(docs, "---\n")
	}
	return files
}

// streamedResult is a suite's result as it is compared: the error by its
// text, the rest as it is.
type streamedResult struct {
	Res SuiteResult
	Err string
}

func compared(res *SuiteResult) streamedResult {
	c := *res
	c.Err = nil
	out := streamedResult{Res: c}
	if res.Err != nil {
		out.Err = manifest.Format(res.Err, nil)
	}
	return out
}

// TestPlainStreamedIsWhole: a plain suite streamed through the rules in
// batches of any size gives the result of reading every file first:
// the same findings in the same order, the same checks, counts and
// errors, an input error winning over an evaluation error before it.
func TestPlainStreamedIsWhole(t *testing.T) {
	withConflict := func(extra map[string]string) map[string]string {
		files := streamFiles()
		files["policy/clash.rego"] = streamConflict
		clash := "---\napiVersion: v1\nkind: Service\nmetadata: {name: clash}\n"
		files["in/f07.yaml"] += clash
		files["in/f11.yaml"] += clash
		for k, v := range extra {
			files[k] = v
		}
		return files
	}
	tests := []struct {
		name  string
		files map[string]string
		// wantErr is a part of the error both runs must give ("": none).
		wantErr string
	}{
		{name: "documents of every shape", files: streamFiles()},
		{name: "an evaluation error", files: withConflict(nil), wantErr: "in/f07.yaml:20:1: Service clash: namespace main: policy/clash.rego:3:1: rule data.main.clash produced conflicting values"},
		{name: "an input error after an evaluation error", files: withConflict(map[string]string{"in/f10.yaml": "a: [\n"}), wantErr: "invalid YAML"},
		{name: "an input error", files: func() map[string]string {
			files := streamFiles()
			files["in/f03.yaml"] = "a: b\na: c\n---\nkind: [\n"
			return files
		}(), wantErr: "invalid YAML"},
		{name: "a policy that does not compile", files: func() map[string]string {
			files := streamFiles()
			files["policy/bad.rego"] = "package bad\n\ndeny contains msg if {\n}\n}\n"
			return files
		}(), wantErr: "rego_parse_error"},
		{name: "no policies", files: func() map[string]string {
			files := streamFiles()
			delete(files, "policy/main.rego")
			return files
		}(), wantErr: "no policies"},
		{name: "no file a parser takes", files: map[string]string{"drydock.yaml": "suites: [{name: p, plain: true, inputs: [in]}]\n",
			"in/a.txt": "a: 1\n", "policy/main.rego": streamPolicy}, wantErr: "no files found"},
	}
	batches := []plainBatch{{docs: 1, bytes: 1 << 30}, {docs: 2, bytes: 1 << 30}, {docs: 3, bytes: 1 << 30},
		{docs: 1 << 30, bytes: 1}, {docs: 1 << 30, bytes: 200}, {docs: 1 << 30, bytes: 1 << 30}, {docs: 256, bytes: 1 << 20}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			writeFiles(t, ".", tt.files)
			cfg, err := LoadConfig("drydock.yaml")
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range cfg.Suites {
				whole := runPlain(cfg, func(r *runner) *SuiteResult { return r.plainWhole(context.Background(), s) })
				if !strings.Contains(whole.Err, tt.wantErr) || (tt.wantErr == "") != (whole.Err == "") {
					t.Fatalf("suite %s: error %q, want one with %q", s.Name, whole.Err, tt.wantErr)
				}
				if tt.wantErr == "" && len(whole.Res.Findings) == 0 {
					t.Fatalf("suite %s: no findings to compare", s.Name)
				}
				for _, b := range batches {
					streamed := runPlain(cfg, func(r *runner) *SuiteResult { return r.plainStreamed(context.Background(), s, b) })
					if diff := cmp.Diff(whole, streamed); diff != "" {
						t.Errorf("suite %s in batches of %+v (-whole +streamed):\n%s", s.Name, b, diff)
					}
				}
			}
		})
	}
}

// runPlain runs one plain suite with a fresh runner of cfg, on two
// workers.
func runPlain(cfg *Config, run func(*runner) *SuiteResult) streamedResult {
	r := newRunner(cfg, Options{})
	r.renderWorkers = 2
	return compared(run(r))
}

// TestPlainEvalDrops: a streamed batch keeps, of each document, only
// its place once evaluated, and its results join the report at the
// document's index in the whole input.
func TestPlainEvalDrops(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFiles(t, ".", streamFiles())
	cfg, err := LoadConfig("drydock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(cfg, Options{})
	opts, _ := r.ruleOptions(cfg.Suites[0])
	eng, err := r.engine(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	ev := &plainEval{ctx: context.Background(), workers: 1, eng: eng, rep: &rules.Report{}}
	var places []string
	for _, f := range []string{"in/f01.yaml", "in/f02.yaml"} {
		vals, _, err := readPlainFile(plainFile{f, parsers.YAML}, plainInput{})
		if err != nil {
			t.Fatal(err)
		}
		var batch []*sunk
		if err := appendSunks(&batch, vals, false); err != nil {
			t.Fatal(err)
		}
		ev.eval(batch)
	}
	for _, o := range ev.objs {
		if o.obj != nil || o.doc != nil {
			t.Errorf("%s: the document was kept after its evaluation", o.origin.Pos)
		}
		places = append(places, o.origin.Pos.String())
	}
	var got []string
	for _, rr := range ev.rep.Results {
		got = append(got, places[rr.Input]+" "+rr.Rule+": "+rr.Message)
	}
	want := []string{
		// f01: a comment, then a Service and a ConfigMap; f02: the
		// comment, a ConfigMap, a Deployment and a Service.
		"in/f01.yaml:3:1 warn: d1-0 is a Service",
		"in/f02.yaml:8:1 deny: d2-1 is a Deployment",
		"in/f02.yaml:8:1 deny_labels: d2-1 has no labels",
		"in/f02.yaml:12:1 warn: d2-2 is a Service",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results by place (-want +got):\n%s", diff)
	}
}
