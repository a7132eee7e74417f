package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// writeFiles writes files (slash paths under dir to their content).
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const configMapApp = `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: shop}
spec:
  components: [{name: a, type: k8s-objects, properties: {objects: [{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}]}}]
`

// An output or golden tree inside an input directory is never listed as
// input: one of Skip (by real path: through a symbolic link too), or a
// directory holding drydock's ownership file; a path named is listed.
func TestInputFilesSkip(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"apps/app.yaml":                     configMapApp,
		"apps/out/local/x.yaml":             "kind: ConfigMap",
		"apps/out.yaml":                     "kind: ConfigMap",
		"apps/golden/local/y.yaml":          "kind: ConfigMap",
		"apps/golden/" + tree.OwnershipFile: "local/y.yaml\n",
		"apps/sub/golden/z.yaml":            "kind: ConfigMap",
	})
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Join(dir, "apps"), link); err != nil {
		t.Fatal(err)
	}
	apps := filepath.Join(dir, "apps")
	for _, tc := range []struct {
		name        string
		paths, skip []string
		want        []string
	}{
		{"nothing skipped but the owned tree", []string{apps}, nil,
			[]string{"apps/app.yaml", "apps/out.yaml", "apps/out/local/x.yaml", "apps/sub/golden/z.yaml"}},
		{"an output directory and a file", []string{apps}, []string{filepath.Join(apps, "out"), filepath.Join(apps, "out.yaml")},
			[]string{"apps/app.yaml", "apps/sub/golden/z.yaml"}},
		{"skip given through a link", []string{apps}, []string{filepath.Join(link, "out")},
			[]string{"apps/app.yaml", "apps/out.yaml", "apps/sub/golden/z.yaml"}},
		{"input given through a link", []string{link}, []string{filepath.Join(apps, "sub")},
			[]string{"link/app.yaml", "link/out.yaml", "link/out/local/x.yaml"}},
		{"a skipped directory named", []string{filepath.Join(apps, "out")}, []string{filepath.Join(apps, "out")},
			[]string{"apps/out/local/x.yaml"}},
		{"a skipped file named", []string{filepath.Join(apps, "out.yaml")}, []string{filepath.Join(apps, "out.yaml")},
			[]string{"apps/out.yaml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := InputFiles(tc.paths, nil, tc.skip)
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range got {
				got[i], _ = filepath.Rel(dir, p)
				got[i] = filepath.ToSlash(got[i])
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("InputFiles (-want +got):\n%s", diff)
			}
		})
	}
}

// Rendering twice into an output directory inside the input directory
// gives what a render of the inputs alone gives: the second render does
// not read the first's output back (its ConfigMaps as templates to
// propagate), whether the directory is one of Skip or only holds the
// ownership file.
func TestRenderSkipsOutputInInputs(t *testing.T) {
	// render is the tree and the warnings (a ConfigMap read back would be
	// a template on the control plane that no policy propagates).
	type rendered struct {
		Tree     tree.Tree
		Warnings []string
	}
	render := func(in Inputs) rendered {
		t.Helper()
		res, err := Run(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Tree(res.Clusters)
		if err != nil {
			t.Fatal(err)
		}
		return rendered{got, res.SortedWarnings()}
	}
	second := strings.ReplaceAll(configMapApp, "name: a", "name: b")
	for _, skip := range []bool{true, false} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"app.yaml": configMapApp})
		out := filepath.Join(dir, "out")
		in := Inputs{Paths: []string{dir}, Workers: 1}
		if skip {
			in.Skip = []string{out}
		}
		first := render(in)
		if _, err := tree.Update(out, first.Tree, tree.UpdateOptions{Prune: true}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(first, render(in)); diff != "" {
			t.Errorf("skip %v: the same inputs again (-first +second):\n%s", skip, diff)
		}
		writeFiles(t, dir, map[string]string{"app.yaml": second})
		alone := t.TempDir()
		writeFiles(t, alone, map[string]string{"app.yaml": second})
		if diff := cmp.Diff(render(Inputs{Paths: []string{alone}, Workers: 1}), render(in)); diff != "" {
			t.Errorf("skip %v: changed inputs (-alone +beside the output):\n%s", skip, diff)
		}
	}
}

// A git revision's tree (diff --base) leaves out a committed golden tree
// inside an input directory: it holds the ownership file.
func TestInputWalkFSSkipsOwnedTree(t *testing.T) {
	fsys := fstest.MapFS{
		"apps/app.yaml":                     {Data: []byte(configMapApp)},
		"apps/golden/local/y.yaml":          {Data: []byte("kind: ConfigMap")},
		"apps/golden/" + tree.OwnershipFile: {Data: []byte("local/y.yaml\n")},
	}
	got, err := files{fsys: fsys}.walk("apps", nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"apps/app.yaml"}, got); diff != "" {
		t.Errorf("walk (-want +got):\n%s", diff)
	}
}

// Reads and Enters say what a render reads, as its walk lists it: what
// --watch reacts to.
func TestInputsReads(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"apps/app.yaml":                     configMapApp,
		"apps/golden/" + tree.OwnershipFile: "",
		"defs/d.cue":                        "",
		"addon/metadata.yaml":               "name: a\n",
		"clusters.yaml":                     "",
	})
	j := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	in := Inputs{Paths: []string{j("apps")}, DefinitionPaths: []string{j("defs")}, ClusterPaths: []string{j("clusters.yaml")},
		Addons: []Addon{{Dir: j("addon")}}, Exclude: []string{"*.tmpl.yaml"}, Skip: []string{j("apps/out"), j("apps/out.yaml")}}
	for _, tc := range []struct {
		path        string
		reads, dirs bool
	}{
		{"apps/app.yaml", true, true},
		{"apps/new.yml", true, true},
		{"apps/deep/new.json", true, true},
		{"apps/notes.md", false, true},
		{"apps/x.tmpl.yaml", false, true},
		{"apps/drydock.yaml", false, true},
		{"apps/out.yaml", false, false},
		{"apps/out", false, false},
		{"apps/out/local/x.yaml", false, false},
		{"apps/golden", false, false},
		{"apps/golden/local/x.yaml", false, false},
		{"apps/.git/x.yaml", false, false},
		{"apps/__snapshot__/x.yaml", false, false},
		{"defs/d.cue", true, true},
		{"addon/README.md", true, true},
		{"clusters.yaml", true, true},
		{"other.yaml", false, false},
		{"apps", true, true},
	} {
		if got := in.Reads(j(tc.path)); got != tc.reads {
			t.Errorf("Reads(%s) = %v, want %v", tc.path, got, tc.reads)
		}
		if got := in.Enters(j(tc.path)); got != tc.dirs {
			t.Errorf("Enters(%s) = %v, want %v", tc.path, got, tc.dirs)
		}
	}
}

// TestParseApps: the Applications that parse, the first of each
// namespace and name (no namespace is "default"), in order; the others
// reported; the list and map made once, not grown per Application.
func TestParseApps(t *testing.T) {
	app := func(ns, name string, line int) appSource {
		return appSource{key: manifest.Key{Group: "core.oam.dev", Kind: "Application", Namespace: ns, Name: name}, namePos: manifest.Pos{File: "a.yaml", Line: line}}
	}
	bad := app("x", "bad", 9)
	bad.err = errors.New("bad application")
	apps := []appSource{app("", "a", 1), app("n", "a", 2), app("default", "a", 3), bad, app("n", "b", 5), app("n", "a", 6)}
	ok, err := parseApps(apps)
	var names []string
	for _, a := range ok {
		names = append(names, fmt.Sprintf("%s@%d", a.name(), a.namePos.Line))
	}
	if want := []string{"default/a@1", "n/a@2", "n/b@5"}; !slices.Equal(names, want) {
		t.Errorf("kept %q, want %q", names, want)
	}
	msg := manifest.Format(err, nil)
	for _, want := range []string{"a.yaml:3: Application default/a is also defined at a.yaml:1", "a.yaml:6: Application n/a is also defined at a.yaml:2", "bad application"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	many := make([]appSource, 5000)
	for i := range many {
		many[i] = app("n", strconv.Itoa(i), i)
	}
	// Counted under parseApps only: a count of the whole process's
	// allocations (leastAllocs) failed once under load, when other
	// tests' abandoned goroutines allocated meanwhile.
	if n := allocsUnder(t, "pipeline.parseApps", func() { parseApps(many) }); n > 100 {
		t.Errorf("parseApps of %d Applications took %d allocations", len(many), n)
	}
}

// leastAllocs is the fewest allocations f made in a few rounds:
// testing.AllocsPerRun counts the whole process's, and what other
// goroutines of the test binary allocate meanwhile (the cleanup of
// earlier tests) only ever adds to them.
func leastAllocs(f func()) float64 {
	least := testing.AllocsPerRun(3, f)
	for range 4 {
		least = min(least, testing.AllocsPerRun(3, f))
	}
	return least
}
