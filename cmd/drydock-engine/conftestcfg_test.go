package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spf13/pflag"
)

// TestConftestFlagValues checks the weak decoding conftest's mapstructure
// does (conftest v0.71.1 with conftest.toml: all-namespaces = 1 and
// "true" are true, "yes" an error; namespace = "main,other" two
// namespaces, namespace = 5 the namespace "5"; output = ["json"] an
// error).
func TestConftestFlagValues(t *testing.T) {
	tests := []struct {
		typ     string
		v       any
		want    []string
		wantErr string
	}{
		{"bool", true, []string{"true"}, ""},
		{"bool", "true", []string{"true"}, ""},
		{"bool", "", []string{"false"}, ""},
		{"bool", int64(1), []string{"true"}, ""},
		{"bool", 0, []string{"false"}, ""},
		{"bool", 0.5, []string{"true"}, ""},
		{"bool", "yes", nil, `cannot parse "yes" as a bool`},
		{"bool", []any{true}, nil, "expected a bool, got a list"},
		{"string", "json", []string{"json"}, ""},
		{"string", true, []string{"1"}, ""},
		{"string", false, []string{"0"}, ""},
		{"string", int64(5), []string{"5"}, ""},
		{"string", 7, []string{"7"}, ""},
		{"string", 1.5, []string{"1.5"}, ""},
		{"string", []any{"json"}, nil, "expected a string, got a list"},
		{"string", map[string]any{}, nil, "expected a string, got a table"},
		{"string", nil, nil, "expected a string, got nothing"},
		{"stringArray", "main,other", []string{"main", "other"}, ""},
		{"stringArray", "", nil, ""},
		{"stringArray", []any{"a", int64(2)}, []string{"a", "2"}, ""},
		{"stringArray", int64(5), []string{"5"}, ""},
		{"stringSlice", []any{map[string]any{}}, nil, "item 0: expected a string, got a table"},
	}
	for _, tt := range tests {
		got, err := conftestFlagValues(tt.typ, tt.v)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("conftestFlagValues(%s, %#v) error %v, want %q", tt.typ, tt.v, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("conftestFlagValues(%s, %#v): %v", tt.typ, tt.v, err)
		}
		if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("conftestFlagValues(%s, %#v) (-want +got):\n%s", tt.typ, tt.v, diff)
		}
	}
}

// TestApplyConftestConfig checks which file is read, precedence and the
// errors, on a flag set like drydock test's.
func TestApplyConftestConfig(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		env     map[string]string
		args    []string
		command string
		// want are the flags' values after, as name=value.
		want    []string
		wantErr string
		stderr  string
	}{
		{name: "no file", want: []string{"policy=[]", "namespace=[]", "fail-on-warn=false"}},
		{name: "toml", files: map[string]string{"conftest.toml": "policy = \"p\"\nnamespace = [\"a\", \"b\"]\nfail-on-warn = true\n"},
			want: []string{"policy=[p]", "namespace=[a,b]", "fail-on-warn=true"}},
		{name: "flags win", files: map[string]string{"conftest.toml": "policy = \"p\"\nnamespace = [\"a\", \"b\"]\nfail-on-warn = true\n"},
			args: []string{"--namespace", "c", "--fail-on-warn=false"}, want: []string{"policy=[p]", "namespace=[c]", "fail-on-warn=false"}},
		{name: "environment beats the file", files: map[string]string{"conftest.toml": "namespace = \"a\"\n"},
			env: map[string]string{"CONFTEST_NAMESPACE": "x,y", "CONFTEST_FAIL_ON_WARN": "1"}, want: []string{"namespace=[x,y]", "fail-on-warn=true"}},
		{name: "an empty variable is unset", files: map[string]string{"conftest.toml": "namespace = \"a\"\n"},
			env: map[string]string{"CONFTEST_NAMESPACE": ""}, want: []string{"namespace=[a]"}},
		{name: "json first", files: map[string]string{"conftest.json": `{"policy": "j"}`, "conftest.toml": "policy = \"t\"\n"}, want: []string{"policy=[j]"}},
		{name: "a directory is not the file", files: map[string]string{"conftest.json/x": "", "conftest.yaml": "Policy: y\n"}, want: []string{"policy=[y]"}},
		{name: "CONFTEST_CONFIG_FILE", files: map[string]string{"other.yml": "policy: o\n", "conftest.toml": "policy = \"t\"\n"},
			env: map[string]string{"CONFTEST_CONFIG_FILE": "other.yml"}, want: []string{"policy=[o]"}},
		{name: "missing CONFTEST_CONFIG_FILE", env: map[string]string{"CONFTEST_CONFIG_FILE": "nope.toml"}, wantErr: "conftest configuration: nope.toml"},
		{name: "test's keys are not verify's", command: "verify", files: map[string]string{"conftest.toml": "policy = \"p\"\ncombine = true\nfail-on-warn = true\n"},
			want: []string{"policy=[p]", "fail-on-warn=false"}},
		{name: "unknown key", files: map[string]string{"conftest.toml": "policy = \"p\"\n[extra]\nk = 1\n"},
			want: []string{"policy=[p]"}, stderr: "drydock: conftest.toml: unknown key \"extra\": conftest ignores it, and so does drydock\n"},
		{name: "no flag yet", files: map[string]string{"conftest.toml": "quiet = true\n"},
			wantErr: "conftest.toml key quiet: not supported by drydock yet (drydock has no --quiet flag)"},
		{name: "no flag yet, from the environment", env: map[string]string{"CONFTEST_PARSER": "toml"},
			wantErr: "CONFTEST_PARSER: not supported by drydock yet (drydock has no --parser flag)"},
		{name: "refused", files: map[string]string{"conftest.toml": "update = [\"oci://x\"]\n"}, wantErr: "conftest.toml key update: not supported by drydock: it downloads policies"},
		{name: "bad value", files: map[string]string{"conftest.toml": "fail-on-warn = \"maybe\"\n"}, wantErr: `conftest.toml key fail-on-warn: cannot parse "maybe" as a bool`},
		{name: "toml syntax", files: map[string]string{"conftest.toml": "policy = \n"}, wantErr: "conftest.toml:1:"},
		{name: "json syntax", files: map[string]string{"conftest.json": "{\n  \"policy\": ,\n}"}, wantErr: "conftest.json:2:13: invalid JSON"},
		{name: "yaml syntax", files: map[string]string{"conftest.yaml": "policy: [a\n"}, wantErr: "conftest.yaml:1:9: invalid YAML"},
		{name: "dotenv", files: map[string]string{"conftest.env": "policy=p\n"}, wantErr: "conftest.env: not supported by drydock yet"},
		{name: "hcl", files: map[string]string{"conftest.hcl": "policy = \"p\"\n"}, wantErr: "conftest.hcl: conftest cannot read this format either"},
		{name: "no extension", env: map[string]string{"CONFTEST_CONFIG_FILE": "cfg"}, files: map[string]string{"cfg": "policy = \"p\"\n"}, wantErr: "cfg: conftest cannot read this format either"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			for k := range conftestEnv() {
				t.Setenv(k, "")
			}
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			for name, text := range tt.files {
				if i := strings.LastIndexByte(name, '/'); i > 0 {
					if err := os.MkdirAll(name[:i], 0o755); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			fs.StringArray("policy", nil, "")
			fs.StringArray("namespace", nil, "")
			fs.Bool("fail-on-warn", false, "")
			fs.Bool("combine", false, "")
			if err := fs.Parse(tt.args); err != nil {
				t.Fatal(err)
			}
			command := tt.command
			if command == "" {
				command = "test"
			}
			var stderr bytes.Buffer
			err := applyConftestConfig(fs, command, &stderr)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(errText(err), tt.wantErr) {
					t.Fatalf("error %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range tt.want {
				name, _, _ := strings.Cut(w, "=")
				got = append(got, name+"="+fs.Lookup(name).Value.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("flags (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.stderr, stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}

// conftestEnv are the CONFTEST_ variables of the environment the test
// runs in, which it unsets.
func conftestEnv() map[string]bool {
	out := map[string]bool{"CONFTEST_CONFIG_FILE": true}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "CONFTEST_") {
			out[k] = true
		}
	}
	return out
}
