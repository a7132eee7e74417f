package main

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResolveVersion: the stamped version wins, then the module version
// the go command recorded (go install ...@v0.1.0), then "(devel)".
func TestResolveVersion(t *testing.T) {
	main := func(v string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/drydock-dev/drydock", Version: v}}
	}
	tests := []struct {
		name    string
		stamped string
		bi      *debug.BuildInfo
		want    string
	}{
		{"release build", "v0.2.0", main("v0.0.0-20261128004900-00a3747abcde"), "v0.2.0"},
		{"go install @v0.1.0", "", main("v0.1.0"), "v0.1.0"},
		{"go build in a work tree", "", main("v0.0.0-20261128004900-00a3747abcde+dirty"), "v0.0.0-20261128004900-00a3747abcde+dirty"},
		{"go build -buildvcs=false", "", main("(devel)"), "(devel)"},
		{"test binary", "", main(""), "(devel)"},
		{"no build info", "", nil, "(devel)"},
	}
	for _, tt := range tests {
		if got := resolveVersion(tt.stamped, tt.bi); got != tt.want {
			t.Errorf("%s: resolveVersion(%q) = %q, want %q", tt.name, tt.stamped, got, tt.want)
		}
	}
}

// TestFormatVersion: the first line names version, commit (12 digits),
// modified and build date when known.
func TestFormatVersion(t *testing.T) {
	tail := " " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		b    build
		want string
	}{
		{build{version: "v0.1.0", commit: "0123456789abcdef0123", date: "2026-11-28T00:00:00Z"}, "drydock v0.1.0 (commit 0123456789ab, built 2026-11-28T00:00:00Z)" + tail},
		{build{version: "v0.0.0-20261128004900-0123456789ab+dirty", commit: "0123456789abcdef", modified: true}, "drydock v0.0.0-20261128004900-0123456789ab+dirty (commit 0123456789ab, modified)" + tail},
		{build{version: "(devel)"}, "drydock (devel)" + tail},
	}
	for _, tt := range tests {
		first, _, _ := strings.Cut(formatVersion(tt.b), "\n")
		if diff := cmp.Diff(tt.want, first); diff != "" {
			t.Errorf("formatVersion(%+v) first line (-want +got):\n%s", tt.b, diff)
		}
	}
}
