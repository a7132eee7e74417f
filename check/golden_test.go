package check

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// findingLines are findings as summarize writes them.
func findingLines(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Pos.String()+" "+string(f.Level)+" ["+f.Check+"] "+f.Object+": "+f.Message)
	}
	return out
}

// TestGoldenMask pins what a golden comparison leaves out of a file: the
// revision hash label unless compared, and the suite's ignored fields
// where their kind and cluster match.
func TestGoldenMask(t *testing.T) {
	const (
		path  = "member1/default/deployment.apps_web.yaml"
		label = "    app.oam.dev/app-revision-hash: abc123\n"
		head  = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  labels:\n    app: web\n"
		tail  = "  name: web\n  namespace: default\nspec:\n  replicas: 2\n"
		file  = head + label + tail
	)
	tests := []struct {
		name string
		s    Suite
		data string
		want string
	}{
		{"the revision hash is left out", Suite{}, file, head + tail},
		{"an ignored field is left out", Suite{Ignore: []Ignore{{Path: "spec.replicas"}}}, file, head + "  name: web\n  namespace: default\nspec: {}\n"},
		{"the hash compared, the field ignored", Suite{CompareRevisionHash: true, Ignore: []Ignore{{Path: "spec.replicas", Kind: "Deployment", Cluster: "member1"}}},
			file, head + label + "  name: web\n  namespace: default\nspec: {}\n"},
		{"an ignore of another kind", Suite{Ignore: []Ignore{{Path: "spec.replicas", Kind: "Service"}}}, file, head + tail},
		{"an ignore of another cluster", Suite{Ignore: []Ignore{{Path: "spec.replicas", Cluster: "member2"}}}, file, head + tail},
		{"an ignored field that is not there", Suite{Ignore: []Ignore{{Path: "spec.paused"}}}, file, head + tail},
		{"a file that does not decode is compared as it is", Suite{Ignore: []Ignore{{Path: "spec.replicas"}}}, "a: [\n", "a: [\n"},
		{"two documents are compared as they are", Suite{Ignore: []Ignore{{Path: "spec.replicas"}}}, file + "---\n" + file, head + tail + "---\n" + head + tail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mask := goldenMask(tt.s)
			if mask == nil {
				t.Fatal("goldenMask = nil, want a mask")
			}
			if diff := cmp.Diff(tt.want, string(mask(path, []byte(tt.data)))); diff != "" {
				t.Errorf("masked (-want +got):\n%s", diff)
			}
		})
	}
	if goldenMask(Suite{CompareRevisionHash: true}) != nil {
		t.Error("goldenMask compares everything: want nil")
	}
}

// TestCompared pins the golden findings of a comparison: one per drifted
// file at its origin (a removed one at its golden file), the hint worded
// for CI when asked, and what an interrupted update left.
func TestCompared(t *testing.T) {
	const dir = "golden/s"
	origin := cluster.Origin{Pos: manifest.Pos{File: "app.yaml", Line: 7, Col: 3}, Application: "a", Component: "web"}
	origins := map[string]cluster.Origin{"local/a.yaml": origin, "local/c.yaml": origin}
	rep := &golden.Report{Report: tree.Report{Added: []string{"local/a.yaml"}, Changed: []string{"local/c.yaml"}, Removed: []string{"local/r.yaml"},
		Leftovers: []string{"an update was rolled back"}, Unowned: true}, Diffs: map[string]string{"local/c.yaml": "-a\n+b\n"}}
	tests := []struct {
		name string
		ci   bool
		want []string
	}{
		{"locally", false, []string{
			"golden/s/.drydock-golden.journal:1:1 warning [golden] : the golden tree golden/s: an update was rolled back",
			"golden/s:1:1 warning [golden] : the golden tree golden/s has no .drydock-golden: drydock wrote none of its files, so stale ones are not reported; take the tree over once with drydock test --update --adopt",
			"app.yaml:7:3 error [golden] local/a.yaml: local/a.yaml renders but is not in the golden tree (run drydock test --update to accept it)",
			"app.yaml:7:3 error [golden] local/c.yaml: local/c.yaml differs from the golden tree (run drydock test --update to accept it)",
			"golden/s/local/r.yaml:1:1 error [golden] local/r.yaml: local/r.yaml is in the golden tree but no longer renders (run drydock test --update to accept it with --prune)",
		}},
		{"in CI", true, []string{
			"golden/s/.drydock-golden.journal:1:1 warning [golden] : the golden tree golden/s: an update was rolled back",
			"golden/s:1:1 warning [golden] : the golden tree golden/s has no .drydock-golden: drydock wrote none of its files, so stale ones are not reported; take the tree over once with drydock test --update --adopt",
			"app.yaml:7:3 error [golden] local/a.yaml: local/a.yaml renders but is not in the golden tree (the golden tree is stale: run drydock test --update locally and commit it)",
			"app.yaml:7:3 error [golden] local/c.yaml: local/c.yaml differs from the golden tree (the golden tree is stale: run drydock test --update locally and commit it)",
			"golden/s/local/r.yaml:1:1 error [golden] local/r.yaml: local/r.yaml is in the golden tree but no longer renders (the golden tree is stale: run drydock test --update locally and commit it with --prune)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			writeFiles(t, ".", map[string]string{"golden/s/local/r.yaml": "a: 1\n"}) // the tree exists
			r := &runner{opts: Options{CI: tt.ci}}
			res := &SuiteResult{Name: "s"}
			r.compared(res, dir, rep, origins)
			if diff := cmp.Diff(tt.want, findingLines(res.Findings)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			for _, f := range res.Findings {
				if f.Object == "local/c.yaml" && f.Diff != "-a\n+b\n" {
					t.Errorf("changed file's diff %q, want the report's", f.Diff)
				}
				if f.Object != "" && f.Object != "local/r.yaml" && f.Origin != origin {
					t.Errorf("%s: origin %+v, want %+v", f.Object, f.Origin, origin)
				}
			}
		})
	}
}

// TestUpdated pins what an update reports: the files written (removed
// ones only when pruned), those adopted, and a warning per file kept.
func TestUpdated(t *testing.T) {
	const dir = "golden/s"
	tests := []struct {
		name                  string
		rep                   tree.Report
		updated, adopted, fnd []string
	}{
		{
			name:    "pruned",
			rep:     tree.Report{Added: []string{"a"}, Changed: []string{"c"}, Removed: []string{"r"}, Pruned: true, Adopted: []string{"o"}, Kept: []string{"k"}},
			updated: []string{"a", "c", "r"}, adopted: []string{"o"},
			fnd: []string{"golden/s/k:1:1 warning [golden] k: k no longer renders but lies on another file system: not pruned"},
		},
		{
			name:    "not pruned",
			rep:     tree.Report{Added: []string{"a"}, Removed: []string{"r"}, Leftovers: []string{"an update was completed"}},
			updated: []string{"a"},
			fnd: []string{
				"golden/s/.drydock-golden.journal:1:1 warning [golden] : the golden tree golden/s: an update was completed",
				"golden/s/r:1:1 warning [golden] r: r no longer renders; kept (use --prune to delete it)",
			},
		},
		{name: "nothing to do"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := &SuiteResult{Name: "s"}
			(&runner{}).updated(res, dir, &tt.rep)
			if diff := cmp.Diff(tt.updated, res.Updated); diff != "" {
				t.Errorf("updated (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.adopted, res.Adopted); diff != "" {
				t.Errorf("adopted (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.fnd, findingLines(res.Findings)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}
