package gatekeeper

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drydock-dev/drydock/manifest"
)

// readTestObjects decodes the objects of files, in order.
func readTestObjects(t *testing.T, files ...string) []*manifest.Object {
	t.Helper()
	var out []*manifest.Object
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := manifest.Decode(f, data, manifest.DecodeOptions{KeepLists: true})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, objs...)
	}
	return out
}

// got is the part of a Violation the tests compare.
type got struct {
	Object     int
	Constraint string
	Action     string
	Message    string
	Details    any
}

func summarize(vs []Violation) []got {
	out := make([]got, len(vs))
	for i, v := range vs {
		out[i] = got{v.Object, v.Constraint, v.EnforcementAction, v.Message, v.Details}
	}
	return out
}

// checkReview loads policies, reviews the objects of files and compares
// the violations with want.
func checkReview(t *testing.T, policies, files []string, want []got) {
	t.Helper()
	set, err := Load(policies, Options{})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := set.Review(context.Background(), readTestObjects(t, files...))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, summarize(vs)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

func TestReviewLibrary(t *testing.T) {
	for _, tc := range []struct {
		name     string
		policies []string
		objects  []string
		want     []got
	}{{
		name: "requiredlabels: v0 Rego in code, custom message, details, warn",
		policies: []string{
			"testdata/requiredlabels/template.yaml",
			"testdata/requiredlabels/samples/owner/constraint.yaml",
			"testdata/requiredlabels/samples/key-only/constraint.yaml",
		},
		objects: []string{
			"testdata/requiredlabels/samples/owner/example_allowed.yaml",
			"testdata/requiredlabels/samples/owner/example_disallowed.yaml",
			"testdata/requiredlabels/samples/owner/example_disallowed_label_value.yaml",
			"testdata/requiredlabels/samples/key-only/example_allowed.yaml",
			"testdata/requiredlabels/samples/key-only/example_disallowed.yaml",
		},
		want: []got{
			{1, "K8sRequiredLabels/all-must-have-owner", "deny", "All namespaces must have an `owner` label that points to your company username", map[string]any{"missing_labels": []any{"owner"}}},
			{2, "K8sRequiredLabels/all-must-have-owner", "deny", "All namespaces must have an `owner` label that points to your company username", nil},
			{4, "K8sRequiredLabels/must-have-pizza", "warn", `missing labels: {"pizza"}`, map[string]any{"missing_labels": []any{"pizza"}}},
		},
	}, {
		name: "containerlimits: legacy targets rego with a lib",
		policies: []string{
			"testdata/containerlimits/template.yaml",
			"testdata/containerlimits/samples/constraint.yaml",
			"testdata/containerlimits/samples/constraint_ignore_cpu.yaml",
		},
		objects: []string{
			"testdata/containerlimits/samples/example_allowed.yaml",
			"testdata/containerlimits/samples/example_disallowed.yaml",
			"testdata/containerlimits/samples/example_no_cpu.yaml",
		},
		want: []got{
			// Only container-must-have-limits exempts the debug image.
			{0, "K8sContainerLimits/container-ignore-cpu-limits", "deny", "container <debug> has no memory limit", nil},
			{1, "K8sContainerLimits/container-ignore-cpu-limits", "deny", "container <opa> memory limit <2Gi> is higher than the maximum allowed of <1Gi>", nil},
			{1, "K8sContainerLimits/container-must-have-limits", "deny", "container <opa> memory limit <2Gi> is higher than the maximum allowed of <1Gi>", nil},
			{2, "K8sContainerLimits/container-must-have-limits", "deny", "container <init> has no cpu limit", nil},
			{2, "K8sContainerLimits/container-must-have-limits", "deny", "container <opa> cpu limit <2> is higher than the maximum allowed of <200m>", nil},
		},
	}, {
		name: "uniqueingresshost: data.inventory holds every object reviewed",
		policies: []string{
			"testdata/uniqueingresshost/template.yaml",
			"testdata/uniqueingresshost/samples/constraint.yaml",
		},
		objects: []string{"testdata/uniqueingresshost/samples/example_inventory.yaml"},
		want: []got{
			{0, "K8sUniqueIngressHost/unique-ingress-host", "deny", "ingress host conflicts with an existing ingress <example-host.example.com>", map[string]any{"other": "default/ingress-host-example"}},
			{1, "K8sUniqueIngressHost/unique-ingress-host", "deny", "ingress host conflicts with an existing ingress <example-host.example.com>", map[string]any{"other": "default/ingress-host-example2"}},
		},
	}, {
		// gator's output on these samples: the template has both CEL and
		// Rego, and CEL wins.
		name: "requiredlabels from gatekeeper-library: CEL and Rego, evaluated with CEL",
		policies: []string{
			"testdata/celrequiredlabels/template.yaml",
			"testdata/celrequiredlabels/samples/all-must-have-owner/constraint.yaml",
			"testdata/celrequiredlabels/samples/verify-label-key-only/constraint.yaml",
		},
		objects: []string{
			"testdata/celrequiredlabels/samples/all-must-have-owner/example_allowed.yaml",
			"testdata/celrequiredlabels/samples/all-must-have-owner/example_disallowed.yaml",
			"testdata/celrequiredlabels/samples/all-must-have-owner/example_disallowed_label_value.yaml",
			"testdata/celrequiredlabels/samples/verify-label-key-only/example_allowed.yaml",
			"testdata/celrequiredlabels/samples/verify-label-key-only/example_disallowed.yaml",
		},
		want: []got{
			{1, "K8sRequiredLabels/all-must-have-owner", "deny", "missing required label, requires all of: owner", nil},
			{1, "K8sRequiredLabels/all-must-have-owner", "deny", "regex mismatch", nil},
			{2, "K8sRequiredLabels/all-must-have-owner", "deny", "regex mismatch", nil},
			{4, "K8sRequiredLabels/must-have-pizza", "deny", "missing required label, requires all of: pizza", nil},
			{4, "K8sRequiredLabels/must-have-pizza", "deny", "regex mismatch", nil},
		},
	}, {
		name:     "an evaluation error is a violation carrying it",
		policies: []string{"testdata/evalerror/policy.yaml"},
		objects:  []string{"testdata/evalerror/policy.yaml"},
		want: []got{{2, "K8sConflict/conflict", "warn",
			"testdata/evalerror/policy.yaml:16:9: eval_conflict_error: rule data.template.replicas produced conflicting values:\n" +
				"  2 at testdata/evalerror/policy.yaml:15\n  3 at testdata/evalerror/policy.yaml:16", nil}},
	}} {
		t.Run(tc.name, func(t *testing.T) { checkReview(t, tc.policies, tc.objects, tc.want) })
	}
}

func TestReviewCEL(t *testing.T) {
	// objects.yaml: 0 web (owner team-a, size 512Mi, mode strict), 1
	// a-very-long-name (no labels, size 2Gi, mode lax), 2 db (owner alice,
	// no data), 3 kube-system/skipped (no labels, no data).
	const (
		noOwner  = "object a-very-long-name has no owner label; ask "
		longName = "failed expression: size(object.metadata.name) <= 12"
		lax      = "lax mode is not allowed"
		tooBig   = "size 2Gi is above the maximum"
		badOwner = "owner must start with team-"
		noData   = "expression 'object.data.mode in ['strict', 'lax']' resulted in error: no such key: data"
	)
	for _, tc := range []struct {
		name     string
		policies []string
		objects  []string
		want     []got
	}{{
		name:     "a CEL-only template loads and runs",
		policies: []string{"testdata/load/cel.yaml"},
		objects:  []string{"testdata/cel/objects.yaml"},
		want: []got{
			{1, "K8sCELOnly/labels", "deny", "labels required", nil},
			{3, "K8sCELOnly/labels", "deny", "labels required", nil},
		},
	}, {
		// The messages are gator's. Each false validation is one violation
		// with its messageExpression (a non-empty single line), else its
		// message (trimmed), else its expression. variables.params is the
		// constraint's parameters with their defaults (maxSize), null when
		// it has none; params, the constraint, is there in variables. The
		// matchCondition skips kube-system. An evaluation error is a
		// violation under failurePolicy Fail (K8sCELChecks), nothing under
		// Ignore (K8sCELIgnore).
		name:     "messages, variables, params, matchCondition and failurePolicy",
		policies: []string{"testdata/cel/policy.yaml"},
		objects:  []string{"testdata/cel/objects.yaml"},
		want: []got{
			{1, "K8sCELChecks/no-params", "warn", longName, nil},
			{1, "K8sCELChecks/no-params", "warn", lax, nil},
			{1, "K8sCELChecks/no-params", "warn", noOwner + "nobody", nil},
			{1, "K8sCELChecks/no-params", "warn", tooBig, nil},
			{1, "K8sCELChecks/with-team", "deny", longName, nil},
			{1, "K8sCELChecks/with-team", "deny", lax, nil},
			{1, "K8sCELChecks/with-team", "deny", noOwner + "platform (with-team)", nil},
			{1, "K8sCELChecks/with-team", "deny", tooBig, nil},
			{1, "K8sCELIgnore/ignore", "deny", "mode must be strict", nil},
			{2, "K8sCELChecks/no-params", "warn", noData, nil},
			{2, "K8sCELChecks/no-params", "warn", badOwner, nil},
			{2, "K8sCELChecks/with-team", "deny", noData, nil},
			{2, "K8sCELChecks/with-team", "deny", badOwner, nil},
		},
	}} {
		t.Run(tc.name, func(t *testing.T) { checkReview(t, tc.policies, tc.objects, tc.want) })
	}
}

// loadMatch loads the constraints of testdata/match and its objects.
func loadMatch(t *testing.T) (*Set, []*manifest.Object) {
	t.Helper()
	set, err := Load([]string{"testdata/match"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return set, readTestObjects(t, "testdata/match/objects.yaml")
}

func TestMatch(t *testing.T) {
	set, objs := loadMatch(t)
	// objects.yaml: 0 Namespace team-a (env=prod), 1 Deployment team-a/web
	// (app=web), 2 Deployment team-b/web-debug (app=web, tier=debug; no
	// Namespace team-b), 3 ConfigMap other/ with generateName web-, 4
	// ClusterRole reader.
	vs, err := set.Review(context.Background(), objs)
	if err != nil {
		t.Fatal(err)
	}
	hits := map[string][]int{}
	actions := map[string]string{}
	for _, v := range vs {
		if v.Message != "hit" {
			continue
		}
		hits[v.Constraint] = append(hits[v.Constraint], v.Object)
		actions[v.Constraint] = v.EnforcementAction
	}
	for _, tc := range []struct {
		constraint string
		want       []int
		action     string
	}{
		{"everything", []int{0, 1, 2, 3, 4}, "deny"},
		{"apps-deployments", []int{1, 2}, "deny"},
		{"core-any-kind", []int{0, 3}, "deny"},
		{"ns-prefix", []int{0, 1, 2, 4}, "deny"},
		{"excluded-suffix", []int{2, 3, 4}, "deny"},
		{"ns-contains", []int{0, 1, 2, 4}, "deny"},
		{"labels", []int{1}, "deny"},
		{"prod-namespaces", []int{0, 1, 4}, "warn"},
		{"cluster-scope", []int{0, 4}, "deny"},
		{"namespaced-scope", []int{1, 2, 3}, "dryrun"},
		{"name-glob", []int{1, 2, 3}, "deny"},
		{"generated-only", nil, ""},
		{"scoped-elsewhere", nil, ""},
		{"scoped-gator", []int{4}, "scoped"},
	} {
		t.Run(tc.constraint, func(t *testing.T) {
			id := "K8sAlwaysViolate/" + tc.constraint
			if diff := cmp.Diff(tc.want, hits[id]); diff != "" {
				t.Errorf("objects hit (-want +got):\n%s", diff)
			}
			if actions[id] != tc.action {
				t.Errorf("enforcement action %q, want %q", actions[id], tc.action)
			}
		})
	}
	// namespaceSelector without the object's Namespace autorejects, with
	// the constraint's action.
	const reject = "unable to match constraints: error matching the requested object: %s :failed to run Match criteria: namespace selector for namespace-scoped object but missing Namespace"
	var rejects []got
	for _, v := range vs {
		if v.Message != "hit" {
			rejects = append(rejects, got{v.Object, v.Constraint, v.EnforcementAction, v.Message, v.Details})
		}
	}
	want := []got{
		{2, "K8sAlwaysViolate/prod-namespaces", "warn", strings.Replace(reject, "%s", "web-debug", 1), nil},
		{3, "K8sAlwaysViolate/prod-namespaces", "warn", strings.Replace(reject, "%s", "", 1), nil},
	}
	if diff := cmp.Diff(want, rejects); diff != "" {
		t.Errorf("autorejects (-want +got):\n%s", diff)
	}
	if vs[0].Pos.File != filepath.Join("testdata/match/constraints.yaml") || vs[0].Pos.Line == 0 {
		t.Errorf("violation position %v, want the constraint's", vs[0].Pos)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		paths []string
		want  []string // regexps, one per error line
	}{
		{[]string{"testdata/load/httpsend.yaml"}, []string{`^testdata/load/httpsend.yaml:16:19: ConstraintTemplate "k8shttp": rego_type_error: built-in http.send is not available in drydock's sandbox: it reaches the network$`}},
		{[]string{"testdata/load/externaldata.yaml"}, []string{`^testdata/load/externaldata.yaml:16:19: ConstraintTemplate "k8sexternal": rego_type_error: external_data is not supported: drydock evaluates templates offline`}},
		{[]string{"testdata/load/celcompile.yaml"}, []string{
			`^testdata/load/celcompile.yaml:21:21: ConstraintTemplate "k8scelcompile": spec.targets\[0\].code\[0\].source.validations\[0\].expression: undeclared reference to 'params' .*use variables.params`,
			`^testdata/load/celcompile.yaml:22: ConstraintTemplate "k8scelcompile": spec.targets\[0\].code\[0\].source.validations\[1\].expression: must evaluate to bool but got dyn$`,
			`^testdata/load/celcompile.yaml:24: ConstraintTemplate "k8scelcompile": spec.targets\[0\].code\[0\].source.validations\[2\].messageExpression: found no matching overload for '_\+_' applied to '\(string, int\)'$`,
		}},
		{[]string{"testdata/load/wrongname.yaml"}, []string{`^testdata/load/wrongname.yaml:4:9: ConstraintTemplate "k8swrong": metadata.name must be "k8sright", the lowercased kind K8sRight$`}},
		{[]string{"testdata/load/syntax.yaml"}, []string{`^testdata/load/syntax.yaml:17:9: ConstraintTemplate "k8ssyntax": rego_parse_error: `}},
		{[]string{"testdata/load/violationfunc.yaml"}, []string{`^testdata/load/violationfunc.yaml:1:1: ConstraintTemplate "k8sviolationfunc": rego_type_error: function data.template.violation\[result\] used as reference, not called$`}},
		{[]string{"testdata/load/disallowedref.yaml"}, []string{`^testdata/load/disallowedref.yaml:15:35: ConstraintTemplate "k8sdata": rego_compile_error: disallowed ref data.kubernetes.namespaces\[_\]`}},
		{[]string{"testdata/load/constraints.yaml"}, []string{
			`^testdata/load/constraints.yaml:23:18: constraint K8sOK/bad-glob: spec.match.namespaces\[0\]: .*"Team_A": should match`,
			`^testdata/load/constraints.yaml:26:7: constraint K8sOk/typo-kind: no ConstraintTemplate defines kind K8sOk \(did you mean "K8sOK"\?\)$`,
			`^testdata/load/constraints.yaml:36:5: constraint K8sOK/unexpected-parameters: spec.parameters: unknown field`,
		}},
		{[]string{"testdata/containerlimits"}, []string{`^testdata/containerlimits/samples/constraint_bad_params.yaml:7:10: constraint K8sContainerLimits/container-bad-params: spec.parameters.cpu: .*must be of type string$`}},
	} {
		t.Run(tc.paths[0], func(t *testing.T) {
			_, err := Load(tc.paths, Options{})
			if err == nil {
				t.Fatal("Load succeeded")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error does not wrap ErrInvalid: %v", err)
			}
			lines := strings.Split(manifest.Format(err, nil), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(lines), len(tc.want), err)
			}
			for i, re := range tc.want {
				if !regexp.MustCompile(re).MatchString(lines[i]) {
					t.Errorf("error %d:\n%s\ndoes not match\n%s", i, lines[i], re)
				}
			}
		})
	}
}

func TestConstraintsList(t *testing.T) {
	set, err := Load([]string{"testdata/requiredlabels/template.yaml", "testdata/requiredlabels/samples"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"K8sRequiredLabels/all-must-have-owner", "K8sRequiredLabels/must-have-pizza"}
	if diff := cmp.Diff(want, set.Constraints()); diff != "" {
		t.Errorf("Constraints (-want +got):\n%s", diff)
	}
}

func TestVerify(t *testing.T) {
	res, err := Verify(context.Background(), []string{"testdata/requiredlabels", "testdata/celrequiredlabels", "testdata/containerlimits", "testdata/uniqueingresshost", "testdata/verify"}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	type short struct {
		Suite, Test, Case string
		Line              int
		Skipped           bool
		Err               string
	}
	var gotRes []short
	for _, r := range res {
		gotRes = append(gotRes, short{filepath.Base(filepath.Dir(r.Suite)), r.Test, r.Case, r.Pos.Line, r.Skipped, r.Err})
	}
	want := []short{
		{"celrequiredlabels", "must-have-owner", "example-allowed", 12, false, ""},
		{"celrequiredlabels", "must-have-owner", "example-disallowed", 16, false, ""},
		{"celrequiredlabels", "must-have-owner", "example-disallowed-label-value", 24, false, ""},
		{"celrequiredlabels", "must-have-key", "label-present", 33, false, ""},
		{"celrequiredlabels", "must-have-key", "label-missing", 37, false, ""},
		{"containerlimits", "container-limits", "example-allowed", 10, false, ""},
		{"containerlimits", "container-limits", "example-disallowed", 14, false, ""},
		{"containerlimits", "container-limits", "no-cpu-and-too-much-cpu", 19, false, ""},
		{"containerlimits", "container-limits-ignore-cpu", "no-cpu", 30, false, ""},
		{"containerlimits", "container-limits-ignore-cpu", "example-disallowed", 34, false, ""},
		{"containerlimits", "cpu-must-be-a-string", "", 38, false, ""},
		{"requiredlabels", "must-have-owner", "example-allowed", 10, false, ""},
		{"requiredlabels", "must-have-owner", "example-disallowed", 14, false, ""},
		{"requiredlabels", "must-have-owner", "example-disallowed-label-value", 20, false, ""},
		{"requiredlabels", "must-have-key", "label-present", 28, false, ""},
		{"requiredlabels", "must-have-key", "label-missing", 32, false, ""},
		{"uniqueingresshost", "unique-ingress-host", "example-allowed", 10, false, ""},
		{"uniqueingresshost", "unique-ingress-host", "example-disallowed", 14, false, ""},
		{"verify", "namespace-selector", "namespace-in-inventory", 10, false, ""},
		{"verify", "namespace-selector", "namespace-missing", 16, false, ""},
		{"verify", "namespace-selector", "cluster-scoped-wrongly-expected-clean", 23, false,
			"unexpected number of violations: got 1 violations but want none: got messages [hit]"},
		{"verify", "namespace-selector", "admission-review-delete", 27, false, ""},
		{"verify", "namespace-selector", "skipped", 33, true, ""},
		{"verify", "skipped-test", "never-run", 43, true, ""},
	}
	if diff := cmp.Diff(want, gotRes, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

func TestVerifySuiteProblems(t *testing.T) {
	res, err := Verify(context.Background(), []string{"testdata/badsuite"}, nil, Options{})
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("error %v, want ErrInvalid", err)
	}
	want := []string{
		`testdata/badsuite/suite.yaml:8:5: case "no-assertions": assertions must be non-empty`,
		`testdata/badsuite/suite.yaml:14:19: assertion.violations, if set, must be a nonnegative integer, "yes", or "no"`,
		`testdata/badsuite/suite.yaml:16:13: object file must contain exactly one object: testdata/match/objects.yaml defines 5 objects`,
	}
	if diff := cmp.Diff(want, strings.Split(manifest.Format(err, nil), "\n")); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if len(res) != 1 || res[0].Case != "fine" || res[0].Err != "" {
		t.Errorf("results %+v, want the passing case \"fine\"", res)
	}
}

func TestAssertionWording(t *testing.T) {
	vs := []Violation{{Message: "a b"}, {Message: "c"}}
	for _, tc := range []struct {
		a    assertion
		want string
	}{
		{assertion{yes: true}, ""},
		{assertion{no: true}, "unexpected number of violations: got 2 violations but want none: got messages [a b c]"},
		{assertion{want: 1, message: regexp.MustCompile("^c$"), text: "^c$"}, ""},
		{assertion{want: 2, message: regexp.MustCompile("c"), text: "c"}, `unexpected number of violations: got 1 violations containing "c" but want exactly 2: got messages [a b c]`},
		{assertion{yes: true, message: regexp.MustCompile("z"), text: "z"}, `unexpected number of violations: got 0 violations containing "z" but want at least 1: got messages [a b c]`},
	} {
		if got := tc.a.check(vs); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.a, got, tc.want)
		}
	}
}

func TestReviewConcurrent(t *testing.T) {
	set, objs := loadMatch(t)
	cel, err := Load([]string{"testdata/cel/policy.yaml"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		set  *Set
		objs []*manifest.Object
	}{{set, objs}, {cel, readTestObjects(t, "testdata/cel/objects.yaml")}} {
		first, err := tc.set.Review(context.Background(), tc.objs)
		if err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				vs, err := tc.set.Review(context.Background(), tc.objs)
				if err == nil && !cmp.Equal(first, vs) {
					err = errors.New("concurrent Review gave other violations")
				}
				errs <- err
			}()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	}
}

// TestVerifyYAMLErrors pins where a suite's YAML syntax errors are
// reported: where manifest.Decode reports them.
func TestVerifyYAMLErrors(t *testing.T) {
	dir := t.TempDir()
	const head = "apiVersion: test.gatekeeper.sh/v1alpha1\nkind: Suite\ntests:\n- name: x\n"
	for name, text := range map[string]string{
		"flow.yaml":   head + "  template: [a, b\n",
		"anchor.yaml": head + "  template: *nope\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Verify(context.Background(), []string{dir}, nil, Options{})
	if !errors.Is(err, ErrInvalid) || !errors.Is(err, manifest.ErrInvalidYAML) {
		t.Fatalf("error %v, want ErrInvalid and manifest.ErrInvalidYAML", err)
	}
	want := []string{
		dir + "/anchor.yaml:5:13: invalid YAML: unknown anchor 'nope' referenced (no &nope before it)",
		dir + "/flow.yaml:5:13: invalid YAML near line 5: did not find expected ',' or ']' (the '[' here is never closed)",
	}
	if diff := cmp.Diff(want, strings.Split(manifest.Format(err, nil), "\n")); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}
