package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// FuzzLoadConfig reads arbitrary drydock.yaml files: nothing may panic,
// and every refusal names the file.
func FuzzLoadConfig(f *testing.F) {
	f.Add("suites:\n  - name: prod\n    inputs: [apps]\n    golden: golden/prod\n    policy: [policy]\n    clusters: clusters.yaml\n")
	f.Add("suites: [{name: a, inputs: [x], limits: {evalTimeout: 5s, memory: 1GiB}}]\n")
	f.Add("suites:\n  - name: a\n    inputs: [../outside]\n")
	f.Fuzz(func(t *testing.T, src string) {
		dir := t.TempDir()
		path := filepath.Join(dir, "drydock.yaml")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadConfig(path); err != nil && !strings.Contains(manifest.Format(err, nil), "drydock.yaml") {
			t.Fatalf("error %q does not name drydock.yaml", err)
		}
	})
}
