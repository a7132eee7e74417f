package reconcile

import (
	"slices"
	"strings"
)

// Tally counts the changes of one cluster or one application: each
// action, and how many of the updates are Bookkeeping or Ignored.
type Tally struct {
	Name                   string
	Create, Update, Delete int
	Bookkeeping, Ignored   int
}

func (t *Tally) add(c *Change) {
	switch c.Action {
	case Create:
		t.Create++
	case Update:
		t.Update++
	case Delete:
		t.Delete++
	}
	switch c.Noise {
	case Bookkeeping:
		t.Bookkeeping++
	case Ignored:
		t.Ignored++
	}
}

// tally counts the changes by name(change), sorted by name.
func (p *Plan) tally(name func(c *Change) string) []Tally {
	at := map[string]int{}
	var out []Tally
	for i := range p.Changes {
		c := &p.Changes[i]
		n := name(c)
		j, ok := at[n]
		if !ok {
			j = len(out)
			at[n] = j
			out = append(out, Tally{Name: n})
		}
		out[j].add(c)
	}
	slices.SortFunc(out, func(a, b Tally) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// ByCluster counts the changes per cluster, sorted by cluster.
func (p *Plan) ByCluster() []Tally { return p.tally(func(c *Change) string { return c.Cluster }) }

// ByApplication counts the changes per owning application
// (namespace/name; "" for the objects of none, first), sorted by name.
func (p *Plan) ByApplication() []Tally { return p.tally(func(c *Change) string { return c.App }) }

// Total counts all changes.
func (p *Plan) Total() Tally {
	var t Tally
	for i := range p.Changes {
		t.add(&p.Changes[i])
	}
	return t
}

// AppBookkeeping is one application's Bookkeeping updates: how many, and
// the distinct label and annotation changes they make, sorted.
type AppBookkeeping struct {
	App     string
	Objects int
	Keys    []KeyChange
}

// BookkeepingByApp is every application's Bookkeeping updates, sorted by
// application.
func (p *Plan) BookkeepingByApp() []AppBookkeeping {
	at := map[string]int{}
	var out []AppBookkeeping
	for _, c := range p.Changes {
		if c.Noise != Bookkeeping {
			continue
		}
		j, ok := at[c.App]
		if !ok {
			j = len(out)
			at[c.App] = j
			out = append(out, AppBookkeeping{App: c.App})
		}
		out[j].Objects++
		for _, k := range c.Bookkeeping {
			if !slices.Contains(out[j].Keys, k) {
				out[j].Keys = append(out[j].Keys, k)
			}
		}
	}
	for i := range out {
		slices.SortFunc(out[i].Keys, compareKeyChanges)
	}
	slices.SortFunc(out, func(a, b AppBookkeeping) int { return strings.Compare(a.App, b.App) })
	return out
}

// compareKeyChanges orders labels before annotations, each in the order
// of BookkeepingLabels and BookkeepingAnnotations (the revision first),
// then by value.
func compareKeyChanges(a, b KeyChange) int {
	rank := func(k KeyChange) int {
		if k.Annotation {
			return len(BookkeepingLabels) + slices.Index(BookkeepingAnnotations, k.Key)
		}
		return slices.Index(BookkeepingLabels, k.Key)
	}
	if d := rank(a) - rank(b); d != 0 {
		return d
	}
	return strings.Compare(a.String(), b.String())
}

// IgnoredRules are the ignore rules that made updates Ignored, in the
// order first used, with how many updates are Ignored.
func (p *Plan) IgnoredRules() (rules []string, objects int) {
	for _, c := range p.Changes {
		if c.Noise != Ignored {
			continue
		}
		objects++
		for _, r := range c.IgnoredBy {
			if !slices.Contains(rules, r) {
				rules = append(rules, r)
			}
		}
	}
	return rules, objects
}
