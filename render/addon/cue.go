package addon

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// generatedFile names the CUE file drydock generates for `context` and
// `parameter` (KubeVela appends them to the parameter file).
const generatedFile = "(addon context and parameters)"

// newContext returns a CUE context for addon files. KubeVela's addon code
// calls cuecontext.New(), whose evaluator in CUE v0.14.1 is evalv3 (the
// CUE_EXPERIMENT=evalv3=0 KubeVela sets applies to its controller, not to
// `vela addon enable`); the corpus agrees (vela-prism-cpu names
// parameter.cpu only under evalv3).
func newContext() *cue.Context {
	return cuecontext.New(cuecontext.EvaluatorVersion(cuecontext.EvalV3))
}

// parseCUE parses an addon CUE file under its own path, so that positions
// name the addon's file and line.
func parseCUE(f srcFile) error {
	_, err := parseCUEFile(f)
	return err
}

func parseCUEFile(f srcFile) (*ast.File, error) {
	file, err := parser.ParseFile(f.path, f.data, parser.ParseComments)
	if err != nil {
		return nil, cueError("", err)
	}
	return file, nil
}

// scriptError is cueError for a resource file evaluated nested under
// outputKey: the messages name the file's own fields ("output.x"), never
// drydock's wrapper.
func scriptError(what string, err error) error {
	e := cueError(what, err)
	var ae *Error
	if errors.As(e, &ae) {
		ae.Msg = strings.ReplaceAll(ae.Msg, outputKey+".", "")
		ae.Msg = strings.ReplaceAll(ae.Msg, outputKey, "the file")
	}
	return e
}

// cueError formats a CUE error as "file:line:col: what: messages" (the
// messages as render.CUEMessage shows them), preferring a position in the
// addon's own files.
func cueError(what string, err error) error {
	var pos manifest.Pos
	for _, e := range cueerrors.Errors(err) {
		if pos = addonPos(cueerrors.Positions(e)); pos.IsValid() {
			break
		}
	}
	msg := render.CUEMessage(err)
	if what != "" {
		msg = what + ": " + msg
	}
	return invalidf(pos, "%s", msg)
}

func addonPos(ps []token.Pos) manifest.Pos {
	for _, p := range ps {
		if p.IsValid() && p.Filename() != "" && p.Filename() != generatedFile && p.Filename() != "-" {
			return render.TokenPos(p)
		}
	}
	return manifest.Pos{}
}

// contextFiles are the parameter file and the generated context file of an
// addon, as KubeVela's formatContext concatenates them.
type contextFiles struct {
	param *ast.File // nil without a parameter file
	gen   *ast.File
	pkg   string // package of the concatenated file
}

// newContextFiles parses the parameter file and generates
// `context: {metadata: <meta>, ...extra}` and `parameter: <args>`.
func newContextFiles(pkg *addonPackage, args map[string]any, extra map[string]any) (*contextFiles, error) {
	cf := &contextFiles{pkg: "main"}
	if pkg.parameters != nil {
		f, err := parseCUEFile(*pkg.parameters)
		if err != nil {
			return nil, err
		}
		cf.param = f
		if name := f.PackageName(); name != "" {
			cf.pkg = name
		}
	}
	ctx := map[string]any{}
	for k, v := range extra {
		ctx[k] = v
	}
	ctx["metadata"] = pkg.meta
	ctxJSON, err := json.Marshal(ctx)
	if err != nil {
		return nil, invalidf(manifest.Pos{}, "context: %v", err)
	}
	argsJSON, err := json.Marshal(args)
	if err != nil {
		return nil, invalidf(manifest.Pos{}, "parameters: %v", err)
	}
	src := fmt.Sprintf("context: %s\nparameter: %s\n", ctxJSON, argsJSON)
	gen, err := parser.ParseFile(generatedFile, src, parser.ParseComments)
	if err != nil {
		return nil, invalidf(manifest.Pos{}, "parameters: %v", err)
	}
	cf.gen = gen
	return cf, nil
}

// files returns the context files, each declaring the package.
func (cf *contextFiles) files() []*ast.File {
	var out []*ast.File
	if cf.param != nil {
		out = append(out, withPackage(cf.param, cf.pkg))
	}
	return append(out, withPackage(cf.gen, cf.pkg))
}

// decls returns the declarations of the concatenated context file without
// its package clause.
func (cf *contextFiles) decls() []ast.Decl {
	var out []ast.Decl
	if cf.param != nil {
		out = append(out, dropPackage(cf.param.Decls)...)
	}
	return append(out, dropPackage(cf.gen.Decls)...)
}

// withPackage adds a package clause to a file that has none, keeping the
// positions of everything else.
func withPackage(f *ast.File, name string) *ast.File {
	if f.PackageName() != "" {
		return f
	}
	f.Decls = append([]ast.Decl{&ast.Package{Name: ast.NewIdent(name)}}, f.Decls...)
	return f
}

func dropPackage(decls []ast.Decl) []ast.Decl {
	out := make([]ast.Decl, 0, len(decls))
	for _, d := range decls {
		if _, ok := d.(*ast.Package); !ok {
			out = append(out, d)
		}
	}
	return out
}

// buildFiles builds one CUE instance from files of the same package.
func buildFiles(ctx *cue.Context, files ...*ast.File) (cue.Value, error) {
	inst := &build.Instance{}
	for _, f := range files {
		if err := inst.AddSyntax(f); err != nil {
			return cue.Value{}, err
		}
	}
	v := ctx.BuildInstance(inst)
	return v, v.Err()
}

// marshalJSONModel marshals a concrete CUE value into the JSON data model.
func marshalJSONModel(v cue.Value) (any, error) {
	js, err := v.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return manifest.DecodeJSON(js)
}

// kubevelaFix rewrites `for k in parameter.x` comprehension sources to
// `for k in *parameter.x | {}` unless guarded by `if parameter.x != _|_`,
// as KubeVela does to addon CUE files (github.com/cue-exp/kubevelafix).
func kubevelaFix(f *ast.File) *ast.File {
	return astutil.Apply(f, fixVisit, nil).(*ast.File)
}

func fixVisit(c astutil.Cursor) bool {
	switch n := c.Node().(type) {
	case *ast.StructLit:
		n.Elts = fixClauses(n.Elts)
		return false
	case *ast.File:
		n.Decls = fixClauses(n.Decls)
		return false
	}
	return true
}

func fixClauses[T ast.Node](elts []T) []T {
	for i, e := range elts {
		c, ok := any(e).(*ast.Comprehension)
		if !ok {
			elts[i] = astutil.Apply(e, fixVisit, nil).(T)
			continue
		}
		guarded := map[string]bool{}
		for j, clause := range c.Clauses {
			var field string
			if isParameterGuard(clause, &field) {
				guarded[field] = true
			}
			fc, ok := clause.(*ast.ForClause)
			if !ok || !isParameterDot(fc.Source, &field) || guarded[field] {
				c.Clauses[j] = astutil.Apply(clause, fixVisit, nil).(ast.Clause)
				continue
			}
			fc.Source = &ast.BinaryExpr{
				X:  &ast.UnaryExpr{Op: token.MUL, X: fc.Source},
				Op: token.OR,
				Y:  &ast.StructLit{},
			}
		}
	}
	return elts
}

// isParameterGuard reports whether x is `if parameter.foo != _|_`.
func isParameterGuard(x ast.Clause, field *string) bool {
	ic, ok := x.(*ast.IfClause)
	if !ok {
		return false
	}
	e, ok := ic.Condition.(*ast.BinaryExpr)
	if !ok || e.Op != token.NEQ {
		return false
	}
	if _, ok := e.Y.(*ast.BottomLit); !ok {
		return false
	}
	return isParameterDot(e.X, field)
}

// isParameterDot reports whether x is parameter.foo(.bar...) or
// parameter["foo"], filling in foo.
func isParameterDot(x ast.Expr, field *string) bool {
	var lhs ast.Expr
	var rhs ast.Node
	switch x := x.(type) {
	case *ast.SelectorExpr:
		lhs, rhs = x.X, x.Sel
	case *ast.IndexExpr:
		lhs, rhs = x.X, x.Index
	default:
		return false
	}
	switch lhs := lhs.(type) {
	case *ast.Ident:
		if lhs.Name != "parameter" {
			return false
		}
		switch rhs := rhs.(type) {
		case *ast.Ident:
			*field = rhs.Name
		case *ast.BasicLit:
			if rhs.Kind == token.STRING {
				*field, _ = literal.Unquote(rhs.Value)
			}
		}
		return true
	case *ast.SelectorExpr, *ast.IndexExpr:
		return isParameterDot(lhs, field)
	}
	return false
}

// stdlibImport reports whether an import path names a CUE standard library
// package (as opposed to KubeVela's vela/* and kube/* packages).
func stdlibImport(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".") && first != "vela" && first != "kube"
}

// stubImports replaces imports of KubeVela packages (vela/op, vela/config,
// ...), which drydock does not emulate here, by let clauses bound to `_`, so
// that the rest of the file evaluates. Replaced imports are blanked out in
// place, so positions stay valid.
func stubImports(src []byte, filename string) ([]byte, error) {
	f, err := parser.ParseFile(filename, src, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	out := []byte(string(src))
	var names []string
	for _, d := range f.Decls {
		id, ok := d.(*ast.ImportDecl)
		if !ok {
			continue
		}
		kept := 0
		for _, s := range id.Specs {
			p, _ := literal.Unquote(s.Path.Value)
			if stdlibImport(p) {
				kept++
				continue
			}
			name := p[strings.LastIndexByte(p, '/')+1:]
			if s.Name != nil {
				name = s.Name.Name
			}
			names = append(names, name)
			blank(out, s.Pos().Offset(), s.End().Offset())
		}
		if kept == 0 {
			blank(out, id.Pos().Offset(), id.End().Offset())
		}
	}
	if len(names) == 0 {
		return src, nil
	}
	var b strings.Builder
	b.Write(out)
	for _, n := range names {
		fmt.Fprintf(&b, "\nlet %s = _", n)
	}
	fmt.Fprintf(&b, "\n_addonImportStubs: [%s]\n", strings.Join(names, ", "))
	return []byte(b.String()), nil
}

// blank replaces src[from:to] by spaces, keeping newlines.
func blank(src []byte, from, to int) {
	if from < 0 || to > len(src) || from > to {
		return
	}
	for i := from; i < to; i++ {
		if src[i] != '\n' {
			src[i] = ' '
		}
	}
}
