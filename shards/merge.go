package shards

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Input is a shard's report and the name it is known by (its file).
type Input struct {
	Name   string
	Report *Report
}

// Merge combines the reports of the shards 1..n of one run into the
// report of the whole run (which, as a whole run's, names no drydock
// version). Every report must be of the same n (a report without a
// shard is shard 1 of 1), the same config and drydock version, and every shard
// 1..n given once: a missing shard, one given twice, mixed counts or
// configs or versions, or a split suite (one with unclaimed findings) missing from a
// shard's report are an error naming them. For each suite (sorted by
// name):
//   - objects add up (each shard counts the objects it is answerable for);
//   - checks are the union, in the order the shards first name them;
//   - findings are the union, one of each (findings about what every
//     shard checks, such as a resource template, come once per shard);
//   - a shard's warning that it rendered the whole suite
//     (WholeRenderPrefix) is left out: the whole run does not make it;
//   - "the golden tree does not exist yet: N objects render", which each
//     shard makes with its own N, comes once, with N the objects of the
//     shards that made it;
//   - an unclaimed finding becomes a finding only when every shard that
//     ran the suite has it: a golden file is stale only if no shard
//     rendered it;
//   - errors are joined, one of each, and the status follows.
//
// Findings are sorted (check, object, file, line, column, level,
// message), so the same shard reports give the same bytes whatever their
// order.
func Merge(in []Input) (*Report, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("no report to merge")
	}
	n := 0
	byIndex := map[int]string{}
	for _, i := range in {
		s := shardOf(i.Report)
		if n == 0 {
			n = s.Count
		}
		if s.Count != n {
			return nil, fmt.Errorf("%s is shard %d/%d but %s is of %d shards: the reports are not of one run", i.Name, s.Index, s.Count, in[0].Name, n)
		}
		if first, dup := byIndex[s.Index]; dup {
			return nil, fmt.Errorf("shard %d/%d is given twice: %s and %s", s.Index, n, first, i.Name)
		}
		byIndex[s.Index] = i.Name
		if c, c0 := i.Report.Config, in[0].Report.Config; c != c0 {
			return nil, fmt.Errorf("%s is of config %q but %s of %q: the reports are not of one run", i.Name, c, in[0].Name, c0)
		}
		if v, v0 := i.Report.Drydock, in[0].Report.Drydock; v != v0 {
			return nil, fmt.Errorf("%s is of drydock %s but %s of drydock %s: the reports are not of one run (shards split and report by their version's rules)", i.Name, orUnknown(v), in[0].Name, orUnknown(v0))
		}
	}
	var missing []string
	for i := 1; i <= n; i++ {
		if _, ok := byIndex[i]; !ok {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing shard %s of %d: every shard's report is needed to merge (a stale golden file is one no shard rendered)", strings.Join(missing, ", "), n)
	}
	ordered := slices.Clone(in)
	slices.SortFunc(ordered, func(a, b Input) int { return cmp.Compare(shardOf(a.Report).Index, shardOf(b.Report).Index) })
	out := &Report{Config: ordered[0].Report.Config, Suites: []Suite{}}
	type acc struct {
		suite     Suite
		runs      []string // the shards that ran the suite
		seen      map[string]bool
		unclaimed map[string]int
		first     map[string]Finding
		errors    []string
		// missing are the shards' "golden tree does not exist yet"
		// findings, by the finding without its count, and the objects
		// of the shards that made it.
		missing map[string]*missingTree
	}
	suites := map[string]*acc{}
	for _, i := range ordered {
		for _, s := range i.Report.Suites {
			a := suites[s.Name]
			if a == nil {
				a = &acc{suite: Suite{Name: s.Name, Checks: []string{}, Findings: []Finding{}},
					seen: map[string]bool{}, unclaimed: map[string]int{}, first: map[string]Finding{}, missing: map[string]*missingTree{}}
				suites[s.Name] = a
			}
			a.runs = append(a.runs, i.Name)
			a.suite.Objects += s.Objects
			for _, c := range s.Checks {
				if !slices.Contains(a.suite.Checks, c) {
					a.suite.Checks = append(a.suite.Checks, c)
				}
			}
			for _, f := range s.Findings {
				if wholeRender(f) {
					continue
				}
				if k, ok := missingKey(f); ok {
					m := a.missing[k]
					if m == nil {
						m = &missingTree{finding: f}
						a.missing[k] = m
					}
					if !slices.Contains(m.shards, i.Name) {
						m.shards = append(m.shards, i.Name)
						m.objects += s.Objects
					}
					continue
				}
				if k := key(f); !a.seen[k] {
					a.seen[k] = true
					a.suite.Findings = append(a.suite.Findings, f)
				}
			}
			mine := map[string]bool{} // a finding the shard repeats counts once
			for _, f := range s.Unclaimed {
				if k := key(f); !mine[k] {
					mine[k] = true
					a.unclaimed[k]++
					a.first[k] = f
				}
			}
			a.suite.Updated = union(a.suite.Updated, s.Updated)
			a.suite.Adopted = union(a.suite.Adopted, s.Adopted)
			if s.Error != "" && !slices.Contains(a.errors, s.Error) {
				a.errors = append(a.errors, s.Error)
			}
		}
	}
	names := make([]string, 0, len(suites))
	for name := range suites {
		names = append(names, name)
	}
	slices.Sort(names)
	out.OK = true
	for _, name := range names {
		a := suites[name]
		if len(a.unclaimed) > 0 && len(a.runs) < n {
			// A shard leaves golden files unclaimed only in a suite every
			// shard runs: a report without it is of another selection
			// (--suite), whose golden files would all turn stale.
			for _, i := range ordered {
				if !slices.Contains(a.runs, i.Name) {
					return nil, fmt.Errorf("suite %s is split among the shards but %s does not have it: the reports are not of one run (the same --suite for every shard)", name, i.Name)
				}
			}
		}
		for _, m := range a.missing {
			f := m.finding
			if len(m.shards) > 1 {
				// Each shard counts what it rendered; the whole run, the
				// objects of the suite (the shards' objects add up).
				f.Message = m.prefix() + objectsRender(m.objects) + m.suffix()
			}
			if k := key(f); !a.seen[k] {
				a.seen[k] = true
				a.suite.Findings = append(a.suite.Findings, f)
			}
		}
		for k, count := range a.unclaimed {
			if count == len(a.runs) && !a.seen[k] {
				a.seen[k] = true
				a.suite.Findings = append(a.suite.Findings, a.first[k])
			}
		}
		slices.SortFunc(a.suite.Findings, compareFindings)
		a.suite.Error = strings.Join(a.errors, "\n")
		a.suite.Status = a.suite.status()
		out.OK = out.OK && a.suite.Status == StatusOK
		out.Suites = append(out.Suites, a.suite)
	}
	return out, nil
}

// orUnknown is version v, or "(unknown)" for a report that names none.
func orUnknown(v string) string {
	if v == "" {
		return "(unknown)"
	}
	return v
}

// shardOf is the report's shard: 1 of 1 when it names none.
func shardOf(r *Report) Shard {
	if r.Shard == nil {
		return Shard{Index: 1, Count: 1}
	}
	return *r.Shard
}

// WholeRenderPrefix starts the warning of a shard that rendered the
// whole suite (its applications may change each other's objects): how
// the shard worked, not a finding of the suite, which the whole run does
// not make (with --fail-on-warn it would fail the merge alone).
const WholeRenderPrefix = "shards render the whole suite, each reporting only its applications' objects: "

// wholeRender reports whether f is a shard's WholeRenderPrefix warning.
func wholeRender(f Finding) bool {
	return f.Check == "render" && f.Level == LevelWarning && f.Object == "" && strings.HasPrefix(f.Message, WholeRenderPrefix)
}

// missingTree is the "golden tree does not exist yet" finding of the
// shards that made it (their names) and their objects added up.
type missingTree struct {
	finding Finding
	shards  []string
	objects int
}

// missingTreeMessage is check's "the golden tree DIR does not exist yet:
// N objects render; HINT": each shard counts the objects it rendered.
var missingTreeMessage = regexp.MustCompile(`^(the golden tree .* does not exist yet: )\d+ objects? renders?(; .*)$`)

// missingKey is the key of a "golden tree does not exist yet" finding
// without its count; ok is false for any other finding.
func missingKey(f Finding) (string, bool) {
	m := missingTreeMessage.FindStringSubmatch(f.Message)
	if f.Check != "golden" || f.Object != "" || m == nil {
		return "", false
	}
	f.Message = m[1] + m[2]
	return key(f), true
}

func (m *missingTree) prefix() string {
	return missingTreeMessage.FindStringSubmatch(m.finding.Message)[1]
}

func (m *missingTree) suffix() string {
	return missingTreeMessage.FindStringSubmatch(m.finding.Message)[2]
}

// objectsRender is "1 object renders" or "N objects render", as check
// writes it.
func objectsRender(n int) string {
	if n == 1 {
		return "1 object renders"
	}
	return fmt.Sprintf("%d objects render", n)
}

// key identifies a finding: all of it.
func key(f Finding) string {
	b, _ := json.Marshal(f) // a map's keys are sorted: the same finding, the same bytes
	return string(b)
}

// union is a with the strings of b it lacks, sorted.
func union(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	slices.Sort(a)
	return a
}

// compareFindings orders findings by check, object, place, level and
// message, then all of them.
func compareFindings(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.Check, b.Check),
		cmp.Compare(a.Object, b.Object),
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Level, b.Level),
		cmp.Compare(a.Message, b.Message),
		cmp.Compare(key(a), key(b)),
	)
}
