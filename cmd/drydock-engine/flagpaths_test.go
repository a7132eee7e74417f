package main

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckFlagPaths: a missing path given on the command line is named
// with its flag, and with the reason, never the system call.
func TestCheckFlagPaths(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("app.yaml", []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		given []flagPaths
		want  string
	}{
		{"all there", []flagPaths{{"", []string{"app.yaml", "-"}}, {"--clusters", []string{"app.yaml"}}}, ""},
		{"argument", []flagPaths{{"", []string{"app.yaml", "nope.yaml"}}}, "nope.yaml: no such file or directory"},
		{"--clusters", []flagPaths{{"", []string{"app.yaml"}}, {"--clusters", []string{"clusters.yaml"}}}, "--clusters clusters.yaml: no such file or directory"},
		{"below a file", []flagPaths{{"--data", []string{"app.yaml/x.json"}}}, "--data app.yaml/x.json: not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := checkFlagPaths(tt.given...); err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
