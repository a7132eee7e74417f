package deftest

import (
	"cmp"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// File is a definition test file (*_test.yaml beside the definitions, or
// listed under a suite's tests:): unit tests of component, trait and
// policy definitions. Each renders one definition with properties (a
// trait patches the workload it is given) and asserts on what it
// renders. Its keys are the json tags.
type File struct {
	Tests []Test `json:"tests"`
}

// Test is one definition test.
type Test struct {
	Name string `json:"name"`
	// Definition is the component or trait type tested.
	Definition string         `json:"definition"`
	Properties map[string]any `json:"properties,omitempty"`
	// Workload is the object a trait patches (a trait test only).
	Workload map[string]any `json:"workload,omitempty"`
	// Application is the Application a policy is tested in (a policy
	// test only; default: one without components): the tested policy is
	// added to its policies. With context.cluster, its components go to
	// that cluster and the policy's output to the hub, and the test sees
	// both.
	Application map[string]any `json:"application,omitempty"`
	Context     Context        `json:"context,omitempty"`
	// Observed is what the cluster adds to the rendered objects (their
	// status, mostly): output for the workload, outputs.<name> for the
	// others; health and status are evaluated on the merge.
	Observed Observed `json:"observed,omitempty"`
	Asserts  []Assert `json:"asserts"`
}

// Observed is what a definition test's cluster holds beyond what was
// dispatched.
type Observed struct {
	Output  map[string]any `json:"output,omitempty"`
	Outputs map[string]any `json:"outputs,omitempty"`
}

// Context is what the definition's context holds; Prepare fills in the
// defaults.
type Context struct {
	// AppName and Namespace are the Application's (default: test,
	// default); Name is the component's (default: the definition's type).
	AppName   string `json:"appName,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	// Cluster and ClusterVersion place the component on a cluster of
	// that Kubernetes version (context.cluster, context.clusterVersion;
	// default: local).
	Cluster        string `json:"cluster,omitempty"`
	ClusterVersion string `json:"clusterVersion,omitempty"`
}

// Assert is one assertion; exactly one of its fields is set. A path
// starts with what the test rendered: output (a component's workload),
// workload (the workload a trait patched) or outputs.<name> (an output
// of that name), then a field path: output.spec.replicas,
// outputs.service.spec.ports[0].port.
type Assert struct {
	Equal       *pathValue  `json:"equal,omitempty"`
	NotEqual    *pathValue  `json:"notEqual,omitempty"`
	Exists      *pathOnly   `json:"exists,omitempty"`
	NotExists   *pathOnly   `json:"notExists,omitempty"`
	MatchRegex  *pathRegex  `json:"matchRegex,omitempty"`
	Contains    *pathValue  `json:"contains,omitempty"`
	LengthEqual *pathCount  `json:"lengthEqual,omitempty"`
	HasObjects  []objectRef `json:"hasObjects,omitempty"`
	// Error is a substring, ErrorRegex a pattern, of the error the render
	// must fail with.
	Error      string `json:"error,omitempty"`
	ErrorRegex string `json:"errorRegex,omitempty"`
	// Healthy and Message assert the definition's health policy and
	// custom status as KubeVela's controller evaluates them against the
	// observed objects.
	Healthy *bool   `json:"healthy,omitempty"`
	Message *string `json:"message,omitempty"`
	// Details asserts fields of the definition's status.details (each
	// given one, as vela status shows it).
	Details map[string]any `json:"details,omitempty"`
	// Snapshot compares every object the test renders with the snapshot
	// stored under __snapshot__/<test file>/<test>.yaml beside the test
	// file, the Ignore field paths left out. A missing snapshot is written
	// (in CI mode it fails instead); --update rewrites those drydock wrote,
	// which the directory's ownership file (.drydock-golden) lists, and
	// --prune deletes those no test renders any more. A snapshot drydock
	// did not write is compared but never rewritten. Snapshots are read
	// and written only as regular files in real directories: a symbolic
	// link, FIFO or device on the way is an error.
	Snapshot *snapshotSpec `json:"snapshot,omitempty"`
}

type snapshotSpec struct {
	Ignore []string `json:"ignore,omitempty"`
}

type pathValue struct {
	Path  string `json:"path"`
	Value any    `json:"value"`
}

type pathOnly struct {
	Path string `json:"path"`
}

type pathRegex struct {
	Path    string `json:"path"`
	Pattern string `json:"pattern"`
}

type pathCount struct {
	Path  string `json:"path"`
	Count int    `json:"count"`
}

// at is the assertion's path ("" for none).
func (p *pathValue) at() string { return atOf(p, func(p *pathValue) string { return p.Path }) }
func (p *pathOnly) at() string  { return atOf(p, func(p *pathOnly) string { return p.Path }) }
func (p *pathRegex) at() string { return atOf(p, func(p *pathRegex) string { return p.Path }) }
func (p *pathCount) at() string { return atOf(p, func(p *pathCount) string { return p.Path }) }

func atOf[T any](p *T, path func(*T) string) string {
	if p == nil {
		return ""
	}
	return path(p)
}

type objectRef struct {
	Kind string `json:"kind"`
	Name string `json:"name,omitempty"`
}

// IsFile reports whether name is a definition test file.
func IsFile(name string) bool {
	return strings.HasSuffix(name, "_test.yaml") || strings.HasSuffix(name, "_test.yml")
}

// Prepare checks the tests of file f decoded from doc (the file's one
// document, for positions) beyond what their types say: a file without
// tests, a test without a name, a definition or assertions, and an
// assertion setting not exactly one kind are errors at their place. It
// fills in each test's context defaults.
func Prepare(file string, doc *manifest.Object, f *File) error {
	if len(f.Tests) == 0 {
		return manifest.At(doc.Pos, "%s: no tests", file)
	}
	for i, t := range f.Tests {
		at := fieldpath.New("tests", i)
		switch {
		case t.Name == "":
			return manifest.At(doc.FieldPos(at), "tests[%d]: a test needs a name", i)
		case t.Definition == "":
			return manifest.At(doc.FieldPos(at), "test %q: name the definition it tests (definition:)", t.Name)
		case len(t.Asserts) == 0:
			return manifest.At(doc.FieldPos(at), "test %q: no asserts: a test that asserts nothing is not a pass", t.Name)
		}
		for j, a := range t.Asserts {
			if n := a.kinds(); n != 1 {
				return manifest.At(doc.FieldPos(at.Child("asserts").At(j)), "test %q: asserts[%d] sets %d assertion kinds; set exactly one (equal, notEqual, exists, notExists, matchRegex, contains, lengthEqual, hasObjects, error, errorRegex, snapshot, healthy, message, details)", t.Name, j, n)
			}
		}
		c := &f.Tests[i].Context
		c.Name = cmp.Or(c.Name, t.Definition)
		c.AppName = cmp.Or(c.AppName, "test")
		c.Namespace = cmp.Or(c.Namespace, "default")
		c.Cluster = cmp.Or(c.Cluster, cluster.Local)
	}
	return nil
}

func (a Assert) kinds() int {
	n := 0
	for _, set := range []bool{a.Equal != nil, a.NotEqual != nil, a.Exists != nil, a.NotExists != nil, a.MatchRegex != nil,
		a.Contains != nil, a.LengthEqual != nil, len(a.HasObjects) > 0, a.Error != "", a.ErrorRegex != "", a.Snapshot != nil,
		a.Healthy != nil, a.Message != nil, a.Details != nil} {
		if set {
			n++
		}
	}
	return n
}

// testObjects is what a definition test renders, as objects in memory:
// the Application using the tested definition, of kind
// (pipeline.DefinitionKind; "" for an unknown one, which the render
// reports), and for a test on another cluster, that cluster first.
// policy is the tested policy ("" unless t tests one). pos is the test's
// place. The objects carry no position: a render error about them is
// about the test, whose place the caller knows.
func testObjects(kind string, t Test, pos manifest.Pos) (objs []*manifest.Object, policy string, err error) {
	comp := map[string]any{"name": t.Context.Name, "type": t.Definition, "properties": orEmpty(t.Properties)}
	spec := map[string]any{"components": []any{comp}}
	switch kind {
	case "component":
	case "trait":
		if t.Workload == nil {
			return nil, "", manifest.At(pos, "test %q: %s is a trait: give the workload it patches (workload:)", t.Name, t.Definition)
		}
		comp["type"], comp["properties"] = "raw", t.Workload
		comp["traits"] = []any{map[string]any{"type": t.Definition, "properties": orEmpty(t.Properties)}}
	case "policy":
		// A policy renders in the Application given (its components and
		// policies kept), the tested one added.
		policy = t.Definition
		spec = map[string]any{"components": []any{}}
		if given, ok := t.Application["spec"].(map[string]any); ok {
			spec = manifest.DeepCopy(given).(map[string]any)
			if spec["components"] == nil {
				spec["components"] = []any{}
			}
		}
		policies, _ := spec["policies"].([]any)
		spec["policies"] = append(policies, map[string]any{"name": t.Definition, "type": t.Definition, "properties": orEmpty(t.Properties)})
	}
	docs := []map[string]any{{
		"apiVersion": "core.oam.dev/v1beta1", "kind": "Application",
		"metadata": map[string]any{"name": t.Context.AppName, "namespace": t.Context.Namespace},
		"spec":     spec,
	}}
	if t.Context.Cluster != cluster.Local {
		policies, _ := spec["policies"].([]any)
		spec["policies"] = append(policies, map[string]any{"name": "here", "type": "topology", "properties": map[string]any{"clusters": []any{t.Context.Cluster}}})
		c := map[string]any{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": map[string]any{"name": t.Context.Cluster}, "spec": map[string]any{}}
		if t.Context.ClusterVersion != "" {
			c["status"] = map[string]any{"kubernetesVersion": t.Context.ClusterVersion}
		}
		docs = append([]map[string]any{c}, docs...)
	}
	// As when the test's Application was a YAML stream: replicas: 3.0
	// renders as 3.
	for _, d := range docs {
		objs = append(objs, manifest.New(manifest.WholeNumbers(d, 1<<63).(map[string]any)))
	}
	return objs, policy, nil
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
