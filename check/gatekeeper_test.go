package check

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/gatekeeper"
)

// TestGatekeeperLevel: a violation fails when gator gives it deny (its
// enforcementAction, or one of a scoped constraint's actions for gator),
// as gator test fails it; any other action is reported.
func TestGatekeeperLevel(t *testing.T) {
	tests := []struct {
		v    gatekeeper.Violation
		want Level
	}{
		{gatekeeper.Violation{EnforcementAction: "deny"}, LevelError},
		{gatekeeper.Violation{EnforcementAction: "warn"}, LevelWarning},
		{gatekeeper.Violation{EnforcementAction: "dryrun"}, LevelWarning},
		{gatekeeper.Violation{EnforcementAction: ""}, LevelWarning},
		{gatekeeper.Violation{EnforcementAction: "other"}, LevelWarning},
		{gatekeeper.Violation{EnforcementAction: "scoped", ScopedEnforcementActions: []string{"deny"}}, LevelError},
		{gatekeeper.Violation{EnforcementAction: "scoped", ScopedEnforcementActions: []string{"deny", "warn"}}, LevelError},
		{gatekeeper.Violation{EnforcementAction: "scoped", ScopedEnforcementActions: []string{"dryrun", "warn"}}, LevelWarning},
	}
	for _, tt := range tests {
		if got := gatekeeperLevel(gatekeeperActions(tt.v)); got != tt.want {
			t.Errorf("level of %+v = %s, want %s", tt.v, got, tt.want)
		}
	}
}

const (
	gkRequiredLabels = `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: k8srequiredlabels}
spec:
  crd:
    spec:
      names: {kind: K8sRequiredLabels}
      validation:
        openAPIV3Schema:
          type: object
          properties:
            labels: {type: array, items: {type: string}}
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package k8srequiredlabels

        violation[{"msg": msg, "details": {"missing_labels": missing}}] {
          provided := {label | input.review.object.metadata.labels[label]}
          required := {label | label := input.parameters.labels[_]}
          missing := required - provided
          count(missing) > 0
          msg := sprintf("you must provide labels: %v", [missing])
        }
`
	gkConstraints = `apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sRequiredLabels
metadata: {name: must-have-owner}
spec:
  match: {kinds: [{apiGroups: [apps], kinds: [Deployment]}]}
  parameters: {labels: [owner]}
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sRequiredLabels
metadata: {name: should-have-team}
spec:
  enforcementAction: warn
  match: {kinds: [{apiGroups: [apps], kinds: [Deployment]}]}
  parameters: {labels: [team]}
`
	// gkLoop never ends on its own: only a rule timeout stops it.
	gkLoop = `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: k8sloop}
spec:
  crd: {spec: {names: {kind: K8sLoop}}}
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package k8sloop

        violation[{"msg": msg}] {
          n := count([x | x := numbers.range(1, 1000000000)[_]])
          msg := sprintf("%d", [n])
        }
---
apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sLoop
metadata: {name: loop}
`
	gkBroken = `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: {name: k8sbroken}
spec:
  crd: {spec: {names: {kind: K8sBroken}}}
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package k8sbroken

        violation[{"msg": msg}] {
`
	// karmadaTwo places the Deployment web on two member clusters; only
	// member1's copy gets the owner label.
	karmadaTwo = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member1}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member2}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {team: a}}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: web, image: nginx}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment}
  placement: {}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: owner, namespace: default}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment}
  overrideRules:
  - targetCluster: {clusterNames: [member1]}
    overriders:
      labelsOverrider:
      - {operator: add, value: {owner: web}}
`
)

// TestGatekeeperFindings checks plain and rendered suites against
// Gatekeeper constraints: a finding per violation at the object's place,
// its level by enforcementAction, each cluster reviewed on its own.
func TestGatekeeperFindings(t *testing.T) {
	const ownerCheck, teamCheck = "gatekeeper/K8sRequiredLabels/must-have-owner", "gatekeeper/K8sRequiredLabels/should-have-team"
	gk := map[string]string{"gk/template.yaml": gkRequiredLabels, "gk/constraints.yaml": gkConstraints}
	with := func(files map[string]string) map[string]string {
		out := map[string]string{}
		for _, m := range []map[string]string{gk, files} {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	tests := []struct {
		name  string
		files map[string]string
		opts  Options
		want  []suiteSummary
		code  int
	}{
		{
			name: "plain manifests: deny fails, warn warns",
			files: with(map[string]string{"drydock.yaml": "suites: [{name: p, plain: true, inputs: [m.yaml], gatekeeper: [gk]}]\n",
				"m.yaml": plainSvc + "---\n" + plainDeploy}),
			want: []suiteSummary{{Name: "p", Status: "FAIL", Objects: 2, Checks: []string{"inputs", ownerCheck, teamCheck},
				Findings: []string{
					`m.yaml:5:1 error [` + ownerCheck + `] : Deployment.apps default/web: you must provide labels: {"owner"}`,
					`m.yaml:5:1 warning [` + teamCheck + `] : Deployment.apps default/web: you must provide labels: {"team"} (enforcementAction: warn)`,
				}}},
			code: ExitFail,
		},
		{
			name: "plain manifests with rules too",
			files: with(map[string]string{"drydock.yaml": "suites: [{name: p, plain: true, inputs: [m.yaml], gatekeeper: [gk]}]\n",
				"m.yaml": plainDeploy, "policy/main.rego": denyAll}),
			want: []suiteSummary{{Name: "p", Status: "FAIL", Objects: 1, Checks: []string{"inputs", ownerCheck, teamCheck, "rules/main", "rules/main.deny"},
				Findings: []string{
					`m.yaml:1:1 error [` + ownerCheck + `] : Deployment.apps default/web: you must provide labels: {"owner"}`,
					`m.yaml:1:1 warning [` + teamCheck + `] : Deployment.apps default/web: you must provide labels: {"team"} (enforcementAction: warn)`,
					"m.yaml:1:1 error [rules/main.deny] : web is a Deployment",
				}}},
			code: ExitFail,
		},
		{
			name: "rendered: each cluster's copy reviewed",
			files: with(map[string]string{"drydock.yaml": "suites: [{name: r, inputs: [app.yaml], clustersFromInputs: true, gatekeeper: [gk], validate: false}]\n",
				"app.yaml": karmadaTwo}),
			want: []suiteSummary{{Name: "r", Status: "FAIL", Objects: 2, Checks: []string{"render", ownerCheck, teamCheck},
				Findings: []string{`app.yaml:9:1 error [` + ownerCheck + `] member2/default/deployment.apps_web.yaml: Deployment.apps default/web: you must provide labels: {"owner"}`}}},
			code: ExitFail,
		},
		{
			name: "a template that does not compile: plain",
			files: map[string]string{"drydock.yaml": "suites: [{name: p, plain: true, inputs: [m.yaml], gatekeeper: [gk]}]\n",
				"m.yaml": plainDeploy, "gk/broken.yaml": gkBroken},
			want: []suiteSummary{{Name: "p", Status: "ERROR", Objects: 1, Checks: []string{"inputs"},
				Findings: []string{`gk/broken.yaml:12:8 error [gatekeeper] : ConstraintTemplate "k8sbroken": rego_parse_error: unexpected eof token`}, Err: `gk/broken.yaml:12:8: ConstraintTemplate "k8sbroken": rego_parse_error: unexpected eof token`}},
			code: ExitInput,
		},
		{
			name: "a template that does not compile: rendered",
			files: map[string]string{"drydock.yaml": "suites: [{name: r, inputs: [app.yaml], clustersFromInputs: true, gatekeeper: [gk], validate: false}]\n",
				"app.yaml": karmadaTwo, "gk/broken.yaml": gkBroken},
			want: []suiteSummary{{Name: "r", Status: "ERROR", Objects: 2, Checks: []string{"render"},
				Findings: []string{`gk/broken.yaml:12:8 error [gatekeeper] : ConstraintTemplate "k8sbroken": rego_parse_error: unexpected eof token`}, Err: `gk/broken.yaml:12:8: ConstraintTemplate "k8sbroken": rego_parse_error: unexpected eof token`}},
			code: ExitInput,
		},
		{
			name: "a template stopped by the rule timeout: the rules still run",
			files: map[string]string{"drydock.yaml": "suites: [{name: p, plain: true, inputs: [m.yaml], gatekeeper: [gk]}]\n",
				"m.yaml": plainDeploy, "gk/loop.yaml": gkLoop, "policy/main.rego": denyAll},
			opts: Options{RuleTimeout: 250 * time.Millisecond},
			want: []suiteSummary{{Name: "p", Status: "ERROR", Objects: 1, Checks: []string{"inputs", "gatekeeper/K8sLoop/loop", "rules/main", "rules/main.deny"},
				Findings: []string{"m.yaml:1:1 error [rules/main.deny] : web is a Deployment", `gk/loop.yaml:1:1 error [gatekeeper] : evaluating ConstraintTemplate "k8sloop" (constraint K8sLoop/loop) on m.yaml:1:1: Deployment.apps default/web took longer than the time limit of 250ms`}, Err: `gk/loop.yaml:1:1: evaluating ConstraintTemplate "k8sloop" (constraint K8sLoop/loop) on m.yaml:1:1: Deployment.apps default/web took longer than the time limit of 250ms`}},
			code: ExitInput,
		},
		{
			name: "a template stopped by the rule timeout: rendered",
			files: map[string]string{"drydock.yaml": "suites: [{name: r, inputs: [app.yaml], clustersFromInputs: true, gatekeeper: [gk], validate: false}]\n",
				"app.yaml": karmadaTwo, "gk/loop.yaml": gkLoop},
			opts: Options{RuleTimeout: 250 * time.Millisecond},
			want: []suiteSummary{{Name: "r", Status: "ERROR", Objects: 2, Checks: []string{"render", "gatekeeper/K8sLoop/loop"},
				Findings: []string{`gk/loop.yaml:1:1 error [gatekeeper] : evaluating ConstraintTemplate "k8sloop" (constraint K8sLoop/loop) on app.yaml:9:1: Deployment.apps default/web took longer than the time limit of 250ms; 1 later evaluation was skipped`}, Err: `gk/loop.yaml:1:1: evaluating ConstraintTemplate "k8sloop" (constraint K8sLoop/loop) on app.yaml:9:1: Deployment.apps default/web took longer than the time limit of 250ms; 1 later evaluation was skipped`}},
			code: ExitInput,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runFiles(t, tt.files, tt.opts)
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("suites (-want +got):\n%s", diff)
			}
			if got := res.ExitCode(); got != tt.code {
				t.Errorf("ExitCode() = %d, want %d", got, tt.code)
			}
		})
	}
}

// TestGatekeeperFindingMetadata: a violation's details reach the finding
// with its constraint and the constraint's place.
func TestGatekeeperFindingMetadata(t *testing.T) {
	res := runFiles(t, map[string]string{"drydock.yaml": "suites: [{name: p, plain: true, inputs: [m.yaml], gatekeeper: [gk]}]\n",
		"m.yaml": plainDeploy, "gk/template.yaml": gkRequiredLabels, "gk/constraints.yaml": gkConstraints}, Options{})
	var got []map[string]any
	for _, f := range res.Suites[0].Findings {
		got = append(got, f.Metadata)
	}
	want := []map[string]any{
		{"constraint": "K8sRequiredLabels/must-have-owner", "constraintPos": "gk/constraints.yaml:1:1", "details": map[string]any{"missing_labels": []any{"owner"}}},
		{"constraint": "K8sRequiredLabels/should-have-team", "constraintPos": "gk/constraints.yaml:8:1", "details": map[string]any{"missing_labels": []any{"team"}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
}
