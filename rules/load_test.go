package rules

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage"

	"github.com/drydock-dev/drydock/manifest"
)

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		// want are the parts the message must name: file:line:col and what.
		want []string
	}{
		{
			name: "v0 syntax under v1",
			opts: Options{PolicyDirs: []string{"testdata/v0/policy"}},
			want: []string{"testdata/v0/policy/main.rego:3:1: rego_parse_error", "testdata/v0/policy/main.rego:8:1"},
		},
		{
			name: "http.send",
			opts: Options{PolicyDirs: []string{"testdata/sandbox/http"}},
			want: []string{"testdata/sandbox/http/main.rego:4:10:", "built-in http.send is not available", "network"},
		},
		{
			name: "opa.runtime",
			opts: Options{PolicyDirs: []string{"testdata/sandbox/runtime"}},
			want: []string{"testdata/sandbox/runtime/main.rego:4:2:", "built-in opa.runtime is not available", "environment"},
		},
		{
			name: "time.now_ns without a fixed time",
			opts: Options{PolicyDirs: []string{"testdata/sandbox/time"}},
			want: []string{"testdata/sandbox/time/main.rego:6:11:", "built-in time.now_ns is not available", "clock"},
		},
		{
			name: "json.match_schema can read files",
			opts: Options{PolicyDirs: []string{"testdata/sandbox/schema"}},
			want: []string{"testdata/sandbox/schema/main.rego:4:13:", "built-in json.match_schema is not available"},
		},
		{
			name: "unknown render context key",
			opts: Options{PolicyDirs: []string{"testdata/sandbox/ctxkey"}},
			want: []string{"testdata/sandbox/ctxkey/main.rego:4:2:", "undefined ref: drydock.context().clusterr"},
		},
		{
			name: "boolean deny",
			opts: Options{PolicyDirs: []string{"testdata/sandbox/boolean"}},
			want: []string{"testdata/sandbox/boolean/main.rego:3:1:", "rule deny is a boolean"},
		},
		{
			name: "number deny",
			opts: Options{PolicyDirs: []string{"testdata/sandbox/shape_number"}},
			want: []string{"testdata/sandbox/shape_number/main.rego:3:1:", "rule deny is a single number, not a set of messages"},
		},
		{
			name: "object deny",
			opts: Options{PolicyDirs: []string{"testdata/sandbox/shape_object"}},
			want: []string{"testdata/sandbox/shape_object/main.rego:3:1:", "rule deny is an object (deny[key] := value)"},
		},
		{
			name: "string warn",
			opts: Options{PolicyDirs: []string{"testdata/sandbox/shape_string"}},
			want: []string{"testdata/sandbox/shape_string/main.rego:3:1:", "rule warn_replicas is a single string"},
		},
		{
			name: "no policies",
			opts: Options{PolicyDirs: []string{"testdata/verify/data"}},
			want: []string{"no policies found in testdata/verify/data"},
		},
		{
			name: "missing policy dir",
			opts: Options{PolicyDirs: []string{"testdata/missing"}},
			want: []string{"testdata/missing"},
		},
		{
			name: "YAML data with a syntax error",
			opts: Options{PolicyDirs: []string{"testdata/checks/policy"}, DataPaths: []string{"testdata/baddata/yaml"}},
			want: []string{"testdata/baddata/yaml/data.yaml:1:8: invalid YAML near line 1: did not find expected ',' or ']' (the '[' here is never closed)"},
		},
		{
			name: "JSON data with a syntax error",
			opts: Options{PolicyDirs: []string{"testdata/checks/policy"}, DataPaths: []string{"testdata/baddata/json/data.json"}},
			want: []string{"testdata/baddata/json/data.json:3:23: invalid JSON: invalid character '}' looking for beginning of object key string"},
		},
		{
			name: "data conflict",
			opts: Options{PolicyDirs: []string{"testdata/checks/policy"}, DataPaths: []string{"testdata/checks/data", "testdata/conflict"}},
			want: []string{"testdata/conflict/limits.json: merge error: conflicting values at data.limits.max_replicas"},
		},
		{
			// conftest v0.71.1 (OPA v1.21.1) merges a file given twice
			// at one place with itself: "limits.yaml: merge error".
			name: "data file given twice",
			opts: Options{PolicyDirs: []string{"testdata/checks/policy"}, DataPaths: []string{"testdata/checks/data", "testdata/checks/data/limits.yaml"}},
			want: []string{"testdata/checks/data/limits.yaml: merge error: the file is given twice at data and sets values there"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(context.Background(), tt.opts)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Load error %v, want ErrInvalid", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(manifest.Format(err, nil), w) {
					t.Errorf("Load error %q does not name %q", err, w)
				}
			}
		})
	}
}

func TestEvalErrors(t *testing.T) {
	pods := []Input{
		{Object: object("v1", "ConfigMap", "shop", "7")},
		{Object: object("v1", "Pod", "shop", "first")},
		{Object: object("v1", "Pod", "shop", "second")},
	}
	tests := []struct {
		name string
		dir  string
		// strict reports failing built-ins (conftest --show-builtin-errors).
		strict bool
		want   string
	}{
		{
			name: "violation object without msg",
			dir:  "testdata/sandbox/nomsg",
			want: `Pod shop/first: namespace main: data.main.violation: result {"message":"no msg key"} has no string msg field`,
		},
		{
			name:   "strict built-in errors name the rule and say it in plain words",
			dir:    "testdata/sandbox/builtinerr",
			strict: true,
			want:   `Pod shop/first: namespace main: testdata/sandbox/builtinerr/main.rego:4:2: rule deny: to_number: "first" is not a number`,
		},
		{
			name:   "an error in a function names the function",
			dir:    "testdata/sandbox/helpererr",
			strict: true,
			want:   `Pod shop/first: namespace main: testdata/sandbox/helpererr/main.rego:3:13: rule limit: to_number: "first" is not a number`,
		},
		{
			name: "a conflict keeps OPA's message, which names the rule",
			dir:  "testdata/sandbox/conflict",
			want: "Pod shop/first: namespace main: testdata/sandbox/conflict/main.rego:5:1: rule data.main.name produced conflicting values:\n" +
				`  "a" at testdata/sandbox/conflict/main.rego:3` + "\n" + `  "b" at testdata/sandbox/conflict/main.rego:5`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Load(context.Background(), Options{PolicyDirs: []string{tt.dir}, StrictBuiltinErrors: tt.strict})
			if err != nil {
				t.Fatal(err)
			}
			for _, workers := range []int{1, 3} {
				_, err := e.Eval(context.Background(), pods, workers)
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("Eval error %v, want ErrInvalid", err)
				}
				if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
					t.Errorf("workers=%d: Eval error (-want +got):\n%s", workers, diff)
				}
			}
		})
	}
}

// TestBuiltinErrorsUndefined: by default a failing built-in makes its
// expression undefined, as in conftest and opa test: the rule does not
// fire for that input and still counts as a success, and the other
// inputs' findings stand.
func TestBuiltinErrorsUndefined(t *testing.T) {
	for _, dir := range []string{"testdata/sandbox/builtinerr", "testdata/sandbox/helpererr"} {
		e, err := Load(context.Background(), Options{PolicyDirs: []string{dir}})
		if err != nil {
			t.Fatal(err)
		}
		inputs := []Input{{Object: object("v1", "Pod", "shop", "first")}, {Object: object("v1", "Pod", "shop", "7")}}
		rep, err := e.Eval(context.Background(), inputs, 1)
		if err != nil {
			t.Fatalf("%s: Eval: %v", dir, err)
		}
		var got []string
		for _, r := range rep.Results {
			got = append(got, fmt.Sprintf("%d %s %s", r.Input, r.Kind, r.Message))
		}
		if diff := cmp.Diff([]string{"1 failure big"}, got); diff != "" {
			t.Errorf("%s: results (-want +got):\n%s", dir, diff)
		}
		if rep.Summaries[0].Successes != 1 || rep.Summaries[0].Failures != 0 {
			t.Errorf("%s: summary of the failing input %+v, want 1 success", dir, rep.Summaries[0])
		}
	}
}

func TestExceptionName(t *testing.T) {
	got := map[string]string{}
	for _, rule := range []string{"deny", "warn", "violation", "deny_no_latest", "warn_no_latest", "violation_a_b", "violation_deny_x"} {
		got[rule] = exceptionName(rule)
	}
	want := map[string]string{
		"deny": "", "warn": "", "violation": "",
		"deny_no_latest": "no_latest", "warn_no_latest": "no_latest", "violation_a_b": "a_b",
		"violation_deny_x": "x",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exceptionName (-want +got):\n%s", diff)
	}
}

// TestLoadDataLayout checks where --data puts each file under data. The
// wanted documents are what conftest v0.71.1 gave for the same paths,
// run from rules/testdata/layout with a policy printing each key of data:
//
//	conftest test -p P --data data in.yaml        exit 1: top = t; sub = {"deeper": {"y": 1, "z": {}},
//	                                              "list": [1, 2], "x": {"name": "sx"}}; hidden = {"h": true}
//	                                              (data.json at the root; notes.txt left out)
//	conftest test -p P --data data/sub/x.yaml ... exit 1: x = {"name": "sx"} (a file given: at the root)
//	conftest test -p P --data p.q:data/sub ...    exit 1: p = {"q": {"deeper": ..., "list": ..., "x": ...}}
//	conftest test -p P --data data/sub --data data/sub/deeper/objects.yaml
//	                                              exit 1: x = {"name": "sx"}; z = {} (objects only: no conflict)
func TestLoadDataLayout(t *testing.T) {
	sub := map[string]any{
		"deeper": map[string]any{"y": json.Number("1"), "z": map[string]any{}},
		"list":   []any{json.Number("1"), json.Number("2")},
		"x":      map[string]any{"name": "sx"},
	}
	tests := []struct {
		name  string
		paths []string
		want  map[string]any
	}{
		{"directory", []string{"data"}, map[string]any{"top": "t", "sub": sub, ".hidden": map[string]any{"h": true}}},
		{"file given", []string{"data/sub/x.yaml"}, map[string]any{"x": map[string]any{"name": "sx"}}},
		{"prefix", []string{"p.q:data/sub"}, map[string]any{"p": map[string]any{"q": sub}}},
		{"subdirectory given", []string{"data/sub/deeper"}, map[string]any{"y": json.Number("1"), "z": map[string]any{}}},
		{"objects-only file twice", []string{"data/sub", "data/sub/deeper/objects.yaml"},
			map[string]any{"deeper": sub["deeper"], "list": sub["list"], "x": sub["x"], "z": map[string]any{}}},
		{"none", nil, map[string]any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir("testdata/layout")
			store, err := loadData(tt.paths)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			v, err := storage.ReadOne(ctx, store, storage.Path{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := ast.JSONWithOpt(v.(ast.Value), ast.JSONOpt{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, normalise(got)); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
		})
	}
}

// normalise makes the numbers of a document json.Numbers.
func normalise(v any) any {
	b, _ := json.Marshal(v)
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	_ = d.Decode(&out)
	return out
}

// TestLoadDataErrors checks the data paths conftest v0.71.1 refuses, and
// the one drydock refuses where conftest ignores it. From
// rules/testdata/layout:
//
//	conftest test -p P --data rootlist in.yaml       exit 1: rootlist/l.yaml: document must be of type object
//	conftest test -p P --data data --data data ...   exit 1: data/.hidden/h.yaml: merge error (and the others)
//	conftest test -p P --data data/sub --data data/sub/x.yaml ...  exit 1: data/sub/x.yaml: merge error
//	conftest test -p P --data data/notes.txt ...     exit 0: the file is left out (drydock: an error)
func TestLoadDataErrors(t *testing.T) {
	tests := []struct {
		name  string
		paths []string
		want  string
	}{
		{"list at the root", []string{"rootlist"}, "rootlist/l.yaml: document must be of type object"},
		{"directory twice", []string{"data", "data"}, `data/.hidden/h.yaml: merge error: the file is given twice at data[".hidden"] and sets values there`},
		{"file twice at one place", []string{"data/sub", "data/sub/x.yaml"}, "data/sub/x.yaml: merge error: the file is given twice at data and sets values there"},
		{"file twice under a prefix", []string{"a.b.sub:data/sub/x.yaml", "a.b:data"}, "data/sub/x.yaml: merge error: the file is given twice at data.a.b.sub"},
		{"not a data file", []string{"data/notes.txt"}, "data/notes.txt: not a data file: only .json, .yaml and .yml files are data"},
		{"missing", []string{"p:missing"}, "missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir("testdata/layout")
			_, err := loadData(tt.paths)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("loadData(%q) = %v, want ErrInvalid naming %q", tt.paths, err, tt.want)
			}
		})
	}
}

func TestSplitDataPath(t *testing.T) {
	for _, p := range []string{"data", "a.b:data", "a:dir/x.yaml", "file:///x"} {
		prefix, path := SplitDataPath(p)
		if got := JoinDataPath(prefix, path); got != p {
			t.Errorf("JoinDataPath(SplitDataPath(%q)) = %q (%q, %q)", p, got, prefix, path)
		}
	}
}
