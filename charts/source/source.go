// Package source is the local chart and source cache: chart directories,
// packaged charts (.tgz), Helm repository caches (index.yaml beside their
// packages) and OCI image layouts for charts; directories standing for
// Git, OCI and Bucket sources. Nothing here reaches the network: a chart
// or source that is not cached is an error naming what is missing and
// the command that would vendor it.
package source

import (
	"errors"

	chart "helm.sh/helm/v4/pkg/chart/v2"
)

// Config is what the cache holds: --charts / drydock.yaml charts:, and
// sources: (name → directory).
type Config struct {
	// Charts are chart directories, .tgz files, Helm repository caches
	// and OCI layouts, or directories holding any of them.
	Charts []string
	// Sources map a Flux source (its name, namespace/name, or URL) to
	// a local directory holding its contents.
	Sources map[string]string
}

// Cache resolves charts and sources; each (chart, version) is loaded once
// per process and shared read-only.
type Cache struct {
	cfg Config
}

// Open indexes cfg; errors name the entry that is not a chart, a
// repository cache, an OCI layout or a directory.
func Open(cfg Config) (*Cache, error) {
	return &Cache{cfg: cfg}, nil
}

// ChartRef is a chart as helm-controller asks for it.
type ChartRef struct {
	// RepoURL is the HelmRepository's spec.url (https://… or oci://…),
	// "" for a chart path inside a Git/Bucket source (Dir resolves it).
	RepoURL string
	// Name is the chart name, or its path inside a source.
	Name string
	// Version is a semver constraint as Helm resolves it ("" = latest
	// stable, "*").
	Version string
}

// Chart returns the chart ref resolves to, loaded by Helm's loader, and
// the version it resolved.
func (c *Cache) Chart(ref ChartRef) (*chart.Chart, error) {
	return nil, errors.New("source: not implemented")
}

// Dir returns the local directory standing for a Git, OCI or Bucket
// source (kind, namespace, name and its spec.url).
func (c *Cache) Dir(kind, namespace, name, url string) (string, error) {
	return "", errors.New("source: not implemented")
}
