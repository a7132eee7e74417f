package propagation

import (
	"github.com/drydock-dev/drydock/manifest"
)

// admitted is the policy as karmada-apiserver hands it to the schema check:
// a copy of obj with the CRD's structural defaults and then Karmada's
// mutating webhook applied, in the API server's order (defaulting on
// decode, mutating admission, then the CRD schema and the validating
// webhook). So an explicit empty spreadByField is defaulted to cluster,
// not refused by the schema's enum. obj itself is left alone; the copy
// keeps its positions.
func admitted(obj *manifest.Object, namespace string) *manifest.Object {
	data, _ := manifest.DeepCopy(obj.Data).(map[string]any)
	out := &manifest.Object{Data: data, Pos: obj.Pos, ListItem: obj.ListItem}
	out.Graft(nil, obj)
	spec, ok := data["spec"].(map[string]any)
	if !ok {
		return out
	}
	crdDefaults(spec)
	mutate(spec, obj.Kind(), namespace)
	return out
}

// crdDefaults applies the `default:` values of Karmada's PropagationPolicy
// and ClusterPropagationPolicy CRDs (hand-ported from
// charts/karmada/_crds/bases/policy/policy.karmada.io_propagationpolicies.yaml
// at f8fdd02): a field is defaulted where its parent object exists and
// the field is absent or null.
func crdDefaults(spec map[string]any) {
	setAbsent(spec, "conflictResolution", "Abort")
	setAbsent(spec, "preemption", "Never")
	setAbsent(spec, "priority", 0)
	setAbsent(spec, "schedulerName", "default-scheduler")
	if f, ok := spec["failover"].(map[string]any); ok {
		if app, ok := f["application"].(map[string]any); ok {
			setAbsent(app, "purgeMode", "Gracefully")
			if dc, ok := app["decisionConditions"].(map[string]any); ok {
				setAbsent(dc, "tolerationSeconds", 300)
			}
		}
		if c, ok := f["cluster"].(map[string]any); ok {
			setAbsent(c, "purgeMode", "Gracefully")
		}
	}
	if rs, ok := manifest.Map(spec, "placement")["replicaScheduling"].(map[string]any); ok {
		// replicaScheduling: {} is Divided, not Duplicated.
		setAbsent(rs, "replicaSchedulingType", Divided)
	}
}

// mutate is Karmada's mutating webhook for the policy's kind (ported from
// pkg/webhook/propagationpolicy/mutating.go and
// pkg/webhook/clusterpropagationpolicy/mutating.go at f8fdd02, with
// pkg/util/helper/policy.go's SetDefaultSpreadConstraints,
// ContainsServiceImport, SetReplicaDivisionPreferenceWeighted and
// SetDefaultGracePeriodSeconds). The permanent-id label and the finalizer
// it adds are bookkeeping drydock does not keep.
func mutate(spec map[string]any, kind, namespace string) {
	sels, _ := spec["resourceSelectors"].([]any)
	serviceImport := false
	for _, raw := range sels {
		s, ok := raw.(map[string]any)
		if !ok {
			continue
		}
		if kind == KindPropagationPolicy && manifest.String(s, "namespace") == "" {
			s["namespace"] = namespace
		}
		if manifest.String(s, "kind") == "ServiceImport" && manifest.String(s, "apiVersion") == "multicluster.x-k8s.io/v1alpha1" {
			serviceImport = true
		}
	}
	placement, _ := spec["placement"].(map[string]any)
	constraints, _ := placement["spreadConstraints"].([]any)
	for _, raw := range constraints {
		c, ok := raw.(map[string]any)
		if !ok {
			continue
		}
		if manifest.String(c, "spreadByLabel") == "" && manifest.String(c, "spreadByField") == "" {
			c["spreadByField"] = SpreadCluster
		}
		if n, ok := toInt(c["minGroups"]); c["minGroups"] == nil || ok && n == 0 {
			c["minGroups"] = 1
		}
	}
	if serviceImport {
		spec["propagateDeps"] = true
	}
	if rs, ok := placement["replicaScheduling"].(map[string]any); ok &&
		manifest.String(rs, "replicaSchedulingType") == Divided && manifest.String(rs, "replicaDivisionPreference") == "" {
		rs["replicaDivisionPreference"] = Weighted
	}
	if app, ok := manifest.Map(spec, "failover")["application"].(map[string]any); ok &&
		manifest.String(app, "purgeMode") == "Gracefully" && app["gracePeriodSeconds"] == nil {
		app["gracePeriodSeconds"] = 600
	}
}

// setAbsent sets m[key] to v when it is absent or null.
func setAbsent(m map[string]any, key string, v any) {
	if m[key] == nil {
		m[key] = v
	}
}
