package karmada

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// Field selector keys of a Karmada ClusterAffinity.
const (
	FieldProvider = "provider"
	FieldRegion   = "region"
	FieldZone     = "zone"
)

// Affinity is a Karmada policy.karmada.io ClusterAffinity: the clusters a
// placement or an override rule targets.
type Affinity struct {
	ClusterNames  []string
	Exclude       []string
	LabelSelector *manifest.LabelSelector
	FieldSelector []FieldRequirement
}

// FieldRequirement is one fieldSelector match expression (a
// corev1.NodeSelectorRequirement on the fields provider, region and zone).
type FieldRequirement struct {
	Key      string
	Operator string
	Values   []string
}

// DecodeAffinity reads a ClusterAffinity from its decoded YAML form. A nil
// map decodes to a nil affinity. Type errors and missing required fields
// (fieldSelector expressions need key and operator) are *manifest.FieldError
// with a path relative to m.
func DecodeAffinity(m map[string]any) (*Affinity, error) {
	if m == nil {
		return nil, nil
	}
	a := &Affinity{}
	var err error
	if a.ClusterNames, err = manifest.DecodeStringList(m["clusterNames"]); err != nil {
		return nil, manifest.PrefixError(fieldpath.New("clusterNames"), err)
	}
	if a.Exclude, err = manifest.DecodeStringList(m["exclude"]); err != nil {
		return nil, manifest.PrefixError(fieldpath.New("exclude"), err)
	}
	if a.LabelSelector, err = manifest.DecodeLabelSelector(m["labelSelector"]); err != nil {
		return nil, manifest.PrefixError(fieldpath.New("labelSelector"), err)
	}
	if a.FieldSelector, err = decodeFieldSelector(m["fieldSelector"]); err != nil {
		return nil, manifest.PrefixError(fieldpath.New("fieldSelector"), err)
	}
	return a, nil
}

func decodeFieldSelector(v any) ([]FieldRequirement, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &manifest.FieldError{Msg: fmt.Sprintf("Invalid value: %q: must be of type object", manifest.TypeName(v))}
	}
	raw := m["matchExpressions"]
	if raw == nil {
		return []FieldRequirement{}, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, &manifest.FieldError{Path: fieldpath.New("matchExpressions"), Msg: fmt.Sprintf("Invalid value: %q: must be of type array", manifest.TypeName(raw))}
	}
	out := make([]FieldRequirement, 0, len(list))
	for i, e := range list {
		r, err := decodeFieldRequirement(e)
		if err != nil {
			return nil, manifest.PrefixError(fieldpath.New("matchExpressions", i), err)
		}
		out = append(out, r)
	}
	return out, nil
}

func decodeFieldRequirement(v any) (FieldRequirement, error) {
	var r FieldRequirement
	m, ok := v.(map[string]any)
	if !ok {
		return r, &manifest.FieldError{Msg: fmt.Sprintf("Invalid value: %q: must be of type object", manifest.TypeName(v))}
	}
	var err error
	if r.Key, err = manifest.RequiredString(m, "key"); err != nil {
		return r, err
	}
	if r.Operator, err = manifest.RequiredString(m, "operator"); err != nil {
		return r, err
	}
	if r.Values, err = manifest.DecodeStringList(m["values"]); err != nil {
		return r, manifest.PrefixError(fieldpath.New("values"), err)
	}
	return r, nil
}

// Validate applies Karmada's webhook rule for field selectors
// (validation.ValidatePolicyFieldSelector): every key must be provider,
// region or zone and every operator In or NotIn. The first violation is
// returned as a *manifest.FieldError whose path, relative to the affinity,
// is the offending field ("fieldSelector.matchExpressions[0].key") and whose
// message is Karmada's.
func (a *Affinity) Validate() error {
	if a == nil {
		return nil
	}
	for i, r := range a.FieldSelector {
		path := fieldpath.New("fieldSelector", "matchExpressions", i)
		switch r.Key {
		case FieldProvider, FieldRegion, FieldZone:
		default:
			return &manifest.FieldError{Path: path.Child("key"), Msg: fmt.Sprintf("unsupported key %q, must be provider, region, or zone", r.Key)}
		}
		switch r.Operator {
		case manifest.OpIn, manifest.OpNotIn:
		default:
			return &manifest.FieldError{Path: path.Child("operator"), Msg: fmt.Sprintf("unsupported operator %q, must be In or NotIn", r.Operator)}
		}
	}
	return nil
}

// Matches reports whether c is targeted, with Karmada's util.ClusterMatches
// semantics. A nil or empty affinity matches every cluster. Otherwise all of
// these must hold: c is not excluded (exclude wins); the label selector, if
// set, matches c's labels (an invalid selector matches nothing); every
// fieldSelector expression holds; clusterNames, if non-empty, lists c.
//
// Field expressions: zone In means some zone of c is listed, NotIn that none
// is (true for a cluster without zones), Exists/DoesNotExist that c has
// zones or not. provider and region are compared as node-selector
// requirements against spec.provider and spec.region, an empty field being
// absent (In false, NotIn true); an expression Kubernetes would reject
// (unknown operator, invalid value) matches nothing.
func (a *Affinity) Matches(c *cluster.Cluster) bool {
	if a == nil {
		return true
	}
	if slices.Contains(a.Exclude, c.Name) {
		return false
	}
	if a.LabelSelector != nil && !a.LabelSelector.Matches(c.Labels) {
		return false
	}
	if !a.fieldsMatch(c) {
		return false
	}
	return len(a.ClusterNames) == 0 || slices.Contains(a.ClusterNames, c.Name)
}

func (a *Affinity) fieldsMatch(c *cluster.Cluster) bool {
	if len(a.FieldSelector) == 0 {
		return true
	}
	fields := map[string]string{}
	if c.Provider != "" {
		fields[FieldProvider] = c.Provider
	}
	if c.Region != "" {
		fields[FieldRegion] = c.Region
	}
	var others []FieldRequirement
	for _, r := range a.FieldSelector {
		if r.Key != FieldZone {
			others = append(others, r)
			continue
		}
		if !zonesMatch(r, c.Zones) {
			return false
		}
	}
	// lifted.NodeSelectorRequirementsAsSelector: any invalid expression
	// makes the whole selector fail.
	for _, r := range others {
		if !validNodeRequirement(r) {
			return false
		}
	}
	for _, r := range others {
		if !nodeRequirementMatches(r, fields) {
			return false
		}
	}
	return true
}

func zonesMatch(r FieldRequirement, zones []string) bool {
	switch r.Operator {
	case manifest.OpIn:
		for _, z := range zones {
			if slices.Contains(r.Values, z) {
				return true
			}
		}
		return false
	case manifest.OpNotIn:
		for _, z := range zones {
			if slices.Contains(r.Values, z) {
				return false
			}
		}
		return true
	case manifest.OpExists:
		return len(zones) > 0
	case manifest.OpDoesNotExist:
		return len(zones) == 0
	}
	return false
}

const (
	opGt = "Gt"
	opLt = "Lt"
)

// validNodeRequirement is labels.NewRequirement's validation for a node
// selector requirement.
func validNodeRequirement(r FieldRequirement) bool {
	if manifest.ValidLabelKey(r.Key) != nil {
		return false
	}
	switch r.Operator {
	case manifest.OpIn, manifest.OpNotIn:
		if len(r.Values) == 0 {
			return false
		}
	case manifest.OpExists, manifest.OpDoesNotExist:
		if len(r.Values) != 0 {
			return false
		}
	case opGt, opLt:
		if len(r.Values) != 1 {
			return false
		}
		if _, err := strconv.ParseInt(r.Values[0], 10, 64); err != nil {
			return false
		}
	default:
		return false
	}
	for _, v := range r.Values {
		if manifest.ValidLabelValue(v) != nil {
			return false
		}
	}
	return true
}

func nodeRequirementMatches(r FieldRequirement, fields map[string]string) bool {
	if r.Operator != opGt && r.Operator != opLt {
		return manifest.LabelSelectorRequirement(r).Matches(fields)
	}
	got, has := fields[r.Key]
	if !has {
		return false
	}
	n, err := strconv.ParseInt(got, 10, 64)
	if err != nil {
		return false
	}
	want, _ := strconv.ParseInt(r.Values[0], 10, 64)
	if r.Operator == opGt {
		return n > want
	}
	return n < want
}
