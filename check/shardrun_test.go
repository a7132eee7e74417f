package check

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRunShards: shards 1/2 and 2/2 of a config split its suites' applications and
// plain files; what they find, with the unclaimed findings that both
// shards have, is what the whole run finds, and their objects add up to
// the whole run's. A stale golden file is unclaimed by both, a file only
// the other shard renders by one.
func TestRunShards(t *testing.T) {
	appOf := func(name string) string {
		return "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n  components:\n    - {name: web-" + name + ", type: webservice, properties: {image: nginx:1.25}}\n"
	}
	t.Chdir(t.TempDir())
	writeFiles(t, ".", map[string]string{
		"drydock.yaml": `suites:
  - {name: apps, inputs: [apps], golden: golden/apps}
  - {name: plain, inputs: [m], plain: true}
  - {name: whole, inputs: [apps], combine: true}
`,
		// default/a and default/c are shard 1's of 2, default/b shard 2's; m/b.yaml shard 1's, m/a.yaml shard 2's
		"apps/a.yaml":      appOf("a"),
		"apps/b.yaml":      appOf("b"),
		"apps/c.yaml":      appOf("c"),
		"apps/cm.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: default}\n",
		"m/a.yaml":         "apiVersion: v1\nkind: Deployment\nmetadata: {name: ma}\n",
		"m/b.yaml":         "apiVersion: v1\nkind: Deployment\nmetadata: {name: mb}\n",
		"policy/main.rego": denyAll,
	})
	cfg, err := LoadConfig("drydock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if res := Run(context.Background(), cfg, Options{Update: true}); res.ExitCode() != ExitFail {
		t.Fatalf("update: exit %d, want 1 (the rule)", res.ExitCode())
	}
	if err := os.Remove(filepath.Join("apps", "c.yaml")); err != nil { // its golden file is stale
		t.Fatal(err)
	}
	whole := Run(context.Background(), cfg, Options{})
	shards := []*Result{
		Run(context.Background(), cfg, Options{Shard: Shard{1, 2}}),
		Run(context.Background(), cfg, Options{Shard: Shard{2, 2}}),
	}
	type suiteSum struct {
		Objects  int
		Findings []string
	}
	sum := func(results ...*Result) map[string]suiteSum {
		out := map[string]suiteSum{}
		unclaimed := map[string]map[string]int{}
		runs := map[string]int{}
		for _, r := range results {
			for _, s := range r.Suites {
				runs[s.Name]++
				got := out[s.Name]
				got.Objects += s.Objects
				for _, l := range lines(s.Findings) {
					if !slices.Contains(got.Findings, l) {
						got.Findings = append(got.Findings, l)
					}
				}
				out[s.Name] = got
				if unclaimed[s.Name] == nil {
					unclaimed[s.Name] = map[string]int{}
				}
				for _, l := range lines(s.Unclaimed) {
					unclaimed[s.Name][l]++
				}
			}
		}
		for name, ls := range unclaimed {
			got := out[name]
			for l, n := range ls {
				if n == runs[name] {
					got.Findings = append(got.Findings, l)
				}
			}
			slices.Sort(got.Findings)
			out[name] = got
		}
		return out
	}
	want := sum(whole)
	if diff := cmp.Diff(want, sum(shards...)); diff != "" {
		t.Errorf("the shards together (-whole +shards):\n%s", diff)
	}
	if len(want["apps"].Findings) < 4 || want["plain"].Objects != 2 || want["apps"].Objects != 2 {
		t.Errorf("the whole run is not what the test means to split: %+v", want)
	}
	// Each shard checks a part: the stale file is unclaimed by both, the
	// other shard's application's file by one.
	stale := "golden/apps/local/default/deployment.apps_web-c.yaml:1:1 error [golden] local/default/deployment.apps_web-c.yaml: local/default/deployment.apps_web-c.yaml is in the golden tree but no longer renders (run drydock test --update to accept it with --prune)"
	for i, r := range shards {
		var apps *SuiteResult
		names := []string{}
		for _, s := range r.Suites {
			names = append(names, s.Name)
			if s.Name == "apps" {
				apps = s
			}
		}
		if !slices.Contains(lines(apps.Unclaimed), stale) {
			t.Errorf("shard %d: the stale file is not unclaimed: %q", i+1, lines(apps.Unclaimed))
		}
		if slices.Contains(lines(apps.Findings), stale) {
			t.Errorf("shard %d reports the stale file as stale", i+1)
		}
		if len(apps.Unclaimed) != 2 {
			t.Errorf("shard %d: unclaimed %q, want the stale file and the other shard's application's", i+1, lines(apps.Unclaimed))
		}
		// The combined suite cannot split: it runs whole in one shard.
		if got := slices.Contains(names, "whole"); got != (Shard{i + 1, 2}).Owns("suite whole") {
			t.Errorf("shard %d runs the combined suite: %v", i+1, got)
		}
	}
}

// TestRunShardsWhole: when the inputs let applications change each
// other's objects (here a PropagationPolicy propagating dependencies),
// every shard renders the whole suite, with a warning saying why, but
// checks and reports only its own applications' objects: a rule finding
// of the other shard's application is not its own, and that
// application's golden file is unclaimed.
func TestRunShardsWhole(t *testing.T) {
	appOf := func(name string) string {
		return "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: " + name + "}\nspec:\n  components:\n    - {name: web-" + name + ", type: webservice, properties: {image: nginx:1.25}}\n"
	}
	t.Chdir(t.TempDir())
	writeFiles(t, ".", map[string]string{
		"drydock.yaml":     "suites:\n  - {name: apps, inputs: [apps], golden: golden/apps}\n",
		"apps/a.yaml":      appOf("a"), // shard 1's of 2
		"apps/b.yaml":      appOf("b"), // shard 2's
		"apps/deps.yaml":   "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: deps, namespace: default}\nspec:\n  propagateDeps: true\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  placement: {}\n",
		"policy/main.rego": denyAll,
	})
	cfg, err := LoadConfig("drydock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	Run(context.Background(), cfg, Options{Update: true})
	for _, tt := range []struct {
		shard     Shard
		own, not  string
		unclaimed string
	}{
		{Shard{1, 2}, "web-a is a Deployment", "web-b", "local/default/deployment.apps_web-b.yaml"},
		{Shard{2, 2}, "web-b is a Deployment", "web-a", "local/default/deployment.apps_web-a.yaml"},
	} {
		res := Run(context.Background(), cfg, Options{Shard: tt.shard})
		s := res.Suites[0]
		var msgs []string
		for _, f := range s.Findings {
			msgs = append(msgs, f.Message)
		}
		all := strings.Join(msgs, "\n")
		if !strings.Contains(all, "shards render the whole suite, each reporting only its applications' objects: PropagationPolicy default/deps") {
			t.Errorf("shard %d: no warning of the whole render:\n%s", tt.shard.Index, all)
		}
		if !strings.Contains(all, tt.own) || strings.Contains(all, tt.not) {
			t.Errorf("shard %d: findings\n%s\nwant %q and nothing of %s", tt.shard.Index, all, tt.own, tt.not)
		}
		if len(s.Unclaimed) != 1 || s.Unclaimed[0].Object != tt.unclaimed {
			t.Errorf("shard %d: unclaimed %q, want %s", tt.shard.Index, lines(s.Unclaimed), tt.unclaimed)
		}
		if s.Objects != 1 {
			t.Errorf("shard %d: %d objects, want its application's one", tt.shard.Index, s.Objects)
		}
	}
}

// TestRunShardsDefinitionTests: definition tests run in shard 1 only.
func TestRunShardsDefinitionTests(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFiles(t, ".", map[string]string{
		"drydock.yaml": "suites:\n  - {name: defs, inputs: [app.yaml], definitions: [defs]}\n",
		"app.yaml":     app,
		"defs/web_test.yaml": `tests:
  - name: replicas
    definition: scaler
    properties: {replicas: 2}
    workload: {apiVersion: apps/v1, kind: Deployment, metadata: {name: w}, spec: {}}
    asserts:
      - equal: {path: workload.spec.replicas, value: 2}
`,
	})
	cfg, err := LoadConfig("drydock.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		opts  Options
		tests bool
	}{
		{Options{}, true},
		{Options{Shard: Shard{1, 2}}, true},
		{Options{Shard: Shard{2, 2}}, false},
		{Options{Shard: Shard{1, 2}, DefinitionsOnly: true}, true},
		{Options{Shard: Shard{2, 2}, DefinitionsOnly: true}, false},
	} {
		res := Run(context.Background(), cfg, tt.opts)
		got := false
		for _, s := range res.Suites {
			got = got || slices.ContainsFunc(s.Checks, func(c string) bool { return strings.HasPrefix(c, "tests/") })
		}
		if got != tt.tests {
			t.Errorf("%+v: definition tests ran: %t, want %t (%+v)", tt.opts, got, tt.tests, summarize(res))
		}
	}
}

// lines are findings as "pos level [check] object: message".
func lines(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Pos.String()+" "+string(f.Level)+" ["+f.Check+"] "+f.Object+": "+f.Message)
	}
	return out
}
