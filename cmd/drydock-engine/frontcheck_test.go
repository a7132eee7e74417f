package main

import (
	"os"
	"strings"
	"testing"
)

// TestCheckFront: no front (the variable unset) and a front of this
// version run; another version is a usage error naming both; the
// variable does not outlive the check (what the engine runs, a hook
// running an engine directly, must not inherit it).
func TestCheckFront(t *testing.T) {
	for _, tt := range []struct {
		name, front string
		set, ok     bool
	}{
		{"no front", "", false, true},
		{"the same version", version, true, true},
		{"another version", "v0.0.1-other", true, false},
		{"an empty version", "", true, false},
	} {
		if tt.set {
			t.Setenv(frontVersionEnv, tt.front)
		} else {
			t.Setenv(frontVersionEnv, "")
			os.Unsetenv(frontVersionEnv)
		}
		var stderr strings.Builder
		code, ok := checkFront(&stderr)
		if ok != tt.ok || ok && (code != exitOK || stderr.Len() > 0) || !ok && code != exitUsage {
			t.Errorf("%s: checkFront = %d, %v, stderr %q", tt.name, code, ok, stderr.String())
		}
		if !ok && !strings.Contains(stderr.String(), "drydock is "+tt.front+" but its engine ") || !ok && !strings.Contains(stderr.String(), " is "+version+": install both from one release") {
			t.Errorf("%s: stderr %q, want both versions and how to install both", tt.name, stderr.String())
		}
		if _, set := os.LookupEnv(frontVersionEnv); set {
			t.Errorf("%s: %s is still set after the check", tt.name, frontVersionEnv)
		}
	}
}
