package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// chartFlags are --charts and --source: the chart and source caches the
// charts stage renders Helm releases and Kustomizations from.
type chartFlags struct {
	charts  []string
	sources []string
}

func (c *chartFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&c.charts, "charts", nil, "chart cache for HelmReleases (repeatable): a chart directory, a packaged .tgz, a Helm repository cache (index.yaml beside its packages), an OCI layout, or a directory of them; nothing is downloaded")
	fs.StringArrayVar(&c.sources, "source", nil, "a Flux source (GitRepository, OCIRepository or Bucket: its name, namespace/name or URL) as a local directory, NAME=DIR (repeatable)")
}

// config is the source.Config the flags give; a --source that is not
// NAME=DIR, or names one source twice, is a usage error.
func (c *chartFlags) config() (source.Config, error) {
	cfg := source.Config{Charts: c.charts}
	for _, s := range c.sources {
		name, dir, ok := strings.Cut(s, "=")
		if !ok || name == "" || dir == "" {
			return cfg, fmt.Errorf("--source %q: want NAME=DIR (a GitRepository, OCIRepository or Bucket's name, namespace/name or URL, and the directory holding its contents)", s)
		}
		if cfg.Sources == nil {
			cfg.Sources = map[string]string{}
		}
		if prev, dup := cfg.Sources[name]; dup {
			return cfg, fmt.Errorf("--source %s is given twice (%s and %s)", name, prev, dir)
		}
		cfg.Sources[name] = dir
	}
	return cfg, nil
}

// sourceDirs are the directories of sources, in name order.
func sourceDirs(sources map[string]string) []string {
	var out []string
	for _, name := range manifest.SortedKeys(sources) {
		out = append(out, sources[name])
	}
	return out
}
