package deftest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
)

// testDefs are definitions of every kind a test renders.
var testDefs = map[string]string{
	"greeter.cue": `"greeter": {
	type: "component"
	attributes: workload: definition: {apiVersion: "v1", kind: "ConfigMap"}
}
template: {
	output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: context.name, data: greeting: "hello " + parameter.who}
	outputs: secret: {apiVersion: "v1", kind: "Secret", metadata: name: context.name, stringData: token: parameter.who}
	if parameter.loud {
		output: data: loud: "yes"
	}
	errs: [if parameter.count > 3 {"count must be at most 3"}]
	parameter: {
		who: *"world" | string
		loud: *false | bool
		count: *1 | int
	}
}
`,
	"scaler.cue": `"scaler": {
	type: "trait"
	attributes: appliesToWorkloads: ["*"]
}
template: {
	patch: spec: replicas: parameter.replicas
	parameter: replicas: int
}
`,
	"quota.cue": `"quota": {
	type: "policy"
	attributes: {}
}
template: {
	output: {apiVersion: "v1", kind: "ResourceQuota", metadata: {name: "quota", namespace: context.namespace}, spec: hard: pods: "\(parameter.pods)"}
	parameter: pods: *10 | int
}
`,
	"worker.yaml": `apiVersion: core.oam.dev/v1beta1
kind: ComponentDefinition
metadata: {name: worker}
spec:
  workload: {definition: {apiVersion: apps/v1, kind: Deployment}}
  status:
    healthPolicy: |
      isHealth: context.output.status.readyReplicas == context.output.spec.replicas
    customStatus: |
      message: "Ready:\(context.output.status.readyReplicas)/\(context.output.spec.replicas)"
  schematic:
    cue:
      template: |
        output: {apiVersion: "apps/v1", kind: "Deployment", spec: replicas: 2}
`,
}

// loadDefs loads testDefs and the built-ins (raw renders a trait test's
// workload).
func loadDefs(t *testing.T) *pipeline.DefinitionSet {
	t.Helper()
	dir := t.TempDir()
	for name, data := range testDefs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defs, err := pipeline.LoadDefinitions([]string{dir}, false)
	if err != nil {
		t.Fatal(err)
	}
	return defs
}

func TestRun(t *testing.T) {
	defs := loadDefs(t)
	deployment := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "w"}, "spec": map[string]any{"paused": false}}
	yes := true
	msg := "Ready:2/2"
	tests := []struct {
		name string
		test Test
		want []Failure
		// err is the render error's text ("" for none).
		err string
	}{
		{
			name: "a component's workload and outputs",
			test: Test{Name: "t", Definition: "greeter", Properties: map[string]any{"who": "moon"}, Context: Context{Name: "web"}, Asserts: []Assert{
				{Equal: &pathValue{"output.data.greeting", "hello moon"}},
				{Equal: &pathValue{"outputs.secret.stringData.token", "sun"}},
				{HasObjects: []objectRef{{Kind: "ConfigMap", Name: "web"}, {Kind: "Secret", Name: "web"}}},
			}},
			want: []Failure{{Assert: 1, Message: "outputs.secret.stringData.token is moon, want sun"}},
		},
		{
			name: "a component's error",
			test: Test{Name: "t", Definition: "greeter", Properties: map[string]any{"count": int64(5)}, Asserts: []Assert{
				{Error: "User Errors: count must be at most 3"},
				{Equal: &pathValue{"output.data.greeting", "hello world"}},
			}},
			want: []Failure{{Assert: 1, Message: `the render failed: application "test" component "greeter": validation failed for workload greeter: User Errors: count must be at most 3`}},
			err:  `application "test" component "greeter": validation failed for workload greeter: User Errors: count must be at most 3`,
		},
		{
			name: "a trait patches its workload",
			test: Test{Name: "t", Definition: "scaler", Properties: map[string]any{"replicas": 3.0}, Workload: deployment, Asserts: []Assert{
				{Equal: &pathValue{"workload.spec.replicas", 3}},
			}},
		},
		{
			name: "a policy on a member sees its output on the hub",
			test: Test{Name: "t", Definition: "quota", Context: Context{Cluster: "m1", ClusterVersion: "v1.29.4", Namespace: "team"}, Asserts: []Assert{
				{Equal: &pathValue{"output.metadata.namespace", "team"}},
				{Equal: &pathValue{"output.spec.hard.pods", "10"}},
			}},
		},
		{
			name: "health and status on what the cluster holds",
			test: Test{Name: "t", Definition: "worker", Observed: Observed{Output: map[string]any{"status": map[string]any{"readyReplicas": int64(1)}}}, Asserts: []Assert{
				{Healthy: &yes},
				{Message: &msg},
			}},
			want: []Failure{{Assert: 0, Message: "healthy is false, want true"}, {Assert: 1, Message: `the status message is "Ready:1/2", want "Ready:2/2"`}},
		},
		{
			name: "an unknown definition",
			test: Test{Name: "t", Definition: "nosuch", Asserts: []Assert{{Error: "unknown type"}}},
			err:  `application "test" component "nosuch": unknown type: no ComponentDefinition "nosuch"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test := prepared(t, tt.test)[0]
			out, err := Run(context.Background(), defs, "t_test.yaml", manifest.Pos{}, test, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, out.Failures); diff != "" {
				t.Errorf("failures (-want +got):\n%s", diff)
			}
			switch {
			case tt.err == "" && out.Err != nil:
				t.Errorf("render error %v, want none", out.Err)
			case tt.err != "" && (out.Err == nil || manifest.Format(out.Err, nil) != tt.err):
				t.Errorf("render error %v, want %q", out.Err, tt.err)
			}
		})
	}
}

// TestRunKeepsTheError: the render's error reaches the caller as pipeline
// returned it: a manifest.Error about the test's application and
// component, with no position (the test's objects have none) and its
// cause in Err.
func TestRunKeepsTheError(t *testing.T) {
	test := prepared(t, Test{Name: "t", Definition: "greeter", Properties: map[string]any{"who": int64(7)}, Asserts: []Assert{{Error: "conflicting values"}}})[0]
	out, err := Run(context.Background(), loadDefs(t), "t_test.yaml", manifest.Pos{}, test, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Failures) != 0 {
		t.Errorf("failures %v, want none", out.Failures)
	}
	var me *manifest.Error
	if !errors.As(out.Err, &me) {
		t.Fatalf("render error %v (%T), want a manifest.Error", out.Err, out.Err)
	}
	want := []manifest.Subject{{Kind: "application", Name: "test"}, {Kind: "component", Name: "greeter"}}
	if diff := cmp.Diff(want, me.Subjects); diff != "" {
		t.Errorf("subjects (-want +got):\n%s", diff)
	}
	if me.Pos.IsValid() {
		t.Errorf("the error is at %s; the test's objects have no position", me.Pos)
	}
	if !errors.Is(out.Err, pipeline.ErrInput) {
		t.Errorf("render error %v does not wrap pipeline.ErrInput", out.Err)
	}
}

// TestRunTraitWithoutWorkload: a trait test without a workload cannot
// run; the error is at the test.
func TestRunTraitWithoutWorkload(t *testing.T) {
	test := prepared(t, Test{Name: "t", Definition: "scaler", Asserts: []Assert{{Error: "x"}}})[0]
	_, err := Run(context.Background(), loadDefs(t), "t_test.yaml", manifest.Pos{File: "t_test.yaml", Line: 2, Col: 5}, test, Options{})
	want := `t_test.yaml:2:5: test "t": scaler is a trait: give the workload it patches (workload:)`
	if err == nil || manifest.Format(err, nil) != want {
		t.Errorf("Run: %v, want %q", err, want)
	}
}

func TestCoverage(t *testing.T) {
	defs := loadDefs(t)
	c := NewCoverage(defs)
	for _, tt := range prepared(t,
		Test{Name: "a", Definition: "greeter", Properties: map[string]any{"loud": true}, Asserts: []Assert{{Error: "x"}}},
		Test{Name: "b", Definition: "scaler", Asserts: []Assert{{Error: "x"}}},
		Test{Name: "c", Definition: "greeter", Properties: map[string]any{"count": int64(5)}, Asserts: []Assert{{Error: "x"}}},
	) {
		c.Add(tt)
	}
	var got []string
	for _, b := range c.Result() {
		got = append(got, b.Definition+" "+b.Condition+" "+map[bool]string{true: "T", false: "-"}[b.True]+map[bool]string{true: "F", false: "-"}[b.False])
	}
	want := []string{"greeter parameter.loud TF", "greeter parameter.count > 3 TF"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("branches (-want +got):\n%s", diff)
	}
}

// TestRunSnapshot: a snapshot assertion compares with the stored
// snapshot; a missing one is written (an error in CI mode); one whose
// render failed cannot compare and keeps the directory from pruning.
func TestRunSnapshot(t *testing.T) {
	defs := loadDefs(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "g_test.yaml")
	snap := filepath.Join(dir, "__snapshot__", "g_test", "t.yaml")
	snapshot := Assert{Snapshot: &snapshotSpec{Ignore: []string{"metadata.labels", "metadata.namespace"}}}
	good := prepared(t, Test{Name: "t", Definition: "greeter", Asserts: []Assert{snapshot}})[0]
	bad := prepared(t, Test{Name: "t", Definition: "greeter", Properties: map[string]any{"count": int64(9)}, Asserts: []Assert{snapshot}})[0]
	run := func(test Test, opts Options) Outcome {
		t.Helper()
		out, err := Run(context.Background(), defs, file, manifest.Pos{}, test, opts)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}

	out := run(good, Options{CI: true})
	want := []Failure{{Message: "no snapshot " + snap + " (run drydock test --update locally and commit it)"}}
	if diff := cmp.Diff(want, out.Failures); diff != "" {
		t.Errorf("CI, no snapshot (-want +got):\n%s", diff)
	}
	out = run(good, Options{})
	if len(out.Failures) != 0 {
		t.Errorf("failures %v, want none (the snapshot is written)", out.Failures)
	}
	written, err := WriteSnapshots([]string{file}, []Outcome{out}, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{snap}, written); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	if written, err = WriteSnapshots([]string{file}, []Outcome{run(good, Options{})}, false, false); err != nil || written != nil {
		t.Errorf("an unchanged snapshot: written %v, %v; want nothing", written, err)
	}
	data, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	wantSnap := "apiVersion: v1\ndata:\n  greeting: hello world\nkind: ConfigMap\nmetadata:\n  name: greeter\n---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: greeter\nstringData:\n  token: world\n"
	if diff := cmp.Diff(wantSnap, string(data)); diff != "" {
		t.Errorf("snapshot (-want +got):\n%s", diff)
	}
	if out = run(good, Options{CI: true}); len(out.Failures) != 0 {
		t.Errorf("failures %v, want none (the snapshot matches)", out.Failures)
	}

	moon := good
	moon.Properties = map[string]any{"who": "moon"}
	out = run(moon, Options{})
	if len(out.Failures) != 1 || out.Failures[0].Message != "differs from its snapshot "+snap+" (run drydock test --update to accept it)" || out.Failures[0].Diff == "" {
		t.Errorf("failures %+v, want one that differs, with a diff", out.Failures)
	}

	out = run(bad, Options{Update: true})
	if len(out.Failures) != 1 || !out.incomplete || len(out.writes) != 0 {
		t.Errorf("outcome %+v, want one failure, incomplete, nothing to write", out)
	}
	if want := "the render failed: " + manifest.Format(out.Err, nil); out.Failures[0].Message != want {
		t.Errorf("failure %q, want %q", out.Failures[0].Message, want)
	}
}
