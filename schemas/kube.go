package schemas

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The Kubernetes API schemas: the OpenAPI v3 documents a release's API
// server publishes, one file per minor version (kube/generate.sh).

//go:embed kube/*.json.gz
var kubeData embed.FS

// KubeVersions are the Kubernetes minor versions whose API schemas are
// embedded, oldest first ("1.23", ..., "1.35").
var KubeVersions = sync.OnceValue(func() []string {
	entries, err := kubeData.ReadDir("kube")
	if err != nil {
		panic(err)
	}
	var out []string
	for _, e := range entries {
		if v, ok := strings.CutSuffix(strings.TrimPrefix(e.Name(), "v"), ".json.gz"); ok {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return minorOf(a) - minorOf(b) })
	return out
})

// DefaultKubeVersion is the version of a cluster whose version is not
// known: the newest embedded.
func DefaultKubeVersion() string {
	v := KubeVersions()
	return v[len(v)-1]
}

func minorOf(v string) int {
	_, m, _ := strings.Cut(v, ".")
	n, _ := strconv.Atoi(m)
	return n
}

var kubeVersionRE = regexp.MustCompile(`^v?1\.(\d+)(\.\d+)?([-+].*)?$`)

// KubeVersion is the embedded minor version that validates a cluster of
// version v ("v1.29.4", "1.29", "v1.30.2-eks-1"): its own, else the
// nearest embedded one, with a note saying so. A version that does not
// parse is an error.
func KubeVersion(v string) (version, note string, err error) {
	m := kubeVersionRE.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return "", "", fmt.Errorf("version %q is not a Kubernetes version (want 1.MINOR or v1.MINOR.PATCH)", v)
	}
	minor, _ := strconv.Atoi(m[1])
	versions := KubeVersions()
	oldest, newest := versions[0], versions[len(versions)-1]
	switch {
	case minor < minorOf(oldest):
		return oldest, fmt.Sprintf("Kubernetes %s is older than the oldest embedded API schemas; validated as %s", v, oldest), nil
	case minor > minorOf(newest):
		return newest, fmt.Sprintf("Kubernetes %s is newer than the newest embedded API schemas; validated as %s", v, newest), nil
	}
	return "1." + m[1], "", nil
}

// KubeAPI is one Kubernetes version's API: the kinds its API server
// serves and their schemas.
type KubeAPI struct {
	Version string
	kinds   map[string]kubeKind // by group/version/Kind
	defs    map[string]json.RawMessage
	// validators holds a func() *objectValidator per kind key.
	validators sync.Map
}

type kubeKind struct {
	Definition string `json:"definition"`
	Namespaced bool   `json:"namespaced"`
}

var kubeAPIs sync.Map // version -> func() (*KubeAPI, error)

// LoadKubeAPI returns the API of an embedded version (KubeVersions),
// decoded once per process.
func LoadKubeAPI(version string) (*KubeAPI, error) {
	load, _ := kubeAPIs.LoadOrStore(version, sync.OnceValues(func() (*KubeAPI, error) { return decodeKubeAPI(version) }))
	return load.(func() (*KubeAPI, error))()
}

func decodeKubeAPI(version string) (*KubeAPI, error) {
	raw, err := kubeData.ReadFile(path.Join("kube", "v"+version+".json.gz"))
	if err != nil {
		return nil, fmt.Errorf("no embedded API schemas for Kubernetes %s (embedded: %s)", version, strings.Join(KubeVersions(), ", "))
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Kinds       map[string]kubeKind        `json:"kinds"`
		Definitions map[string]json.RawMessage `json:"definitions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("decode the embedded API schemas of Kubernetes %s: %w", version, err)
	}
	return &KubeAPI{Version: version, kinds: doc.Kinds, defs: doc.Definitions}, nil
}

// gvkKey is how the embedded data names a kind: group/version/Kind, the
// core group empty.
func gvkKey(apiVersion, kind string) string {
	group, version, found := strings.Cut(apiVersion, "/")
	if !found {
		group, version = "", apiVersion
	}
	return group + "/" + version + "/" + kind
}

// Serves reports whether the version's API server serves kind in
// apiVersion, and whether it is namespaced.
func (a *KubeAPI) Serves(apiVersion, kind string) (served, namespaced bool) {
	k, ok := a.kinds[gvkKey(apiVersion, kind)]
	return ok, k.Namespaced
}

// servesGroupKind lists the versions of group in which a serves kind,
// newest API version first as Kubernetes orders them (v1 before v1beta1).
func (a *KubeAPI) servesGroupKind(group, kind string) []string {
	var out []string
	for key := range a.kinds {
		g, rest, _ := strings.Cut(key, "/")
		v, k, _ := strings.Cut(rest, "/")
		if g == group && k == kind {
			if g != "" {
				v = g + "/" + v
			}
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(x, y string) int { return compareAPIVersions(y, x) })
	return out
}

var apiVersionRE = regexp.MustCompile(`^v(\d+)(?:(alpha|beta)(\d+))?$`)

// compareAPIVersions orders Kubernetes API versions of one group as the
// API server prefers them: GA over beta over alpha, then by number.
func compareAPIVersions(a, b string) int {
	rank := func(v string) (int, int, int) {
		if i := strings.LastIndexByte(v, '/'); i >= 0 {
			v = v[i+1:]
		}
		m := apiVersionRE.FindStringSubmatch(v)
		if m == nil {
			return -1, 0, 0
		}
		major, _ := strconv.Atoi(m[1])
		stage := map[string]int{"alpha": 0, "beta": 1, "": 2}[m[2]]
		n, _ := strconv.Atoi(m[3])
		return stage, major, n
	}
	as, am, an := rank(a)
	bs, bm, bn := rank(b)
	switch {
	case as != bs:
		return as - bs
	case am != bm:
		return am - bm
	}
	return an - bn
}
