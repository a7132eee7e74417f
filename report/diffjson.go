package report

import (
	"encoding/json"
	"io"

	"github.com/drydock-dev/drydock/reconcile"
)

// diffChange is one change, or one kept object (no action, no diff), in
// DiffJSON.
type diffChange struct {
	Cluster     string `json:"cluster"`
	Namespace   string `json:"namespace"`
	APIVersion  string `json:"apiVersion"`
	Kind        string `json:"kind"`
	Name        string `json:"name"`
	Application string `json:"application,omitempty"`
	Action      string `json:"action,omitempty"`
	Reason      string `json:"reason"`
	// BookkeepingOnly and IgnoredOnly mark an update whose only changes
	// are KubeVela's bookkeeping labels, or ignored fields.
	BookkeepingOnly bool     `json:"bookkeepingOnly,omitempty"`
	IgnoredOnly     bool     `json:"ignoredOnly,omitempty"`
	IgnoredBy       []string `json:"ignoredBy,omitempty"`
	Diff            string   `json:"diff,omitempty"`
}

// diffSummary counts DiffJSON's changes.
type diffSummary struct {
	Create          int `json:"create"`
	Update          int `json:"update"`
	Delete          int `json:"delete"`
	Unchanged       int `json:"unchanged"`
	BookkeepingOnly int `json:"bookkeepingOnly"`
	IgnoredOnly     int `json:"ignoredOnly"`
}

// diffTally is a row of DiffJSON's clusters or applications.
type diffTally struct {
	Name            string `json:"name"`
	Create          int    `json:"create"`
	Update          int    `json:"update"`
	Delete          int    `json:"delete"`
	BookkeepingOnly int    `json:"bookkeepingOnly"`
	IgnoredOnly     int    `json:"ignoredOnly"`
}

// diffBookkeeping is an application's bookkeeping-only updates in
// DiffJSON.
type diffBookkeeping struct {
	Application string   `json:"application"`
	Objects     int      `json:"objects"`
	Changes     []string `json:"changes"`
}

func tallies(ts []reconcile.Tally) []diffTally {
	out := []diffTally{}
	for _, t := range ts {
		out = append(out, diffTally{t.Name, t.Create, t.Update, t.Delete, t.Bookkeeping, t.Ignored})
	}
	return out
}

// DiffJSON is the plan for machines: a summary, the counts per cluster
// and per application ("" for the objects of none), the bookkeeping-only
// updates per application, and every change, each update marked
// bookkeepingOnly or ignoredOnly when it is (the unchanged and kept
// objects are counted as unchanged; the kept ones are also listed with
// their reasons). Nothing is left out: the options do not apply. base is
// not part of it.
func DiffJSON(w io.Writer, p *reconcile.Plan, _ string, _ DiffOptions) error {
	t := p.Total()
	out := struct {
		Summary      diffSummary       `json:"summary"`
		Clusters     []diffTally       `json:"clusters"`
		Applications []diffTally       `json:"applications"`
		Bookkeeping  []diffBookkeeping `json:"bookkeeping"`
		Changes      []diffChange      `json:"changes"`
		Kept         []diffChange      `json:"kept"`
	}{
		Summary:      diffSummary{t.Create, t.Update, t.Delete, p.Unchanged + len(p.Kept), t.Bookkeeping, t.Ignored},
		Clusters:     tallies(p.ByCluster()),
		Applications: tallies(p.ByApplication()),
		Bookkeeping:  []diffBookkeeping{},
		Changes:      []diffChange{},
		Kept:         []diffChange{},
	}
	for _, b := range p.BookkeepingByApp() {
		db := diffBookkeeping{Application: b.App, Objects: b.Objects, Changes: []string{}}
		for _, k := range b.Keys {
			db.Changes = append(db.Changes, k.String())
		}
		out.Bookkeeping = append(out.Bookkeeping, db)
	}
	for i := range p.Changes {
		c := &p.Changes[i]
		out.Changes = append(out.Changes, diffChange{Cluster: c.Cluster, Namespace: c.Key.Namespace, APIVersion: c.APIVersion, Kind: c.Key.Kind,
			Name: c.Key.Name, Application: c.App, Action: string(c.Action), Reason: c.Reason,
			BookkeepingOnly: c.Noise == reconcile.Bookkeeping, IgnoredOnly: c.Noise == reconcile.Ignored, IgnoredBy: c.IgnoredBy,
			Diff: p.ChangeDiff(c)})
	}
	for _, k := range p.Kept {
		out.Kept = append(out.Kept, diffChange{Cluster: k.Cluster, Namespace: k.Key.Namespace, APIVersion: k.APIVersion, Kind: k.Key.Kind, Name: k.Key.Name, Reason: k.Reason})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
