package propagation

import (
	"errors"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

// TestValidateSpec: rows from Karmada's ValidatePropagationSpec (after its
// defaults), with Karmada's messages.
func TestValidateSpec(t *testing.T) {
	const head = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]\n"
	tests := []struct{ name, spec, want string }{
		{"valid failover", "  propagateDeps: true\n  failover: {application: {decisionConditions: {tolerationSeconds: 60}, purgeMode: Gracefully, gracePeriodSeconds: 30}}\n", ""},
		{"graceful by default gets 600", "  propagateDeps: true\n  failover: {application: {decisionConditions: {}}}\n", ""},
		{"application failover needs propagateDeps", "  failover: {application: {decisionConditions: {}}}\n",
			"spec.propagateDeps: Invalid value: false: application failover is set, propagateDeps must be true"},
		{"negative toleration", "  propagateDeps: true\n  failover: {application: {decisionConditions: {tolerationSeconds: -1}}}\n",
			"spec.failover.application.decisionConditions.tolerationSeconds: Invalid value: -1: must be greater than or equal to 0"},
		{"grace period without graceful purge", "  propagateDeps: true\n  failover: {application: {decisionConditions: {}, purgeMode: Directly, gracePeriodSeconds: 10}}\n",
			"spec.failover.application.gracePeriodSeconds: Invalid value: 10: only takes effect when purgeMode is gracefully"},
		{"zero grace period", "  propagateDeps: true\n  failover: {application: {decisionConditions: {}, gracePeriodSeconds: 0}}\n",
			"spec.failover.application.gracePeriodSeconds: Invalid value: 0: must be greater than 0"},
		{"unknown purge mode", "  propagateDeps: true\n  failover: {application: {decisionConditions: {}, purgeMode: Later}}\n",
			`spec.failover.application.purgeMode: Unsupported value: "Later": supported values: "Directly", "Gracefully", "Never"`},
		{"cluster failover purge mode", "  failover: {cluster: {purgeMode: Never}}\n",
			`spec.failover.cluster.purgeMode: Unsupported value: "Never": supported values: "Directly", "Gracefully"`},
		{"state preservation alias", "  propagateDeps: true\n  failover: {application: {decisionConditions: {}, statePreservation: {rules: [{aliasLabelName: 'bad key!', jsonPath: '{.x}'}]}}}\n",
			`spec.failover.application.statePreservation.rules[0].aliasLabelName: Invalid value: "bad key!": name part must consist of alphanumeric characters`},
		{"toleration operator Lt", "  placement: {clusterTolerations: [{key: a, operator: Lt, value: '1'}]}\n",
			`spec.placement.clusterTolerations[0].operator: Unsupported value: "Lt": supported values: "", "Exists", "Equal"`},
		{"workload affinity key", "  placement: {workloadAffinity: {affinity: {groupByLabelKey: 'a b'}}}\n",
			`spec.placement.workloadAffinity.affinity.groupByLabelKey: Invalid value: "a b"`},
		{"same group key", "  placement: {workloadAffinity: {affinity: {groupByLabelKey: app}, antiAffinity: {groupByLabelKey: app}}}\n",
			"spec.placement.workloadAffinity: Invalid value: affinity and antiAffinity must not use the same groupByLabelKey"},
		{"preemption unknown", "  preemption: Sometimes\n", `spec.preemption: Unsupported value: "Sometimes": supported values: "Always", "Never"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs := decode(t, head+tt.spec)
			_, err := Parse(objs[0])
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(manifest.Format(err, nil), tt.want) {
				t.Fatalf("error %v, want ErrInvalid with %q", err, tt.want)
			}
			if !strings.HasPrefix(manifest.Format(err, nil), "test.yaml:") {
				t.Errorf("error %q has no position", err)
			}
		})
	}
}

func TestValidateSelectors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"another namespace", "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, namespace: other}]\n",
			`spec.resourceSelectors[0].namespace: Invalid value: "other": namespace of resource selector must be the same as the namespace of the policy`},
		{"cluster policy may select any namespace", "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: p}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, namespace: other}]\n", ""},
		{"preemption needs names", "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  preemption: Always\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: a}, {apiVersion: v1, kind: ConfigMap}]\n",
			`spec.resourceSelectors[1].name: Invalid value: "": name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(decode(t, tt.src)[0])
			checkErr(t, err, tt.want)
		})
	}
}

// checkErr fails t unless err contains want, or is nil when want is "".
func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	if err == nil || !strings.Contains(manifest.Format(err, nil), want) {
		t.Fatalf("error %v, want it to contain %q", err, want)
	}
}

// TestFinishNonStringMaps: an override that leaves labels or annotations
// as anything but a map of strings ends as Karmada's Work creation leaves
// it: replaced by Karmada's own keys, which Finish strips.
func TestFinishNonStringMaps(t *testing.T) {
	tests := []struct {
		name  string
		value any
		kept  bool
	}{
		{"a string", "just a string", false},
		{"a list", []any{int64(1), int64(2)}, false},
		{"null", nil, false},
		{"a map with a number", map[string]any{"a": "b", "n": int64(5)}, false},
		{"a map of strings", map[string]any{"a": "b", "propagationpolicy.karmada.io/name": "p"}, true},
	}
	for _, tt := range tests {
		for _, key := range []string{"labels", "annotations"} {
			t.Run(tt.name+"/"+key, func(t *testing.T) {
				obj := manifest.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
					"metadata": map[string]any{"name": "c", key: tt.value}})
				Finish(obj)
				got, present := manifest.Map(obj.Data, "metadata")[key]
				if present != tt.kept {
					t.Fatalf("%s after Finish: %v (present %t), want present %t", key, got, present, tt.kept)
				}
				if tt.kept && len(got.(map[string]any)) != 1 {
					t.Errorf("%s = %v, want only the user's key", key, got)
				}
			})
		}
	}
}
