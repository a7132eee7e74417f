package source

// A port of the parts of Helm's helm.sh/helm/v4/pkg/repo/v1 drydock uses
// (IndexFile, ChartVersion, their loading, SortEntries and Get; Helm
// v4, Apache-2.0, see the LICENSE of helm.sh/helm/v4). Importing that
// package links Helm's getter, registry and oras-go, whose initialisers
// every drydock command paid for at start.

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"sigs.k8s.io/yaml"
)

var (
	errNoAPIVersion   = errors.New("no API version specified")
	errNoChartVersion = errors.New("no chart version found")
	errNoChartName    = errors.New("no chart name found")
	errEmptyIndexYaml = errors.New("empty index.yaml file")
)

// chartVersions are an index file's versions of one chart.
type chartVersions []*chartVersion

func (c chartVersions) Len() int      { return len(c) }
func (c chartVersions) Swap(i, j int) { c[i], c[j] = c[j], c[i] }

// Less is semver precedence; versions that do not parse sort first.
func (c chartVersions) Less(a, b int) bool {
	i, err := semver.NewVersion(c[a].Version)
	if err != nil {
		return true
	}
	j, err := semver.NewVersion(c[b].Version)
	if err != nil {
		return false
	}
	return i.LessThan(j)
}

// indexFile is a chart repository's index.yaml. Every field Helm's has
// is here, because it is read strictly.
type indexFile struct {
	ServerInfo  map[string]any           `json:"serverInfo,omitempty"`
	APIVersion  string                   `json:"apiVersion"`
	Generated   time.Time                `json:"generated"`
	Entries     map[string]chartVersions `json:"entries"`
	PublicKeys  []string                 `json:"publicKeys,omitempty"`
	Annotations map[string]string        `json:"annotations,omitempty"`
}

// chartVersion is one entry of an index file.
type chartVersion struct {
	*chart.Metadata
	URLs                    []string  `json:"urls"`
	Created                 time.Time `json:"created"`
	Removed                 bool      `json:"removed,omitempty"`
	Digest                  string    `json:"digest,omitempty"`
	ChecksumDeprecated      string    `json:"checksum,omitempty"`
	EngineDeprecated        string    `json:"engine,omitempty"`
	TillerVersionDeprecated string    `json:"tillerVersion,omitempty"`
	URLDeprecated           string    `json:"url,omitempty"`
}

// parseIndex is Helm's loadIndex: JSON or strict YAML, entries that are
// nil or fail validation dropped (logged when warn), sorted newest
// first.
func parseIndex(data []byte, source string, warn bool) (*indexFile, error) {
	i := &indexFile{}
	if len(data) == 0 {
		return i, errEmptyIndexYaml
	}
	var err error
	if json.Valid(data) {
		err = json.Unmarshal(data, i)
	} else {
		err = yaml.UnmarshalStrict(data, i)
	}
	if err != nil {
		return i, err
	}
	for name, cvs := range i.Entries {
		var keep chartVersions
		for _, v := range cvs {
			if v == nil {
				if warn {
					slog.Warn("skipping loading invalid entry for chart: empty entry", "name", name, "source", source)
				}
				continue
			}
			if v.Metadata == nil {
				v.Metadata = &chart.Metadata{}
			}
			if v.APIVersion == "" {
				v.APIVersion = chart.APIVersionV1
			}
			if err := v.Validate(); skippableValidation(err) != nil {
				if warn {
					slog.Warn("skipping loading invalid entry for chart", "name", name, "version", v.Version, "source", source, "error", err)
				}
				continue
			}
			keep = append(keep, v)
		}
		i.Entries[name] = keep
	}
	i.sortEntries()
	if i.APIVersion == "" {
		return i, errNoAPIVersion
	}
	return i, nil
}

// skippableValidation is nil for the validation errors Helm ignores in
// an index (helm/helm#12748: repositories that strip aliases).
func skippableValidation(err error) error {
	var verr chart.ValidationError
	if !errors.As(err, &verr) {
		return err
	}
	if strings.HasPrefix(verr.Error(), "validation: more than one dependency with name or alias") {
		return nil
	}
	return err
}

// sortEntries sorts every chart's versions newest first.
func (i *indexFile) sortEntries() {
	for _, versions := range i.Entries {
		sort.Sort(sort.Reverse(versions))
	}
}

// isVersionRange is whether version is a constraint rather than one
// version.
func isVersionRange(version string) bool {
	if strings.ContainsAny(version, "^~<>=!*") || strings.Contains(version, "||") || strings.Contains(version, " - ") {
		return true
	}
	core := version
	if idx := strings.IndexAny(version, "-+"); idx != -1 {
		core = version[:idx]
	}
	return strings.ContainsAny(core, "xX")
}

// get is Helm's IndexFile.Get: an exact match first, else the newest
// version the constraint admits ("" is the newest stable one).
func (i *indexFile) get(name, version string) (*chartVersion, error) {
	vs, ok := i.Entries[name]
	if !ok {
		return nil, errNoChartName
	}
	if len(vs) == 0 {
		return nil, errNoChartVersion
	}
	var constraint *semver.Constraints
	if version == "" {
		constraint, _ = semver.NewConstraint("*")
	} else {
		var err error
		constraint, err = semver.NewConstraint(version)
		if err != nil {
			return nil, err
		}
	}
	if version != "" {
		for _, ver := range vs {
			if version == ver.Version {
				return ver, nil
			}
		}
	}
	for _, ver := range vs {
		test, err := semver.NewVersion(ver.Version)
		if err != nil {
			continue
		}
		if constraint.Check(test) {
			if version != "" && !isVersionRange(version) {
				slog.Warn("unable to find exact version requested; falling back to closest available version", "chart", name, "requested", version, "selected", ver.Version)
			} else if version != "" && isVersionRange(version) {
				slog.Debug("selected version matching constraint", "chart", name, "constraint", version, "selected", ver.Version)
			}
			return ver, nil
		}
	}
	return nil, fmt.Errorf("no chart version found for %s-%s", name, version)
}
