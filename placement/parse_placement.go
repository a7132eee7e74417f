package placement

import (
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// AffinityTerm is a placement.clusterAffinities entry.
type AffinityTerm struct {
	Name     string
	Affinity *cluster.Affinity
	// Overflow are the term's overflowAffinities, in order.
	Overflow []*cluster.Affinity
	// overflows tells that the term has overflowAffinities (even an
	// empty list, which switches Karmada to tiered assignment).
	overflows bool
}

// Toleration is a placement.clusterTolerations entry.
type Toleration struct {
	Key, Operator, Value, Effect string
}

// parsePlacement reads spec.placement after Karmada's mutating webhook's
// defaults (Weighted division preference, spread constraint defaults) and
// checks it as Karmada's CRD schema and webhook do.
func (p *Policy) parsePlacement(obj *manifest.Object, placement map[string]any) error {
	if placement == nil {
		return nil
	}
	steps := []func() error{
		func() error { return p.parseAffinity(obj, placement) },
		func() error { return p.parseTolerations(obj, placement) },
		func() error { return p.parseSpread(obj, placement) },
		func() error { return p.parseReplicaScheduling(obj, placement) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// parseAffinity reads clusterAffinity or clusterAffinities (not both).
func (p *Policy) parseAffinity(obj *manifest.Object, placement map[string]any) error {
	if raw, ok := placement["clusterAffinities"]; ok {
		if _, both := placement["clusterAffinity"]; both {
			return p.errorf(obj, "spec.placement", "spec.placement: Invalid value: clusterAffinities cannot co-exist with clusterAffinity")
		}
		terms, _ := raw.([]any)
		if err := p.validateAffinities(obj, placement, terms); err != nil {
			return err
		}
		return p.decodeAffinityTerms(terms)
	}
	raw, ok := placement["clusterAffinity"]
	if !ok {
		return nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return p.errorf(obj, "spec.placement.clusterAffinity", "spec.placement.clusterAffinity: Invalid value: must be an object")
	}
	a, err := decodeValidAffinity(m)
	if err != nil {
		return p.fieldErr(obj, "spec.placement.clusterAffinity", err)
	}
	p.Affinity = a
	return nil
}

// decodeAffinityTerms keeps validated clusterAffinities terms.
func (p *Policy) decodeAffinityTerms(terms []any) error {
	for _, raw := range terms {
		m, _ := raw.(map[string]any)
		a, err := decodeValidAffinity(m)
		if err != nil {
			return err
		}
		t := AffinityTerm{Name: manifest.String(m, "affinityName"), Affinity: a}
		list, isList := m["overflowAffinities"].([]any)
		t.overflows = isList
		for _, o := range list {
			om, _ := o.(map[string]any)
			oa, err := decodeValidAffinity(om)
			if err != nil {
				return err
			}
			t.Overflow = append(t.Overflow, oa)
		}
		p.Affinities = append(p.Affinities, t)
	}
	return nil
}

// decodeValidAffinity decodes and validates a ClusterAffinity; an empty
// one decodes to a match-all affinity.
func decodeValidAffinity(m map[string]any) (*cluster.Affinity, error) {
	if m == nil {
		m = map[string]any{}
	}
	a, err := cluster.DecodeAffinity(m)
	if err == nil {
		err = a.Validate()
	}
	return a, err
}

// parseTolerations reads clusterTolerations (operators Exists and Equal,
// the latter the default).
func (p *Policy) parseTolerations(obj *manifest.Object, placement map[string]any) error {
	list, _ := placement["clusterTolerations"].([]any)
	for i, raw := range list {
		path := manifest.Path("spec", "placement", "clusterTolerations", i)
		m, ok := raw.(map[string]any)
		if !ok {
			return p.errorf(obj, path, "%s: Invalid value: must be an object", path)
		}
		t := Toleration{Key: manifest.String(m, "key"), Operator: manifest.String(m, "operator"),
			Value: manifest.String(m, "value"), Effect: manifest.String(m, "effect")}
		if err := p.checkEnum(obj, path+".effect", m["effect"], "NoSchedule", "PreferNoSchedule", "NoExecute"); err != nil {
			return err
		}
		p.Tolerations = append(p.Tolerations, t)
	}
	return nil
}

// parseSpread reads spreadConstraints with the mutating webhook's defaults.
func (p *Policy) parseSpread(obj *manifest.Object, placement map[string]any) error {
	list, _ := placement["spreadConstraints"].([]any)
	if len(list) == 0 {
		return nil
	}
	for i, raw := range list { // the CRD's enum comes before the webhook
		m, _ := raw.(map[string]any)
		path := manifest.Path("spec", "placement", "spreadConstraints", i)
		if err := p.checkEnum(obj, path+".spreadByField", m["spreadByField"], SpreadCluster, SpreadRegion, SpreadZone, SpreadProvider); err != nil {
			return err
		}
	}
	if err := p.validateSpread(obj, list); err != nil {
		return err
	}
	for _, raw := range list {
		m, _ := raw.(map[string]any)
		c := SpreadConstraint{Field: manifest.String(m, "spreadByField"), Label: manifest.String(m, "spreadByLabel")}
		if c.Field == "" && c.Label == "" {
			c.Field = SpreadCluster
		}
		minGroups, _ := toInt(m["minGroups"])
		maxGroups, _ := toInt(m["maxGroups"])
		c.MinGroups, c.MaxGroups = int(max(minGroups, 1)), int(maxGroups)
		p.Spread = append(p.Spread, c)
	}
	return nil
}

// parseReplicaScheduling reads replicaScheduling: Duplicated, or Divided
// (Weighted by static weights or by the clusters' room, or Aggregated).
func (p *Policy) parseReplicaScheduling(obj *manifest.Object, placement map[string]any) error {
	rs, _ := placement["replicaScheduling"].(map[string]any)
	if rs == nil {
		return nil
	}
	const base = "spec.placement.replicaScheduling"
	switch t := manifest.String(rs, "replicaSchedulingType"); t {
	case "", Duplicated:
		return nil
	case Divided:
		p.Scheduling = Divided
	default:
		return p.errorf(obj, base+".replicaSchedulingType",
			"%s.replicaSchedulingType: Unsupported value: %q: supported values: \"Duplicated\", \"Divided\"", base, t)
	}
	switch pref := manifest.String(rs, "replicaDivisionPreference"); pref {
	case "", Weighted:
		p.Preference = Weighted
	case Aggregated:
		p.Preference = Aggregated
	default:
		return p.errorf(obj, base+".replicaDivisionPreference",
			"%s.replicaDivisionPreference: Unsupported value: %q: supported values: \"Aggregated\", \"Weighted\"", base, pref)
	}
	wp, _ := rs["weightPreference"].(map[string]any)
	if wp == nil {
		return nil
	}
	if err := p.checkEnum(obj, base+".weightPreference.dynamicWeight", wp["dynamicWeight"], "AvailableReplicas"); err != nil {
		return err
	}
	p.DynamicWeight = manifest.String(wp, "dynamicWeight") != ""
	p.weightPreference = true
	return p.parseStaticWeights(obj, wp)
}

// parseStaticWeights reads weightPreference.staticWeightList.
func (p *Policy) parseStaticWeights(obj *manifest.Object, wp map[string]any) error {
	list, _ := wp["staticWeightList"].([]any)
	for i, raw := range list {
		path := manifest.Path("spec", "placement", "replicaScheduling", "weightPreference", "staticWeightList", i)
		m, _ := raw.(map[string]any)
		tc, _ := m["targetCluster"].(map[string]any)
		if tc == nil {
			return p.errorf(obj, path, "%s.targetCluster: Required value", path)
		}
		a, err := decodeValidAffinity(tc)
		if err != nil {
			return p.fieldErr(obj, path+".targetCluster", err)
		}
		w, ok := toInt(m["weight"])
		if !ok || w < 1 {
			return p.errorf(obj, path+".weight", "%s.weight: Invalid value: %v: should be greater than or equal to 1", path, m["weight"])
		}
		p.Weights = append(p.Weights, StaticWeight{Target: a, Weight: w})
	}
	return nil
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
