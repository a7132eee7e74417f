package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/builtin"
)

// TestBuiltinsMatchKubeVela renders every applicable KubeVela case twice,
// once with KubeVela's own definitions (-d) and once with drydock's
// embedded ones, and requires identical trees. A case is applicable when
// every type its Application uses is built in or defined by the case.
func TestBuiltinsMatchKubeVela(t *testing.T) {
	root := filepath.Join(conformanceRoot, "kubevela")
	defs, _ := filepath.Abs(filepath.Join(root, "definitions"))
	builtins := builtin.Definitions()
	var notApplicable []string
	var compared int
	defer func() { t.Logf("built-ins vs KubeVela definitions: %d cases compared", compared) }()
	for _, c := range corpusCases(t, root) {
		dir, _ := filepath.Abs(filepath.Join(root, "cases", c))
		if _, err := os.Stat(filepath.Join(dir, "expected-error")); err == nil {
			continue
		}
		if missing := missingBuiltins(t, dir, builtins); len(missing) > 0 {
			notApplicable = append(notApplicable, c+" (needs "+strings.Join(missing, ", ")+")")
			continue
		}
		compared++
		t.Run(c, func(t *testing.T) {
			// The corpus keeps its Cluster objects beside the other inputs.
			withDefs := renderTree(t, dir, "-d", defs, "--clusters-from-inputs", "input")
			withBuiltins := renderTree(t, dir, "--clusters-from-inputs", "input")
			compareTrees(t, withDefs, withBuiltins, maskVolatile)
		})
	}
	if len(notApplicable) > 0 {
		t.Logf("not applicable (types drydock has not built in):\n  %s", strings.Join(notApplicable, "\n  "))
	}
}

func renderTree(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out := t.TempDir()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	argv := append([]string{"render"}, args...)
	if code := run(append(argv, "--output-dir", out), nil, &stdout, &stderr); code != 0 {
		t.Fatalf("%v: exit %d\n%s", args, code, stderr.String())
	}
	return out
}

// missingBuiltins lists component/trait types the case's Application uses
// that neither the built-ins nor the case's own inputs define.
func missingBuiltins(t *testing.T, dir string, builtins *render.Definitions) []string {
	local := map[string]bool{}
	var apps []*render.Application
	_ = filepath.WalkDir(filepath.Join(dir, "input"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := os.ReadFile(path)
		objs, _ := manifest.Decode(path, data, manifest.DecodeOptions{})
		for _, o := range objs {
			if render.IsDefinitionKind(o.Kind()) {
				local[o.Kind()+"/"+o.Name()] = true
			}
			if o.Kind() == "Application" {
				if app, err := render.ParseApplication(o); err == nil {
					apps = append(apps, app)
				}
			}
		}
		return nil
	})
	seen := map[string]bool{}
	check := func(kind, name string) {
		if !local[kind+"/"+name] && builtins.Get(kind, name) == nil {
			seen[name] = true
		}
	}
	for _, app := range apps {
		for _, c := range app.Components {
			check(render.KindComponent, c.Type)
			for _, tr := range c.Traits {
				check(render.KindTrait, tr.Type)
			}
		}
	}
	out := manifest.SortedKeys(seen)
	sort.Strings(out)
	return out
}

// TestBuiltinsAreTheChart: the built-ins embedded as YAML are the chart's
// files (kubevela 5a44b5f charts/vela-core/templates/defwithtemplate, as
// the KubeVela corpus's definitions/ holds them) byte for byte, and every
// chart definition is built in.
func TestBuiltinsAreTheChart(t *testing.T) {
	dir := filepath.Join(conformanceRoot, "kubevela", "definitions")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	builtins := map[string]bool{}
	for _, n := range builtin.Names() {
		builtins[n] = true
	}
	yamls := 0
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".yaml")
		if !builtins[name] {
			t.Errorf("chart definition %s is not built in", name)
		}
		embedded, err := fs.ReadFile(builtin.FS, e.Name())
		if err != nil {
			continue // written as a `vela def` CUE file
		}
		yamls++
		chart, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if !bytes.Equal(embedded, chart) {
			t.Errorf("builtin/%s differs from the chart's", e.Name())
		}
	}
	t.Logf("%d chart definitions, %d embedded as the chart's files", len(entries), yamls)
}
