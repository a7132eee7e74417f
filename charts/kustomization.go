package charts

import (
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/charts/kustomize"
	"github.com/drydock-dev/drydock/manifest"
)

// Owner labels kustomize-controller puts on every object it applies
// (fluxcd/pkg ssa ResourceManager.SetOwnerLabels with the group
// kustomize.toolkit.fluxcd.io).
const (
	labelKustomizeName      = kustomizeGroup + "/name"
	labelKustomizeNamespace = kustomizeGroup + "/namespace"
)

// ksSpec is the part of a Kustomization's spec the controller reads
// itself; charts/kustomize reads the rest.
type ksSpec struct {
	SourceRef  crossRef `json:"sourceRef"`
	Path       string   `json:"path"`
	Suspend    bool     `json:"suspend"`
	KubeConfig any      `json:"kubeConfig"`
}

// kustomization builds one Kustomization: spec.path in its source's
// directory, through charts/kustomize with the cluster's ConfigMaps and
// Secrets for substituteFrom, then the owner labels.
func (r *run) kustomization(o *manifest.Object) ([]Output, error) {
	var s ksSpec
	if err := decodeSpec(o, &s); err != nil {
		return nil, r.fail(o, "spec", "%w", err)
	}
	if r.skip(o, s.Suspend, s.KubeConfig) {
		return nil, nil
	}
	ref := s.SourceRef
	if ref.Namespace == "" {
		ref.Namespace = o.Namespace()
	}
	switch ref.Kind {
	case "GitRepository", "OCIRepository", "Bucket":
	default:
		return nil, r.fail(o, "spec.sourceRef.kind", "sourceRef kind %q is not GitRepository, OCIRepository or Bucket", ref.Kind)
	}
	root, err := r.sourceDir(ref)
	if err != nil {
		return nil, r.fail(o, "spec.sourceRef", "%w", err)
	}
	dir, err := securePath(root, s.Path)
	if err != nil {
		return nil, r.fail(o, "spec.path", "%w", err)
	}
	lookup := func(kind, namespace, name string) *manifest.Object {
		return r.lookup(manifest.Key{Kind: kind, Namespace: namespace, Name: name})
	}
	objs, err := kustomize.BuildWith(kustomize.Options{Root: root, Dir: dir, Kustomization: o, Lookup: lookup,
		Warn: func(msg string) { r.warnf(o, "%s", msg) }})
	if err != nil {
		return nil, r.fail(o, "spec.path", "%w", err)
	}
	owner := map[string]string{labelKustomizeName: o.Name(), labelKustomizeNamespace: o.Namespace()}
	src := fmt.Sprintf("Kustomization %s/%s, path %s", o.Namespace(), o.Name(), ksPath(s.Path))
	out := make([]Output, 0, len(objs))
	for _, ko := range objs {
		if excluded(ko) {
			continue
		}
		setMetadata(ko, "labels", owner)
		out = append(out, Output{Object: ko, Source: src, By: o})
	}
	return out, nil
}

// excluded reports whether kustomize-controller's apply leaves o out: a
// label or annotation kustomize.toolkit.fluxcd.io/reconcile: disabled or
// kustomize.toolkit.fluxcd.io/ssa: Ignore, matched case-insensitively
// (its ExclusionSelector, fluxcd/pkg ssa/utils AnyInMetadata).
func excluded(o *manifest.Object) bool {
	sel := map[string]string{kustomizeGroup + "/reconcile": "disabled", kustomizeGroup + "/ssa": "Ignore"}
	labels, annotations := o.Labels(), o.Annotations()
	for k, v := range sel {
		if strings.EqualFold(labels[k], v) || strings.EqualFold(annotations[k], v) {
			return true
		}
	}
	return false
}

// ksPath is spec.path as Sources name it ("./" for the source's root).
func ksPath(p string) string {
	if p == "" {
		return "./"
	}
	return p
}
