package check

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
)

// A definition test file (*_test.yaml beside the definitions, or listed
// under a suite's tests:) holds unit tests of component and trait
// definitions: each renders one definition with properties (a trait
// patches the workload it is given) and asserts on what it renders.
type defTestFile struct {
	Tests []DefTest `json:"tests"`
}

// DefTest is one definition test.
type DefTest struct {
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
	Context     DefTestContext `json:"context,omitempty"`
	// Observed is what the cluster adds to the rendered objects (their
	// status, mostly): output for the workload, outputs.<name> for the
	// others; health and status are evaluated on the merge.
	Observed DefObserved `json:"observed,omitempty"`
	Asserts  []DefAssert `json:"asserts"`
}

// DefObserved is what a definition test's cluster holds beyond what was
// dispatched.
type DefObserved struct {
	Output  map[string]any `json:"output,omitempty"`
	Outputs map[string]any `json:"outputs,omitempty"`
}

// DefTestContext is what the definition's context holds; loadDefTests
// fills in the defaults.
type DefTestContext struct {
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

// DefAssert is one assertion; exactly one of its fields is set. A path
// starts with what the test rendered: output (a component's workload),
// workload (the workload a trait patched) or outputs.<name> (an output
// of that name), then a field path: output.spec.replicas,
// outputs.service.spec.ports[0].port.
type DefAssert struct {
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

// IsDefTestFile reports whether name is a definition test file.
func IsDefTestFile(name string) bool {
	return strings.HasSuffix(name, "_test.yaml") || strings.HasSuffix(name, "_test.yml")
}

// loadDefTests reads a test file strictly: unknown keys, a test without
// a name, a definition or assertions, and an assertion setting not
// exactly one kind are errors at their place. It returns the tests and
// the file's document (positions).
func loadDefTests(file string) ([]DefTest, *manifest.Object, error) {
	data, err := manifest.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	docs, err := manifest.Decode(file, data, manifest.DecodeOptions{KeepLists: true, KeyPositions: true})
	if err != nil {
		return nil, nil, err
	}
	if len(docs) != 1 {
		return nil, nil, fmt.Errorf("%s:1:1: a definition test file holds one YAML document (tests: ...)", file)
	}
	doc := docs[0]
	var f defTestFile
	d := configDecoder{doc: doc}
	if err := d.value(nil, doc.Data, reflect.ValueOf(&f).Elem()); err != nil {
		return nil, nil, err
	}
	if len(f.Tests) == 0 {
		return nil, nil, manifest.At(doc.Pos, "%s: no tests", file)
	}
	for i, t := range f.Tests {
		at := fieldpath.New("tests", i)
		switch {
		case t.Name == "":
			return nil, nil, manifest.At(doc.FieldPos(at), "tests[%d]: a test needs a name", i)
		case t.Definition == "":
			return nil, nil, manifest.At(doc.FieldPos(at), "test %q: name the definition it tests (definition:)", t.Name)
		case len(t.Asserts) == 0:
			return nil, nil, manifest.At(doc.FieldPos(at), "test %q: no asserts: a test that asserts nothing is not a pass", t.Name)
		}
		for j, a := range t.Asserts {
			if n := a.kinds(); n != 1 {
				return nil, nil, manifest.At(doc.FieldPos(at.Child("asserts").At(j)), "test %q: asserts[%d] sets %d assertion kinds; set exactly one (equal, notEqual, exists, notExists, matchRegex, contains, lengthEqual, hasObjects, error, errorRegex, snapshot, healthy, message, details)", t.Name, j, n)
			}
		}
		c := &f.Tests[i].Context
		c.Name = cmp.Or(c.Name, t.Definition)
		c.AppName = cmp.Or(c.AppName, "test")
		c.Namespace = cmp.Or(c.Namespace, "default")
		c.Cluster = cmp.Or(c.Cluster, cluster.Local)
	}
	return f.Tests, doc, nil
}

func (a DefAssert) kinds() int {
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

// testApplication is what a definition test renders: the Application
// using the tested definition, of kind (pipeline.DefinitionKind; "" for
// an unknown one, which the render reports), and for a test on another
// cluster, that cluster, as a YAML stream. policy is the tested policy
// ("" unless t tests one). pos is the test's place.
func testApplication(kind string, t DefTest, pos manifest.Pos) (stream []byte, policy string, err error) {
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
	docs := []any{map[string]any{
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
		docs = append([]any{c}, docs...)
	}
	for i, d := range docs {
		data, err := yaml.Marshal(d)
		if err != nil {
			return nil, "", err
		}
		if i > 0 {
			stream = append(stream, "---\n"...)
		}
		stream = append(stream, data...)
	}
	return stream, policy, nil
}

// stdinPlace is the place of the test's Application in a render error:
// it means nothing to the author.
var stdinPlace = regexp.MustCompile(`<stdin>(:\d+)*: `)

// defOutcome is what one definition test produced: a finding per failed
// assertion, the snapshots to write, and whether a snapshot assertion
// could not compare (its render failed: its snapshot is not to be
// pruned).
type defOutcome struct {
	findings   []Finding
	writes     []snapshotWrite
	incomplete bool
}

// runDefTest renders j's test with the suite's definitions and checks its
// assertions.
func (r *runner) runDefTest(ctx context.Context, defs *pipeline.DefinitionSet, j defJob) (defOutcome, error) {
	t := j.test
	stream, policy, err := testApplication(pipeline.DefinitionKind(defs, t.Definition), t, j.doc.FieldPos(fieldpath.New("tests", j.index)))
	if err != nil {
		return defOutcome{}, err
	}
	in := pipeline.Inputs{Paths: []string{"-"}, Stdin: bytes.NewReader(stream), Definitions: defs, Workers: 1, Limits: r.opts.Limits}
	res, renderErr := pipeline.Run(ctx, in)
	if errors.Is(renderErr, pipeline.ErrNotRun) {
		return defOutcome{}, renderErr // not the test's outcome: it did not run
	}
	var got rendered
	status := statusOf{healthy: true}
	if renderErr != nil {
		renderErr = errors.New(stdinPlace.ReplaceAllString(renderErr.Error(), ""))
	} else {
		entries := res.Clusters.List(t.Context.Cluster)
		if policy != "" && t.Context.Cluster != cluster.Local { // a policy's output goes to the hub
			entries = append(entries, res.Clusters.List(cluster.Local)...)
		}
		got = classify(observe(entries, t.Observed), policy)
		if st, ok := pipeline.DefinitionStatus(defs, t.Definition, got.statusContext(t), t.Properties); ok {
			status = statusOf{healthy: st.Healthy, message: st.Message, details: st.Details, healthErr: st.HealthErr, messageErr: st.MessageErr}
		}
	}
	var out defOutcome
	for i, a := range t.Asserts {
		msg, diff := "", ""
		switch {
		case a.Snapshot != nil:
			var w *snapshotWrite
			if msg, diff, w, err = r.snapshot(j.file, t.Name, a.Snapshot, got.objs, renderErr); err != nil {
				return defOutcome{}, err
			}
			if w != nil {
				out.writes = append(out.writes, *w)
			}
			out.incomplete = out.incomplete || renderErr != nil
		case a.Healthy != nil || a.Message != nil || a.Details != nil:
			msg = a.checkStatus(status, renderErr)
		default:
			msg = a.check(got, renderErr)
		}
		if msg != "" {
			out.findings = append(out.findings, Finding{Level: LevelError, Message: fmt.Sprintf("test %q: %s", t.Name, msg), Diff: diff,
				Pos: j.doc.FieldPos(fieldpath.New("tests", j.index, "asserts", i))})
		}
	}
	return out, nil
}

// snapshot compares what a test rendered with its stored snapshot: what
// differs ("" when it matches or is to be written), the diff, and the
// snapshot to write (nil for none): a missing one (outside CI mode) and,
// with Update, one drydock owns. A snapshot drydock did not write is
// never rewritten: it differs, with a hint on how to adopt it.
func (r *runner) snapshot(file, name string, spec *snapshotSpec, objs []*manifest.Object, renderErr error) (string, string, *snapshotWrite, error) {
	if renderErr != nil {
		return fmt.Sprintf("the render failed: %v", renderErr), "", nil, nil
	}
	got, err := snapshotBytes(spec, objs)
	if err != nil {
		return "", "", nil, err
	}
	testDir, dir, snap := snapshotPlace(file, name)
	p, w := snapshotPath(file, name), &snapshotWrite{testDir, dir, snap, got}
	want, err := readInside(testDir, dir+"/"+snap)
	switch {
	case errors.Is(err, fs.ErrNotExist) && r.opts.CI:
		return fmt.Sprintf("no snapshot %s (run drydock test --update locally and commit it)", p), "", nil, nil
	case errors.Is(err, fs.ErrNotExist):
		return "", "", w, nil
	case err != nil:
		return "", "", nil, err
	case !r.opts.Update && string(want) == string(got):
		return "", "", nil, nil
	case !r.opts.Update:
		return fmt.Sprintf("differs from its snapshot %s (run drydock test --update to accept it)", p),
			golden.Unified("snapshot/"+snap, "rendered/"+snap, want, got), nil, nil
	}
	owned, err := snapshotOwned(testDir, dir)
	switch {
	case err != nil:
		return "", "", nil, err
	case owned[snap]:
		return "", "", w, nil
	case string(want) == string(got):
		return "", "", nil, nil
	}
	own := filepath.Join(filepath.Dir(p), golden.OwnershipFile)
	return fmt.Sprintf("differs from %s, which drydock did not write (%s does not list it), so --update leaves it: delete it, or add the line %q to %s, to let drydock rewrite it", p, own, snap, own),
		golden.Unified("snapshot/"+snap, "rendered/"+snap, want, got), nil, nil
}

// snapshotBytes is what a snapshot holds: the objects sorted by key,
// each canonical YAML with the ignored paths left out.
func snapshotBytes(spec *snapshotSpec, objs []*manifest.Object) ([]byte, error) {
	sorted := slices.Clone(objs)
	slices.SortFunc(sorted, func(a, b *manifest.Object) int { return strings.Compare(a.Key().String(), b.Key().String()) })
	var got []byte
	for i, o := range sorted {
		masked := &manifest.Object{Data: manifest.DeepCopy(o.Data).(map[string]any)}
		for _, p := range spec.Ignore {
			if fp, err := fieldpath.Parse(p); err == nil {
				fieldpath.Delete(masked.Data, fp)
			}
		}
		data, err := golden.Encode(masked)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			got = append(got, "---\n"...)
		}
		got = append(got, data...)
	}
	return got, nil
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// check is one assertion over what the test rendered (objs) or the
// render's error: "" when it holds, else what differs.
func (a DefAssert) check(got rendered, renderErr error) string {
	switch {
	case a.Error != "" || a.ErrorRegex != "":
		if renderErr == nil {
			return "the render succeeded; want an error"
		}
		if a.Error != "" && !strings.Contains(renderErr.Error(), a.Error) {
			return fmt.Sprintf("error %q does not contain %q", renderErr.Error(), a.Error)
		}
		if a.ErrorRegex != "" {
			re, err := regexp.Compile(a.ErrorRegex)
			if err != nil {
				return fmt.Sprintf("errorRegex %q: %v", a.ErrorRegex, err)
			}
			if !re.MatchString(renderErr.Error()) {
				return fmt.Sprintf("error %q does not match %q", renderErr.Error(), a.ErrorRegex)
			}
		}
		return ""
	case renderErr != nil:
		return fmt.Sprintf("the render failed: %v", renderErr)
	case len(a.HasObjects) > 0:
		for _, want := range a.HasObjects {
			if !slices.ContainsFunc(got.objs, func(o *manifest.Object) bool {
				return o.Kind() == want.Kind && (want.Name == "" || o.Name() == want.Name)
			}) {
				return fmt.Sprintf("no %s %s among the rendered objects (%s)", want.Kind, want.Name, got)
			}
		}
		return ""
	}
	path := cmp.Or(a.Equal.at(), a.NotEqual.at(), a.Exists.at(), a.NotExists.at(), a.MatchRegex.at(), a.Contains.at(), a.LengthEqual.at())
	v, ok, err := got.lookup(path)
	if err != nil {
		return err.Error()
	}
	switch {
	case a.Exists != nil:
		if !ok {
			return fmt.Sprintf("%s does not exist", path)
		}
	case a.NotExists != nil:
		if ok {
			return fmt.Sprintf("%s exists: %s", path, show(v))
		}
	case !ok:
		return fmt.Sprintf("%s does not exist", path)
	case a.Equal != nil:
		if !equalValues(v, a.Equal.Value) {
			return fmt.Sprintf("%s is %s, want %s", path, show(v), show(a.Equal.Value))
		}
	case a.NotEqual != nil:
		if equalValues(v, a.NotEqual.Value) {
			return fmt.Sprintf("%s is %s, want anything else", path, show(v))
		}
	case a.MatchRegex != nil:
		re, err := regexp.Compile(a.MatchRegex.Pattern)
		if err != nil {
			return fmt.Sprintf("matchRegex %q: %v", a.MatchRegex.Pattern, err)
		}
		s, isString := v.(string)
		if !isString || !re.MatchString(s) {
			return fmt.Sprintf("%s is %s, which does not match %q", path, show(v), a.MatchRegex.Pattern)
		}
	case a.Contains != nil:
		switch g := v.(type) {
		case []any:
			for _, item := range g {
				if equalValues(item, a.Contains.Value) {
					return ""
				}
			}
		case string:
			if s, ok := a.Contains.Value.(string); ok && strings.Contains(g, s) {
				return ""
			}
		case map[string]any:
			if k, ok := a.Contains.Value.(string); ok {
				if _, has := g[k]; has {
					return ""
				}
			}
		}
		return fmt.Sprintf("%s is %s, which does not contain %s", path, show(v), show(a.Contains.Value))
	case a.LengthEqual != nil:
		n := -1
		switch g := v.(type) {
		case []any:
			n = len(g)
		case map[string]any:
			n = len(g)
		case string:
			n = len(g)
		}
		if n != a.LengthEqual.Count {
			return fmt.Sprintf("%s has length %d, want %d", path, n, a.LengthEqual.Count)
		}
	}
	return ""
}

// KubeVela's labels on what a component renders (render.Label*: check
// reaches render only through pipeline).
const (
	labelComponent    = "app.oam.dev/component"
	labelResourceType = "app.oam.dev/resourceType"
	labelOutput       = "trait.oam.dev/resource"
)

// rendered is what a definition test rendered (the observed state
// merged in): every object, and among them the workload (the tested
// policy's output in a policy test) and the outputs by name.
type rendered struct {
	objs     []*manifest.Object
	workload *manifest.Object
	outputs  map[string]*manifest.Object
}

// classify finds the workload and the outputs among objs; policy is the
// tested policy ("" for none).
func classify(objs []*manifest.Object, policy string) rendered {
	got := rendered{objs: objs, outputs: map[string]*manifest.Object{}}
	for _, o := range objs {
		labels := o.Labels()
		switch {
		case policy != "": // a policy's output: named after it, no resource type
			if labels[labelComponent] == policy && labels[labelResourceType] == "" {
				got.workload = o
			}
		case labels[labelResourceType] == "WORKLOAD":
			got.workload = o
		}
		if name := labels[labelOutput]; name != "" {
			got.outputs[name] = o
		}
	}
	return got
}

// observe merges what the test says the cluster holds into the rendered
// objects (copies): observed.output into the workload, observed.outputs.
// <name> into that output.
func observe(entries []cluster.Entry, o DefObserved) []*manifest.Object {
	out := make([]*manifest.Object, len(entries))
	for i, e := range entries {
		out[i] = e.Object
		labels := e.Object.Labels()
		var extra []map[string]any
		if labels[labelResourceType] == "WORKLOAD" && o.Output != nil {
			extra = append(extra, o.Output)
		}
		if m, ok := o.Outputs[labels[labelOutput]].(map[string]any); ok && labels[labelOutput] != "" {
			extra = append(extra, m)
		}
		if len(extra) > 0 {
			out[i] = &manifest.Object{Data: manifest.DeepCopy(e.Object.Data).(map[string]any), Pos: e.Object.Pos}
			for _, m := range extra {
				mergeInto(out[i].Data, m)
			}
		}
	}
	return out
}

// lookup finds path in the rendered objects: output (or workload) is the
// workload, outputs.<name> the output of that name.
func (got rendered) lookup(path string) (any, bool, error) {
	obj := got.workload
	head, rest, _ := strings.Cut(path, ".")
	switch head {
	case "output", "workload":
	case "outputs":
		var name string
		name, rest, _ = strings.Cut(rest, ".")
		if obj = got.outputs[name]; obj == nil {
			return nil, false, fmt.Errorf("no output %q among the rendered objects (%s)", name, got)
		}
	default:
		return nil, false, fmt.Errorf("path %q: start with output, workload or outputs.<name>", path)
	}
	if obj == nil {
		return nil, false, fmt.Errorf("no workload among the rendered objects (%s)", got)
	}
	if rest == "" {
		return obj.Data, true, nil
	}
	fp, err := fieldpath.Parse(rest)
	if err != nil {
		return nil, false, nil
	}
	v, ok := fieldpath.Get(obj.Data, fp)
	return v, ok, nil
}

// String lists the rendered objects for a message.
func (got rendered) String() string {
	if len(got.objs) == 0 {
		return "none"
	}
	names := make([]string, len(got.objs))
	for i, o := range got.objs {
		names[i] = o.Kind() + " " + o.Name()
		if r := o.Labels()[labelOutput]; r != "" {
			names[i] += " (output " + r + ")"
		}
	}
	return strings.Join(names, ", ")
}

// statusContext is the template context KubeVela's controller gives a
// definition's status: the workload as output, the other objects by
// output name, and the component's context fields.
func (got rendered) statusContext(t DefTest) map[string]any {
	outputs := map[string]any{}
	for name, o := range got.outputs {
		outputs[name] = o.Data
	}
	ctx := map[string]any{"name": t.Context.Name, "appName": t.Context.AppName, "namespace": t.Context.Namespace,
		"cluster": t.Context.Cluster, "outputs": outputs}
	if got.workload != nil {
		ctx["output"] = got.workload.Data
	}
	return ctx
}

// equalValues compares a rendered value with an expected one as YAML
// does: numbers by value.
func equalValues(got, want any) bool {
	a, _ := yaml.Marshal(got)
	b, _ := yaml.Marshal(want)
	return string(a) == string(b)
}

func show(v any) string {
	data, err := yaml.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := strings.TrimSpace(string(data))
	if strings.Contains(s, "\n") {
		return "{" + strings.Join(strings.Fields(s), " ") + "}"
	}
	return s
}

// defTestFiles are the definition test files of suite s: those its tests
// lists (files, or directories searched for *_test.yaml) and the
// *_test.yaml files under its definitions.
func (r *runner) defTestFiles(s Suite) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	keep := manifest.WalkOptions{Keep: IsDefTestFile, SkipDir: func(name string) bool { return strings.HasPrefix(name, ".") }}
	for _, group := range [][]string{r.paths(s.Tests), r.paths(s.Definitions)} {
		for _, p := range group {
			info, err := os.Stat(p)
			if err != nil {
				return nil, err
			}
			var files []string
			if info.IsDir() {
				if files, err = manifest.WalkFiles(p, keep); err != nil {
					return nil, err
				}
			} else if IsDefTestFile(p) || slices.Contains(r.paths(s.Tests), p) {
				files = []string{p}
			}
			for _, f := range files {
				if !seen[f] {
					seen[f] = true
					out = append(out, f)
				}
			}
		}
	}
	return out, nil
}

// defJob is one definition test of a suite: the file it is in, that
// file's document (positions) and its index there.
type defJob struct {
	file  string
	doc   *manifest.Object
	index int
	test  DefTest
}

// defTests runs the suite's definition tests: a check per test
// ("tests/<name>"), a finding per failed assertion at its line.
func (r *runner) defTests(ctx context.Context, s Suite, res *SuiteResult) error {
	files, err := r.defTestFiles(s)
	if err != nil || len(files) == 0 {
		return err
	}
	var jobs []defJob
	for _, file := range files {
		tests, doc, err := loadDefTests(file)
		if err != nil {
			return &stageError{"tests", err}
		}
		for i, t := range tests {
			jobs = append(jobs, defJob{file, doc, i, t})
		}
	}
	defs, err := pipeline.LoadDefinitions(r.paths(s.Definitions), s.NoBuiltins)
	if err != nil {
		return &stageError{"tests", err}
	}
	if r.opts.Coverage {
		cov := newCoverage(defs)
		for _, j := range jobs {
			cov.add(j.test)
		}
		res.Coverage = append(res.Coverage, cov.result()...)
	}
	// The tests run in parallel; their results keep the files' order.
	outcomes := make([]defOutcome, len(jobs))
	errs := make([]error, len(jobs))
	parallel(len(jobs), r.renderWorkers, func(i int) {
		outcomes[i], errs[i] = r.runDefTest(ctx, defs, jobs[i])
	})
	for i, j := range jobs {
		check := "tests/" + j.test.Name
		res.Checks = append(res.Checks, check)
		if errs[i] != nil {
			return &stageError{"tests", errs[i]}
		}
		for _, f := range outcomes[i].findings {
			f.Suite, f.Check = s.Name, check
			res.Findings = append(res.Findings, f)
		}
	}
	if err := r.writeSnapshots(jobs, outcomes); err != nil {
		return &stageError{"tests", err}
	}
	return nil
}

// writeSnapshots writes the snapshots the tests asked for, one snapshot
// directory (one test file's) at a time, once every test has run. With
// Update and Prune, the owned snapshots no test of the file rendered are
// deleted, unless one of its snapshot assertions could not compare.
func (r *runner) writeSnapshots(jobs []defJob, outcomes []defOutcome) error {
	var dirs []string
	byDir, incomplete := map[string][]snapshotWrite{}, map[string]bool{}
	for i, o := range outcomes {
		testDir, dir, _ := snapshotPlace(jobs[i].file, "")
		key := filepath.Join(testDir, filepath.FromSlash(dir))
		incomplete[key] = incomplete[key] || o.incomplete
		if len(o.writes) > 0 && byDir[key] == nil {
			dirs = append(dirs, key)
		}
		byDir[key] = append(byDir[key], o.writes...)
	}
	for _, d := range dirs {
		prune := r.opts.Update && r.opts.Prune && !incomplete[d]
		if err := writeSnapshots(byDir[d], prune); err != nil {
			return err
		}
	}
	return nil
}

// statusOf is a definition's health and status message (and why they
// could not be evaluated).
type statusOf struct {
	healthy               bool
	message               string
	details               map[string]string
	healthErr, messageErr error
}

// mergeInto merges src into dst, mappings key by key.
func mergeInto(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeInto(dm, sm)
				continue
			}
		}
		dst[k] = manifest.DeepCopy(v)
	}
}

// checkStatus is a healthy or message assertion.
func (a DefAssert) checkStatus(st statusOf, renderErr error) string {
	switch {
	case renderErr != nil:
		return fmt.Sprintf("the render failed: %v", renderErr)
	case a.Healthy != nil && st.healthy != *a.Healthy:
		msg := fmt.Sprintf("healthy is %v, want %v", st.healthy, *a.Healthy)
		if st.healthErr != nil {
			msg += fmt.Sprintf(" (%v)", st.healthErr)
		}
		return msg
	case a.Details != nil:
		for _, k := range manifest.SortedKeys(a.Details) {
			want := fmt.Sprint(a.Details[k])
			if got, ok := st.details[k]; !ok || got != want {
				return fmt.Sprintf("status.details.%s is %q, want %q (details: %v)", k, got, want, st.details)
			}
		}
	case a.Message != nil && st.message != *a.Message:
		msg := fmt.Sprintf("the status message is %q, want %q", st.message, *a.Message)
		if st.messageErr != nil {
			msg += fmt.Sprintf(" (%v)", st.messageErr)
		}
		return msg
	}
	return ""
}

// coverage records which ifs of the tested definitions' templates the
// tests take, each way.
type coverage struct {
	defs     *pipeline.DefinitionSet
	order    []string // the tested definitions, first tested first
	branches map[string][]pipeline.Branch
	took     map[string][]BranchCoverage
}

func newCoverage(defs *pipeline.DefinitionSet) *coverage {
	return &coverage{defs: defs, branches: map[string][]pipeline.Branch{}, took: map[string][]BranchCoverage{}}
}

// add records the branches test t takes.
func (c *coverage) add(t DefTest) {
	branches, seen := c.branches[t.Definition]
	if !seen {
		branches = pipeline.Branches(c.defs, t.Definition)
		c.branches[t.Definition] = branches
		c.order = append(c.order, t.Definition)
		c.took[t.Definition] = make([]BranchCoverage, len(branches))
		for i, b := range branches {
			c.took[t.Definition][i] = BranchCoverage{Definition: t.Definition, Pos: b.Pos, Condition: b.Condition}
		}
	}
	if len(branches) == 0 {
		return
	}
	ctx := map[string]any{"name": t.Context.Name, "appName": t.Context.AppName, "namespace": t.Context.Namespace, "cluster": t.Context.Cluster}
	for i, took := range pipeline.BranchOutcomes(c.defs, t.Definition, branches, t.Properties, ctx) {
		switch {
		case took == nil:
		case *took:
			c.took[t.Definition][i].True = true
		default:
			c.took[t.Definition][i].False = true
		}
	}
}

// result is every branch of the tested definitions, in the order they
// were first tested.
func (c *coverage) result() []BranchCoverage {
	var out []BranchCoverage
	for _, d := range c.order {
		out = append(out, c.took[d]...)
	}
	return out
}
