package override

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/karmada"
	"github.com/drydock-dev/drydock/manifest"
)

// corpusDir holds the Karmada conformance cases (expected outputs produced
// by Karmada f8fdd02 itself).
const corpusDir = "../../../shared/conformance/karmada/cases"

// corpusCase is one case's decoded input.
type corpusCase struct {
	inv         *cluster.Inventory
	policies    []*Policy
	parseErr    error
	propagation []*manifest.Object
	templates   []*manifest.Object
}

// TestCorpus runs the override cases of the Karmada corpus: the
// "karmada-override-oracle" cases must produce exactly the expected objects
// for every cluster of their PropagationPolicy, and the invalid-* cases must
// be rejected by Parse with Karmada's message.
func TestCorpus(t *testing.T) {
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Skipf("corpus not available: %v", err)
	}
	var ran, passed int
	for _, e := range entries {
		dir := filepath.Join(corpusDir, e.Name())
		readme, err := os.ReadFile(filepath.Join(dir, "README"))
		if err != nil {
			t.Fatal(err)
		}
		invalid := strings.HasPrefix(e.Name(), "invalid-")
		if !invalid && !strings.Contains(string(readme), "karmada-override-oracle") {
			continue
		}
		ran++
		ok := t.Run(e.Name(), func(t *testing.T) {
			c := loadCase(t, dir)
			if invalid {
				checkInvalid(t, dir, c)
				return
			}
			if c.parseErr != nil {
				t.Fatal(c.parseErr)
			}
			want := expectedTree(t, filepath.Join(dir, "expected"))
			got := renderCase(t, c)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
		if ok {
			passed++
		}
	}
	t.Logf("corpus: %d of %d override cases pass", passed, ran)
}

func loadCase(t *testing.T, dir string) *corpusCase {
	t.Helper()
	c := &corpusCase{inv: cluster.NewInventory()}
	files, err := filepath.Glob(filepath.Join(dir, "input", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := manifest.Decode(filepath.Join("input", filepath.Base(f)), data, manifest.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			c.add(t, o)
		}
	}
	return c
}

func (c *corpusCase) add(t *testing.T, o *manifest.Object) {
	switch {
	case cluster.IsClusterObject(o):
		if err := c.inv.Add(o); err != nil {
			t.Fatal(err)
		}
	case IsPolicy(o):
		p, err := Parse(o)
		if err != nil {
			if c.parseErr == nil {
				c.parseErr = err
			}
			return
		}
		c.policies = append(c.policies, p)
	case manifest.Group(o.APIVersion()) == group && strings.HasSuffix(o.Kind(), "PropagationPolicy"):
		c.propagation = append(c.propagation, o)
	default:
		c.templates = append(c.templates, o)
	}
}

func checkInvalid(t *testing.T, dir string, c *corpusCase) {
	want, err := os.ReadFile(filepath.Join(dir, "expected-error"))
	if err != nil {
		t.Fatal(err)
	}
	if c.parseErr == nil {
		t.Fatalf("Parse accepted every policy; want an error containing %q", strings.TrimSpace(string(want)))
	}
	if !errors.Is(c.parseErr, ErrInvalid) {
		t.Errorf("error %v does not wrap ErrInvalid", c.parseErr)
	}
	if !strings.Contains(c.parseErr.Error(), strings.TrimSpace(string(want))) {
		t.Errorf("error %q does not contain %q", c.parseErr, strings.TrimSpace(string(want)))
	}
	if !strings.HasPrefix(c.parseErr.Error(), "input/overrides.yaml:") {
		t.Errorf("error %q does not start with a position", c.parseErr)
	}
}

// renderCase emulates, per template and cluster of its PropagationPolicy,
// Karmada's claim step, the override manager and the removal of the
// bookkeeping keys.
func renderCase(t *testing.T, c *corpusCase) map[string]map[string]map[string]any {
	got := map[string]map[string]map[string]any{}
	for _, tmpl := range c.templates {
		for _, name := range clustersFor(t, tmpl, c.propagation) {
			cl, ok := c.inv.Get(name)
			if !ok {
				t.Fatalf("cluster %s not in inventory", name)
			}
			claimed := claim(tmpl)
			out, _, err := Apply(claimed, cl, c.policies)
			if err != nil {
				t.Fatalf("Apply %s on %s: %v", tmpl.Key(), name, err)
			}
			if diff := cmp.Diff(claim(tmpl).Data, claimed.Data); diff != "" {
				t.Errorf("Apply modified its input (-before +after):\n%s", diff)
			}
			exact, _, err := run(claimed, cl, c.policies, true)
			if err != nil {
				t.Fatalf("exact mode: %v", err)
			}
			if diff := cmp.Diff(exact, out.Data); diff != "" {
				t.Errorf("in-memory patching differs from evanphx/json-patch (-exact +native):\n%s", diff)
			}
			stripBookkeeping(out.Data)
			if got[name] == nil {
				got[name] = map[string]map[string]any{}
			}
			got[name][out.Key().String()] = out.Data
		}
	}
	return got
}

// clustersFor resolves the case's explicit PropagationPolicy: the first
// policy (by name) in the template's namespace, or cluster policy, whose
// selectors match; its clusterAffinity.clusterNames are the clusters.
func clustersFor(t *testing.T, tmpl *manifest.Object, pps []*manifest.Object) []string {
	var best *manifest.Object
	for _, pp := range pps {
		if pp.Kind() == "PropagationPolicy" && pp.Namespace() != tmpl.Namespace() {
			continue
		}
		spec := manifest.Map(pp.Data, "spec")
		sels, _ := spec["resourceSelectors"].([]any)
		for _, s := range sels {
			rs, err := karmada.DecodeResourceSelector(s.(map[string]any))
			if err != nil {
				t.Fatal(err)
			}
			if rs.Namespace == "" && pp.Kind() == "PropagationPolicy" {
				rs.Namespace = pp.Namespace()
			}
			if rs.Priority(tmpl) > karmada.PriorityMismatch && (best == nil || pp.Name() < best.Name()) {
				best = pp
			}
		}
	}
	if best == nil {
		return nil
	}
	names, err := manifest.DecodeStringList(manifest.Map(best.Data, "spec", "placement", "clusterAffinity")["clusterNames"])
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// claim is what Karmada's detector does to a template before overrides:
// labels and annotations exist and carry its bookkeeping keys.
func claim(tmpl *manifest.Object) *manifest.Object {
	data := manifest.DeepCopy(tmpl.Data).(map[string]any)
	meta, _ := data["metadata"].(map[string]any)
	labels, _ := meta["labels"].(map[string]any)
	if labels == nil {
		labels = map[string]any{}
	}
	labels["propagationpolicy.karmada.io/permanent-id"] = "x"
	annotations, _ := meta["annotations"].(map[string]any)
	if annotations == nil {
		annotations = map[string]any{}
	}
	annotations["propagationpolicy.karmada.io/name"] = "x"
	meta["labels"], meta["annotations"] = labels, annotations
	return &manifest.Object{Data: data, Pos: tmpl.Pos}
}

// stripBookkeeping removes the labels and annotations whose key prefix ends
// in karmada.io, and the maps left empty.
func stripBookkeeping(data map[string]any) {
	meta, _ := data["metadata"].(map[string]any)
	for _, field := range []string{"labels", "annotations"} {
		m, _ := meta[field].(map[string]any)
		if m == nil {
			continue
		}
		for k := range m {
			if prefix, _, ok := strings.Cut(k, "/"); ok && strings.HasSuffix(prefix, "karmada.io") {
				delete(m, k)
			}
		}
		if len(m) == 0 {
			delete(meta, field)
		}
	}
}

// expectedTree reads expected/<cluster>/... into cluster → key → object.
func expectedTree(t *testing.T, root string) map[string]map[string]map[string]any {
	want := map[string]map[string]map[string]any{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		name := strings.Split(rel, string(filepath.Separator))[0]
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		objs, err := manifest.Decode(rel, data, manifest.DecodeOptions{})
		if err != nil {
			return err
		}
		for _, o := range objs {
			if want[name] == nil {
				want[name] = map[string]map[string]any{}
			}
			want[name][o.Key().String()] = o.Data
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return want
}
