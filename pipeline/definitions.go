package pipeline

import "github.com/drydock-dev/drydock/render"

// What definition tests (package check, which reaches render only
// through pipeline) ask of a set of definitions.

// DefinitionSet is a set of definitions (LoadDefinitions' result).
type DefinitionSet = render.Definitions

// Branch is an `if` of a definition's template (render.Branch).
type Branch = render.Branch

// DefinitionKind is what defs defines typ as: "component", "trait" or
// "policy" (the first that applies), "" for none.
func DefinitionKind(defs *render.Definitions, typ string) string {
	for _, k := range []struct{ kind, name string }{
		{render.KindComponent, "component"}, {render.KindTrait, "trait"}, {render.KindPolicy, "policy"},
	} {
		if defs.Get(k.kind, typ) != nil {
			return k.name
		}
	}
	return ""
}

// DefinitionStatus evaluates the health policy and custom status of the
// component or trait definition typ in defs as KubeVela's controller does
// after dispatch (render.EvalStatus); ok is false when defs has no such
// definition.
func DefinitionStatus(defs *render.Definitions, typ string, ctx, parameter map[string]any) (st render.Status, ok bool) {
	d := defs.ComponentOrTrait(typ)
	if d == nil {
		return render.Status{}, false
	}
	return render.EvalStatus(d.Status, ctx, parameter), true
}

// Branches lists the `if` clauses of the template of the component or
// trait definition typ (render.Definition.Branches).
func Branches(defs *render.Definitions, typ string) []Branch {
	if d := defs.ComponentOrTrait(typ); d != nil {
		return d.Branches()
	}
	return nil
}

// BranchOutcomes evaluates the branches of typ's template with these
// properties and context (render.Definition.BranchOutcomes).
func BranchOutcomes(defs *render.Definitions, typ string, branches []Branch, properties, context map[string]any) []*bool {
	if d := defs.ComponentOrTrait(typ); d != nil {
		return d.BranchOutcomes(branches, properties, context)
	}
	return make([]*bool, len(branches))
}
