package karmada

import (
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// Implicit priorities of a resource selector match (Karmada's
// util.ImplicitPriority), lowest first.
const (
	PriorityMismatch      = 0
	PriorityMatchAll      = 1
	PriorityLabelSelector = 2
	PriorityName          = 3
)

// ResourceSelector is a Karmada policy.karmada.io ResourceSelector.
type ResourceSelector struct {
	APIVersion    string
	Kind          string
	Namespace     string
	Name          string
	LabelSelector *manifest.LabelSelector
}

// DecodeResourceSelector reads a resource selector from its decoded YAML
// form. apiVersion and kind are required (as Karmada's CRD schema requires);
// type errors and missing fields are reported as *manifest.FieldError.
func DecodeResourceSelector(m map[string]any) (ResourceSelector, error) {
	var s ResourceSelector
	var err error
	if s.APIVersion, err = manifest.RequiredString(m, "apiVersion"); err != nil {
		return s, err
	}
	if s.Kind, err = manifest.RequiredString(m, "kind"); err != nil {
		return s, err
	}
	if s.Namespace, err = manifest.OptionalString(m, "namespace"); err != nil {
		return s, err
	}
	if s.Name, err = manifest.OptionalString(m, "name"); err != nil {
		return s, err
	}
	if s.LabelSelector, err = manifest.DecodeLabelSelector(m["labelSelector"]); err != nil {
		return s, manifest.PrefixError(fieldpath.New("labelSelector"), err)
	}
	return s, nil
}

// Priority tells how well obj matches the selector, as Karmada's
// util.ResourceSelectorPriority: apiVersion and kind must be equal strings
// and the namespace, if set, equal; then a set name decides alone
// (PriorityName or PriorityMismatch); else a label selector, even an empty
// one, is evaluated against obj's own metadata.labels
// (PriorityLabelSelector); else the selector matches all (PriorityMatchAll).
// Labels are read like unstructured.GetLabels: a label map holding a
// non-string value counts as no labels.
func (s ResourceSelector) Priority(obj *manifest.Object) int {
	if manifest.String(obj.Data, "apiVersion") != s.APIVersion || manifest.String(obj.Data, "kind") != s.Kind {
		return PriorityMismatch
	}
	if s.Namespace != "" && manifest.String(obj.Data, "metadata", "namespace") != s.Namespace {
		return PriorityMismatch
	}
	if s.Name != "" {
		if manifest.String(obj.Data, "metadata", "name") == s.Name {
			return PriorityName
		}
		return PriorityMismatch
	}
	if s.LabelSelector == nil {
		return PriorityMatchAll
	}
	if s.LabelSelector.Matches(manifest.StrictStringMap(obj.Data, "metadata", "labels")) {
		return PriorityLabelSelector
	}
	return PriorityMismatch
}
