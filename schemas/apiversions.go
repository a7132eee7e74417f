package schemas

import (
	"sort"
	"strings"
)

// APIVersions are the group/versions the version's API server serves
// and each of their group/version/Kinds ("v1", "apps/v1",
// "apps/v1/Deployment"), sorted: what Helm's .Capabilities.APIVersions
// holds for a cluster of that version, before its custom resources.
func (a *KubeAPI) APIVersions() []string {
	seen := map[string]bool{}
	for key := range a.kinds {
		// key is group/version/Kind, the core group empty.
		group, rest, _ := strings.Cut(key, "/")
		version, kind, _ := strings.Cut(rest, "/")
		gv := version
		if group != "" {
			gv = group + "/" + version
		}
		seen[gv] = true
		seen[gv+"/"+kind] = true
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
