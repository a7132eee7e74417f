package source

import (
	"errors"
	"fmt"
	"strings"
)

var (
	// ErrChartNotFound is wrapped by every *MissingChartError.
	ErrChartNotFound = errors.New("chart not in the chart cache")
	// ErrSourceNotFound is wrapped by every *MissingSourceError.
	ErrSourceNotFound = errors.New("source not mapped to a directory")
	// ErrBadEntry is wrapped by every *EntryError.
	ErrBadEntry = errors.New("not a chart, package, repository cache, OCI layout or directory of them")
	// ErrBadChart is wrapped by the error about a chart Helm's loader
	// refuses (a corrupt package, an invalid Chart.yaml).
	ErrBadChart = errors.New("chart cannot be loaded")
)

const notAForm = "neither a chart directory (Chart.yaml), a .tgz package, a repository cache (index.yaml), Helm's cache (<repo>-index.yaml), an OCI layout (oci-layout, index.json) nor a directory holding one"

// MissingChartError is a ChartRef the cache cannot resolve.
type MissingChartError struct {
	Ref ChartRef
	// Cached are the versions of the chart the cache holds for that
	// repository, ascending ("" when none).
	Cached []string
	// Elsewhere are the versions cached for other repositories, one
	// "URL: v1, v2" per repository.
	Elsewhere []string
	// Err is Helm's resolution error, if it got that far.
	Err error
}

func (e *MissingChartError) Error() string {
	var b strings.Builder
	r := e.Ref
	constraint := r.Version
	if constraint == "" {
		constraint = "latest stable"
	}
	fmt.Fprintf(&b, "chart %q version %q of repository %s is not in the chart cache", r.Name, constraint, orNone(r.RepoURL))
	switch {
	case len(e.Cached) > 0:
		fmt.Fprintf(&b, " (cached: %s)", strings.Join(e.Cached, ", "))
	case len(e.Elsewhere) > 0:
		fmt.Fprintf(&b, " (cached for other repositories: %s)", strings.Join(e.Elsewhere, ", "))
	default:
		b.WriteString(" (no version of it cached)")
	}
	fmt.Fprintf(&b, "; vendor it with `%s` and put DIR on --charts (drydock.yaml charts:)", e.Command())
	return b.String()
}

// Command is the helm command that would vendor the chart into DIR.
func (e *MissingChartError) Command() string {
	r := e.Ref
	var cmd string
	if strings.HasPrefix(r.RepoURL, "oci://") {
		cmd = "helm pull " + trimSlash(r.RepoURL) + "/" + r.Name
	} else {
		cmd = "helm pull " + r.Name + " --repo " + orNone(r.RepoURL)
	}
	if r.Version != "" {
		cmd += " --version '" + strings.ReplaceAll(r.Version, "'", `'\''`) + "'"
	}
	return cmd + " -d DIR"
}

func (e *MissingChartError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrChartNotFound, e.Err}
	}
	return []error{ErrChartNotFound}
}

func orNone(u string) string {
	if u == "" {
		return "URL"
	}
	return u
}

// MissingSourceError is a Flux source Config.Sources does not map to a
// directory that exists.
type MissingSourceError struct {
	Kind, Namespace, Name, URL string
	// Dir is the directory it is mapped to, when that is not there.
	Dir string
}

func (e *MissingSourceError) Error() string {
	src := fmt.Sprintf("%s %s/%s (%s)", e.Kind, e.Namespace, e.Name, orNone(e.URL))
	if e.Dir != "" {
		return fmt.Sprintf("%s is mapped to %s, which is not a directory", src, e.Dir)
	}
	return fmt.Sprintf("%s is not mapped to a local directory: give `--source %s/%s=DIR` or add `sources: {%s: DIR}` to drydock.yaml (%s)", src, e.Namespace, e.Name, e.Name, vendorHint(e.Kind, e.URL))
}

func vendorHint(kind, url string) string {
	switch kind {
	case "GitRepository":
		return "e.g. after `git clone " + orNone(url) + " DIR`"
	case "OCIRepository":
		return "e.g. after `flux pull artifact " + orNone(url) + ":TAG -o DIR`"
	default:
		return "DIR holding the source's contents"
	}
}

func (e *MissingSourceError) Unwrap() error { return ErrSourceNotFound }

// EntryError is an entry of Config.Charts (or Config.Repositories) that
// is none of the supported forms, or cannot be read.
type EntryError struct {
	Entry string
	Err   error
}

func (e *EntryError) Error() string {
	return fmt.Sprintf("chart cache entry %s: %v", e.Entry, e.Err)
}

func (e *EntryError) Unwrap() []error { return []error{ErrBadEntry, e.Err} }
