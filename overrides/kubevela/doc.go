// Package kubevela owns KubeVela's override policies: their spec
// (OverridePolicySpec, and the component and trait patches that
// env-binding policies reuse), decoded strictly as the deploy step
// decodes it, and Override, which patches copies of an Application's
// components for one deploy step: properties deep-merged, traits merged,
// added or disabled by type, components matched by name pattern or type,
// added or replaced, then narrowed by the policy's selector. The real
// behaviour lives upstream in KubeVela's pkg/policy/envbinding
// (PatchComponents, MergeComponent) as the deploy step's
// overrideConfiguration (pkg/workflow/providers/multicluster) calls it,
// with the spec types of apis/core.oam.dev/v1alpha1; this package
// reproduces them, KubeVela's bugs and error words included.
//
// It is not the deploy step that calls Override nor the admission that
// checks the definitions a spec names (render/workflow), nor the other
// built-in policies (render/policy). Karmada's OverridePolicy, which
// patches rendered objects per member cluster, is overrides/karmada's; the
// two share no code.
package kubevela
