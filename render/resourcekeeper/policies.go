package resourcekeeper

import (
	"reflect"
	"slices"

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
	// into sets a new spec of the type in r and returns it to decode into.
	into func(r *Resources) any
}{
	{"apply-once", func(r *Resources) any { r.ApplyOnce = &ApplyOncePolicySpec{}; return r.ApplyOnce }},
	{"garbage-collect", func(r *Resources) any { r.GarbageCollect = &GarbageCollectPolicySpec{}; return r.GarbageCollect }},
	{"shared-resource", func(r *Resources) any { r.SharedResource = &SharedResourcePolicySpec{}; return r.SharedResource }},
	{"take-over", func(r *Resources) any { r.TakeOver = &TakeOverPolicySpec{}; return r.TakeOver }},
	{"read-only", func(r *Resources) any { r.ReadOnly = &ReadOnlyPolicySpec{}; return r.ReadOnly }},
	{"resource-update", func(r *Resources) any { r.ResourceUpdate = &ResourceUpdatePolicySpec{}; return r.ResourceUpdate }},
}

// Resources are an Application's resource policies, each type's merged
// as KubeVela's resource keeper merges them (nil: none of that type).
type Resources struct {
	ApplyOnce      *ApplyOncePolicySpec
	GarbageCollect *GarbageCollectPolicySpec
	SharedResource *SharedResourcePolicySpec
	TakeOver       *TakeOverPolicySpec
	ReadOnly       *ReadOnlyPolicySpec
	ResourceUpdate *ResourceUpdatePolicySpec
}

// ResourcePolicies is the resource keeper's parseApplicationResourcePolicy
// over app's resource policies: each type's merged and decoded. One whose
// merged properties do not decode fails every reconcile, so the workflow
// never starts; the error locates the value in the first policy whose own
// properties fail.
func ResourcePolicies(app *render.Application) (*Resources, error) {
	out := &Resources{}
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
		dst := rp.into(out)
		err := render.DecodeLoose(merged, dst)
		if err == nil {
			continue
		}
		// Locate the value in the first policy whose own properties fail.
		at, field := of[0], render.ErrorPath(merged, err)
		for _, p := range of {
			if render.DecodeLoose(p.Properties, rp.into(&Resources{})) != nil {
				at, field = p, render.ErrorPath(p.Properties, err)
				break
			}
		}
		return nil, render.PolicyFieldError(app, at, field, "failed to parse %s policy: failed to unmarshal %s: %v", rp.typ, render.KubeVelaTypeName(reflect.TypeOf(dst)), err)
	}
	return out, nil
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

// Match is KubeVela's ResourcePolicyRuleSelector.Match: every selector
// list that is set must hold the object's value (its component, component
// type, OAM resource type and trait type labels, its kind, its name), and
// at least one must be set.
func (in *ResourcePolicyRuleSelector) Match(o *manifest.Object) bool {
	labels := o.Labels()
	conditions := []struct {
		list []string
		val  string
	}{
		{in.CompNames, labels[render.LabelAppComponent]},
		{in.CompTypes, labels[render.LabelWorkloadType]},
		{in.OAMResourceTypes, labels[render.LabelResourceType]},
		{in.TraitTypes, labels[render.LabelTraitType]},
		{in.ResourceTypes, o.Kind()},
		{in.ResourceNames, o.Name()},
	}
	matched := false
	for _, c := range conditions {
		if len(c.list) == 0 {
			continue
		}
		if c.val == "" || !slices.Contains(c.list, c.val) {
			return false
		}
		matched = true
	}
	return matched
}

// The garbage-collect strategies and propagations.
const (
	GCOnAppUpdate GarbageCollectStrategy    = "onAppUpdate"
	GCOnAppDelete GarbageCollectStrategy    = "onAppDelete"
	GCNever       GarbageCollectStrategy    = "never"
	GCOrphan      GarbageCollectPropagation = "orphan"
	GCCascading   GarbageCollectPropagation = "cascading"
)

// FindStrategy is the strategy of the first rule selecting o (KubeVela's
// FindStrategy), and the rule's index; -1 when none does.
func (in *GarbageCollectPolicySpec) FindStrategy(o *manifest.Object) (GarbageCollectStrategy, int) {
	if in == nil {
		return "", -1
	}
	for i := range in.Rules {
		if in.Rules[i].Selector.Match(o) {
			return in.Rules[i].Strategy, i
		}
	}
	return "", -1
}

// Orphans reports whether deleting o orphans it (KubeVela's
// FindDeleteOption: the first rule selecting o with an orphan or
// cascading propagation decides), and the rule's index.
func (in *GarbageCollectPolicySpec) Orphans(o *manifest.Object) (bool, int) {
	if in == nil {
		return false, -1
	}
	for i := range in.Rules {
		r := &in.Rules[i]
		if !r.Selector.Match(o) || r.Propagation == nil {
			continue
		}
		switch *r.Propagation {
		case GCOrphan:
			return true, i
		case GCCascading:
			return false, i
		}
	}
	return false, -1
}

// Matches reports whether a rule of the read-only policy selects o.
func (in *ReadOnlyPolicySpec) Matches(o *manifest.Object) bool {
	return in != nil && slices.ContainsFunc(in.Rules, func(r ReadOnlyPolicyRule) bool { return r.Selector.Match(o) })
}

// Matches reports whether a rule of the shared-resource policy selects o.
func (in *SharedResourcePolicySpec) Matches(o *manifest.Object) bool {
	return in != nil && slices.ContainsFunc(in.Rules, func(r SharedResourcePolicyRule) bool { return r.Selector.Match(o) })
}

// Matches reports whether a rule of the take-over policy selects o.
func (in *TakeOverPolicySpec) Matches(o *manifest.Object) bool {
	return in != nil && slices.ContainsFunc(in.Rules, func(r TakeOverPolicyRule) bool { return r.Selector.Match(o) })
}

// The stages an apply-once strategy affects.
const (
	ApplyOnceOnUpdate    ApplyOnceAffectStrategy = "onUpdate"
	ApplyOnceOnStateKeep ApplyOnceAffectStrategy = "onStateKeep"
	ApplyOnceAlways      ApplyOnceAffectStrategy = "always"
)

// FindStrategy is KubeVela's: nil unless the policy is enabled, else the
// strategy of the first rule selecting o.
func (in *ApplyOncePolicySpec) FindStrategy(o *manifest.Object) *ApplyOnceStrategy {
	if in == nil || !in.Enable {
		return nil
	}
	for i := range in.Rules {
		if in.Rules[i].Selector.Match(o) {
			return in.Rules[i].Strategy
		}
	}
	return nil
}

// Affects reports whether the strategy merges the live object's paths at
// stage (KubeVela's shouldMerge: no affect, always, or that stage).
func (in *ApplyOnceStrategy) Affects(stage ApplyOnceAffectStrategy) bool {
	return in != nil && (in.ApplyOnceAffectStrategy == "" || in.ApplyOnceAffectStrategy == ApplyOnceAlways || in.ApplyOnceAffectStrategy == stage)
}
