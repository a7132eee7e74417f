package propagation

import (
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/karmada"
	"github.com/drydock-dev/drydock/manifest"
)

// AffinityTerm is a placement.clusterAffinities entry.
type AffinityTerm struct {
	Name     string
	Affinity *karmada.Affinity
	// Overflow are the term's overflowAffinities, in order.
	Overflow []*karmada.Affinity
	// overflows tells that the term has overflowAffinities (even an
	// empty list, which switches Karmada to tiered assignment).
	overflows bool
}

// Toleration is a placement.clusterTolerations entry.
type Toleration struct {
	Key, Operator, Value, Effect string
}

// checkPlacementSchema makes the checks of Karmada's CRD schema on
// spec.placement (types, enums, required fields, minimums), which the API
// server makes before the webhooks see the policy. The first violation is
// reported.
func (p *Policy) checkPlacementSchema(obj *manifest.Object, placement map[string]any) error {
	if placement == nil {
		return nil
	}
	steps := []func() error{
		func() error { return p.checkAffinitySchema(obj, placement) },
		func() error { return p.checkTolerationSchema(obj, placement) },
		func() error { return p.checkSpreadSchema(obj, placement) },
		func() error { return p.checkSchedulingSchema(obj, placement) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// checkAffinitySchema: clusterAffinity and every clusterAffinities term
// (and overflow term) are objects that decode.
func (p *Policy) checkAffinitySchema(obj *manifest.Object, placement map[string]any) error {
	base := fieldpath.New("spec", "placement")
	if raw, ok := placement["clusterAffinity"]; ok && raw != nil {
		m, ok := raw.(map[string]any)
		if !ok {
			return p.errorf(obj, base.Child("clusterAffinity"), "%s.clusterAffinity: Invalid value: must be an object", base)
		}
		if _, err := karmada.DecodeAffinity(m); err != nil {
			return p.fieldErr(obj, base.Child("clusterAffinity"), err)
		}
	}
	terms, _ := placement["clusterAffinities"].([]any)
	for i, raw := range terms {
		path := base.Child("clusterAffinities").At(i)
		if err := p.checkAffinityObject(obj, raw, path); err != nil {
			return err
		}
		m, _ := raw.(map[string]any)
		list, _ := m["overflowAffinities"].([]any)
		for j, o := range list {
			if err := p.checkAffinityObject(obj, o, path.Child("overflowAffinities").At(j)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *Policy) checkAffinityObject(obj *manifest.Object, raw any, path fieldpath.Path) error {
	m, ok := raw.(map[string]any)
	if !ok {
		return p.errorf(obj, path, "%s: Invalid value: must be an object", path)
	}
	if _, err := karmada.DecodeAffinity(m); err != nil {
		return p.fieldErr(obj, path, err)
	}
	return nil
}

// checkTolerationSchema: clusterTolerations are objects with a known
// effect.
func (p *Policy) checkTolerationSchema(obj *manifest.Object, placement map[string]any) error {
	list, _ := placement["clusterTolerations"].([]any)
	for i, raw := range list {
		path := fieldpath.New("spec", "placement", "clusterTolerations", i)
		m, ok := raw.(map[string]any)
		if !ok {
			return p.errorf(obj, path, "%s: Invalid value: must be an object", path)
		}
		if err := p.checkEnum(obj, path.Child("effect"), m["effect"], "NoSchedule", "PreferNoSchedule", "NoExecute"); err != nil {
			return err
		}
	}
	return nil
}

// checkSpreadSchema: spreadByField is one of the four fields.
func (p *Policy) checkSpreadSchema(obj *manifest.Object, placement map[string]any) error {
	list, _ := placement["spreadConstraints"].([]any)
	for i, raw := range list {
		m, _ := raw.(map[string]any)
		path := fieldpath.New("spec", "placement", "spreadConstraints", i)
		if err := p.checkEnum(obj, path.Child("spreadByField"), m["spreadByField"], SpreadCluster, SpreadRegion, SpreadZone, SpreadProvider); err != nil {
			return err
		}
	}
	return nil
}

// checkSchedulingSchema: replicaScheduling's enums, and static weights
// with a target cluster and a weight of at least 1.
func (p *Policy) checkSchedulingSchema(obj *manifest.Object, placement map[string]any) error {
	rs, _ := placement["replicaScheduling"].(map[string]any)
	if rs == nil {
		return nil
	}
	base := fieldpath.New("spec", "placement", "replicaScheduling")
	if err := p.checkEnum(obj, base.Child("replicaSchedulingType"), rs["replicaSchedulingType"], Duplicated, Divided); err != nil {
		return err
	}
	if err := p.checkEnum(obj, base.Child("replicaDivisionPreference"), rs["replicaDivisionPreference"], Aggregated, Weighted); err != nil {
		return err
	}
	wp, _ := rs["weightPreference"].(map[string]any)
	if err := p.checkEnum(obj, base.Child("weightPreference").Child("dynamicWeight"), wp["dynamicWeight"], "AvailableReplicas"); err != nil {
		return err
	}
	list, _ := wp["staticWeightList"].([]any)
	for i, raw := range list {
		path := fieldpath.New("spec", "placement", "replicaScheduling", "weightPreference", "staticWeightList", i)
		m, _ := raw.(map[string]any)
		tc, _ := m["targetCluster"].(map[string]any)
		if tc == nil {
			return p.errorf(obj, path, "%s.targetCluster: Required value", path)
		}
		if _, err := decodeValidAffinity(tc); err != nil {
			return p.fieldErr(obj, path.Child("targetCluster"), err)
		}
		if w, ok := toInt(m["weight"]); !ok || w < 1 {
			return p.errorf(obj, path.Child("weight"), "%s.weight: Invalid value: %v: should be greater than or equal to 1", path, m["weight"])
		}
	}
	return nil
}

// parsePlacement reads spec.placement, already checked by
// checkPlacementSchema and validateSpec, with Karmada's mutating webhook's
// defaults (Weighted division preference, spread constraint defaults).
func (p *Policy) parsePlacement(placement map[string]any) {
	if placement == nil {
		return
	}
	if m, ok := placement["clusterAffinity"].(map[string]any); ok {
		p.Affinity = mustAffinity(m)
	}
	terms, _ := placement["clusterAffinities"].([]any)
	for _, raw := range terms {
		m, _ := raw.(map[string]any)
		p.Affinities = append(p.Affinities, decodeTerm(m))
	}
	tols, _ := placement["clusterTolerations"].([]any)
	for _, raw := range tols {
		m, _ := raw.(map[string]any)
		p.Tolerations = append(p.Tolerations, Toleration{Key: manifest.String(m, "key"), Operator: manifest.String(m, "operator"),
			Value: manifest.String(m, "value"), Effect: manifest.String(m, "effect")})
	}
	spread, _ := placement["spreadConstraints"].([]any)
	for _, raw := range spread {
		c, _ := raw.(map[string]any)
		d := defaultSpread(c)
		p.Spread = append(p.Spread, SpreadConstraint{Field: d.field, Label: d.label, MinGroups: int(d.minGroups), MaxGroups: int(d.maxGroups)})
	}
	p.parseReplicaScheduling(placement)
}

// decodeTerm reads a clusterAffinities term.
func decodeTerm(m map[string]any) AffinityTerm {
	t := AffinityTerm{Name: manifest.String(m, "affinityName"), Affinity: mustAffinity(m)}
	list, isList := m["overflowAffinities"].([]any)
	t.overflows = isList
	for _, o := range list {
		om, _ := o.(map[string]any)
		t.Overflow = append(t.Overflow, mustAffinity(om))
	}
	return t
}

// mustAffinity decodes an affinity the schema checks passed.
func mustAffinity(m map[string]any) *karmada.Affinity {
	a, err := karmada.DecodeAffinity(m)
	if err != nil || a == nil {
		return &karmada.Affinity{}
	}
	return a
}

// decodeValidAffinity decodes and validates a ClusterAffinity.
func decodeValidAffinity(m map[string]any) (*karmada.Affinity, error) {
	a, err := karmada.DecodeAffinity(m)
	if err == nil {
		err = a.Validate()
	}
	return a, err
}

// parseReplicaScheduling reads replicaScheduling: Duplicated, or Divided
// (Weighted by static weights or by the clusters' room, or Aggregated).
func (p *Policy) parseReplicaScheduling(placement map[string]any) {
	rs, _ := placement["replicaScheduling"].(map[string]any)
	if manifest.String(rs, "replicaSchedulingType") != Divided {
		return
	}
	p.Scheduling = Divided
	p.Preference = divisionPreference(placement)
	wp, _ := rs["weightPreference"].(map[string]any)
	if wp == nil {
		return
	}
	p.weightPreference = true
	p.DynamicWeight = manifest.String(wp, "dynamicWeight") != ""
	list, _ := wp["staticWeightList"].([]any)
	for _, raw := range list {
		m, _ := raw.(map[string]any)
		w, _ := toInt(m["weight"])
		p.Weights = append(p.Weights, StaticWeight{Target: mustAffinity(manifest.Map(m, "targetCluster")), Weight: w})
	}
}

// strategy is Karmada's assignment strategy for the policy.
func (p *Policy) strategy() string {
	switch {
	case p.Scheduling != Divided:
		return strategyDuplicated
	case p.Preference == Aggregated:
		return strategyAggregated
	case p.DynamicWeight:
		return strategyDynamicWeight
	}
	return strategyStaticWeight
}

// ignoresSpread is shouldIgnoreSpreadConstraint: Weighted division with
// no weight preference, or by a static weight list, ignores the
// constraints.
func (p *Policy) ignoresSpread() bool {
	return p.Scheduling == Divided && p.Preference == Weighted &&
		(!p.weightPreference || (len(p.Weights) > 0 && !p.DynamicWeight))
}
