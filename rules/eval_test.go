package rules

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/tree"
)

// deployment builds a Deployment with one container.
func deployment(name, image string, replicas int64, limits bool, labels map[string]any) *manifest.Object {
	container := map[string]any{"name": name, "image": image}
	if limits {
		container["resources"] = map[string]any{"limits": map[string]any{"cpu": "1"}}
	}
	meta := map[string]any{"name": name, "namespace": "shop"}
	if labels != nil {
		meta["labels"] = labels
	}
	return &manifest.Object{
		Data: map[string]any{
			"apiVersion": "apps/v1",
			"kind":       "Deployment",
			"metadata":   meta,
			"spec": map[string]any{
				"replicas": replicas,
				"template": map[string]any{"spec": map[string]any{"containers": []any{container}}},
			},
		},
		Pos: manifest.Pos{File: "apps/" + name + ".yaml", Line: 1},
	}
}

func object(apiVersion, kind, ns, name string) *manifest.Object {
	meta := map[string]any{"name": name}
	if ns != "" {
		meta["namespace"] = ns
	}
	return manifest.New(map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": meta})
}

// checkInputs exercises every check of testdata/checks.
func checkInputs() []Input {
	return []Input{
		{Object: deployment("web", "registry.example.com/web:latest", 3, true, map[string]any{"team": "a"})},
		{
			Object: deployment("api", "docker.io/api:1.0", 20, false, map[string]any{"debug": "true"}),
			Context: Context{
				Cluster: "prod-eu", Namespace: "shop", Application: "shop", Component: "api",
				Source: "apps/shop.yaml:12",
			},
		},
		{Object: deployment("legacy", "registry.example.com/legacy:latest", 1, true, map[string]any{"allow-latest": "true", "team": "b"})},
		{Object: object("v1", "ConfigMap", "shop", "settings")},
	}
}

func checksOptions() Options {
	return Options{
		PolicyDirs: []string{"testdata/checks/policy"},
		DataPaths:  []string{"testdata/checks/data"},
	}
}

func TestEval(t *testing.T) {
	mainResults := []Result{
		{Input: 0, Namespace: "main", Rule: "deny_no_latest", Kind: Failure, Message: "container web uses the latest tag",
			Metadata: map[string]any{"query": "data.main.deny_no_latest"}},
		{Input: 1, Namespace: "main", Rule: "deny", Kind: Failure, Message: "20 replicas is more than 10",
			Metadata: map[string]any{"query": "data.main.deny"}},
		{Input: 1, Namespace: "main", Rule: "deny_prod_debug", Kind: Failure,
			Message:  "debug on in cluster prod-eu (apps/shop.yaml:12, application shop, component api, namespace shop)",
			Metadata: map[string]any{"query": "data.main.deny_prod_debug"}},
		{Input: 1, Namespace: "main", Rule: "violation_registry", Kind: Failure,
			Message: "container api: image docker.io/api:1.0 is not from an allowed registry",
			Metadata: map[string]any{
				"query": "data.main.violation_registry", "severity": "high",
				"details": map[string]any{"replicas": int64(20), "ratio": 0.5},
			}},
		{Input: 1, Namespace: "main", Rule: "warn_no_limits", Kind: Warning, Message: "container api has no resource limits",
			Metadata: map[string]any{"query": "data.main.warn_no_limits"}},
		{Input: 2, Namespace: "main", Rule: "deny_no_latest", Kind: Exception,
			Message: `data.main.exception[_][_] == "no_latest"`},
	}
	mainSummaries := []Summary{
		{Input: 0, Namespace: "main", Successes: 5, Failures: 1},
		{Input: 1, Namespace: "main", Successes: 2, Failures: 3, Warnings: 1},
		{Input: 2, Namespace: "main", Successes: 5, Exceptions: 1},
		{Input: 3, Namespace: "main", Successes: 6},
	}
	labelResults := []Result{
		{Input: 1, Namespace: "k8s.labels", Rule: "warn_team", Kind: Warning, Message: "Deployment api has no team label",
			Metadata: map[string]any{"query": "data.k8s.labels.warn_team"}},
		{Input: 3, Namespace: "k8s.labels", Rule: "warn_team", Kind: Warning, Message: "ConfigMap settings has no team label",
			Metadata: map[string]any{"query": "data.k8s.labels.warn_team"}},
	}
	labelSummaries := []Summary{
		{Input: 0, Namespace: "k8s.labels", Successes: 1},
		{Input: 1, Namespace: "k8s.labels", Warnings: 1},
		{Input: 2, Namespace: "k8s.labels", Successes: 1},
		{Input: 3, Namespace: "k8s.labels", Warnings: 1},
	}
	tests := []struct {
		name string
		opts func(*Options)
		want *Report
	}{
		{
			name: "default namespace main",
			opts: func(*Options) {},
			want: &Report{Results: mainResults, Summaries: mainSummaries},
		},
		{
			name: "one other namespace",
			opts: func(o *Options) { o.Namespaces = []string{"k8s.labels"} },
			want: &Report{Results: labelResults, Summaries: labelSummaries},
		},
		{
			name: "all namespaces",
			opts: func(o *Options) { o.AllNamespaces = true },
			want: &Report{
				Results:   interleave(mainResults, labelResults),
				Summaries: interleaveSummaries(mainSummaries, labelSummaries),
			},
		},
		{
			name: "namespace without policies",
			opts: func(o *Options) { o.Namespaces = []string{"nothing.here"} },
			want: &Report{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := checksOptions()
			tt.opts(&opts)
			e, err := Load(context.Background(), opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Eval(context.Background(), checkInputs(), 2)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Eval (-want +got):\n%s", diff)
			}
		})
	}
}

// interleave merges results of two namespaces in the report's order: by
// input, then namespace (k8s.labels before main).
func interleave(mainResults, labelResults []Result) []Result {
	var out []Result
	for i := range 4 {
		for _, r := range labelResults {
			if r.Input == i {
				out = append(out, r)
			}
		}
		for _, r := range mainResults {
			if r.Input == i {
				out = append(out, r)
			}
		}
	}
	return out
}

func interleaveSummaries(mainSummaries, labelSummaries []Summary) []Summary {
	var out []Summary
	for i := range mainSummaries {
		out = append(out, labelSummaries[i], mainSummaries[i])
	}
	return out
}

func TestNamespaces(t *testing.T) {
	e, err := Load(context.Background(), checksOptions())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"k8s.labels", "lib", "main"}, e.Namespaces()); diff != "" {
		t.Errorf("Namespaces (-want +got):\n%s", diff)
	}
}

func TestRegoVersions(t *testing.T) {
	pod := []Input{{Object: object("v1", "Pod", "shop", "p")}}
	want := &Report{
		Results: []Result{
			{Namespace: "main", Rule: "deny", Kind: Failure, Message: "pod p: use a Deployment",
				Metadata: map[string]any{"query": "data.main.deny"}},
			{Namespace: "main", Rule: "warn_v0", Kind: Warning, Message: "v0 warning",
				Metadata: map[string]any{"query": "data.main.warn_v0", "n": int64(1)}},
		},
		Summaries: []Summary{{Namespace: "main", Failures: 1, Warnings: 1}},
	}
	opts := Options{PolicyDirs: []string{"testdata/v0/policy"}}
	if _, err := Load(context.Background(), opts); !errors.Is(err, ErrInvalid) {
		t.Fatalf("v0 policy loaded as v1: error %v, want ErrInvalid", err)
	}
	opts.RegoV0 = true
	e, err := Load(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Eval(context.Background(), pod, 1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Eval (-want +got):\n%s", diff)
	}
}

func TestParallelMatchesSequential(t *testing.T) {
	e, err := Load(context.Background(), Options{
		PolicyDirs:    []string{"testdata/checks/policy"},
		DataPaths:     []string{"testdata/checks/data"},
		AllNamespaces: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	var inputs []Input
	for i := range 300 {
		for _, in := range checkInputs() {
			in.Object = manifest.New(manifest.DeepCopy(in.Object.Data).(map[string]any))
			manifest.SetNested(in.Object.Data, fmt.Sprintf("obj-%d", i), "metadata", "name")
			inputs = append(inputs, in)
		}
	}
	want, err := e.Eval(context.Background(), inputs, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{2, 8, 0} {
		got, err := e.Eval(context.Background(), inputs, workers)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("workers=%d differs from workers=1 (-want +got):\n%s", workers, diff)
		}
	}
}

func TestEvalCombined(t *testing.T) {
	e, err := Load(context.Background(), Options{PolicyDirs: []string{"testdata/combine/policy"}})
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string][]Input{
		"prod": {
			{Object: deployment("web", "web:1", 2, true, nil), Context: Context{Cluster: "prod"}},
			{Object: object("v1", "Service", "shop", "web"), Context: Context{Cluster: "prod"}},
			{Object: deployment("api", "api:1", 2, true, nil), Context: Context{Cluster: "prod"}},
		},
		"dev": {
			{Object: object("v1", "Namespace", "", "shop")},
			{Object: object("networking.k8s.io/v1", "Ingress", "shop", "web")},
		},
	}
	want := &Report{
		Results: []Result{
			{Input: 0, Group: "dev", Namespace: "main", Rule: "warn_paths", Kind: Warning,
				Message:  "dev/_cluster/namespace_shop.yaml,dev/shop/ingress.networking.k8s.io_web.yaml",
				Metadata: map[string]any{"query": "data.main.warn_paths"}},
			{Input: 1, Group: "prod", Namespace: "main", Rule: "deny", Kind: Failure,
				Message:  "prod/shop/deployment.apps_api.yaml: no Service for Deployment api in cluster prod",
				Metadata: map[string]any{"query": "data.main.deny"}},
			{Input: 1, Group: "prod", Namespace: "main", Rule: "warn_paths", Kind: Warning,
				Message:  "prod/shop/deployment.apps_api.yaml,prod/shop/deployment.apps_web.yaml,prod/shop/service_web.yaml",
				Metadata: map[string]any{"query": "data.main.warn_paths"}},
		},
		Summaries: []Summary{
			{Input: 0, Group: "dev", Namespace: "main", Successes: 1, Warnings: 1},
			{Input: 1, Group: "prod", Namespace: "main", Failures: 1, Warnings: 1},
		},
	}
	got, err := e.EvalCombined(context.Background(), groups)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("EvalCombined (-want +got):\n%s", diff)
	}
}

// TestCombinedOutputLongName: the "output" of a combined input is the
// file the object is written to, long names shortened as tree.Path
// shortens them (a file name fits in 255 bytes); short names are
// <cluster>/<namespace or _cluster>/<kind>[.<group>]_<name>.yaml.
func TestCombinedOutputLongName(t *testing.T) {
	long := strings.Repeat("n", 253)
	inputs := []Input{
		{Object: object("apps/v1", "Deployment", "shop", long)},
		{Object: object("v1", "Namespace", "", "shop")},
	}
	got := combine("prod", inputs)
	outputs := []string{got[0].(map[string]any)["output"].(string), got[1].(map[string]any)["output"].(string)}
	want := []string{"prod/_cluster/namespace_shop.yaml", tree.Path("prod", inputs[0].Object)} // sorted
	if diff := cmp.Diff(want, outputs); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
	if base := path.Base(outputs[1]); len(base) > 255 || !strings.HasPrefix(base, "deployment.apps_nnn") {
		t.Errorf("long name's file %q (%d bytes): want a shortened name of at most 255 bytes", base, len(base))
	}
}

func TestPrints(t *testing.T) {
	var debug bytes.Buffer
	e, err := Load(context.Background(), Options{PolicyDirs: []string{"testdata/print/policy"}, Debug: &debug})
	if err != nil {
		t.Fatal(err)
	}
	inputs := []Input{{Object: object("v1", "Pod", "shop", "a")}, {Object: object("v1", "Service", "shop", "b")}}
	got, err := e.Eval(context.Background(), inputs, 2)
	if err != nil {
		t.Fatal(err)
	}
	wantPrints := []Print{
		{Input: 0, Namespace: "main", Location: "testdata/print/policy/main.rego:4", Message: "checking a"},
		{Input: 1, Namespace: "main", Location: "testdata/print/policy/main.rego:4", Message: "checking b"},
	}
	if diff := cmp.Diff(wantPrints, got.Prints); diff != "" {
		t.Errorf("Prints (-want +got):\n%s", diff)
	}
	if got, want := debug.Len(), len("testdata/print/policy/main.rego:4: checking a\n")*2; got != want {
		t.Errorf("Debug got %d bytes %q, want %d", got, debug.String(), want)
	}
}

func TestClock(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	opts := Options{PolicyDirs: []string{"testdata/sandbox/time"}, Now: now}
	e, err := Load(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	cert := func(name, expiry string) Input {
		o := object("v1", "Secret", "shop", name)
		manifest.SetNested(o.Data, map[string]any{"cert-expiry": expiry}, "metadata", "annotations")
		return Input{Object: o}
	}
	got, err := e.Eval(context.Background(), []Input{cert("old", "2029-12-31T00:00:00Z"), cert("new", "2030-01-02T00:00:00Z")}, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []Result{{Input: 0, Namespace: "main", Rule: "deny", Kind: Failure, Message: "certificate of old expired",
		Metadata: map[string]any{"query": "data.main.deny"}}}
	if diff := cmp.Diff(want, got.Results); diff != "" {
		t.Errorf("Results (-want +got):\n%s", diff)
	}
}

func TestEvalCanceled(t *testing.T) {
	e, err := Load(context.Background(), checksOptions())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = e.Eval(ctx, checkInputs(), 2)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrInvalid) {
		t.Errorf("Eval error %v, want context.Canceled and not ErrInvalid", err)
	}
}

// TestQueryTimeout: a rule that would run for minutes stops at the
// query time limit with an error naming the rule and its file:line.
func TestQueryTimeout(t *testing.T) {
	eng, err := Load(context.Background(), Options{PolicyDirs: []string{"testdata/slow"}, QueryTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = eng.Eval(context.Background(), []Input{{Object: deployment("web", "nginx", 1, true, nil)}}, 1)
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrInvalid) {
		t.Fatalf("Eval error %v, want ErrTimeout and ErrInvalid", err)
	}
	want := "testdata/slow/main.rego:4:1: evaluating rule main.deny on apps/web.yaml:1: Deployment.apps shop/web took longer than the time limit of 50ms"
	if got := manifest.Format(err, nil); got != want {
		t.Errorf("error %q,\nwant %q", got, want)
	}
}
