// Package cluster owns drydock's picture of the clusters a render targets:
// the inventory (Karmada cluster.karmada.io Cluster objects, plus the hub
// `local` that always exists) and the in-memory fake clusters that hold the
// objects applied to them.
//
// It does not render, place or override anything; it stores what it is
// given with API-server apply semantics (a later write of the same key
// replaces the earlier one) and reports the final state.
package cluster

import (
	"errors"
	"fmt"
	"sort"

	"github.com/Masterminds/semver/v3"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// Local is the name of the hub cluster, which always exists.
const Local = "local"

// Cluster is one entry of the inventory.
type Cluster struct {
	Name     string
	Labels   map[string]string
	Provider string
	Region   string
	Zones    []string
	// KubernetesVersion is status.kubernetesVersion, e.g. "v1.29.4" ("" if unknown).
	KubernetesVersion string
	// ControlPlane names the inventory cluster that is this cluster's
	// Karmada control plane (annotation drydock.dev/karmada-control-plane);
	// "" for the members of the inputs' own Karmada control plane.
	ControlPlane string
	// Capacity is the cluster's free resources (status.resourceSummary
	// and resource models); nil when the inventory gives none, which
	// Karmada's general estimator reads as room for no replica.
	Capacity *Capacity
	// Taints are spec.taints.
	Taints []Taint
	// Source is where the Cluster object was authored (zero for `local`).
	Source manifest.Pos
}

// AnnotationControlPlane on a member Cluster names the inventory cluster
// that is its Karmada control plane: what KubeVela dispatches there is
// propagated to the members.
const AnnotationControlPlane = "drydock.dev/karmada-control-plane"

// Inventory is the set of known clusters.
type Inventory struct {
	clusters map[string]*Cluster
}

// NewInventory returns an inventory holding only `local`.
func NewInventory() *Inventory {
	return &Inventory{clusters: map[string]*Cluster{Local: {Name: Local}}}
}

// IsClusterObject reports whether obj is a cluster.karmada.io Cluster.
func IsClusterObject(obj *manifest.Object) bool {
	return manifest.Group(obj.APIVersion()) == "cluster.karmada.io" && obj.Kind() == "Cluster"
}

// Add records a Cluster object. A Cluster named `local` only sets the hub's
// version: the hub has no labels.
func (inv *Inventory) Add(obj *manifest.Object) error {
	name := obj.Name()
	if name == "" {
		return &manifest.Error{Pos: obj.Pos, Err: errors.New("Cluster without metadata.name")}
	}
	if msg := ValidateClusterName(name); msg != "" && name != Local {
		return clusterError(obj, fieldpath.New("metadata", "name"), "metadata.name: Invalid value: %q: %s", name, msg)
	}
	if prev, dup := inv.clusters[name]; dup && prev.Source.IsValid() {
		return &manifest.Error{Pos: obj.Pos, Err: fmt.Errorf("Cluster %q is already in the inventory (%s)", name, prev.Source)}
	}
	c, err := decodeCluster(obj)
	if err != nil {
		return err
	}
	if v := c.KubernetesVersion; v != "" {
		if _, err := semver.NewVersion(v); err != nil {
			return clusterError(obj, fieldpath.New("status", "kubernetesVersion"), "status.kubernetesVersion: Invalid value: %q: not a Kubernetes version such as v1.29.4", v)
		}
	}
	if c.Capacity, err = decodeCapacity(obj); err != nil {
		return err
	}
	if c.Taints, err = decodeTaints(obj); err != nil {
		return err
	}
	if name == Local {
		c.Labels = nil
	}
	inv.clusters[name] = c
	return nil
}

// Get returns the named cluster.
func (inv *Inventory) Get(name string) (*Cluster, bool) {
	c, ok := inv.clusters[name]
	return c, ok
}

// Names returns every cluster name, `local` first, then in byte order.
func (inv *Inventory) Names() []string {
	names := make([]string, 0, len(inv.clusters))
	for n := range inv.clusters {
		if n != Local {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return append([]string{Local}, names...)
}

// Members returns the member clusters of a Karmada control plane, by name:
// for "" the inputs' own control plane (every cluster but `local` that
// names no control plane), else the clusters naming controlPlane.
func (inv *Inventory) Members(controlPlane string) []*Cluster {
	var out []*Cluster
	for _, c := range inv.Clusters() {
		if c.Name != Local && c.ControlPlane == controlPlane {
			out = append(out, c)
		}
	}
	return out
}

// ControlPlanes returns the inventory clusters that members name as their
// Karmada control plane, by name.
func (inv *Inventory) ControlPlanes() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range inv.Clusters() {
		if c.ControlPlane != "" && !seen[c.ControlPlane] {
			seen[c.ControlPlane] = true
			out = append(out, c.ControlPlane)
		}
	}
	sort.Strings(out)
	return out
}

// Clusters returns every cluster in Names order.
func (inv *Inventory) Clusters() []*Cluster {
	var out []*Cluster
	for _, n := range inv.Names() {
		out = append(out, inv.clusters[n])
	}
	return out
}
