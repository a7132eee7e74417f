package kustomize

// The kustomization.yaml kustomize-controller builds: a port of
// fluxcd/pkg/kustomize v1.41.0 kustomize_generator.go
// (Generator.GenerateManifest, findOrGenerateKustomization,
// scanManifests), Apache-2.0, without its .sourceignore filtering (the
// controller's NewGenerator(workDir, obj) does not filter). Calling the
// package itself would link controller-runtime and client-go's scheme
// into drydock, whose init costs every run.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/provider"
	kustypes "sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// generate returns the kustomization file the controller writes into
// dirPath (the user's, amended with the Kustomization's fields, or one
// listing every YAML file) and its path. The user's file is read as the
// generator reads it, dropping unknown fields (which `kustomize build`
// refuses); warn is told of them.
func generate(fs filesys.FileSystem, dirPath string, s *spec, warn func(string)) ([]byte, string, error) {
	data, kfile, created, err := findOrGenerate(fs, dirPath)
	if err != nil {
		return nil, "", err
	}
	kus := kustypes.Kustomization{TypeMeta: kustypes.TypeMeta{
		APIVersion: kustypes.KustomizationVersion, Kind: kustypes.KustomizationKind,
	}}
	if err := yaml.Unmarshal(data, &kus); err != nil {
		return nil, "", fmt.Errorf("%s: %w", filepath.Base(kfile), err)
	}
	var strict kustypes.Kustomization
	if err := strict.Unmarshal(data); err != nil && warn != nil && strings.Contains(err.Error(), "unknown field") {
		warn(fmt.Sprintf("%s: %v: kustomize-controller drops the field (kustomize build refuses it)", kfile, err))
	}
	if !created && len(kus.Resources) == 0 {
		// as the generator: avoids kustomize's "kustomization.yaml is empty"
		kus.BuildMetadata = []string{"originAnnotations"}
	}
	if s.has["targetNamespace"] {
		kus.Namespace = s.TargetNamespace
	}
	if s.has["namePrefix"] {
		kus.NamePrefix = s.NamePrefix
	}
	if s.has["nameSuffix"] {
		kus.NameSuffix = s.NameSuffix
	}
	for _, p := range s.Patches {
		kus.Patches = append(kus.Patches, kustypes.Patch{Patch: p.Patch, Target: adaptSelector(p.Target)})
	}
	for _, c := range s.Components {
		if !isLocalRelativePath(c) {
			return nil, "", fmt.Errorf("component path '%s' must be local and relative", c)
		}
		if s.IgnoreMissingComponents && !fs.Exists(filepath.Join(dirPath, c)) {
			continue
		}
		kus.Components = append(kus.Components, c)
	}
	// v1beta2's fields, written as the generator writes them.
	for _, p := range s.PatchesStrategicMerge {
		//lint:ignore SA1019 the generator sets the deprecated field, kept for fidelity
		kus.PatchesStrategicMerge = append(kus.PatchesStrategicMerge, kustypes.PatchStrategicMerge(p))
	}
	for _, p := range s.PatchesJSON6902 {
		//lint:ignore SA1019 the generator sets the deprecated field, kept for fidelity
		kus.PatchesJson6902 = append(kus.PatchesJson6902, kustypes.Patch{Patch: string(p.Patch), Target: adaptSelector(&p.Target)})
	}
	mergeImages(&kus, s.Images)
	if len(s.BuildMetadata) > 0 {
		kus.BuildMetadata = s.BuildMetadata
	}
	out, err := yaml.Marshal(kus)
	return out, kfile, err
}

// mergeImages adds the Kustomization's images to the kustomization's,
// merging into an entry of the same name field by field (newTag and
// digest as one unit), as the generator does.
func mergeImages(kus *kustypes.Kustomization, images []image) {
	for _, im := range images {
		i := imageIndex(kus.Images, im.Name)
		if i < 0 {
			kus.Images = append(kus.Images, kustypes.Image{Name: im.Name, NewName: im.NewName, NewTag: im.NewTag, Digest: im.Digest})
			continue
		}
		if im.NewName != "" {
			kus.Images[i].NewName = im.NewName
		}
		if im.NewTag != "" || im.Digest != "" {
			kus.Images[i].NewTag = im.NewTag
			kus.Images[i].Digest = im.Digest
		}
	}
}

// imageIndex is the index of the image named name, or -1.
func imageIndex(images []kustypes.Image, name string) int {
	for i, im := range images {
		if im.Name == name {
			return i
		}
	}
	return -1
}

// findOrGenerate returns the directory's kustomization file, or
// generates one whose resources are every YAML file (and every
// subdirectory holding a kustomization), created reporting which.
func findOrGenerate(fs filesys.FileSystem, dirPath string) ([]byte, string, bool, error) {
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		kpath := filepath.Join(dirPath, name)
		if fs.Exists(kpath) && !fs.IsDir(kpath) {
			data, err := fs.ReadFile(kpath)
			return data, kpath, false, err
		}
	}
	files, err := scanManifests(fs, dirPath)
	if err != nil {
		return nil, "", true, err
	}
	kus := kustypes.Kustomization{TypeMeta: kustypes.TypeMeta{
		APIVersion: kustypes.KustomizationVersion, Kind: kustypes.KustomizationKind,
	}}
	for _, f := range files {
		kus.Resources = append(kus.Resources, strings.Replace(f, dirPath, ".", 1))
	}
	if len(kus.Resources) == 0 {
		kus.Namespace = "_placeholder"
	}
	data, err := yaml.Marshal(kus)
	return data, filepath.Join(dirPath, konfig.DefaultKustomizationFileName()), true, err
}

// scanManifests lists the YAML files below base that decode as
// Kubernetes objects, and the subdirectories holding a kustomization
// (not descending into them), in walk order.
func scanManifests(fs filesys.FileSystem, base string) ([]string, error) {
	var paths []string
	rf := provider.NewDefaultDepProvider().GetResourceFactory()
	err := fs.Walk(base, func(p string, info os.FileInfo, err error) (walkErr error) {
		if err != nil || p == base {
			return err
		}
		if info.IsDir() {
			for _, name := range konfig.RecognizedKustomizationFileNames() {
				if k := filepath.Join(p, name); fs.Exists(k) && !fs.IsDir(k) {
					paths = append(paths, p)
					return filepath.SkipDir
				}
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		data, err := fs.ReadFile(p)
		if err != nil {
			return err
		}
		defer func() {
			if r := recover(); r != nil {
				walkErr = fmt.Errorf("recovered from panic while parsing YAML file %s: %v", filepath.Base(p), r)
			}
		}()
		if _, err := rf.SliceFromBytes(data); err != nil {
			return fmt.Errorf("failed to decode Kubernetes YAML from %s: %w", p, err)
		}
		paths = append(paths, p)
		return nil
	})
	return paths, err
}

// isLocalRelativePath is fluxcd/pkg/kustomize's IsLocalRelativePath:
// false for remote (git, http) and absolute paths.
func isLocalRelativePath(p string) bool {
	for _, prefix := range remotePrefixes {
		if len(prefix) < len(p) && strings.ToLower(p[:len(prefix)]) == prefix {
			return false
		}
	}
	return !filepath.IsAbs(p) && !filepath.IsAbs(strings.TrimPrefix(strings.ToLower(p), "file://"))
}

// remotePrefixes are kustomize's remote-URL prefixes
// (api/internal/git/repospec.go) less file://, as the generator lists them.
var remotePrefixes = []string{"git::", "gh:", "ssh://", "https://", "http://", "git@", "github.com:", "github.com/"}
