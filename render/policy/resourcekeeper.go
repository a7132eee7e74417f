package policy

import (
	"reflect"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// The resource policies KubeVela's resource keeper reads (pkg/resourcekeeper).

// ApplyOncePolicySpec is KubeVela's v1alpha1.ApplyOncePolicySpec.
type ApplyOncePolicySpec struct {
	Enable bool                  `json:"enable"`
	Rules  []ApplyOncePolicyRule `json:"rules,omitempty"`
}

// ApplyOncePolicyRule is KubeVela's v1alpha1.ApplyOncePolicyRule.
type ApplyOncePolicyRule struct {
	Selector ResourcePolicyRuleSelector `json:"selector,omitempty"`
	Strategy *ApplyOnceStrategy         `json:"strategy,omitempty"`
}

// ApplyOnceStrategy is KubeVela's v1alpha1.ApplyOnceStrategy.
type ApplyOnceStrategy struct {
	Path                    []string                `json:"path"`
	ApplyOnceAffectStrategy ApplyOnceAffectStrategy `json:"affect"`
}

// GarbageCollectPolicySpec is KubeVela's v1alpha1.GarbageCollectPolicySpec.
type GarbageCollectPolicySpec struct {
	ApplicationRevisionLimit *int                       `json:"applicationRevisionLimit,omitempty"`
	KeepLegacyResource       bool                       `json:"keepLegacyResource,omitempty"`
	ContinueOnFailure        bool                       `json:"continueOnFailure,omitempty"`
	Order                    GarbageCollectOrder        `json:"order,omitempty"`
	Rules                    []GarbageCollectPolicyRule `json:"rules,omitempty"`
}

// GarbageCollectPolicyRule is KubeVela's v1alpha1.GarbageCollectPolicyRule.
type GarbageCollectPolicyRule struct {
	Selector    ResourcePolicyRuleSelector `json:"selector"`
	Strategy    GarbageCollectStrategy     `json:"strategy"`
	Propagation *GarbageCollectPropagation `json:"propagation"`
}

// SharedResourcePolicySpec is KubeVela's v1alpha1.SharedResourcePolicySpec.
type SharedResourcePolicySpec struct {
	Rules []SharedResourcePolicyRule `json:"rules"`
}

// SharedResourcePolicyRule is KubeVela's v1alpha1.SharedResourcePolicyRule.
type SharedResourcePolicyRule struct {
	Selector ResourcePolicyRuleSelector `json:"selector"`
}

// TakeOverPolicySpec is KubeVela's v1alpha1.TakeOverPolicySpec.
type TakeOverPolicySpec struct {
	Rules []TakeOverPolicyRule `json:"rules"`
}

// TakeOverPolicyRule is KubeVela's v1alpha1.TakeOverPolicyRule.
type TakeOverPolicyRule struct {
	Selector ResourcePolicyRuleSelector `json:"selector"`
}

// ReadOnlyPolicySpec is KubeVela's v1alpha1.ReadOnlyPolicySpec.
type ReadOnlyPolicySpec struct {
	Rules []ReadOnlyPolicyRule `json:"rules"`
}

// ReadOnlyPolicyRule is KubeVela's v1alpha1.ReadOnlyPolicyRule.
type ReadOnlyPolicyRule struct {
	Selector ResourcePolicyRuleSelector `json:"selector"`
}

// ResourceUpdatePolicySpec is KubeVela's v1alpha1.ResourceUpdatePolicySpec.
type ResourceUpdatePolicySpec struct {
	Rules []ResourceUpdatePolicyRule `json:"rules"`
}

// ResourceUpdatePolicyRule is KubeVela's v1alpha1.ResourceUpdatePolicyRule.
type ResourceUpdatePolicyRule struct {
	Selector ResourcePolicyRuleSelector `json:"selector"`
	Strategy ResourceUpdateStrategy     `json:"strategy,omitempty"`
}

// ResourceUpdateStrategy is KubeVela's v1alpha1.ResourceUpdateStrategy.
type ResourceUpdateStrategy struct {
	Op             ResourceUpdateOp `json:"op,omitempty"`
	RecreateFields []string         `json:"recreateFields,omitempty"`
}

// ResourcePolicyRuleSelector is KubeVela's v1alpha1.ResourcePolicyRuleSelector.
type ResourcePolicyRuleSelector struct {
	CompNames        []string `json:"componentNames,omitempty"`
	CompTypes        []string `json:"componentTypes,omitempty"`
	OAMResourceTypes []string `json:"oamTypes,omitempty"`
	TraitTypes       []string `json:"traitTypes,omitempty"`
	ResourceTypes    []string `json:"resourceTypes,omitempty"`
	ResourceNames    []string `json:"resourceNames,omitempty"`
}

type (
	// ApplyOnceAffectStrategy is KubeVela's v1alpha1.ApplyOnceAffectStrategy.
	ApplyOnceAffectStrategy string
	// GarbageCollectOrder is KubeVela's v1alpha1.GarbageCollectOrder.
	GarbageCollectOrder string
	// GarbageCollectStrategy is KubeVela's v1alpha1.GarbageCollectStrategy.
	GarbageCollectStrategy string
	// GarbageCollectPropagation is KubeVela's v1alpha1.GarbageCollectPropagation.
	GarbageCollectPropagation string
	// ResourceUpdateOp is KubeVela's v1alpha1.ResourceUpdateOp.
	ResourceUpdateOp string
)

// resourcePolicies are the policies KubeVela's resource keeper reads
// before anything else when it reconciles the Application; it merges the
// properties of the policies of one type (lists concatenated, a true bool
// wins, otherwise the first value) and decodes them, unknown fields
// allowed.
var resourcePolicies = []struct {
	typ string
	new func() any
}{
	{"apply-once", func() any { return &ApplyOncePolicySpec{} }},
	{"garbage-collect", func() any { return &GarbageCollectPolicySpec{} }},
	{"shared-resource", func() any { return &SharedResourcePolicySpec{} }},
	{"take-over", func() any { return &TakeOverPolicySpec{} }},
	{"read-only", func() any { return &ReadOnlyPolicySpec{} }},
	{"resource-update", func() any { return &ResourceUpdatePolicySpec{} }},
}

// CheckResourcePolicies is the resource keeper's
// parseApplicationResourcePolicy over app's resource policies: a resource
// policy whose merged properties do not decode fails every reconcile, so
// the workflow never starts. The error locates the value in the first
// policy whose own properties fail.
func CheckResourcePolicies(app *render.Application) error {
	for _, rp := range resourcePolicies {
		var of []*render.Policy
		for i := range app.Policies {
			if p := &app.Policies[i]; p.Type == rp.typ && p.Properties != nil {
				of = append(of, p)
			}
		}
		if len(of) == 0 {
			continue
		}
		merged := map[string]any{}
		for _, p := range of {
			mergePolicyProperties(merged, manifest.DeepCopy(p.Properties).(map[string]any))
		}
		dst := rp.new()
		err := render.DecodeLoose(merged, dst)
		if err == nil {
			continue
		}
		// Locate the value in the first policy whose own properties fail.
		at, field := of[0], render.ErrorPath(merged, err)
		for _, p := range of {
			if render.DecodeLoose(p.Properties, rp.new()) != nil {
				at, field = p, render.ErrorPath(p.Properties, err)
				break
			}
		}
		return policyFieldErr(app, at, field, "failed to parse %s policy: failed to unmarshal %s: %v", rp.typ, render.KubeVelaTypeName(reflect.TypeOf(dst)), err)
	}
	return nil
}

// mergePolicyProperties is KubeVela's mergePolicies: lists concatenate,
// objects merge, true wins over false, otherwise base keeps its value.
func mergePolicyProperties(base, patch map[string]any) {
	for k, v := range patch {
		old, found := base[k]
		if !found {
			base[k] = v
			continue
		}
		l1, ok1 := old.([]any)
		l2, ok2 := v.([]any)
		if ok1 && ok2 {
			base[k] = append(l1, l2...)
			continue
		}
		m1, ok1 := old.(map[string]any)
		m2, ok2 := v.(map[string]any)
		if ok1 && ok2 {
			mergePolicyProperties(m1, m2)
			continue
		}
		if old == false && v == true {
			base[k] = true
		}
	}
}
