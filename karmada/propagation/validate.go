package propagation

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/karmada"
	"github.com/drydock-dev/drydock/manifest"
)

// violation is one field error of Karmada's validating webhook: the field
// it is positioned at, and its message, which starts with Karmada's path.
type violation struct {
	path fieldpath.Path
	msg  string
}

// violations collect a policy's webhook errors in Karmada's order, as
// validation.ValidatePropagationSpec appends them to one field.ErrorList.
type violations []violation

func (vs *violations) add(path fieldpath.Path, format string, args ...any) {
	*vs = append(*vs, violation{path: path, msg: fmt.Sprintf(format, args...)})
}

// aggregate is the denial Karmada's webhook sends for vs
// (field.ErrorList.ToAggregate): the single message, or all of them
// between brackets, comma-separated, repeats dropped. It is positioned at
// the first violation; nil when there is none.
func (p *Policy) aggregate(obj *manifest.Object, vs violations) error {
	if len(vs) == 0 {
		return nil
	}
	var msgs []string
	for _, v := range vs {
		if !slices.Contains(msgs, v.msg) {
			msgs = append(msgs, v.msg)
		}
	}
	msg := msgs[0]
	if len(msgs) > 1 {
		msg = "[" + strings.Join(msgs, ", ") + "]"
	}
	return p.errorf(obj, vs[0].path, "%s", msg)
}

// checkSchema makes the CRD schema's checks of spec.failover and
// spec.preemption (required fields, enums, int32 ranges, after the
// schema's defaults), which the API server makes before any webhook runs.
// The first violation is reported.
func (p *Policy) checkSchema(obj *manifest.Object, spec map[string]any) error {
	if err := p.checkEnum(obj, fieldpath.New("spec", "preemption"), spec["preemption"], "Always", "Never"); err != nil {
		return err
	}
	fo, _ := spec["failover"].(map[string]any)
	if app, ok := fo["application"].(map[string]any); ok {
		if err := p.checkAppSchema(obj, app); err != nil {
			return err
		}
	}
	if c, ok := fo["cluster"].(map[string]any); ok {
		if err := p.checkEnum(obj, fieldpath.New("spec", "failover", "cluster", "purgeMode"), c["purgeMode"], "Directly", "Gracefully"); err != nil {
			return err
		}
		return p.checkRulesSchema(obj, c, fieldpath.New("spec", "failover", "cluster"))
	}
	return nil
}

func (p *Policy) checkAppSchema(obj *manifest.Object, app map[string]any) error {
	base := fieldpath.New("spec", "failover", "application")
	dc, ok := app["decisionConditions"].(map[string]any)
	if !ok {
		return p.errorf(obj, base, "%s.decisionConditions: Required value", base)
	}
	if v, ok := dc["tolerationSeconds"]; ok {
		if _, err := p.int32At(obj, base.Child("decisionConditions").Child("tolerationSeconds"), v); err != nil {
			return err
		}
	}
	if err := p.checkEnum(obj, base.Child("purgeMode"), app["purgeMode"], "Directly", "Gracefully", "Never"); err != nil {
		return err
	}
	if v, ok := app["gracePeriodSeconds"]; ok && v != nil {
		if _, err := p.int32At(obj, base.Child("gracePeriodSeconds"), v); err != nil {
			return err
		}
	}
	return p.checkRulesSchema(obj, app, base)
}

// checkRulesSchema: statePreservation needs rules, and each rule an
// aliasLabelName and a jsonPath.
func (p *Policy) checkRulesSchema(obj *manifest.Object, behavior map[string]any, base fieldpath.Path) error {
	sp, ok := behavior["statePreservation"].(map[string]any)
	if !ok {
		return nil
	}
	rules, ok := sp["rules"].([]any)
	if !ok {
		return p.errorf(obj, base.Child("statePreservation"), "%s.statePreservation.rules: Required value", base)
	}
	for i, r := range rules {
		path := base.Child("statePreservation").Child("rules").At(i)
		m, _ := r.(map[string]any)
		for _, field := range []string{"aliasLabelName", "jsonPath"} {
			if _, ok := m[field].(string); !ok {
				return p.errorf(obj, path, "%s.%s: Required value", path, field)
			}
		}
	}
	return nil
}

// validateSpec makes the checks of Karmada's policy webhooks
// (validation.ValidatePropagationSpec) after the mutating webhook's and
// the CRD's defaults, in Karmada's order: placement (affinities, spread
// constraints, workload affinity, tolerations), propagateDeps, failover,
// the resource selectors' namespace, their names under preemption,
// suspension. Every violation is reported, in Karmada's wording and
// aggregated as Karmada's denial is. Parts that do not decode are left to
// the schema checks of parsePlacement.
func (p *Policy) validateSpec(obj *manifest.Object, spec map[string]any) error {
	var vs violations
	placement, _ := spec["placement"].(map[string]any)
	placementViolations(&vs, placement)
	fo, _ := spec["failover"].(map[string]any)
	if _, ok := fo["application"].(map[string]any); ok && !p.propagatesDeps(spec) {
		vs.add(fieldpath.New("spec", "propagateDeps"), "spec.propagateDeps: Invalid value: false: application failover is set, propagateDeps must be true")
	}
	p.failoverViolations(&vs, fo)
	p.selectorViolations(&vs, spec)
	if p.SuspendAll && len(p.SuspendOn) > 0 {
		vs.add(fieldpath.New("spec", "suspension"), "spec.suspension.suspension: Invalid value: suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames")
	}
	return p.aggregate(obj, vs)
}

// propagatesDeps is spec.propagateDeps after the mutating webhook, which
// sets it when a selector picks ServiceImports
// (helper.ContainsServiceImport).
func (p *Policy) propagatesDeps(spec map[string]any) bool {
	if deps, _ := spec["propagateDeps"].(bool); deps {
		return true
	}
	return slices.ContainsFunc(p.Selectors, func(s karmada.ResourceSelector) bool {
		return s.Kind == "ServiceImport" && s.APIVersion == "multicluster.x-k8s.io/v1alpha1"
	})
}

// placementViolations is Karmada's ValidatePlacement.
func placementViolations(vs *violations, placement map[string]any) {
	base := fieldpath.New("spec", "placement")
	terms, _ := placement["clusterAffinities"].([]any)
	if placement["clusterAffinity"] != nil && placement["clusterAffinities"] != nil {
		vs.add(base, "%s: Invalid value: clusterAffinities cannot co-exist with clusterAffinity", base)
	}
	if !overflowAllowed(placement) {
		for i, raw := range terms {
			if m, _ := raw.(map[string]any); m["overflowAffinities"] != nil {
				path := base.Child("clusterAffinities").At(i).Child("overflowAffinities")
				vs.add(path, "%s: Invalid value: overflowAffinities can only be used together with dynamic weight or aggregated scheduling", path)
			}
		}
	}
	if m, ok := placement["clusterAffinity"].(map[string]any); ok {
		fieldSelectorViolation(vs, m, base.Child("clusterAffinity"))
	}
	affinitiesViolations(vs, terms)
	sc, _ := placement["spreadConstraints"].([]any)
	spreadViolations(vs, sc)
	workloadAffinityViolations(vs, placement)
	tolerationViolations(vs, placement)
}

// fieldSelectorViolation is Karmada's ValidateClusterAffinity: the first
// field selector expression it refuses. An affinity that does not decode
// is left to the schema checks.
func fieldSelectorViolation(vs *violations, m map[string]any, base fieldpath.Path) {
	a, err := karmada.DecodeAffinity(m)
	if err != nil {
		return
	}
	if err := a.Validate(); err != nil {
		vs.add(fieldPath(base, err), "%s: %v", base, err)
	}
}

// affinitiesViolations is Karmada's ValidateClusterAffinities.
func affinitiesViolations(vs *violations, terms []any) {
	base := fieldpath.New("spec", "placement", "clusterAffinities")
	names := map[string]bool{}
	for i, raw := range terms {
		m, ok := raw.(map[string]any)
		if !ok {
			continue
		}
		path := base.At(i)
		name := manifest.String(m, "affinityName")
		for _, msg := range labelKeyProblems(name) {
			vs.add(path, "%s: Invalid value: %q: %s", path, name, msg)
		}
		if names[name] {
			vs.add(path, "%s: Invalid value: each affinity term in a policy must have a unique name", base)
		}
		names[name] = true
		fieldSelectorViolation(vs, m, path)
		overflowViolations(vs, m, path, name)
	}
}

// overflowViolations is Karmada's ValidateOverflowAffinities for the term
// at path.
func overflowViolations(vs *violations, term map[string]any, path fieldpath.Path, primary string) {
	list, ok := term["overflowAffinities"].([]any)
	if !ok {
		return
	}
	if emptyAffinity(term) {
		vs.add(path.Child("overflowAffinities"), "%s.overflowAffinities: Invalid value: overflowAffinities can only be used together with the inline ClusterAffinity", path)
	}
	names := map[string]bool{primary: true}
	for j, raw := range list {
		m, ok := raw.(map[string]any)
		if !ok {
			continue
		}
		opath := path.Child("overflowAffinities").At(j)
		name := manifest.String(m, "affinityName")
		for _, msg := range labelKeyProblems(name) {
			vs.add(opath.Child("affinityName"), "%s.affinityName: Invalid value: %q: %s", opath, name, msg)
		}
		if names[name] {
			vs.add(opath.Child("affinityName"), "%s.affinityName: Invalid value: %q: overflow affinity name must be unique and must not duplicate the primary group's affinityName", opath, name)
		}
		names[name] = true
		fieldSelectorViolation(vs, m, opath)
	}
}

// fieldPath is where a decoder's or validator's *manifest.FieldError
// points under base.
func fieldPath(base fieldpath.Path, err error) fieldpath.Path {
	var fe *manifest.FieldError
	if errors.As(err, &fe) {
		return base.Join(fe.Path)
	}
	return base
}

// labelKeyProblems are Kubernetes' messages for a label key
// (validation.IsQualifiedName), each of which Karmada reports as its own
// field error.
func labelKeyProblems(key string) []string {
	err := manifest.ValidLabelKey(key)
	if err == nil {
		return nil
	}
	return strings.Split(err.Error(), "; ")
}

// tolerationViolations refuses the Lt and Gt operators on clusters.
func tolerationViolations(vs *violations, placement map[string]any) {
	tols, _ := placement["clusterTolerations"].([]any)
	for i, t := range tols {
		m, _ := t.(map[string]any)
		if op := manifest.String(m, "operator"); op == "Lt" || op == "Gt" {
			path := fieldpath.New("spec", "placement", "clusterTolerations", i, "operator")
			vs.add(path, "%s: Unsupported value: %q: supported values: \"\", \"Exists\", \"Equal\"", path, op)
		}
	}
}

// workloadAffinityViolations checks the group label keys.
func workloadAffinityViolations(vs *violations, placement map[string]any) {
	base := fieldpath.New("spec", "placement", "workloadAffinity")
	wa, _ := placement["workloadAffinity"].(map[string]any)
	keys := map[string]string{}
	for _, term := range []string{"affinity", "antiAffinity"} {
		m, ok := wa[term].(map[string]any)
		if !ok {
			continue
		}
		key := manifest.String(m, "groupByLabelKey")
		keys[term] = key
		path := base.Child(term).Child("groupByLabelKey")
		for _, msg := range labelKeyProblems(key) {
			vs.add(path, "%s: Invalid value: %q: %s", path, key, msg)
		}
	}
	a, hasA := keys["affinity"]
	anti, hasAnti := keys["antiAffinity"]
	if hasA && hasAnti && a == anti {
		vs.add(base, "%s: Invalid value: affinity and antiAffinity must not use the same groupByLabelKey", base)
	}
}

// failoverViolations is Karmada's ValidateFailover, after the CRD's
// defaults (tolerationSeconds 300, purgeMode Gracefully) and the mutating
// webhook's (gracePeriod).
func (p *Policy) failoverViolations(vs *violations, fo map[string]any) {
	if app, ok := fo["application"].(map[string]any); ok {
		base := fieldpath.New("spec", "failover", "application")
		dc, _ := app["decisionConditions"].(map[string]any)
		if n, ok := toInt(dc["tolerationSeconds"]); ok && n < 0 {
			vs.add(base.Child("decisionConditions").Child("tolerationSeconds"), "%s.decisionConditions.tolerationSeconds: Invalid value: %d: must be greater than or equal to 0", base, n)
		}
		n, hasGrace := gracePeriod(app)
		if hasGrace && purgeMode(app) != "Gracefully" {
			vs.add(base.Child("gracePeriodSeconds"), "%s.gracePeriodSeconds: Invalid value: %d: only takes effect when purgeMode is gracefully", base, n)
		}
		if hasGrace && n <= 0 {
			vs.add(base.Child("gracePeriodSeconds"), "%s.gracePeriodSeconds: Invalid value: %d: must be greater than 0", base, n)
		}
		statePreservationViolations(vs, app, base)
	}
	if c, ok := fo["cluster"].(map[string]any); ok {
		statePreservationViolations(vs, c, fieldpath.New("spec", "failover", "cluster"))
	}
}

// purgeMode is an application failover's purge mode after the CRD's
// default.
func purgeMode(app map[string]any) string {
	if mode, _ := app["purgeMode"].(string); mode != "" {
		return mode
	}
	return "Gracefully"
}

// gracePeriod is an application failover's gracePeriodSeconds after
// Karmada's mutating webhook (helper.SetDefaultGracePeriodSeconds): 600
// when the purge is graceful and none is set; set is false when there is
// none. checkSchema has made sure a set value is an int32.
func gracePeriod(app map[string]any) (seconds int64, set bool) {
	if v, ok := app["gracePeriodSeconds"]; ok && v != nil {
		n, _ := toInt(v)
		return n, true
	}
	if purgeMode(app) == "Gracefully" {
		return 600, true
	}
	return 0, false
}

// statePreservationViolations checks each rule's aliasLabelName
// (metav1validation.ValidateLabelName).
func statePreservationViolations(vs *violations, behavior map[string]any, base fieldpath.Path) {
	sp, _ := behavior["statePreservation"].(map[string]any)
	rules, _ := sp["rules"].([]any)
	for i, r := range rules {
		m, _ := r.(map[string]any)
		name := manifest.String(m, "aliasLabelName")
		path := base.Child("statePreservation").Child("rules").At(i).Child("aliasLabelName")
		for _, msg := range labelKeyProblems(name) {
			vs.add(path, "%s: Invalid value: %q: %s", path, name, msg)
		}
	}
}

// selectorViolations: a PropagationPolicy selects only its own namespace,
// and preemption needs every selector to name its resource.
func (p *Policy) selectorViolations(vs *violations, spec map[string]any) {
	for i, s := range p.Selectors {
		if p.Kind == KindPropagationPolicy && s.Namespace != p.Namespace {
			path := fieldpath.New("spec", "resourceSelectors", i, "namespace")
			vs.add(path, "%s: Invalid value: %q: namespace of resource selector must be the same as the namespace of the policy", path, s.Namespace)
		}
	}
	if spec["preemption"] != "Always" {
		return
	}
	for i, s := range p.Selectors {
		if s.Name == "" {
			path := fieldpath.New("spec", "resourceSelectors", i, "name")
			vs.add(path, "%s: Invalid value: \"\": name cannot be empty if preemption is Always, the empty name may cause unexpected resources preemption", path)
		}
	}
}

// checkEnum refuses a value outside the CRD's enum (absent is fine).
func (p *Policy) checkEnum(obj *manifest.Object, path fieldpath.Path, v any, allowed ...string) error {
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
func (p *Policy) int32At(obj *manifest.Object, path fieldpath.Path, v any) (int64, error) {
	n, ok := toInt(v)
	if !ok || n < math.MinInt32 || n > math.MaxInt32 {
		return 0, p.errorf(obj, path, "%s: Invalid value: %v: must be a 32-bit integer", path, v)
	}
	return n, nil
}

// spreadConstraint is one spread constraint after Karmada's mutating
// webhook (helper.SetDefaultSpreadConstraints): spreadByField cluster when
// neither field nor label is set, minGroups 1 when 0.
type spreadConstraint struct {
	field, label         string
	minGroups, maxGroups int64
}

// defaultSpread reads constraint c with the webhook's defaults.
func defaultSpread(c map[string]any) spreadConstraint {
	s := spreadConstraint{field: manifest.String(c, "spreadByField"), label: manifest.String(c, "spreadByLabel")}
	s.minGroups, _ = toInt(c["minGroups"])
	s.maxGroups, _ = toInt(c["maxGroups"])
	if s.field == "" && s.label == "" {
		s.field = "cluster"
	}
	if s.minGroups == 0 {
		s.minGroups = 1
	}
	return s
}

// spreadViolations is Karmada's ValidateSpreadConstraint on the defaulted
// constraints.
func spreadViolations(vs *violations, constraints []any) {
	base := fieldpath.New("spec", "placement", "spreadConstraints")
	seen := map[string]bool{}
	for i, raw := range constraints {
		c, _ := raw.(map[string]any)
		s := defaultSpread(c)
		path := base.At(i)
		if s.field != "" && s.label != "" {
			vs.add(path, "%s: Invalid value: spreadByLabel should not co-exist with spreadByField", path)
		}
		if s.minGroups < 0 {
			vs.add(path, "%s: Invalid value: minGroups lower than 0 is not allowed", path)
		}
		if s.maxGroups < 0 {
			vs.add(path, "%s: Invalid value: maxGroups lower than 0 is not allowed", path)
		}
		if s.maxGroups > 0 && s.maxGroups < s.minGroups {
			vs.add(path, "%s: Invalid value: maxGroups lower than minGroups is not allowed", path)
		}
		if s.field == "" {
			continue
		}
		if n, dup := seen[s.field]; dup && !n {
			vs.add(path, "%s: Invalid value: multiple %s spread constraints are not allowed", base, s.field)
			seen[s.field] = true
		} else if !dup {
			seen[s.field] = false
		}
	}
	if _, ok := seen["cluster"]; len(seen) > 0 && !ok {
		vs.add(base, "%s: Invalid value: the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled", base)
	}
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

// overflowAllowed is Karmada's IsOverflowSchedulingAllowed after the
// mutating webhook: Divided with Aggregated, or Weighted by dynamic weight.
func overflowAllowed(placement map[string]any) bool {
	switch divisionPreference(placement) {
	case Aggregated:
		return true
	case Weighted:
		return manifest.String(placement, "replicaScheduling", "weightPreference", "dynamicWeight") != ""
	}
	return false
}

// divisionPreference is replicaDivisionPreference after Karmada's mutating
// webhook (helper.SetReplicaDivisionPreferenceWeighted): Weighted when a
// Divided placement leaves it out; "" unless Divided.
func divisionPreference(placement map[string]any) string {
	rs, _ := placement["replicaScheduling"].(map[string]any)
	if manifest.String(rs, "replicaSchedulingType") != Divided {
		return ""
	}
	if pref := manifest.String(rs, "replicaDivisionPreference"); pref != "" {
		return pref
	}
	return Weighted
}
