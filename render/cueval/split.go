package cueval

import (
	"path"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
)

// A component's template is unified with new parameter and context values
// for every component, and CUE evaluates the whole template again each
// time, declarations that read neither included: a template's schema
// definitions (webservice's #Probe, KubeVela's #HealthProbe) and helper
// structs cost a fifth of the evaluation though their value never
// changes. compileSplit compiles those declarations once per cue.Context,
// on their own, and the rest of the template in their scope: a component's
// evaluation then reaches them only where it references them, as it
// evaluates a referenced declaration anyway.
//
// Splitting is exact: the static part's value is the same for every
// parameter and context (it references only itself, imports and
// builtins), a reference to one of its declarations resolves to the
// same conjuncts, and errors in it (which every component's validation
// would report) make compileSplit decline, as do templates whose top
// level it does not read as plain fields.

// splitTemplate divides f's top-level declarations into the static part
// (hidden fields and definitions that reference only each other, imports
// and builtins) and the rest, whose references to the static part are
// left unresolved for the compiler to find in the static part's scope.
// ok is false when there is nothing to split or f's top level has what
// the split does not handle.
func splitTemplate(f *ast.File) (static, dynamic *ast.File, ok bool) {
	unresolved := make(map[*ast.Ident]bool, len(f.Unresolved))
	for _, id := range f.Unresolved {
		unresolved[id] = true
	}
	type decl struct {
		label string
		field bool
		// refs are the top-level names it references; idents are its
		// references to top-level names and its unresolved identifiers.
		refs   []string
		idents []*ast.Ident
	}
	var (
		decls   []decl
		imports []*ast.ImportSpec
	)
	byLabel := map[string][]int{}
	for _, d := range f.Decls {
		var dd decl
		switch x := d.(type) {
		case *ast.ImportDecl:
			imports = append(imports, x.Specs...)
			decls = append(decls, decl{})
			continue
		case *ast.CommentGroup:
			decls = append(decls, decl{})
			continue
		case *ast.Field:
			id, isIdent := x.Label.(*ast.Ident)
			if isIdent {
				dd.label, dd.field = id.Name, true
			} else if name, _, err := ast.LabelName(x.Label); err == nil && name != "" {
				dd.label = name
			} else {
				return nil, nil, false
			}
		case *ast.LetClause:
			dd.label = x.Ident.Name
		default:
			// packages, attributes, embeddings, comprehensions, ellipses
			return nil, nil, false
		}
		ast.Walk(d, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			switch {
			case unresolved[id]:
				dd.idents = append(dd.idents, id)
			case id.Node != nil && id.Scope == f:
				dd.refs = append(dd.refs, id.Name)
				dd.idents = append(dd.idents, id)
			}
			return true
		}, nil)
		byLabel[dd.label] = append(byLabel[dd.label], len(decls))
		decls = append(decls, dd)
	}
	// The static labels: hidden fields and definitions all of whose
	// declarations are plain fields referencing static labels only.
	isStatic := map[string]bool{}
	for label, idx := range byLabel {
		if !strings.HasPrefix(label, "#") && !(strings.HasPrefix(label, "_") && label != "_") {
			continue
		}
		all := true
		for _, i := range idx {
			all = all && decls[i].field
		}
		isStatic[label] = all
	}
	for changed := true; changed; {
		changed = false
		for label, ok := range isStatic {
			if !ok {
				continue
			}
			for _, i := range byLabel[label] {
				for _, r := range decls[i].refs {
					if !isStatic[r] {
						isStatic[label] = false
						changed = true
					}
				}
			}
		}
	}
	found := false
	for _, ok := range isStatic {
		found = found || ok
	}
	if !found {
		return nil, nil, false
	}
	static = &ast.File{Filename: f.Filename}
	dynamic = &ast.File{Filename: f.Filename}
	var staticDecls, dynamicDecls []ast.Decl
	usedStatic, usedDynamic := map[string]bool{}, map[string]bool{}
	for i, d := range f.Decls {
		dd := decls[i]
		if dd.label == "" {
			continue // imports and comments
		}
		if isStatic[dd.label] {
			staticDecls = append(staticDecls, d)
			for _, id := range dd.idents {
				if unresolved[id] {
					static.Unresolved = append(static.Unresolved, id)
					usedStatic[id.Name] = true
				} else {
					id.Scope = static
				}
			}
			continue
		}
		dynamicDecls = append(dynamicDecls, d)
		for _, id := range dd.idents {
			switch {
			case unresolved[id]:
				dynamic.Unresolved = append(dynamic.Unresolved, id)
				usedDynamic[id.Name] = true
			case isStatic[id.Name]:
				// Found by the compiler in the static part's scope.
				id.Node, id.Scope = nil, nil
			default:
				id.Scope = dynamic
			}
		}
	}
	// Each part imports what it uses; an import neither uses goes to the
	// dynamic part, whose compile then reports it as the whole would.
	var staticSpecs, dynamicSpecs []*ast.ImportSpec
	for _, spec := range imports {
		name := importName(spec)
		if usedStatic[name] {
			staticSpecs = append(staticSpecs, spec)
		}
		if usedDynamic[name] || !usedStatic[name] {
			dynamicSpecs = append(dynamicSpecs, spec)
		}
	}
	if len(staticSpecs) > 0 {
		static.Decls = append(static.Decls, &ast.ImportDecl{Specs: staticSpecs})
	}
	if len(dynamicSpecs) > 0 {
		dynamic.Decls = append(dynamic.Decls, &ast.ImportDecl{Specs: dynamicSpecs})
	}
	static.Decls = append(static.Decls, staticDecls...)
	dynamic.Decls = append(dynamic.Decls, dynamicDecls...)
	static.Imports, dynamic.Imports = staticSpecs, dynamicSpecs
	return static, dynamic, true
}

// importName is the identifier an import spec binds.
func importName(spec *ast.ImportSpec) string {
	if spec.Name != nil {
		return spec.Name.Name
	}
	p, err := strconv.Unquote(spec.Path.Value)
	if err != nil {
		return ""
	}
	if i := strings.LastIndex(p, ":"); i >= 0 {
		return p[i+1:]
	}
	return path.Base(p)
}

// compileSplit compiles src (a component template) as splitTemplate
// divides it, in ctx; ok is false when it does not split or either part
// has an error, and the template is to be compiled whole.
func compileSplit(ctx *cue.Context, filename, src string) (cue.Value, bool) {
	f, err := parser.ParseFile(filename, src, parser.ParseComments)
	if err != nil {
		return cue.Value{}, false
	}
	static, dynamic, ok := splitTemplate(f)
	if !ok {
		return cue.Value{}, false
	}
	sv := ctx.BuildFile(static)
	if sv.Err() != nil || sv.Validate() != nil {
		return cue.Value{}, false
	}
	v := ctx.BuildFile(dynamic, cue.Scope(sv))
	if v.Err() != nil {
		return cue.Value{}, false
	}
	return v, true
}
