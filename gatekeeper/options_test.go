package gatekeeper

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// scopedGot is what TestScoped compares of a violation.
type scopedGot struct {
	Constraint, Action string
	Scoped             []string
	Message            string
}

// TestScoped: a scoped constraint's violations carry the actions its
// scopedEnforcementActions give gator's enforcement point. The expected
// results are gator's, run on the same files (testdata/scoped, the
// gatekeeper-library requiredlabels template):
//
//	gator test -f testdata/celrequiredlabels/template.yaml -f testdata/scoped -o json
//
// gives scoped-deny-gator ["deny"], scoped-dryrun-warn ["dryrun", "warn"]
// (in any order), scoped-warn-all ["warn"], each with enforcementAction
// "scoped" and the template's two CEL messages, and nothing for
// scoped-webhook-only; it exits 1 (a deny).
func TestScoped(t *testing.T) {
	set, err := Load([]string{"testdata/celrequiredlabels/template.yaml", "testdata/scoped/constraints.yaml"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := set.Review(context.Background(), readTestObjects(t, "testdata/scoped/objects.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var got []scopedGot
	for _, v := range vs {
		got = append(got, scopedGot{v.Constraint, v.EnforcementAction, v.ScopedEnforcementActions, v.Message})
	}
	want := []scopedGot{
		{"K8sRequiredLabels/scoped-deny-gator", "scoped", []string{"deny"}, "missing required label, requires all of: owner"},
		{"K8sRequiredLabels/scoped-deny-gator", "scoped", []string{"deny"}, "regex mismatch"},
		{"K8sRequiredLabels/scoped-dryrun-warn", "scoped", []string{"dryrun", "warn"}, "missing required label, requires all of: tier"},
		{"K8sRequiredLabels/scoped-dryrun-warn", "scoped", []string{"dryrun", "warn"}, "regex mismatch"},
		{"K8sRequiredLabels/scoped-warn-all", "scoped", []string{"warn"}, "missing required label, requires all of: team"},
		{"K8sRequiredLabels/scoped-warn-all", "scoped", []string{"warn"}, "regex mismatch"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

// anyTemplate is a ConstraintTemplate K8sAny whose rule flags every
// object, and the separator before its constraints.
const anyTemplate = `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: k8sany}
spec:
  crd: {spec: {names: {kind: K8sAny}}}
  targets:
  - target: admission.k8s.gatekeeper.sh
    rego: |
      package k8sany
      violation[{"msg": "any"}] { true }
---
`

// TestScopedErrors: scopedEnforcementActions is checked as the
// constraint CRD's schema checks it, and a scoped constraint needs it.
func TestScopedErrors(t *testing.T) {
	const template = anyTemplate + `apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sAny
metadata: {name: c}
spec:
`
	for _, tc := range []struct {
		spec, want string
		schema     bool
	}{
		{"  enforcementAction: scoped\n", `gk.yaml:16:3: constraint K8sAny/c: spec.scopedEnforcementActions: missing required field: spec.scopedEnforcementActions must be defined when enforcementAction is scoped`, false},
		{"  enforcementAction: scoped\n  scopedEnforcementActions: deny\n", `gk.yaml:17:29: constraint K8sAny/c: spec.scopedEnforcementActions: constraint does not match its schema: must be of type array`, true},
		{"  scopedEnforcementActions: [deny]\n", `gk.yaml:16:30: constraint K8sAny/c: spec.scopedEnforcementActions[0]: constraint does not match its schema: must be of type object`, true},
		{"  scopedEnforcementActions: [{action: 1}]\n", `gk.yaml:16:39: constraint K8sAny/c: spec.scopedEnforcementActions[0].action: constraint does not match its schema: Invalid value: "integer": must be of type string`, true},
		{"  scopedEnforcementActions: [{action: deny, enforcementPoints: gator.gatekeeper.sh}]\n", `gk.yaml:16:64: constraint K8sAny/c: spec.scopedEnforcementActions[0].enforcementPoints: constraint does not match its schema: must be of type array`, true},
		{"  scopedEnforcementActions: [{action: deny, enforcementPoints: [gator.gatekeeper.sh]}]\n", `gk.yaml:16:65: constraint K8sAny/c: spec.scopedEnforcementActions[0].enforcementPoints[0]: constraint does not match its schema: must be of type object`, true},
		{"  scopedEnforcementActions: [{action: deny, enforcementPoints: [{name: [x]}]}]\n", `gk.yaml:16:72: constraint K8sAny/c: spec.scopedEnforcementActions[0].enforcementPoints[0].name: constraint does not match its schema: Invalid value: "array": must be of type string`, true},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir+"/gk.yaml", template+tc.spec)
			_, err := Load([]string{dir}, Options{})
			if err == nil {
				t.Fatal("Load succeeded")
			}
			if msg := manifest.Format(err, nil); !strings.Contains(msg, tc.want) {
				t.Errorf("error\n%s\ndoes not contain\n%s", msg, tc.want)
			}
			if got := errors.Is(err, errSchema); got != tc.schema {
				t.Errorf("errors.Is(err, errSchema) = %v, want %v", got, tc.schema)
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRegoOnly: Options.RegoOnly evaluates a template having both CEL
// and Rego with its Rego, as gator --enable-k8s-native-validation=false
// (gator test -f testdata/celrequiredlabels/template.yaml -f
// testdata/regoonly/constraint.yaml -f testdata/regoonly/objects.yaml,
// with and without the flag); a template with CEL only does not load.
func TestRegoOnly(t *testing.T) {
	policies := []string{"testdata/celrequiredlabels/template.yaml", "testdata/regoonly/constraint.yaml"}
	objs := []string{"testdata/regoonly/objects.yaml"}
	const c = "K8sRequiredLabels/must-have-owner"
	t.Run("CEL", func(t *testing.T) {
		checkReview(t, policies, objs, []got{
			{0, c, "deny", "missing required label, requires all of: owner", nil},
			{0, c, "deny", "regex mismatch", nil},
			{1, c, "deny", "regex mismatch", nil},
		})
	})
	t.Run("Rego", func(t *testing.T) {
		set, err := Load(policies, Options{RegoOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		vs, err := set.Review(context.Background(), readTestObjects(t, objs...))
		if err != nil {
			t.Fatal(err)
		}
		want := []got{
			{0, c, "deny", `you must provide labels: {"owner"}`, map[string]any{"missing_labels": []any{"owner"}}},
			{1, c, "deny", "Label <owner: alice> does not satisfy allowed regex: ^team-", nil},
		}
		if diff := cmp.Diff(want, summarize(vs)); diff != "" {
			t.Errorf("violations (-want +got):\n%s", diff)
		}
	})
	t.Run("CEL only", func(t *testing.T) {
		_, err := Load([]string{"testdata/regoonly/celonly.yaml"}, Options{RegoOnly: true})
		want := `testdata/regoonly/celonly.yaml:11:7: ConstraintTemplate "k8snoname" has no Rego code (targets[0].rego, or code with engine Rego), and its K8sNativeValidation (CEL) code is disabled: no driver can evaluate it`
		if err == nil || manifest.Format(err, nil) != want {
			t.Errorf("Load error = %s, want %s", manifest.Format(err, nil), want)
		}
	})
}

// TestEmptyNamespace: objects without a namespace, and of an absent
// default Namespace, matched as gator verify does (the zero Options) and
// as gator test does (EmptyNamespace). testdata/namespaces: gator test -f
// testdata/namespaces/template.yaml -f testdata/namespaces/constraints.yaml
// -f testdata/namespaces/objects.yaml, and gator verify
// testdata/namespaces (its suite holds gator verify's counts).
func TestEmptyNamespace(t *testing.T) {
	objs := readTestObjects(t, "testdata/namespaces/objects.yaml")
	names := []string{"reader", "loose", "prod", "api", "web", "job"}
	hits := func(opts Options) map[string][]string {
		set, err := Load([]string{"testdata/namespaces/template.yaml", "testdata/namespaces/constraints.yaml"}, opts)
		if err != nil {
			t.Fatal(err)
		}
		vs, err := set.Review(context.Background(), objs)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for _, v := range vs {
			name := names[v.Object]
			if strings.HasPrefix(v.Message, "unable to match constraints") {
				name += "!" // an autoreject
			}
			c := strings.TrimPrefix(v.Constraint, "K8sFlag/")
			out[c] = append(out[c], name)
		}
		return out
	}
	verify := map[string][]string{
		"any-namespace":       {"reader", "loose", "prod", "api", "web", "job"},
		"in-prod":             {"reader", "loose", "prod", "api"},
		"not-kube-system":     {"reader", "loose", "prod", "api", "web", "job"},
		"scope-cluster":       {"reader", "loose", "prod"},
		"scope-namespaced":    {"api", "web", "job"},
		"selector-env-prod":   {"reader", "loose", "prod", "api", "web!", "job!"},
		"selector-not-system": {"reader", "loose", "prod", "api", "web!", "job!"},
	}
	test := map[string][]string{
		"any-namespace":       {"reader", "loose", "prod", "api", "web", "job"},
		"in-prod":             {"prod", "api"},
		"not-kube-system":     {"reader", "loose", "prod", "api", "web", "job"},
		"scope-cluster":       {"prod"},
		"scope-namespaced":    {"reader", "loose", "api", "web", "job"},
		"selector-env-prod":   {"prod", "api", "job!"},
		"selector-not-system": {"reader", "loose", "prod", "api", "web", "job!"},
	}
	if diff := cmp.Diff(verify, hits(Options{})); diff != "" {
		t.Errorf("as gator verify (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(test, hits(Options{EmptyNamespace: true})); diff != "" {
		t.Errorf("as gator test (-want +got):\n%s", diff)
	}
}

// TestVerifyOptions: Verify honours Options; the namespaces suite holds
// gator verify's counts (gator verify testdata/namespaces: exit 0).
func TestVerifyOptions(t *testing.T) {
	res, err := Verify(context.Background(), []string{"testdata/namespaces/suite.yaml"}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, r := range res {
		if r.Err != "" {
			failed++
			t.Errorf("%s/%s: %s", r.Test, r.Case, r.Err)
		}
	}
	if len(res) != 42 {
		t.Errorf("%d cases, want 42", len(res))
	}
	res, err = Verify(context.Background(), []string{"testdata/namespaces/suite.yaml"}, nil, Options{EmptyNamespace: true})
	if err != nil {
		t.Fatal(err)
	}
	failed = 0
	for _, r := range res {
		if r.Err != "" {
			failed++
		}
	}
	// reader and loose in in-prod, scope-cluster, scope-namespaced and
	// selector-env-prod change, and web in selector-env-prod (no
	// autoreject); in selector-not-system web's autoreject becomes a
	// violation, still one.
	if failed != 9 {
		t.Errorf("with EmptyNamespace, %d cases fail, want 9", failed)
	}
}

// TestEmptyAction: an enforcementAction written empty stays empty, as in
// gator (gator test -o json gives no enforcementAction and exits 0 on
// such a constraint's violations); only an absent one is deny.
func TestEmptyAction(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/gk.yaml", anyTemplate+`apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sAny
metadata: {name: absent}
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sAny
metadata: {name: empty}
spec: {enforcementAction: ""}
`)
	set, err := Load([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := set.Review(context.Background(), readTestObjects(t, "testdata/scoped/objects.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := []got{{0, "K8sAny/absent", "deny", "any", nil}, {0, "K8sAny/empty", "", "any", nil}}
	if diff := cmp.Diff(want, summarize(vs)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}
