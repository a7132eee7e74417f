package render

import "testing"

// Rows of KubeVela's TestCheckHealth (pkg/cue/definition/health) and its
// customStatus cases.
func TestEvalStatus(t *testing.T) {
	for name, tc := range map[string]struct {
		ctx       map[string]any
		spec      StatusSpec
		parameter map[string]any
		healthy   bool
		message   string
		errs      bool
	}{
		"normal-equal": {ctx: map[string]any{"output": map[string]any{"status": map[string]any{"readyReplicas": 4, "replicas": 4}}},
			spec: StatusSpec{HealthPolicy: "isHealth:  context.output.status.readyReplicas == context.output.status.replicas"}, healthy: true},
		"normal-false": {ctx: map[string]any{"output": map[string]any{"status": map[string]any{"readyReplicas": 4, "replicas": 5}}},
			spec: StatusSpec{HealthPolicy: "isHealth: context.output.status.readyReplicas == context.output.status.replicas"}, healthy: false},
		"array-case-equal": {ctx: map[string]any{"output": map[string]any{"status": map[string]any{"conditions": []any{map[string]any{"status": "True"}}}}},
			spec: StatusSpec{HealthPolicy: `isHealth: context.output.status.conditions[0].status == "True"`}, healthy: true},
		"parameter": {ctx: map[string]any{"output": map[string]any{"status": map[string]any{"replicas": 4}},
			"outputs": map[string]any{"my": map[string]any{"status": map[string]any{"readyReplicas": 4}}}},
			spec:      StatusSpec{HealthPolicy: "isHealth: context.outputs[parameter.res].status.readyReplicas == context.output.status.replicas"},
			parameter: map[string]any{"res": "my"}, healthy: true},
		"no policy is healthy": {ctx: map[string]any{}, healthy: true},
		"a missing field is unhealthy": {ctx: map[string]any{"output": map[string]any{}},
			spec: StatusSpec{HealthPolicy: "isHealth: context.output.status.ready == 1"}, healthy: false, errs: true},
		"message sees the health": {ctx: map[string]any{"output": map[string]any{"status": map[string]any{"ready": 1}}},
			spec:    StatusSpec{HealthPolicy: "isHealth: context.output.status.ready == 1", CustomStatus: `message: "healthy: \(context.status.healthy)"`},
			healthy: true, message: "healthy: true"},
	} {
		st := EvalStatus(tc.spec, tc.ctx, tc.parameter)
		if st.Healthy != tc.healthy || st.Message != tc.message || (st.HealthErr != nil) != tc.errs {
			t.Errorf("%s: %+v, want healthy %v message %q errs %v", name, st, tc.healthy, tc.message, tc.errs)
		}
	}
}

// status.details as KubeVela's getStatusMap makes it: strings as they
// are, other values as CUE, $-fields and @private ones left out, and
// the values visible to the health policy as context.status.details.
func TestStatusDetails(t *testing.T) {
	ctx := map[string]any{"output": map[string]any{"status": map[string]any{"replicas": 4, "phase": "Running"}}}
	st := EvalStatus(StatusSpec{
		Details: `replicas: context.output.status.replicas
phase: context.output.status.phase
$ready: context.output.status.replicas > 0
secret: "s" @private()
missing: context.output.status.nothing`,
		HealthPolicy: "isHealth: context.status.details.$ready",
	}, ctx, nil)
	want := map[string]string{"replicas": "4", "phase": "Running", "missing": "_|_"}
	if len(st.Details) != len(want) || !st.Healthy {
		t.Fatalf("details %v healthy %v (%v), want %v healthy", st.Details, st.Healthy, st.HealthErr, want)
	}
	for k, v := range want {
		if st.Details[k] != v {
			t.Errorf("details[%s] = %q, want %q", k, st.Details[k], v)
		}
	}
}
