// Package karmada owns what Karmada's policies share: resource selectors
// (which templates a policy selects, and how specifically) and cluster
// affinities (which member clusters a placement, a static weight or an
// override rule targets), decoded from YAML and matched as Karmada's
// pkg/util matches them.
//
// It is not where policies are parsed or applied: propagation
// (PropagationPolicy, ClusterPropagationPolicy) is its sub-package,
// override policies (OverridePolicy, ClusterOverridePolicy) are
// overrides/karmada's, and controller runs them for every template of a
// control plane.
package karmada
