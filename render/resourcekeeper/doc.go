// Package resourcekeeper is KubeVela's resource keeper
// (pkg/resourcekeeper): what happens to the objects an Application
// renders once they leave the workflow.
//
//   - The resource policies it reads (apply-once, garbage-collect,
//     shared-resource, take-over, read-only, resource-update), merged and
//     decoded as KubeVela does (ResourcePolicies), and their selectors.
//   - The dispatch of rendered objects into the fake clusters (Keeper):
//     ownership, sharing, take-over and read-only rules.
//   - The garbage-collection decisions over objects a new render no
//     longer writes (Gone.Collect, DetachObject) and the apply-once merge
//     of an update (ApplyOnceStrategy.OnUpdate), which `drydock diff`
//     reports through package reconcile.
package resourcekeeper
