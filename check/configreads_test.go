package check

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSuiteReads pins which files a suite reads: those at or under any of
// its paths, relative ones joined to the config's directory.
func TestSuiteReads(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(t.TempDir(), "shared")
	s := Suite{Inputs: []string{"apps"}, Policies: []string{"policy"}, Golden: "golden/s", Capabilities: "caps.json",
		Addons: []SuiteAddon{{Dir: "addons/a"}}, CRDs: []string{abs}}
	tests := []struct {
		file string
		want bool
	}{
		{filepath.Join(dir, "apps"), true},
		{filepath.Join(dir, "apps", "a.yaml"), true},
		{filepath.Join(dir, "apps", "sub", "b.yaml"), true},
		{filepath.Join(dir, "apps2", "a.yaml"), false},
		{filepath.Join(dir, "policy", "main.rego"), true},
		{filepath.Join(dir, "golden", "s", "local", "x.yaml"), true},
		{filepath.Join(dir, "golden", "t", "local", "x.yaml"), false},
		{filepath.Join(dir, "caps.json"), true},
		{filepath.Join(dir, "addons", "a", "metadata.yaml"), true},
		{filepath.Join(abs, "crd.yaml"), true},
		{filepath.Join(dir, "drydock.yaml"), false},
		{filepath.Join(dir, "..", "apps", "a.yaml"), false},
	}
	for _, tt := range tests {
		if got := s.Reads(dir, tt.file); got != tt.want {
			t.Errorf("Reads(%s) = %v, want %v", tt.file, got, tt.want)
		}
	}
	// A relative file is taken from the working directory.
	t.Chdir(dir)
	if !s.Reads(dir, filepath.Join("apps", "a.yaml")) {
		t.Error("Reads(apps/a.yaml) from the config's directory = false, want true")
	}
	if (Suite{}).Reads(dir, "a.yaml") {
		t.Error("a suite without paths reads a.yaml")
	}
}

// TestParseNow: RFC 3339 or nothing.
func TestParseNow(t *testing.T) {
	tests := []struct {
		in, err string
		want    time.Time
	}{
		{in: ""},
		{in: "2026-01-02T15:04:05Z", want: time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)},
		{in: "2026-01-02T16:04:05+01:00", want: time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)},
		{in: "2026-01-02", err: "want an RFC 3339 time such as 2026-01-02T15:04:05Z"},
		{in: "yesterday", err: "want an RFC 3339 time such as 2026-01-02T15:04:05Z"},
	}
	for _, tt := range tests {
		got, err := ParseNow(tt.in)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if gotErr != tt.err {
			t.Errorf("ParseNow(%q) error %q, want %q", tt.in, gotErr, tt.err)
		}
		if !got.Equal(tt.want) {
			t.Errorf("ParseNow(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestPathFields: every path key of a suite, capabilities only when set.
func TestPathFields(t *testing.T) {
	s := Suite{Inputs: []string{"in"}, Addons: []SuiteAddon{{Dir: "ad"}}, Gatekeeper: []string{"gk"}}
	want := map[string][]string{"inputs": {"in"}, "addons": {"ad"}, "gatekeeper": {"gk"}}
	got := map[string][]string{}
	for k, v := range s.pathFields() {
		if len(v) > 0 {
			got[k] = v
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pathFields (-want +got):\n%s", diff)
	}
	s.Capabilities = "caps.json"
	if diff := cmp.Diff([]string{"caps.json"}, s.pathFields()["capabilities"]); diff != "" {
		t.Errorf("capabilities (-want +got):\n%s", diff)
	}
}
