package check

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// shopApp is an Application whose override policy sets web's replicas
// (line 23) over the scaler trait's; image is set on line 10.
func shopApp(image string, replicas int) string {
	return strings.NewReplacer("IMAGE", image, "REPLICAS", strconv.Itoa(replicas)).Replace(`apiVersion: core.oam.dev/v1beta1
kind: Application
metadata:
  name: shop
spec:
  components:
    - name: web
      type: webservice
      properties:
        image: IMAGE
      traits:
        - type: scaler
          properties:
            replicas: 1
  policies:
    - name: ha
      type: override
      properties:
        components:
          - name: web
            traits:
              - type: scaler
                properties: {replicas: REPLICAS}
`)
}

// locatedFinding is what TestLocateCauses compares of a golden finding.
type locatedFinding struct {
	Pos, Field, Message string
	HasDiff             bool
}

// TestLocateCauses: a golden drift points at the line that set the first
// drifting field, as the suite compares it (ignored fields left out).
func TestLocateCauses(t *testing.T) {
	const web = "local/default/deployment.apps_web.yaml"
	differs := web + " differs from the golden tree (run drydock test --update to accept it)"
	tests := []struct {
		name     string
		suite    string // the suite's keys besides name, inputs and golden
		now      string // app.yaml when checked (the golden tree has shopApp("nginx:1.25", 2))
		want     []locatedFinding
		wantCode int
	}{
		{
			name: "an override policy's replicas",
			now:  shopApp("nginx:1.25", 4),
			want: []locatedFinding{{Pos: "app.yaml:23:40", Field: "spec.replicas", HasDiff: true,
				Message: differs + "; spec.replicas was set by override policy ha properties.replicas"}},
			wantCode: ExitFail,
		},
		{
			name: "a component's image",
			now:  shopApp("nginx:1.26", 2),
			want: []locatedFinding{{Pos: "app.yaml:10:16", Field: "spec.template.spec.containers[0].image", HasDiff: true,
				Message: differs + "; spec.template.spec.containers[0].image was set by component web properties.image"}},
			wantCode: ExitFail,
		},
		{
			name:  "an ignored field is not the cause",
			suite: ", ignore: [{path: spec.replicas}]",
			now:   shopApp("nginx:1.26", 4),
			want: []locatedFinding{{Pos: "app.yaml:10:16", Field: "spec.template.spec.containers[0].image", HasDiff: true,
				Message: differs + "; spec.template.spec.containers[0].image was set by component web properties.image"}},
			wantCode: ExitFail,
		},
		{
			name:  "an ignored field alone is no drift",
			suite: ", ignore: [{path: spec.replicas}]",
			now:   shopApp("nginx:1.25", 4),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runFiles(t, map[string]string{
				"drydock.yaml": "suites: [{name: s, inputs: [app.yaml], golden: golden, validate: false" + tt.suite + "}]\n",
				"app.yaml":     shopApp("nginx:1.25", 2),
			}, Options{Update: true})
			if res.ExitCode() != ExitOK {
				t.Fatalf("update: %v", summarize(res))
			}
			writeFiles(t, ".", map[string]string{"app.yaml": tt.now})
			cfg, err := LoadConfig("drydock.yaml")
			if err != nil {
				t.Fatal(err)
			}
			res = Run(context.Background(), cfg, Options{})
			var got []locatedFinding
			for _, f := range res.Suites[0].Findings {
				got = append(got, locatedFinding{Pos: f.Pos.String(), Field: f.Field, Message: f.Message, HasDiff: f.Diff != ""})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if code := res.ExitCode(); code != tt.wantCode {
				t.Errorf("ExitCode() = %d, want %d", code, tt.wantCode)
			}
		})
	}
}

// TestDriftFieldWithoutGolden: no golden file (or one that does not
// decode as one object) names no field.
func TestDriftFieldWithoutGolden(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"golden/local/two.yaml": "a: 1\n---\nb: 2\n"})
	objs, err := manifest.Decode("o.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{dir: dir}
	for _, p := range []string{"local/missing.yaml", "local/two.yaml"} {
		if got := r.driftField(Suite{Golden: "golden"}, p, objs[0]); got != "" {
			t.Errorf("driftField(%s) = %q, want none", p, got)
		}
	}
}

// TestDriftFieldNoLinkOut: a golden file that links out of the golden
// tree is not read: the object outside, which differs in data.a, would
// name that field.
func TestDriftFieldNoLinkOut(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"outside.yaml":       "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: x}\n",
		"golden/local/.keep": "",
	})
	if err := os.Symlink(filepath.Join(dir, "outside.yaml"), filepath.Join(dir, "golden", "local", "c.yaml")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	objs, err := manifest.Decode("o.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b}\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{dir: dir}
	if got := r.driftField(Suite{Golden: "golden"}, "local/c.yaml", objs[0]); got != "" {
		t.Errorf("driftField through a link out = %q, want none", got)
	}
	// The same file inside the tree names the field.
	writeFiles(t, dir, map[string]string{"golden/local/d.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: x}\n"})
	if got := r.driftField(Suite{Golden: "golden"}, "local/d.yaml", objs[0]); got != "data.a" {
		t.Errorf("driftField inside = %q, want data.a", got)
	}
}
