// Package patch owns KubeVela's trait patch strategies: how a trait's
// `patch` (and `patchOutputs`) is applied to the objects a component
// rendered, following the `// +patchKey=` and `// +patchStrategy=` tags
// (retainKeys, replace, jsonMergePatch, jsonPatch) as kubevela/workflow's
// pkg/cue/model/sets does. It works on CUE values built in the caller's
// cue.Context; it is not template evaluation (render/cueval) and knows
// nothing of Applications.
package patch

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
	jsonpatch "github.com/evanphx/json-patch/v5"
)

// Patch strategies a trait selects with `// +patchStrategy=...` comments.
const (
	tagPatchKey            = "patchKey"
	tagPatchStrategy       = "patchStrategy"
	strategyRetainKeys     = "retainKeys"
	strategyReplace        = "replace"
	strategyJSONPatch      = "jsonPatch"
	strategyJSONMergePatch = "jsonMergePatch"
)

// Apply applies a trait's patch to base the way KubeVela's trait patcher
// does: RFC 7396 or RFC 6902 when the patch is tagged so
// (+patchStrategy=jsonMergePatch, +patchStrategy=jsonPatch with the
// operations under `operations`), otherwise Unify. New values are built in
// ctx, the context base and patch belong to; neither is modified.
func Apply(ctx *cue.Context, base, patch cue.Value) (cue.Value, error) {
	switch commentTags(patch.Doc())[tagPatchStrategy] {
	case strategyJSONMergePatch:
		return jsonMerge(ctx, base, patch)
	case strategyJSONPatch:
		return jsonPatch(ctx, base, patch.LookupPath(cue.ParsePath("operations")))
	}
	return Unify(ctx, base, patch)
}

// Unify is CUE unification of base and patch where the patch's lists are
// first aligned with the base's lists by their +patchKey tags (and
// +patchStrategy=replace or retainKeys applied), as KubeVela's strategic
// unify does; what patchOutputs uses. The result is built in ctx and is
// valid (an error otherwise).
func Unify(ctx *cue.Context, base, patch cue.Value) (cue.Value, error) {
	baseFile := syntaxFile(base)
	openFieldLists(baseFile)
	patchFile := syntaxFile(patch)
	w := &patchWalker{base: baseFile}
	w.walk(patchFile, nil, map[string]string{})
	b := ctx.BuildFile(baseFile)
	p := ctx.BuildFile(patchFile)
	ret := b.Unify(p)
	if err := ret.Err(); err != nil {
		return ret, err
	}
	if err := ret.Validate(cue.All()); err != nil {
		return ret, err
	}
	return ret, nil
}

func jsonMerge(ctx *cue.Context, base, patch cue.Value) (cue.Value, error) {
	baseJSON, err := base.MarshalJSON()
	if err != nil {
		return cue.Value{}, fmt.Errorf("json merge patch: base: %w", err)
	}
	patchJSON, err := patch.MarshalJSON()
	if err != nil {
		return cue.Value{}, fmt.Errorf("json merge patch: %w", err)
	}
	merged, err := jsonpatch.MergePatch(baseJSON, patchJSON)
	if err != nil {
		return cue.Value{}, fmt.Errorf("json merge patch: %w", err)
	}
	return openJSON(ctx, merged)
}

func jsonPatch(ctx *cue.Context, base, ops cue.Value) (cue.Value, error) {
	baseJSON, err := base.MarshalJSON()
	if err != nil {
		return cue.Value{}, fmt.Errorf("json patch: base: %w", err)
	}
	opsJSON, err := ops.MarshalJSON()
	if err != nil {
		return cue.Value{}, fmt.Errorf("json patch: operations: %w", err)
	}
	p, err := jsonpatch.DecodePatch(opsJSON)
	if err != nil {
		return cue.Value{}, fmt.Errorf("json patch: decode: %w", err)
	}
	out, err := p.Apply(baseJSON)
	if err != nil {
		return cue.Value{}, fmt.Errorf("json patch: apply: %w", err)
	}
	return openJSON(ctx, out)
}

// openJSON builds a CUE value from JSON whose structs and lists stay open,
// so that later patches may extend them.
func openJSON(ctx *cue.Context, data []byte) (cue.Value, error) {
	var probe any
	if err := json.Unmarshal(data, &probe); err != nil {
		return cue.Value{}, err
	}
	f, err := parser.ParseFile("patched.json", data)
	if err != nil {
		return cue.Value{}, err
	}
	ast.Walk(f, func(n ast.Node) bool {
		fld, ok := n.(*ast.Field)
		if !ok {
			return true
		}
		switch lit := fld.Value.(type) {
		case *ast.StructLit:
			if !endsWithEllipsis(lit.Elts) {
				lit.Elts = append(lit.Elts, &ast.Ellipsis{})
			}
		case *ast.ListLit:
			if !endsWithEllipsisExpr(lit.Elts) {
				lit.Elts = append(lit.Elts, &ast.Ellipsis{})
			}
		}
		return true
	}, nil)
	if len(f.Decls) > 0 {
		if emb, ok := f.Decls[0].(*ast.EmbedDecl); ok {
			if s, ok := emb.Expr.(*ast.StructLit); ok {
				f.Decls = s.Elts
			}
		}
	}
	v := ctx.BuildFile(f)
	return v, v.Err()
}

// syntaxFile exports v (references resolved, docs kept) as a file.
func syntaxFile(v cue.Value) *ast.File {
	return asFile(export(v))
}

// export is v as KubeVela's patcher sees it: exported with references
// resolved and defaults kept. A value that is not the root of its
// configuration (a template's output or patch) is exported
// self-contained: CUE first walks every dependency of the value —
// through the template's helper fields and comprehensions — to hoist
// those its syntax would still refer to, half of a trait's cost. Where
// the export is data (literals, structs, lists, defaults, type names)
// nothing refers elsewhere and the hoisting changes nothing; so v is
// exported as a fragment, without the walk, and only the fields whose
// fragment is not data (a default that is a reference, which the
// self-contained export prints as its value) are exported again,
// self-contained, each on its own. If one of those is not data either,
// v is exported self-contained as a whole, as before.
func export(v cue.Value) ast.Node {
	if n, ok := fragment(v); ok {
		return n
	}
	//lint:ignore SA1019 the reference-resolving export (defaults kept) is what KubeVela's patcher sees; nothing replaces it.
	return v.Syntax(cue.Docs(true), cue.ResolveReferences(true))
}

// fragment is v exported as a fragment and made data, and whether it
// could be.
func fragment(v cue.Value) (ast.Node, bool) {
	//lint:ignore SA1019 as export.
	n := v.Syntax(cue.Docs(true), cue.Raw(), cue.ResolveReferences(true))
	return n, resolveFragment(v, n)
}

// resolveFragment makes n, the fragment export of v, data: each field
// value or list element that is not data is replaced by the
// self-contained export of its own value. It reports false when that is
// not data either, or n holds what it cannot follow.
func resolveFragment(v cue.Value, n ast.Node) bool {
	switch x := n.(type) {
	case *ast.StructLit:
		return resolveDecls(v, x.Elts)
	case *ast.File:
		return resolveDecls(v, x.Decls)
	case *ast.ListLit:
		for i, e := range x.Elts {
			if _, ok := e.(*ast.Ellipsis); ok {
				if !isData(e) {
					return false
				}
				continue
			}
			r, ok := resolveValue(v.LookupPath(cue.MakePath(cue.Index(i))), e)
			if !ok {
				return false
			}
			x.Elts[i] = r
		}
		return true
	}
	return isData(n)
}

func resolveDecls(v cue.Value, decls []ast.Decl) bool {
	for _, d := range decls {
		switch x := d.(type) {
		case *ast.Field:
			name, isIdent, err := ast.LabelName(x.Label)
			if err != nil || x.Value == nil || isIdent && (strings.HasPrefix(name, "#") || strings.HasPrefix(name, "_")) {
				return false
			}
			sel := cue.Str(name)
			if x.Constraint == token.OPTION {
				sel = sel.Optional()
			} else if x.Constraint != token.ILLEGAL {
				return false
			}
			r, ok := resolveValue(v.LookupPath(cue.MakePath(sel)), x.Value)
			if !ok {
				return false
			}
			x.Value = r
		case *ast.Ellipsis, *ast.CommentGroup:
			if !isData(x) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// resolveValue is e, the fragment export of v, made data.
func resolveValue(v cue.Value, e ast.Expr) (ast.Expr, bool) {
	switch e.(type) {
	case *ast.StructLit, *ast.ListLit:
		return e, resolveFragment(v, e)
	}
	if isData(e) {
		return e, true
	}
	if !v.Exists() {
		return e, false
	}
	//lint:ignore SA1019 as export.
	n, ok := v.Syntax(cue.ResolveReferences(true)).(ast.Expr)
	if !ok || !isData(n) {
		return e, false
	}
	return n, true
}

// typeNames are the predeclared identifiers an exported value may hold
// without referring to anything.
var typeNames = map[string]bool{"_": true, "string": true, "bytes": true, "bool": true, "int": true, "float": true, "number": true, "null": true}

// isData reports whether n is data: structs, lists, literals, defaults
// (*a | b) and type names, with nothing that refers elsewhere or that
// simplification could print otherwise.
func isData(n ast.Node) bool {
	ok := true
	ast.Walk(n, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch x := n.(type) {
		case *ast.StructLit, *ast.ListLit, *ast.BasicLit, *ast.Ellipsis, *ast.CommentGroup, *ast.Comment:
		case *ast.Field:
			name, isIdent, err := ast.LabelName(x.Label)
			if err != nil || x.Value == nil || isIdent && (strings.HasPrefix(name, "#") || strings.HasPrefix(name, "_")) {
				ok = false
				return false
			}
			// The label was checked: visit the value only.
			ok = isData(x.Value)
			return false
		case *ast.Ident:
			if !typeNames[x.Name] || x.Node != nil || x.Scope != nil {
				ok = false
			}
		case *ast.BinaryExpr:
			if x.Op != token.OR {
				ok = false
			}
		case *ast.UnaryExpr:
			if x.Op != token.MUL {
				ok = false
			}
		default:
			ok = false
		}
		return ok
	}, nil)
	return ok
}

// asFile is an exported value as a file.
func asFile(n ast.Node) *ast.File {
	switch x := n.(type) {
	case *ast.File:
		return x
	case *ast.StructLit:
		var decls []ast.Decl
		for _, d := range x.Elts {
			if _, ok := d.(*ast.Ellipsis); !ok {
				decls = append(decls, d)
			}
		}
		return &ast.File{Decls: decls}
	case ast.Expr:
		return &ast.File{Decls: []ast.Decl{&ast.EmbedDecl{Expr: x}}}
	}
	return &ast.File{}
}

// openFieldLists makes every list that is a field's value open, so a patch
// may append to it.
func openFieldLists(f *ast.File) {
	ast.Walk(f, func(n ast.Node) bool {
		fld, ok := n.(*ast.Field)
		if !ok {
			return true
		}
		if lit, ok := fld.Value.(*ast.ListLit); ok && !endsWithEllipsisExpr(lit.Elts) {
			elts := append(lit.Elts[:len(lit.Elts):len(lit.Elts)], &ast.Ellipsis{})
			fld.Value = ast.NewList(elts...)
		}
		return true
	}, nil)
}

func endsWithEllipsis(elts []ast.Decl) bool {
	if len(elts) == 0 {
		return false
	}
	_, ok := elts[len(elts)-1].(*ast.Ellipsis)
	return ok
}

func endsWithEllipsisExpr(elts []ast.Expr) bool {
	if len(elts) == 0 {
		return false
	}
	_, ok := elts[len(elts)-1].(*ast.Ellipsis)
	return ok
}

// patchWalker rewrites a patch's lists against the base before unification.
// Tags (+patchKey) are inherited from enclosing fields; +patchStrategy
// applies to the field it annotates.
type patchWalker struct {
	base *ast.File
}

func (w *patchWalker) walk(n ast.Node, pos []string, tags map[string]string) {
	switch x := n.(type) {
	case *ast.Field:
		w.visitField(x, pos, tags)
		label := LabelString(x.Label)
		if label == "" || strings.HasPrefix(label, "#") || x.Value == nil {
			return
		}
		inner := make(map[string]string, len(tags))
		for k, v := range tags {
			inner[k] = v
		}
		for k, v := range commentTags(x.Comments()) {
			inner[k] = v
		}
		w.walk(x.Value, appendPath(pos, label), inner)
	case *ast.File:
		for _, d := range x.Decls {
			w.walk(d, pos, tags)
		}
	case *ast.StructLit:
		for _, d := range x.Elts {
			w.walk(d, pos, tags)
		}
	case *ast.ListLit:
		for i, e := range x.Elts {
			w.walk(e, appendPath(pos, strconv.Itoa(i)), tags)
		}
	case *ast.BinaryExpr:
		w.walk(x.X, pos, tags)
		w.walk(x.Y, pos, tags)
	case *ast.EmbedDecl:
		w.walk(x.Expr, pos, tags)
	case *ast.Comprehension:
		w.walk(x.Value, pos, tags)
	case *ast.CallExpr:
		if isClose(x) {
			w.walk(x.Args[0], pos, tags)
			return
		}
		for i, a := range x.Args {
			w.walk(a, appendPath(pos, strconv.Itoa(i)), tags)
		}
	}
}

func appendPath(pos []string, elem string) []string {
	out := make([]string, len(pos)+1)
	copy(out, pos)
	out[len(pos)] = elem
	return out
}

func (w *patchWalker) visitField(f *ast.Field, pos []string, inherited map[string]string) {
	own := commentTags(f.Comments())
	list, isList := peelClose(f.Value).(*ast.ListLit)
	if !isList {
		if own[tagPatchStrategy] == strategyRetainKeys {
			w.retainKeys(f, pos)
		}
		return
	}
	key := inherited[tagPatchKey]
	if k, ok := own[tagPatchKey]; ok {
		key = k
	}
	node, found := lookupNode(w.base, appendPath(pos, LabelString(f.Label)))
	if !found {
		return
	}
	baseList, ok := node.(*ast.ListLit)
	if !ok {
		return
	}
	switch {
	case own[tagPatchStrategy] == strategyReplace:
		baseList.Elts = list.Elts
	case key != "":
		mergeListByKey(own[tagPatchStrategy] == strategyRetainKeys, key, baseList, list)
	}
}

// retainKeys makes the patch's value replace the base's for field f.
func (w *patchWalker) retainKeys(f *ast.Field, pos []string) {
	parent, _ := lookupNode(w.base, pos)
	var decls []ast.Decl
	switch p := parent.(type) {
	case *ast.StructLit:
		decls = p.Elts
	case *ast.File:
		decls = p.Decls
	}
	for _, d := range decls {
		if bf, ok := d.(*ast.Field); ok && LabelString(bf.Label) == LabelString(f.Label) {
			bf.Value = f.Value
		}
	}
}

// mergeListByKey reorders the patch list so that each element lines up with
// the base element carrying the same key value; unmatched patch elements go
// after, and the list is left open.
func mergeListByKey(retain bool, keys string, baseList, patchList *ast.ListLit) {
	byKey := map[string]ast.Expr{}
	var out []ast.Expr
	for _, key := range strings.Split(keys, ",") {
		path := strings.Split(key, ".")
		found := false
		for _, elt := range patchList.Elts {
			if _, ok := elt.(*ast.Ellipsis); ok {
				continue
			}
			n, ok := lookupNode(elt, path)
			if !ok {
				continue
			}
			found = true
			lit, ok := n.(*ast.BasicLit)
			if !ok {
				return
			}
			byKey[key+"="+lit.Value] = elt
		}
		if !found {
			if len(patchList.Elts) == 0 {
				continue
			}
			return
		}
		for i, elt := range baseList.Elts {
			if _, ok := elt.(*ast.Ellipsis); ok {
				continue
			}
			n, ok := lookupNode(elt, path)
			if !ok {
				continue
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok {
				return
			}
			k := key + "=" + lit.Value
			if v, ok := byKey[k]; ok {
				if retain {
					baseList.Elts[i] = ast.NewStruct()
				}
				out = append(out, v)
				delete(byKey, k)
			} else {
				out = append(out, ast.NewStruct())
			}
		}
	}
	for _, elt := range patchList.Elts {
		for _, v := range byKey {
			if elt == v {
				out = append(out, v)
				break
			}
		}
	}
	patchList.Elts = append(out, &ast.Ellipsis{})
}

// lookupNode finds the node at path (field labels and list indexes).
func lookupNode(n ast.Node, path []string) (ast.Node, bool) {
	n = peelClose(n)
	if len(path) == 0 {
		return n, true
	}
	key := path[0]
	var decls []ast.Decl
	switch x := n.(type) {
	case *ast.File:
		decls = x.Decls
	case *ast.StructLit:
		decls = x.Elts
	case *ast.ListLit:
		for i, e := range x.Elts {
			if strconv.Itoa(i) == key {
				return lookupNode(e, path[1:])
			}
		}
		return nil, false
	default:
		return nil, false
	}
	for _, d := range decls {
		if f, ok := d.(*ast.Field); ok && strings.Trim(LabelString(f.Label), `"`) == strings.Trim(key, `"`) {
			return lookupNode(f.Value, path[1:])
		}
	}
	return nil, false
}

func peelClose(n ast.Node) ast.Node {
	if c, ok := n.(*ast.CallExpr); ok && isClose(c) {
		return c.Args[0]
	}
	return n
}

func isClose(c *ast.CallExpr) bool {
	id, ok := c.Fun.(*ast.Ident)
	return ok && id.Name == "close" && len(c.Args) == 1
}

// LabelString is a CUE field label as written (a string label keeps its
// quotes).
func LabelString(l ast.Label) string {
	switch x := l.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.BasicLit:
		return x.Value
	}
	return ""
}

// commentTags reads `// +key=value` tags from comment groups. A value with
// spaces in it is not a tag.
func commentTags(groups []*ast.CommentGroup) map[string]string {
	tags := map[string]string{}
	for _, g := range groups {
		for _, c := range g.List {
			line := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
			rest, ok := strings.CutPrefix(line, "+")
			if !ok {
				continue
			}
			k, v, ok := strings.Cut(rest, "=")
			if !ok {
				continue
			}
			v = strings.TrimSpace(v)
			if len(strings.Fields(v)) > 1 {
				continue
			}
			tags[strings.TrimSpace(k)] = v
		}
	}
	return tags
}
