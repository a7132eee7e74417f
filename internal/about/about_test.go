package about

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
		if got := ResolveVersion(tt.stamped, tt.bi); got != tt.want {
			t.Errorf("%s: ResolveVersion(%q) = %q, want %q", tt.name, tt.stamped, got, tt.want)
		}
	}
}

// TestText: the first line names version, commit (12 digits), modified
// and build date when known; the others what drydock emulates and embeds,
// "(unknown)" for a module not linked.
func TestText(t *testing.T) {
	tail := " " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	rest := "emulates " + EmulatedKubeVela + ", " + EmulatedKarmada + "\n"
	tests := []struct {
		b    Build
		want string
	}{
		{Build{Version: "v0.1.0", Commit: "0123456789abcdef0123", Date: "2026-11-28T00:00:00Z", CUE: "v0.14.1", OPA: "v1.22.2", OldestKube: "1.23", NewestKube: "1.35"},
			"drydock v0.1.0 (commit 0123456789ab, built 2026-11-28T00:00:00Z)" + tail + "\n" + rest + "CUE v0.14.1, OPA v1.22.2, Kubernetes API schemas 1.23 to 1.35\n"},
		{Build{Version: "v0.0.0-20261128004900-0123456789ab+dirty", Commit: "0123456789abcdef", Modified: true, OldestKube: "1.23", NewestKube: "1.35"},
			"drydock v0.0.0-20261128004900-0123456789ab+dirty (commit 0123456789ab, modified)" + tail + "\n" + rest + "CUE (unknown), OPA (unknown), Kubernetes API schemas 1.23 to 1.35\n"},
		{Build{Version: "(devel)", CUE: "v1", OPA: "v2", OldestKube: "1.1", NewestKube: "1.2"},
			"drydock (devel)" + tail + "\n" + rest + "CUE v1, OPA v2, Kubernetes API schemas 1.1 to 1.2\n"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.b.Text()); diff != "" {
			t.Errorf("%+v.Text() (-want +got):\n%s", tt.b, diff)
		}
	}
}

// TestRead: a stamped commit is kept over the recorded one and says
// nothing about modification.
func TestRead(t *testing.T) {
	b := Read("v9", "abc", "2026-01-02T03:04:05Z")
	if b.Version != "v9" || b.Commit != "abc" || b.Modified || b.Date != "2026-01-02T03:04:05Z" {
		t.Errorf("Read(stamped) = %+v", b)
	}
	if !strings.HasPrefix(b.Text(), "drydock v9 (commit abc, built 2026-01-02T03:04:05Z) ") {
		t.Errorf("Read(stamped).Text() = %q", b.Text())
	}
}
