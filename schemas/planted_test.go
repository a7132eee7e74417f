package schemas

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// TestPlantedMistakes: a corpus of public-style manifests (the examples
// of the Kubernetes documentation and common charts), each with one
// planted mistake its header names ("# plant:"), is refused at the
// planted field ("# want:", "object" for the object as a whole), as the
// API server of every embedded version that serves it refuses it ("#
// version:" for a mistake of one version; "# warning: true" for what the
// API server accepts with a warning), and nothing else in it is an error.
func TestPlantedMistakes(t *testing.T) {
	files, err := filepath.Glob("testdata/planted/*.yaml")
	if err != nil || len(files) < 30 {
		t.Fatalf("%d planted manifests (%v), want at least 30", len(files), err)
	}
	caught := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		header := map[string]string{}
		for _, line := range strings.Split(string(data), "\n") {
			k, v, ok := strings.Cut(strings.TrimPrefix(line, "# "), ": ")
			if !strings.HasPrefix(line, "# ") || !ok {
				break
			}
			header[k] = v
		}
		want, warning := header["want"], header["warning"] == "true"
		if header["plant"] == "" || want == "" {
			t.Fatalf("%s: no # plant: or # want: header", file)
		}
		if want == "object" {
			want = ""
		}
		objs, err := manifest.Decode(file, data, manifest.DecodeOptions{})
		if err != nil || len(objs) != 1 {
			t.Fatalf("%s: %v", file, err)
		}
		versions := KubeVersions()
		if v := header["version"]; v != "" {
			versions = []string{v}
		}
		name := filepath.Base(file)
		for _, version := range versions {
			fs, _, err := Check(version, nil, objs[0])
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range fs {
				switch {
				case f.Field == want && f.Warning == warning:
					found = true
				case !f.Warning:
					t.Errorf("%s (%s) at %s: an error besides the planted one: %s", name, header["plant"], version, f)
				}
			}
			if !found {
				t.Errorf("%s (%s) at %s: not caught at %q (warning %v): %v", name, header["plant"], version, want, warning, fs)
			}
			if found && version == "1.30" || found && len(versions) == 1 {
				caught++
			}
		}
	}
	t.Logf("caught %d of %d planted mistakes at Kubernetes 1.30", caught, len(files))
}
