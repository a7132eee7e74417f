// Package source is the local chart and source cache: chart directories,
// packaged charts (.tgz), Helm repository caches (index.yaml beside their
// packages) and OCI image layouts for charts; directories standing for
// Git, OCI and Bucket sources. Nothing here reaches the network: a chart
// or source that is not cached is an error naming what is missing and
// the command that would vendor it.
//
// # What an entry of Config.Charts may be
//
//   - a chart directory (it holds Chart.yaml);
//   - a packaged chart, a file ending .tgz;
//   - a Helm repository cache: a directory holding index.yaml whose
//     entries' urls name packages beside it (a relative url is joined to
//     the directory; an absolute one is mapped to the file of the same
//     base name in the directory);
//   - Helm's own cache layout (~/.cache/helm/repository): a directory
//     holding <repo>-index.yaml files and the <chart>-<version>.tgz
//     packages `helm dependency build` leaves beside them (urls mapped as
//     in a repository cache; packages no index names are taken as
//     packages);
//   - an OCI image layout (oci-layout, index.json, blobs/sha256/…) whose
//     manifests carry a Helm chart layer
//     (application/vnd.cncf.helm.chart.content.v1.tar+gzip);
//   - a directory holding any of these: its files and subdirectories are
//     scanned, recursively, skipping hidden ones; a subdirectory that is
//     itself one of the forms above is taken as that and not scanned
//     further. Index entries whose package is absent are not cached.
//
// Anything else, or a directory in which the scan finds nothing, is an
// *EntryError.
//
// # How a chart is matched to a ChartRef
//
// The name must equal ChartRef.Name and the version must satisfy
// ChartRef.Version, resolved by (a port of) Helm's repo.IndexFile.Get over every
// cached version of that name (so "" is the latest stable version,
// prereleases only when the constraint admits them, semver ranges as
// Helm reads them). The repository must agree where the cache knows it:
//
//   - Config.Repositories maps a repository URL to an entry: a ChartRef
//     of that URL is resolved in that entry only, and the entry's
//     charts match no other URL;
//   - an index entry (index.yaml or <repo>-index.yaml) with an absolute
//     url knows its repository: the url must start with
//     ChartRef.RepoURL + "/" (trailing slashes ignored). A repository
//     whose packages live elsewhere (GitHub releases) is mapped with
//     Config.Repositories instead;
//   - an OCI layout whose org.opencontainers.image.ref.name annotation is
//     a full reference (ghcr.io/org/charts/podinfo:6.5.0) knows its
//     repository, oci://ghcr.io/org/charts, which must equal RepoURL;
//   - otherwise (chart directories, packages, relative urls, an OCI
//     layout tagged with a bare tag) the repository is not known and any
//     RepoURL matches.
//
// Of several cached copies of the resolved version, one whose repository
// is known first, then the first in Config.Charts order.
package source

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

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
	// Repositories map a repository URL (https://… or oci://…) to an
	// entry (as in Charts) holding that repository's charts, for caches
	// that do not know their URL. Entries named here need not be in
	// Charts.
	Repositories map[string]string
	// FS is where every path is read: nil is the operating system's
	// filesystem with paths as given; otherwise paths are relative to FS
	// (a git revision's tree, for diff --base).
	FS fs.FS
}

// Cache resolves charts and sources; each (chart, version) is loaded once
// per process and shared read-only.
type Cache struct {
	cfg   Config
	fs    fsys
	items []*item

	mu       sync.Mutex
	resolved map[ChartRef]result
}

type result struct {
	ch  *chart.Chart
	err error
}

// Open indexes cfg; errors name the entry that is not a chart, a
// repository cache, an OCI layout or a directory.
func Open(cfg Config) (*Cache, error) {
	c := &Cache{cfg: cfg, fs: fsys{fs: cfg.FS}, resolved: map[ChartRef]result{}}
	var errs []error
	for _, e := range cfg.Charts {
		items, err := c.scanEntry(e, "")
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.items = append(c.items, items...)
	}
	urls := make([]string, 0, len(cfg.Repositories))
	for u := range cfg.Repositories {
		urls = append(urls, u)
	}
	sort.Strings(urls)
	for _, u := range urls {
		items, err := c.scanEntry(cfg.Repositories[u], trimSlash(u))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c.items = append(c.items, items...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return c, nil
}

// scanEntry classifies one configured entry; mapped is the repository
// URL Config.Repositories gives it, or "".
func (c *Cache) scanEntry(e, mapped string) ([]*item, error) {
	items, found, err := c.scan(e, 0)
	if err != nil {
		return nil, &EntryError{Entry: e, Err: err}
	}
	if !found {
		return nil, &EntryError{Entry: e, Err: errors.New(notAForm)}
	}
	for _, it := range items {
		if mapped != "" {
			it.repoURL, it.mapped = mapped, true
		}
	}
	return items, nil
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

// Chart returns the chart ref resolves to, loaded by Helm's loader (its
// Metadata.Version is the version resolved). The chart is shared:
// callers must not modify it (charts/helm.Render works on a copy).
// A chart the cache does not hold is a *MissingChartError.
func (c *Cache) Chart(ref ChartRef) (*chart.Chart, error) {
	c.mu.Lock()
	r, ok := c.resolved[ref]
	c.mu.Unlock()
	if ok {
		return r.ch, r.err
	}
	it, err := c.resolve(ref)
	if err == nil {
		r.ch, r.err = it.load(c.fs)
	} else {
		r.err = err
	}
	c.mu.Lock()
	c.resolved[ref] = r
	c.mu.Unlock()
	return r.ch, r.err
}

// ChartDir returns the chart in the directory dir (a path inside a
// directory Dir returned, for a HelmRelease's chart: ./charts/podinfo),
// loaded once per process like any other.
func (c *Cache) ChartDir(dir string) (*chart.Chart, error) {
	if !isChartDir(c.fs, dir) {
		return nil, fmt.Errorf("%w: %s: no Chart.yaml", ErrBadChart, dir)
	}
	return loadDir(c.fs, dir)
}

// candidates are the cached charts named ref.Name whose repository
// agrees with ref.RepoURL; others are those of that name that do not.
func (c *Cache) candidates(ref ChartRef) (match, others []*item) {
	want := trimSlash(ref.RepoURL)
	_, mapped := c.mappedURL(want)
	for _, it := range c.items {
		if it.name != ref.Name {
			continue
		}
		if it.agrees(want, mapped) {
			match = append(match, it)
		} else {
			others = append(others, it)
		}
	}
	return match, others
}

func (c *Cache) mappedURL(u string) (string, bool) {
	for k := range c.cfg.Repositories {
		if trimSlash(k) == u && u != "" {
			return k, true
		}
	}
	return "", false
}

// resolve picks the cached item ref resolves to, with Helm's IndexFile.Get.
func (c *Cache) resolve(ref ChartRef) (*item, error) {
	match, others := c.candidates(ref)
	missing := &MissingChartError{Ref: ref}
	byURL := map[string][]string{}
	for _, it := range others {
		byURL[it.repoURL] = append(byURL[it.repoURL], it.version)
	}
	for _, u := range slices.Sorted(maps.Keys(byURL)) {
		missing.Elsewhere = append(missing.Elsewhere, u+": "+strings.Join(sortVersions(byURL[u]), ", "))
	}
	if len(match) == 0 {
		return nil, missing
	}
	idx := &indexFile{Entries: map[string]chartVersions{}}
	seen := map[string]bool{}
	for _, it := range match {
		missing.Cached = append(missing.Cached, it.version)
		if seen[it.version] {
			continue
		}
		seen[it.version] = true
		idx.Entries[ref.Name] = append(idx.Entries[ref.Name], &chartVersion{Metadata: &chart.Metadata{Name: it.name, Version: it.version}})
	}
	idx.sortEntries()
	missing.Cached = sortVersions(missing.Cached)
	cv, err := idx.get(ref.Name, ref.Version)
	if err != nil {
		missing.Err = err
		return nil, missing
	}
	var best *item
	for _, it := range match {
		if it.version != cv.Version {
			continue
		}
		if best == nil || (it.repoURL != "" && best.repoURL == "") {
			best = it
		}
	}
	return best, nil
}

// sortVersions sorts versions by semver precedence, ascending, then as
// strings, and drops duplicates.
func sortVersions(vs []string) []string {
	cv := make(chartVersions, len(vs))
	for i, v := range vs {
		cv[i] = &chartVersion{Metadata: &chart.Metadata{Version: v}}
	}
	sort.SliceStable(cv, func(a, b int) bool {
		if cv.Less(a, b) != cv.Less(b, a) {
			return cv.Less(a, b)
		}
		return cv[a].Version < cv[b].Version // equal precedence: build metadata
	})
	var out []string
	for _, v := range cv {
		if len(out) == 0 || out[len(out)-1] != v.Version {
			out = append(out, v.Version)
		}
	}
	return out
}

// Dir returns the local directory standing for a Git, OCI or Bucket
// source (kind, namespace, name and its spec.url). Config.Sources keys
// are tried most specific first: "namespace/name", then "name", then
// the URL. A source not mapped, or mapped to a directory that is not
// there, is a *MissingSourceError.
func (c *Cache) Dir(kind, namespace, name, url string) (string, error) {
	for _, k := range []string{namespace + "/" + name, name, url, trimSlash(url)} {
		if k == "" || k == "/" {
			continue
		}
		d, ok := c.cfg.Sources[k]
		if !ok {
			continue
		}
		if !c.fs.isDir(d) {
			return "", &MissingSourceError{Kind: kind, Namespace: namespace, Name: name, URL: url, Dir: d}
		}
		return d, nil
	}
	return "", &MissingSourceError{Kind: kind, Namespace: namespace, Name: name, URL: url}
}
