package placement

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// validateSpec makes the checks of Karmada's policy webhooks
// (pkg/util/validation ValidatePropagationSpec) that parsing does not,
// after the mutating webhook's and the CRD's defaults, in Karmada's order:
// placement tolerations and workload affinity, failover, the resource
// selectors' namespace and names under preemption. Messages are
// Karmada's; the first violation is reported.
func (p *Policy) validateSpec(obj *manifest.Object, spec map[string]any) error {
	placement, _ := spec["placement"].(map[string]any)
	checks := []func() error{
		func() error { return p.validateTolerations(obj, placement) },
		func() error { return p.validateWorkloadAffinity(obj, placement) },
		func() error { return p.validateFailover(obj, spec) },
		func() error { return p.validateSelectors(obj, spec) },
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// validateTolerations refuses the Lt and Gt operators on clusters.
func (p *Policy) validateTolerations(obj *manifest.Object, placement map[string]any) error {
	tols, _ := placement["clusterTolerations"].([]any)
	for i, t := range tols {
		m, _ := t.(map[string]any)
		if op := manifest.String(m, "operator"); op == "Lt" || op == "Gt" {
			path := manifest.Path("spec", "placement", "clusterTolerations", i, "operator")
			return p.errorf(obj, path, "%s: Unsupported value: %q: supported values: \"\", \"Exists\", \"Equal\"", path, op)
		}
	}
	return nil
}

// validateWorkloadAffinity checks the group label keys.
func (p *Policy) validateWorkloadAffinity(obj *manifest.Object, placement map[string]any) error {
	wa, _ := placement["workloadAffinity"].(map[string]any)
	if wa == nil {
		return nil
	}
	keys := map[string]string{}
	for _, term := range []string{"affinity", "antiAffinity"} {
		m, ok := wa[term].(map[string]any)
		if !ok {
			continue
		}
		key := manifest.String(m, "groupByLabelKey")
		keys[term] = key
		if err := manifest.ValidLabelKey(key); err != nil {
			path := "spec.placement.workloadAffinity." + term + ".groupByLabelKey"
			return p.errorf(obj, path, "%s: Invalid value: %q: %v", path, key, err)
		}
	}
	if a, ok := keys["affinity"]; ok && a == keys["antiAffinity"] {
		if _, both := keys["antiAffinity"]; both {
			return p.errorf(obj, "spec.placement.workloadAffinity", "spec.placement.workloadAffinity: Invalid value: affinity and antiAffinity must not use the same groupByLabelKey")
		}
	}
	return nil
}

// validateFailover checks spec.failover with the CRD's defaults
// (tolerationSeconds 300, purgeMode Gracefully) and the mutating
// webhook's (gracePeriodSeconds 600 when graceful).
func (p *Policy) validateFailover(obj *manifest.Object, spec map[string]any) error {
	fo, _ := spec["failover"].(map[string]any)
	if fo == nil {
		return nil
	}
	if app, ok := fo["application"].(map[string]any); ok {
		if deps, _ := spec["propagateDeps"].(bool); !deps {
			return p.errorf(obj, "spec.propagateDeps", "spec.propagateDeps: Invalid value: false: application failover is set, propagateDeps must be true")
		}
		if err := p.validateAppFailover(obj, app); err != nil {
			return err
		}
	}
	if c, ok := fo["cluster"].(map[string]any); ok {
		if err := p.checkEnum(obj, "spec.failover.cluster.purgeMode", c["purgeMode"], "Directly", "Gracefully"); err != nil {
			return err
		}
		return p.validateStatePreservation(obj, c, "spec.failover.cluster")
	}
	return nil
}

func (p *Policy) validateAppFailover(obj *manifest.Object, app map[string]any) error {
	const base = "spec.failover.application"
	dc, _ := app["decisionConditions"].(map[string]any)
	if v, ok := dc["tolerationSeconds"]; ok {
		n, err := p.int32At(obj, base+".decisionConditions.tolerationSeconds", v)
		if err != nil {
			return err
		}
		if n < 0 {
			return p.errorf(obj, base+".decisionConditions.tolerationSeconds", "%s.decisionConditions.tolerationSeconds: Invalid value: %d: must be greater than or equal to 0", base, n)
		}
	}
	if err := p.checkEnum(obj, base+".purgeMode", app["purgeMode"], "Directly", "Gracefully", "Never"); err != nil {
		return err
	}
	mode, _ := app["purgeMode"].(string)
	if mode == "" {
		mode = "Gracefully"
	}
	grace, hasGrace := app["gracePeriodSeconds"]
	if !hasGrace || grace == nil {
		hasGrace = mode == "Gracefully" // the mutating webhook sets 600
		grace = int64(600)
	}
	if hasGrace {
		n, err := p.int32At(obj, base+".gracePeriodSeconds", grace)
		if err != nil {
			return err
		}
		if mode != "Gracefully" {
			return p.errorf(obj, base+".gracePeriodSeconds", "%s.gracePeriodSeconds: Invalid value: %d: only takes effect when purgeMode is gracefully", base, n)
		}
		if n <= 0 {
			return p.errorf(obj, base+".gracePeriodSeconds", "%s.gracePeriodSeconds: Invalid value: %d: must be greater than 0", base, n)
		}
	}
	return p.validateStatePreservation(obj, app, base)
}

// validateStatePreservation checks each rule's aliasLabelName.
func (p *Policy) validateStatePreservation(obj *manifest.Object, behavior map[string]any, base string) error {
	sp, _ := behavior["statePreservation"].(map[string]any)
	rules, _ := sp["rules"].([]any)
	for i, r := range rules {
		m, _ := r.(map[string]any)
		name := manifest.String(m, "aliasLabelName")
		if err := manifest.ValidLabelKey(name); err != nil {
			path := manifest.Path(base+".statePreservation.rules", i, "aliasLabelName")
			return p.errorf(obj, path, "%s: Invalid value: %q: %v", path, name, err)
		}
	}
	return nil
}

// validateSelectors: a PropagationPolicy selects only its own namespace,
// and preemption needs every selector to name its resource.
func (p *Policy) validateSelectors(obj *manifest.Object, spec map[string]any) error {
	if err := p.checkEnum(obj, "spec.preemption", spec["preemption"], "Always", "Never"); err != nil {
		return err
	}
	for i, s := range p.Selectors {
		if p.Kind == KindPropagationPolicy && s.Namespace != p.Namespace {
			path := manifest.Path("spec", "resourceSelectors", i, "namespace")
			return p.errorf(obj, path, "%s: Invalid value: %q: namespace of resource selector must be the same as the namespace of the policy", path, s.Namespace)
		}
	}
	if spec["preemption"] != "Always" {
		return nil
	}
	for i, s := range p.Selectors {
		if s.Name == "" {
			path := manifest.Path("spec", "resourceSelectors", i, "name")
			return p.errorf(obj, path, "%s: Invalid value: \"\": name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption", path)
		}
	}
	return nil
}

// checkEnum refuses a value outside the CRD's enum (absent is fine).
func (p *Policy) checkEnum(obj *manifest.Object, path string, v any, allowed ...string) error {
	if v == nil {
		return nil
	}
	s, ok := v.(string)
	if ok && slices.Contains(allowed, s) {
		return nil
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	return p.errorf(obj, path, "%s: Unsupported value: %q: supported values: %s", path, fmt.Sprint(v), strings.Join(quoted, ", "))
}

// int32At reads an int32 field as the CRD types it.
func (p *Policy) int32At(obj *manifest.Object, path string, v any) (int64, error) {
	n, ok := toInt(v)
	if !ok || n < math.MinInt32 || n > math.MaxInt32 {
		return 0, p.errorf(obj, path, "%s: Invalid value: %v: must be a 32-bit integer", path, v)
	}
	return n, nil
}

// validateSpread makes Karmada's ValidateSpreadConstraint checks after the
// mutating webhook's defaults (spreadByField cluster when neither field
// nor label is set, minGroups 1 when 0), so that an invalid constraint is
// refused with Karmada's message before drydock refuses spread constraints
// as a whole (they need the scheduler's live scores).
func (p *Policy) validateSpread(obj *manifest.Object, constraints []any) error {
	const base = "spec.placement.spreadConstraints"
	seen := map[string]bool{}
	for i, raw := range constraints {
		c, _ := raw.(map[string]any)
		path := manifest.Path(base, i)
		field, label := manifest.String(c, "spreadByField"), manifest.String(c, "spreadByLabel")
		if field == "" && label == "" {
			field = "cluster"
		}
		minGroups, _ := toInt(c["minGroups"])
		maxGroups, _ := toInt(c["maxGroups"])
		if minGroups == 0 {
			minGroups = 1
		}
		var msg string
		switch {
		case field != "" && label != "":
			msg = "spreadByLabel should not co-exist with spreadByField"
		case minGroups < 0:
			msg = "minGroups lower than 0 is not allowed"
		case maxGroups < 0:
			msg = "maxGroups lower than 0 is not allowed"
		case maxGroups > 0 && maxGroups < minGroups:
			msg = "maxGroups lower than minGroups is not allowed"
		case field != "" && seen[field]:
			return p.errorf(obj, path, "%s: Invalid value: multiple %s spread constraints are not allowed", base, field)
		}
		if msg != "" {
			return p.errorf(obj, path, "%s: Invalid value: %s", path, msg)
		}
		if field != "" {
			seen[field] = true
		}
	}
	if len(seen) > 0 && !seen["cluster"] {
		return p.errorf(obj, base, "%s: Invalid value: the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled", base)
	}
	return nil
}

// validateAffinities makes Karmada's checks of clusterAffinities (unique
// label-key names, each term's field selector, overflow affinities only
// with dynamic or aggregated division, with an inline affinity and unique
// names), so an invalid list gets Karmada's message before drydock refuses
// clusterAffinities as a whole (failover needs live scheduling results).
func (p *Policy) validateAffinities(obj *manifest.Object, placement map[string]any, terms []any) error {
	const base = "spec.placement.clusterAffinities"
	overflowOK := overflowAllowed(placement)
	names := map[string]bool{}
	for i, raw := range terms {
		path := manifest.Path(base, i)
		m, ok := raw.(map[string]any)
		if !ok {
			return p.errorf(obj, path, "%s: Invalid value: must be an object", path)
		}
		if _, has := m["overflowAffinities"]; has && !overflowOK {
			return p.errorf(obj, path+".overflowAffinities", "%s.overflowAffinities: Invalid value: overflowAffinities can only be used together with dynamic weight or aggregated scheduling", path)
		}
		name := manifest.String(m, "affinityName")
		if err := manifest.ValidLabelKey(name); err != nil {
			return p.errorf(obj, path, "%s: Invalid value: %q: %v", path, name, err)
		}
		if names[name] {
			return p.errorf(obj, path, "%s: Invalid value: each affinity term in a policy must have a unique name", base)
		}
		names[name] = true
		if err := p.validateTerm(obj, m, path); err != nil {
			return err
		}
		if err := p.validateOverflow(obj, m, path, name); err != nil {
			return err
		}
	}
	return nil
}

// validateTerm checks one affinity term's selectors.
func (p *Policy) validateTerm(obj *manifest.Object, m map[string]any, path string) error {
	a, err := cluster.DecodeAffinity(m)
	if err == nil {
		err = a.Validate()
	}
	if err != nil {
		return p.fieldErr(obj, path, err)
	}
	return nil
}

// validateOverflow checks a term's overflowAffinities.
func (p *Policy) validateOverflow(obj *manifest.Object, term map[string]any, path, primary string) error {
	list, has := term["overflowAffinities"].([]any)
	if !has {
		return nil
	}
	if emptyAffinity(term) {
		return p.errorf(obj, path+".overflowAffinities", "%s.overflowAffinities: Invalid value: overflowAffinities can only be used together with the inline ClusterAffinity", path)
	}
	names := map[string]bool{primary: true}
	for j, raw := range list {
		m, _ := raw.(map[string]any)
		opath := manifest.Path(path+".overflowAffinities", j)
		name := manifest.String(m, "affinityName")
		if err := manifest.ValidLabelKey(name); err != nil {
			return p.errorf(obj, opath+".affinityName", "%s.affinityName: Invalid value: %q: %v", opath, name, err)
		}
		if names[name] {
			return p.errorf(obj, opath+".affinityName", "%s.affinityName: Invalid value: %q: overflow affinity name must be unique and must not duplicate the primary group's affinityName", opath, name)
		}
		names[name] = true
		if err := p.validateTerm(obj, m, opath); err != nil {
			return err
		}
	}
	return nil
}

// emptyAffinity is Karmada's emptyClusterAffinity on a term's inline
// affinity.
func emptyAffinity(term map[string]any) bool {
	for _, k := range []string{"labelSelector", "fieldSelector"} {
		if term[k] != nil {
			return false
		}
	}
	names, _ := term["clusterNames"].([]any)
	excl, _ := term["exclude"].([]any)
	return len(names) == 0 && len(excl) == 0
}

// overflowAllowed is Karmada's IsOverflowSchedulingAllowed: Divided with
// Aggregated, or Weighted by dynamic weight.
func overflowAllowed(placement map[string]any) bool {
	rs, _ := placement["replicaScheduling"].(map[string]any)
	if manifest.String(rs, "replicaSchedulingType") != Divided {
		return false
	}
	switch manifest.String(rs, "replicaDivisionPreference") {
	case Aggregated:
		return true
	case Weighted:
		return manifest.String(rs, "weightPreference", "dynamicWeight") != ""
	}
	return false
}
