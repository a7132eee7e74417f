package kustomize

import (
	"encoding/json"
	"fmt"

	kustypes "sigs.k8s.io/kustomize/api/types"

	"github.com/drydock-dev/drydock/manifest"
)

// spec is the part of a Flux Kustomization's spec the build reads, with
// the JSON names of kustomize-controller's api/v1 (and v1beta2's
// patchesStrategicMerge and patchesJson6902).
type spec struct {
	Path                    string            `json:"path"`
	TargetNamespace         string            `json:"targetNamespace"`
	NamePrefix              string            `json:"namePrefix"`
	NameSuffix              string            `json:"nameSuffix"`
	Patches                 []patch           `json:"patches"`
	PatchesStrategicMerge   []json.RawMessage `json:"patchesStrategicMerge"`
	PatchesJSON6902         []json6902Patch   `json:"patchesJson6902"`
	Images                  []image           `json:"images"`
	Components              []string          `json:"components"`
	IgnoreMissingComponents bool              `json:"ignoreMissingComponents"`
	BuildMetadata           []string          `json:"buildMetadata"`
	CommonMetadata          *struct {
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	} `json:"commonMetadata"`
	PostBuild *postBuild `json:"postBuild"`

	// has records which string fields were set (the generator sets
	// namespace, namePrefix and nameSuffix when the field is present,
	// even empty).
	has map[string]bool
}

// postBuild is spec.postBuild.
type postBuild struct {
	Substitute         map[string]string `json:"substitute"`
	SubstituteFrom     []substituteRef   `json:"substituteFrom"`
	SubstituteStrategy string            `json:"substituteStrategy"`
}

// substituteRef is one postBuild.substituteFrom entry.
type substituteRef struct {
	Kind     string `json:"kind"`
	Name     string `json:"name"`
	Optional bool   `json:"optional"`
}

// patch is fluxcd/pkg/apis/kustomize's Patch.
type patch struct {
	Patch  string    `json:"patch"`
	Target *selector `json:"target"`
}

// json6902Patch is v1beta2's patchesJson6902 entry.
type json6902Patch struct {
	Target selector        `json:"target"`
	Patch  json.RawMessage `json:"patch"`
}

// selector is fluxcd/pkg/apis/kustomize's Selector.
type selector struct {
	Group              string `json:"group"`
	Version            string `json:"version"`
	Kind               string `json:"kind"`
	Namespace          string `json:"namespace"`
	Name               string `json:"name"`
	AnnotationSelector string `json:"annotationSelector"`
	LabelSelector      string `json:"labelSelector"`
}

// image is fluxcd/pkg/apis/kustomize's Image.
type image struct {
	Name    string `json:"name"`
	NewName string `json:"newName"`
	NewTag  string `json:"newTag"`
	Digest  string `json:"digest"`
}

// decodeSpec reads ks.spec into a spec.
func decodeSpec(ks *manifest.Object) (*spec, error) {
	m := manifest.Map(ks.Data, "spec")
	data, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	var s spec
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	s.has = map[string]bool{}
	for _, k := range []string{"targetNamespace", "namePrefix", "nameSuffix"} {
		_, s.has[k] = m[k]
	}
	return &s, nil
}

// adaptSelector is fluxcd/pkg/kustomize's adaptSelector
// (kustomize_generator.go): a Flux selector as kustomize's.
func adaptSelector(s *selector) *kustypes.Selector {
	if s == nil {
		return nil
	}
	out := &kustypes.Selector{}
	out.Gvk.Group = s.Group
	out.Gvk.Kind = s.Kind
	out.Gvk.Version = s.Version
	out.Name = s.Name
	out.Namespace = s.Namespace
	out.LabelSelector = s.LabelSelector
	out.AnnotationSelector = s.AnnotationSelector
	return out
}
