package deftest

import (
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/pipeline"
)

// BranchCoverage is one `if` of a tested definition's template and
// whether the definition tests made its condition true and false.
type BranchCoverage struct {
	Definition  string
	Pos         manifest.Pos
	Condition   string
	True, False bool
}

// Coverage records which ifs of the tested definitions' templates the
// tests take, each way.
type Coverage struct {
	defs     *pipeline.DefinitionSet
	order    []string // the tested definitions, first tested first
	branches map[string][]pipeline.Branch
	took     map[string][]BranchCoverage
}

// NewCoverage returns a Coverage of the definitions of defs, none tested
// yet.
func NewCoverage(defs *pipeline.DefinitionSet) *Coverage {
	return &Coverage{defs: defs, branches: map[string][]pipeline.Branch{}, took: map[string][]BranchCoverage{}}
}

// Add records the branches test t takes.
func (c *Coverage) Add(t Test) {
	branches, seen := c.branches[t.Definition]
	if !seen {
		branches = pipeline.Branches(c.defs, t.Definition)
		c.branches[t.Definition] = branches
		c.order = append(c.order, t.Definition)
		c.took[t.Definition] = make([]BranchCoverage, len(branches))
		for i, b := range branches {
			c.took[t.Definition][i] = BranchCoverage{Definition: t.Definition, Pos: b.Pos, Condition: b.Condition}
		}
	}
	if len(branches) == 0 {
		return
	}
	ctx := map[string]any{"name": t.Context.Name, "appName": t.Context.AppName, "namespace": t.Context.Namespace, "cluster": t.Context.Cluster}
	for i, took := range pipeline.BranchOutcomes(c.defs, t.Definition, branches, t.Properties, ctx) {
		switch {
		case took == nil:
		case *took:
			c.took[t.Definition][i].True = true
		default:
			c.took[t.Definition][i].False = true
		}
	}
}

// Result is every branch of the tested definitions, in the order they
// were first tested.
func (c *Coverage) Result() []BranchCoverage {
	var out []BranchCoverage
	for _, d := range c.order {
		out = append(out, c.took[d]...)
	}
	return out
}
