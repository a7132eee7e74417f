package report

import (
	"encoding/json"
	"io"

	"github.com/drydock-dev/drydock/reconcile"
)

// diffChange is one change, or one kept object (no action, no diff), in
// DiffJSON.
type diffChange struct {
	Cluster    string `json:"cluster"`
	Namespace  string `json:"namespace"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Action     string `json:"action,omitempty"`
	Reason     string `json:"reason"`
	Diff       string `json:"diff,omitempty"`
}

// diffSummary counts DiffJSON's changes.
type diffSummary struct {
	Create    int `json:"create"`
	Update    int `json:"update"`
	Delete    int `json:"delete"`
	Unchanged int `json:"unchanged"`
}

// DiffJSON is the plan for machines: a summary and every change (the
// unchanged and kept objects are counted as unchanged; the kept ones are
// also listed with their reasons). base is not part of it.
func DiffJSON(w io.Writer, p *reconcile.Plan, _ string) error {
	out := struct {
		Summary diffSummary  `json:"summary"`
		Changes []diffChange `json:"changes"`
		Kept    []diffChange `json:"kept"`
	}{
		Summary: diffSummary{p.Count(reconcile.Create), p.Count(reconcile.Update), p.Count(reconcile.Delete), p.Unchanged + len(p.Kept)},
		Changes: []diffChange{},
		Kept:    []diffChange{},
	}
	for _, c := range p.Changes {
		out.Changes = append(out.Changes, diffChange{Cluster: c.Cluster, Namespace: c.Key.Namespace, APIVersion: c.APIVersion, Kind: c.Key.Kind,
			Name: c.Key.Name, Action: string(c.Action), Reason: c.Reason, Diff: p.ChangeDiff(&c)})
	}
	for _, k := range p.Kept {
		out.Kept = append(out.Kept, diffChange{Cluster: k.Cluster, Namespace: k.Key.Namespace, APIVersion: k.APIVersion, Kind: k.Key.Kind, Name: k.Key.Name, Reason: k.Reason})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
