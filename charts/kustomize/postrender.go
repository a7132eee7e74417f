package kustomize

// helm-controller's kustomize post-renderer: a port of
// fluxcd/helm-controller internal/postrender/kustomize.go (Kustomize.Run)
// and build.go (BuildPostRenderers: each spec.postRenderers[].kustomize
// in order), Apache-2.0.

import (
	"encoding/json"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	kustypes "sigs.k8s.io/kustomize/api/types"

	"github.com/drydock-dev/drydock/manifest"
)

// postRenderer is one spec.postRenderers entry of a HelmRelease.
type postRenderer struct {
	Kustomize *struct {
		Patches []patch `json:"patches"`
		Images  []image `json:"images"`
	} `json:"kustomize"`
}

// PostRender runs the kustomize post-renderers of a HelmRelease spec
// (spec.postRenderers[].kustomize: patches and images) over a release's
// objects, one after the other as helm-controller chains them, and
// returns the objects in kustomize's output order. A spec without
// post-renderers returns objs unchanged. helm-controller's other
// post-renderers (commonMetadata, the helm.toolkit.fluxcd.io origin
// labels) are not run here.
func PostRender(objs []*manifest.Object, spec map[string]any) ([]*manifest.Object, error) {
	var prs []postRenderer
	if v, ok := spec["postRenderers"]; ok {
		data, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("spec.postRenderers: %w", err)
		}
		if err := json.Unmarshal(data, &prs); err != nil {
			return nil, fmt.Errorf("spec.postRenderers: %w", err)
		}
	}
	for i, pr := range prs {
		if pr.Kustomize == nil {
			continue
		}
		out, err := postRenderKustomize(objs, pr.Kustomize.Patches, pr.Kustomize.Images)
		if err != nil {
			return nil, fmt.Errorf("spec.postRenderers[%d].kustomize: %w", i, err)
		}
		objs = out
	}
	return objs, nil
}

// postRenderKustomize is Kustomize.Run: the objects as helm-output.yaml,
// a kustomization with the images and patches, built in memory.
func postRenderKustomize(objs []*manifest.Object, patches []patch, images []image) ([]*manifest.Object, error) {
	var stream []byte
	for _, o := range objs {
		b, err := yaml.Marshal(o.Data)
		if err != nil {
			return nil, err
		}
		stream = append(append(stream, "---\n"...), b...)
	}
	fs := filesys.MakeFsInMemory()
	const input = "helm-output.yaml"
	cfg := kustypes.Kustomization{}
	cfg.APIVersion = kustypes.KustomizationVersion
	cfg.Kind = kustypes.KustomizationKind
	for _, im := range images {
		cfg.Images = append(cfg.Images, kustypes.Image{Name: im.Name, NewName: im.NewName, NewTag: im.NewTag, Digest: im.Digest})
	}
	cfg.Resources = append(cfg.Resources, input)
	for _, p := range patches {
		cfg.Patches = append(cfg.Patches, kustypes.Patch{Patch: p.Patch, Target: adaptSelector(p.Target)})
	}
	if err := fs.WriteFile(input, stream); err != nil {
		return nil, err
	}
	k, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	if err := fs.WriteFile("kustomization.yaml", k); err != nil {
		return nil, err
	}
	m, _, err := kustomizeBuild(fs, ".", false)
	if err != nil {
		return nil, err
	}
	out, err := m.AsYaml()
	if err != nil {
		return nil, err
	}
	return manifest.Decode("helm post-render", out, manifest.DecodeOptions{})
}
