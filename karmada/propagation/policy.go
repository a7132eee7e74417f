// Package propagation decides, as Karmada's detector and scheduler do, which
// member clusters a resource template reaches and with how many replicas:
// PropagationPolicy and ClusterPropagationPolicy selection (priority,
// implicit priority, name); the scheduler's filters (cluster affinity or
// affinity groups, taints and tolerations, spread fields), its general
// replica estimator over the inventory's resource figures, spread
// constraints, and Duplicated, static-weight, dynamic-weight and
// Aggregated replica assignment, as on a first schedule; then it writes
// the per-cluster replica fields and prunes the fields Karmada never
// propagates.
//
// Overrides are not this package's concern: the pipeline applies them
// between Claim and Finish.
package propagation

import (
	"errors"
	"fmt"
	"math"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/karmada"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/schemas"
)

// ErrInvalid is wrapped by errors about a malformed propagation policy.
var ErrInvalid = errors.New("invalid propagation policy")

// Kinds of propagation policy.
const (
	KindPropagationPolicy        = "PropagationPolicy"
	KindClusterPropagationPolicy = "ClusterPropagationPolicy"
)

// Replica scheduling types and division preferences.
const (
	Duplicated = "Duplicated"
	Divided    = "Divided"
	Weighted   = "Weighted"
	Aggregated = "Aggregated"
)

// Policy is a parsed PropagationPolicy or ClusterPropagationPolicy.
type Policy struct {
	Kind, Name, Namespace string
	Priority              int
	Selectors             []karmada.ResourceSelector
	// Affinity selects the clusters (nil: all of them).
	Affinity *karmada.Affinity
	// Affinities are placement.clusterAffinities: groups of clusters
	// tried in order until one can hold the template.
	Affinities []AffinityTerm
	// Tolerations are placement.clusterTolerations.
	Tolerations []Toleration
	// Spread are placement.spreadConstraints after the mutating webhook's
	// defaults.
	Spread []SpreadConstraint
	// Scheduling is Duplicated (also when absent) or Divided.
	Scheduling string
	// Preference is the division preference of a Divided policy: Weighted
	// (the default) or Aggregated.
	Preference string
	// DynamicWeight tells Weighted division by the clusters' room
	// (weightPreference.dynamicWeight: AvailableReplicas).
	DynamicWeight bool
	// Weights is the static weight list of a Divided/Weighted policy.
	Weights []StaticWeight
	// weightPreference tells that replicaScheduling has one.
	weightPreference bool
	// SuspendAll is spec.suspension.dispatching: no member receives the
	// templates (Karmada creates no Work).
	SuspendAll bool
	// SuspendOn are spec.suspension.dispatchingOnClusters.clusterNames:
	// members that receive nothing.
	SuspendOn []string
	// Preserve is spec.preserveResourcesOnDeletion: a Work that goes
	// leaves its objects in the member.
	Preserve bool
	// Pos is where the policy was authored; PlacementPos where its
	// spec.placement is.
	Pos, PlacementPos manifest.Pos
}

// StaticWeight is one staticWeightList entry.
type StaticWeight struct {
	Target *karmada.Affinity
	Weight int64
}

// String names the policy as errors and provenance show it.
func (p *Policy) String() string {
	if p.Kind == KindPropagationPolicy {
		return fmt.Sprintf("%s %s/%s", p.Kind, p.Namespace, p.Name)
	}
	return p.Kind + " " + p.Name
}

// IsPolicy reports whether obj is a policy.karmada.io propagation policy.
func IsPolicy(obj *manifest.Object) bool {
	k := obj.Kind()
	return manifest.Group(obj.APIVersion()) == "policy.karmada.io" &&
		(k == KindPropagationPolicy || k == KindClusterPropagationPolicy)
}

// Parse reads and validates a propagation policy as karmada-apiserver
// would: the CRD's defaults and Karmada's mutating webhook first (a
// selector without a namespace gets the policy's, an empty spread
// constraint spreads by cluster), then the CRD schema and the validating
// webhook.
func Parse(obj *manifest.Object) (*Policy, error) {
	p := &Policy{Kind: obj.Kind(), Name: obj.Name(), Pos: obj.Pos, PlacementPos: obj.FieldPos(fieldpath.New("spec", "placement")), Scheduling: Duplicated}
	if p.Kind == KindPropagationPolicy {
		p.Namespace = obj.Namespace()
		if p.Namespace == "" {
			p.Namespace = "default"
		}
	}
	if p.Name == "" {
		return nil, p.errorf(obj, fieldpath.New("metadata", "name"), "metadata.name: Required value")
	}
	// The API server defaults and mutates before its schema check.
	obj = admitted(obj, p.Namespace)
	if errs := schemas.Karmada(p.Kind).Validate(obj); len(errs) > 0 {
		var vs violations
		for _, e := range errs {
			vs.add(e.Path, "%s", e.Msg)
		}
		return nil, p.aggregate(obj, vs)
	}
	spec, ok := obj.Data["spec"].(map[string]any)
	if !ok {
		return nil, p.errorf(obj, fieldpath.New("spec"), "spec: Required value")
	}
	if v, ok := spec["priority"]; ok {
		n, ok := toInt(v)
		if !ok {
			return nil, p.errorf(obj, fieldpath.New("spec", "priority"), "spec.priority: Invalid value: %v: must be an integer", v)
		}
		if n < math.MinInt32 || n > math.MaxInt32 {
			return nil, p.errorf(obj, fieldpath.New("spec", "priority"), "spec.priority: Invalid value: %d: must be a 32-bit integer", n)
		}
		p.Priority = int(n)
	}
	sels, ok := spec["resourceSelectors"].([]any)
	if !ok || len(sels) == 0 {
		return nil, p.errorf(obj, fieldpath.New("spec", "resourceSelectors"), "spec.resourceSelectors: Required value: at least one resource selector")
	}
	for i, raw := range sels {
		path := fieldpath.New("spec", "resourceSelectors", i)
		m, ok := raw.(map[string]any)
		if !ok {
			return nil, p.errorf(obj, path, "%s: Invalid value: must be an object", path)
		}
		s, err := karmada.DecodeResourceSelector(m)
		if err != nil {
			return nil, p.fieldErr(obj, path, err)
		}
		if s.LabelSelector != nil {
			if err := s.LabelSelector.Validate(); err != nil {
				return nil, p.fieldErr(obj, path.Child("labelSelector"), err)
			}
		}
		if p.Kind == KindPropagationPolicy {
			if s.Namespace == "" {
				s.Namespace = p.Namespace
			}
		}
		p.Selectors = append(p.Selectors, s)
	}
	if err := p.parseSuspension(obj, spec["suspension"]); err != nil {
		return nil, err
	}
	placement, _ := spec["placement"].(map[string]any)
	if err := p.checkPlacementSchema(obj, placement); err != nil {
		return nil, err
	}
	if err := p.checkSchema(obj, spec); err != nil {
		return nil, err
	}
	// Then every rule of Karmada's validating webhook, all of them.
	if err := p.validateSpec(obj, spec); err != nil {
		return nil, err
	}
	p.parsePlacement(placement)
	p.Preserve, _ = spec["preserveResourcesOnDeletion"].(bool) // the schema checked its type
	return p, nil
}

// parseSuspension reads spec.suspension (validateSpec refuses dispatching
// together with dispatchingOnClusters.clusterNames).
func (p *Policy) parseSuspension(obj *manifest.Object, raw any) error {
	if raw == nil {
		return nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return p.errorf(obj, fieldpath.New("spec", "suspension"), "spec.suspension: Invalid value: must be an object")
	}
	if d, ok := m["dispatching"]; ok && d != nil {
		b, ok := d.(bool)
		if !ok {
			return p.errorf(obj, fieldpath.New("spec", "suspension", "dispatching"), "spec.suspension.dispatching: Invalid value: %v: must be a boolean", d)
		}
		p.SuspendAll = b
	}
	if on, ok := m["dispatchingOnClusters"].(map[string]any); ok {
		names, _ := on["clusterNames"].([]any)
		for i, n := range names {
			name, ok := n.(string)
			if !ok {
				path := fieldpath.New("spec", "suspension", "dispatchingOnClusters", "clusterNames", i)
				return p.errorf(obj, path, "%s: Invalid value: %v: must be of type string", path, n)
			}
			p.SuspendOn = append(p.SuspendOn, name)
		}
	}
	return nil
}

// errorf is a refusal of the policy about the field at path, positioned
// there: "file:line:col: Kind ns/name: invalid propagation policy: msg".
func (p *Policy) errorf(obj *manifest.Object, path fieldpath.Path, format string, args ...any) error {
	return &manifest.Error{Pos: obj.FieldPos(path), Subjects: []manifest.Subject{p.subject()}, Field: path,
		Err: fmt.Errorf("%w: %w", ErrInvalid, fmt.Errorf(format, args...))}
}

// subject names the policy in errors.
func (p *Policy) subject() manifest.Subject {
	name := p.Name
	if p.Kind == KindPropagationPolicy {
		name = p.Namespace + "/" + p.Name
	}
	return manifest.Subject{Kind: p.Kind, Name: name, Bare: true}
}

// fieldErr locates a decoder's *manifest.FieldError under base.
func (p *Policy) fieldErr(obj *manifest.Object, base fieldpath.Path, err error) error {
	path := base
	var fe *manifest.FieldError
	if errors.As(err, &fe) {
		path = base.Join(fe.Path)
	}
	return p.errorf(obj, path, "%s: %v", base, err)
}

// Select returns the policy that claims template, as Karmada's detector
// picks it: PropagationPolicies of the template's namespace first, then
// ClusterPropagationPolicies; within each, the highest spec.priority, then
// the highest implicit priority (name > label selector > match-all), then
// the smallest name. nil when none matches.
func Select(template *manifest.Object, policies []*Policy) *Policy {
	ns := template.Namespace()
	for _, kind := range []string{KindPropagationPolicy, KindClusterPropagationPolicy} {
		var best *Policy
		bestImplicit := 0
		for _, p := range policies {
			if p.Kind != kind || (kind == KindPropagationPolicy && (ns == "" || p.Namespace != ns)) {
				continue
			}
			implicit := p.implicitPriority(template)
			if implicit == karmada.PriorityMismatch {
				continue
			}
			if best == nil || p.Priority > best.Priority ||
				(p.Priority == best.Priority && (implicit > bestImplicit || (implicit == bestImplicit && p.Name < best.Name))) {
				best, bestImplicit = p, implicit
			}
		}
		if best != nil {
			return best
		}
	}
	return nil
}

// implicitPriority is the best priority over the policy's selectors.
func (p *Policy) implicitPriority(obj *manifest.Object) int {
	best := karmada.PriorityMismatch
	for _, s := range p.Selectors {
		if pr := s.Priority(obj); pr > best {
			best = pr
		}
	}
	return best
}

func toInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		if n == float64(int64(n)) {
			return int64(n), true
		}
	}
	return 0, false
}
