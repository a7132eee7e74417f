package source

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"

	chart "helm.sh/helm/v4/pkg/chart/v2"
	"sigs.k8s.io/yaml"
)

// Media types of a Helm chart in an OCI layout (helm.sh/helm/v4/pkg/registry).
const (
	chartLayerMediaType       = "application/vnd.cncf.helm.chart.content.v1.tar+gzip"
	legacyChartLayerMediaType = "application/tar+gzip"
	chartConfigMediaType      = "application/vnd.cncf.helm.config.v1+json"
	refNameAnnotation         = "org.opencontainers.image.ref.name"
)

// maxScanDepth bounds the scan of a directory of caches.
const maxScanDepth = 8

type itemKind int

const (
	kindDir itemKind = iota
	kindPackage
)

// item is one cached (chart, version), not loaded until asked for.
type item struct {
	name, version string
	kind          itemKind
	path          string // the chart directory, the package, or the OCI blob
	// repoURL is the repository the cache knows the chart comes from
	// ("" unknown); pkgURL the absolute url of an index entry.
	repoURL, pkgURL string
	mapped          bool // repoURL comes from Config.Repositories
}

// agrees reports whether it may stand for a chart of repository want
// (trailing slashes trimmed); wantMapped says want is a key of
// Config.Repositories.
func (it *item) agrees(want string, wantMapped bool) bool {
	switch {
	case want == "":
		return true
	case wantMapped || it.mapped:
		return it.mapped && it.repoURL == want
	case it.pkgURL != "":
		return strings.HasPrefix(it.pkgURL, want+"/")
	case it.repoURL != "":
		return it.repoURL == want
	}
	return true
}

func (it *item) load(f fsys) (*chart.Chart, error) {
	if it.kind == kindDir {
		return loadDir(f, it.path)
	}
	data, err := f.readFile(it.path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadChart, err)
	}
	return loadArchive(it.path, data)
}

// scan classifies p: found is false for a directory holding nothing
// cached (and for a file that is not a package, below the top).
func (c *Cache) scan(p string, depth int) (items []*item, found bool, err error) {
	f := c.fs
	fi, err := f.stat(p)
	if err != nil {
		return nil, false, err
	}
	if !fi.IsDir() {
		if strings.HasSuffix(p, ".tgz") {
			it, err := packageItem(f, p)
			return []*item{it}, err == nil, err
		}
		return nil, false, nil
	}
	switch {
	case isChartDir(f, p):
		it, err := dirItem(f, p)
		return []*item{it}, err == nil, err
	case f.isFile(f.join(p, "oci-layout")) && f.isFile(f.join(p, "index.json")):
		items, err := ociItems(f, p)
		return items, err == nil, err
	case f.isFile(f.join(p, "index.yaml")):
		items, err := indexItems(f, p, f.join(p, "index.yaml"))
		return items, err == nil, err
	}
	entries, err := f.readDir(p)
	if err != nil {
		return nil, false, err
	}
	if items, ok, err := helmCache(f, p, entries); ok || err != nil {
		return items, ok, err
	}
	if depth >= maxScanDepth {
		return nil, false, nil
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		sub, ok, err := c.scan(f.join(p, e.Name()), depth+1)
		if err != nil {
			return nil, false, err
		}
		found = found || ok
		items = append(items, sub...)
	}
	return items, found, nil
}

// helmCache reads Helm's repository cache layout: <repo>-index.yaml
// files with packages beside them; packages no index names are taken
// too.
func helmCache(f fsys, dir string, entries []fs.DirEntry) ([]*item, bool, error) {
	var items []*item
	indexed := map[string]bool{}
	seen := false
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), "-index.yaml") {
			continue
		}
		seen = true
		its, err := indexItems(f, dir, f.join(dir, e.Name()))
		if err != nil {
			return nil, true, err
		}
		for _, it := range its {
			indexed[it.path] = true
		}
		items = append(items, its...)
	}
	if !seen {
		return nil, false, nil
	}
	for _, e := range entries {
		p := f.join(dir, e.Name())
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".tgz") || indexed[p] {
			continue
		}
		it, err := packageItem(f, p)
		if err != nil {
			return nil, true, err
		}
		items = append(items, it)
	}
	return items, true, nil
}

// dirItem is a chart directory.
func dirItem(f fsys, dir string) (*item, error) {
	data, err := f.readFile(f.join(dir, "Chart.yaml"))
	if err != nil {
		return nil, err
	}
	md, err := metadata(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.join(dir, "Chart.yaml"), err)
	}
	return &item{name: md.Name, version: md.Version, kind: kindDir, path: dir}, nil
}

func metadata(data []byte) (*chart.Metadata, error) {
	md := new(chart.Metadata)
	if err := yaml.Unmarshal(data, md); err != nil {
		return nil, err
	}
	if md.Name == "" || md.Version == "" {
		return nil, errors.New("no name or version")
	}
	return md, nil
}

// packageItem is a .tgz package: its Chart.yaml is read from the
// archive (the chart itself is loaded when asked for).
func packageItem(f fsys, p string) (*item, error) {
	data, err := f.readFile(p)
	if err != nil {
		return nil, err
	}
	md, err := packageMetadata(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadChart, p, err)
	}
	return &item{name: md.Name, version: md.Version, kind: kindPackage, path: p}, nil
}

// packageMetadata reads the top chart's Chart.yaml from a package.
func packageMetadata(data []byte) (*chart.Metadata, error) {
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, errors.New("no Chart.yaml in the package")
		}
		if err != nil {
			return nil, err
		}
		parts := strings.Split(strings.TrimPrefix(path.Clean(h.Name), "/"), "/")
		if len(parts) != 2 || parts[1] != "Chart.yaml" {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, 1<<20))
		if err != nil {
			return nil, err
		}
		return metadata(b)
	}
}

// indexItems are the packages index file idx (in dir) lists that dir
// holds.
func indexItems(f fsys, dir, idx string) ([]*item, error) {
	index, err := loadIndex(f, idx)
	if err != nil {
		return nil, err
	}
	present := map[string]bool{}
	if entries, err := f.readDir(dir); err == nil {
		for _, e := range entries {
			present[f.join(dir, e.Name())] = true
		}
	}
	var items []*item
	for _, name := range slices.Sorted(maps.Keys(index.Entries)) {
		for _, cv := range index.Entries[name] {
			if cv == nil || cv.Metadata == nil || len(cv.URLs) == 0 || cv.Removed {
				continue
			}
			it := &item{name: name, version: cv.Version, kind: kindPackage}
			u, err := url.Parse(cv.URLs[0])
			if err != nil {
				continue
			}
			if u.IsAbs() {
				it.path = f.join(dir, path.Base(u.Path))
				it.pkgURL = u.String()
				it.repoURL = u.Scheme + "://" + u.Host + path.Dir(u.Path)
			} else {
				it.path = f.join(dir, u.Path)
			}
			if present[it.path] || (strings.Contains(u.Path, "/") && f.isFile(it.path)) {
				items = append(items, it)
			}
		}
	}
	return items, nil
}

// loadIndex loads an index file as Helm's repo.LoadIndexFile does
// (parseIndex); Helm logs the entries it skips only from a file on disk.
func loadIndex(f fsys, p string) (*indexFile, error) {
	var data []byte
	var err error
	if f.fs == nil {
		data, err = os.ReadFile(p)
	} else {
		data, err = f.readFile(p)
	}
	if err != nil {
		return nil, err
	}
	i, err := parseIndex(data, p, f.fs == nil)
	if err != nil {
		return nil, fmt.Errorf("error loading %s: %w", p, err)
	}
	return i, nil
}

// ociIndex and ociManifest are the parts of an OCI image layout read.
type ociDescriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Annotations map[string]string `json:"annotations"`
}

type ociIndex struct {
	Manifests []ociDescriptor `json:"manifests"`
}

type ociManifest struct {
	Config ociDescriptor   `json:"config"`
	Layers []ociDescriptor `json:"layers"`
}

// ociItems are the Helm charts an OCI image layout holds.
func ociItems(f fsys, dir string) ([]*item, error) {
	var idx ociIndex
	if err := readJSON(f, f.join(dir, "index.json"), &idx); err != nil {
		return nil, err
	}
	var items []*item
	for _, d := range idx.Manifests {
		var m ociManifest
		if err := readJSON(f, blobPath(f, dir, d.Digest), &m); err != nil {
			return nil, fmt.Errorf("manifest %s: %w", d.Digest, err)
		}
		var layer string
		for _, l := range m.Layers {
			if l.MediaType == chartLayerMediaType || l.MediaType == legacyChartLayerMediaType {
				layer = l.Digest
			}
		}
		if layer == "" || m.Config.MediaType != chartConfigMediaType {
			continue
		}
		var md chart.Metadata
		if err := readJSON(f, blobPath(f, dir, m.Config.Digest), &md); err != nil {
			return nil, fmt.Errorf("chart config %s: %w", m.Config.Digest, err)
		}
		it := &item{name: md.Name, version: md.Version, kind: kindPackage, path: blobPath(f, dir, layer)}
		it.repoURL = ociRepo(d.Annotations[refNameAnnotation])
		items = append(items, it)
	}
	if len(items) == 0 {
		return nil, errors.New("OCI layout holds no Helm chart (no layer of media type " + chartLayerMediaType + ")")
	}
	return items, nil
}

// ociRepo is the repository of a full reference
// (ghcr.io/org/charts/podinfo:6.5.0 → oci://ghcr.io/org/charts), "" for
// a bare tag.
func ociRepo(ref string) string {
	if i := strings.Index(ref, "@"); i >= 0 {
		ref = ref[:i]
	}
	slash := strings.LastIndex(ref, "/")
	if slash < 0 {
		return ""
	}
	return "oci://" + strings.TrimPrefix(ref[:slash], "oci://")
}

func blobPath(f fsys, dir, digest string) string {
	alg, hex, _ := strings.Cut(digest, ":")
	return f.join(dir, "blobs", alg, hex)
}

func readJSON(f fsys, p string, v any) error {
	data, err := f.readFile(p)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
