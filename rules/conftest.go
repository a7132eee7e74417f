package rules

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/parsers"
)

// builtin is a function drydock adds to OPA's: its declaration and its
// implementation.
type builtin struct {
	decl *rego.Function
	impl rego.BuiltinDyn
}

// builtins are drydock's functions: drydock.context() and conftest's
// parse_config, parse_config_file and parse_combined_config_files, and
// drydock.file(), which data.conftest.file reads.
var builtins = []builtin{
	{contextDecl, contextFunc},
	{&rego.Function{Name: fileBuiltin, Decl: types.NewFunction(nil, types.NewObject([]*types.StaticProperty{
		types.NewStaticProperty("dir", types.S), types.NewStaticProperty("name", types.S)}, nil))}, fileFunc},
	{&rego.Function{Name: "parse_config", Decl: types.NewFunction(types.Args(types.S, types.S), types.A)}, parseConfigFunc},
	{&rego.Function{Name: "parse_config_file", Decl: types.NewFunction(types.Args(types.S), types.A)}, parseConfigFileFunc},
	{&rego.Function{Name: "parse_combined_config_files", Decl: types.NewFunction(types.Args(types.NewArray(nil, types.S)), types.A)}, parseCombinedFunc},
}

// fileBuiltin gives the authored file of the input being evaluated.
const fileBuiltin = "drydock.file"

// conftestModule defines data.conftest.file as conftest does: the base
// name and the absolute directory of the input's file. It is compiled
// in only when a policy refers to data.conftest.
const conftestModule = "package conftest\n\nfile := drydock.file()\n"

// conftestModuleName is the synthesized module's name; it is not a
// namespace of the policies.
const conftestModuleName = "drydock:conftest.rego"

// refersToConftest reports whether a module reads data.conftest.
func refersToConftest(mods map[string]*ast.Module) bool {
	prefix := ast.MustParseRef("data.conftest")
	found := false
	for _, m := range mods {
		ast.WalkRefs(m, func(r ast.Ref) bool {
			found = found || r.HasPrefix(prefix)
			return found
		})
	}
	return found
}

// addConftestModule adds the module defining data.conftest.file when a
// policy reads it (and none defines package conftest itself).
func addConftestModule(mods map[string]*ast.Module, v ast.RegoVersion) error {
	if !refersToConftest(mods) {
		return nil
	}
	for _, m := range mods {
		if m.Package.Path.String() == "data.conftest" {
			return nil
		}
	}
	m, err := ast.ParseModuleWithOpts(conftestModuleName, conftestModule, ast.ParserOptions{RegoVersion: v})
	if err != nil {
		return err
	}
	mods[conftestModuleName] = m
	return nil
}

// fileFunc implements drydock.file(): {"name": base name, "dir":
// absolute directory} of the input's authored file; in combined mode
// {"name": "Combined", "dir": the working directory}, as conftest.
// Without an evaluation state (Verify) both are empty.
func fileFunc(bctx rego.BuiltinContext, _ []*ast.Term) (*ast.Term, error) {
	s, _ := bctx.Context.Value(stateKey{}).(*evalState)
	var name, dir string
	switch {
	case s == nil:
	case s.combined:
		name, dir = "Combined", absDir(".")
	case s.context.File != "":
		abs, err := filepath.Abs(s.context.File)
		if err != nil {
			abs = s.context.File
		}
		name, dir = filepath.Base(abs), filepath.Dir(abs)
	}
	return ast.ObjectTerm(ast.Item(ast.StringTerm("dir"), ast.StringTerm(dir)), ast.Item(ast.StringTerm("name"), ast.StringTerm(name))), nil
}

func absDir(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return abs
}

// parseConfigFunc implements parse_config(parser, content) with any of
// conftest's parsers (see parseConfig).
func parseConfigFunc(_ rego.BuiltinContext, args []*ast.Term) (*ast.Term, error) {
	parser, err := stringArg(args[0], "parser")
	if err != nil {
		return nil, err
	}
	content, err := stringArg(args[1], "content")
	if err != nil {
		return nil, err
	}
	v, err := parseConfig(parser, "parse_config", []byte(content), parsers.Options{})
	if err != nil {
		return nil, err
	}
	return valueTerm(v)
}

// parseConfigFileFunc implements parse_config_file(path), as conftest's
// (builtins/parse_config.go at v0.71.1): the path joined to the
// directory of the policy file calling it (an absolute path too, as
// filepath.Join makes it), parsed by the parser its name picks. Unlike
// conftest, the file must be a regular file inside the repository
// (readInput).
func parseConfigFileFunc(bctx rego.BuiltinContext, args []*ast.Term) (*ast.Term, error) {
	p, err := stringArg(args[0], "path")
	if err != nil {
		return nil, err
	}
	_, v, err := readConfig(bctx, p)
	if err != nil {
		return nil, err
	}
	return valueTerm(v)
}

// parseCombinedFunc implements parse_combined_config_files(paths):
// [{"path", "contents"}] sorted by path, a multi-document file giving one
// entry per document, as conftest --combine.
func parseCombinedFunc(bctx rego.BuiltinContext, args []*ast.Term) (*ast.Term, error) {
	arr, ok := args[0].Value.(*ast.Array)
	if !ok {
		return nil, fmt.Errorf("parse_combined_config_files: paths must be an array of strings")
	}
	type entry struct {
		path string
		doc  any
	}
	var entries []entry
	for i := range arr.Len() {
		p, err := stringArg(arr.Elem(i), "path")
		if err != nil {
			return nil, err
		}
		file, v, err := readConfig(bctx, p)
		if err != nil {
			return nil, err
		}
		docs, multi := v.([]any)
		if !multi {
			docs = []any{v}
		}
		for _, d := range docs {
			entries = append(entries, entry{file, d})
		}
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return cmp.Compare(a.path, b.path) })
	out := make([]any, len(entries))
	for i, e := range entries {
		out[i] = map[string]any{"path": e.path, "contents": e.doc}
	}
	return valueTerm(out)
}

func stringArg(t *ast.Term, what string) (string, error) {
	s, ok := t.Value.(ast.String)
	if !ok {
		return "", fmt.Errorf("%s must be a string, not %s", what, ast.ValueName(t.Value))
	}
	return string(s), nil
}

// parseConfig parses src with the named parser, as conftest's: yaml
// as YAMLDocuments splits it (several documents give an array of them,
// null for an empty one), every other parser by the parsers package.
func parseConfig(parser, name string, src []byte, o parsers.Options) (any, error) {
	if parser != parsers.YAML {
		return parsers.Parse(parser, src, o)
	}
	vals, err := YAMLDocuments(name, src)
	if err != nil {
		return nil, err
	}
	if len(vals) == 1 {
		return vals[0].Data, nil
	}
	docs := make([]any, len(vals))
	for i, v := range vals {
		docs[i] = v.Data
	}
	return docs, nil
}

// readConfig reads the file p names for a policy (see readInput) and
// parses it with the parser conftest picks by its name (chosen first,
// as conftest does); it returns the file's path and its value.
func readConfig(bctx rego.BuiltinContext, p string) (string, any, error) {
	parser, err := parsers.ForFile(p)
	if err != nil {
		return "", nil, err
	}
	file, src, err := readInput(bctx, p)
	if err != nil {
		return "", nil, err
	}
	v, err := parseConfig(parser, file, src, parsers.Options{Path: file})
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", file, err)
	}
	return file, v, nil
}

// ErrOutsideRoot is the refusal of a file a policy names outside the
// repository (Options.Root).
var ErrOutsideRoot = errors.New("outside the repository")

// readInput reads the file p names for a policy: p joined to the
// calling policy's directory (an absolute p too, as conftest joins it).
// conftest reads any file; drydock reads a regular file (not a link,
// no device) below the evaluation's root, through os.Root so that no
// link in its path leads out, of at most manifest.MaxInputBytes.
func readInput(bctx rego.BuiltinContext, p string) (string, []byte, error) {
	dir := "."
	if bctx.Location != nil && bctx.Location.File != "" {
		dir = filepath.Dir(bctx.Location.File)
	}
	file := filepath.Join(dir, p)
	s, _ := bctx.Context.Value(stateKey{}).(*evalState)
	root := "."
	if s != nil && s.root != "" {
		root = s.root
	}
	absRoot, absFile := absDir(root), absDir(file)
	rel, err := filepath.Rel(absRoot, absFile)
	if err != nil || !filepath.IsLocal(rel) {
		return "", nil, fmt.Errorf("%s: %w %s: a policy reads only files below it", file, ErrOutsideRoot, absRoot)
	}
	r, err := os.OpenRoot(absRoot)
	if err != nil {
		return "", nil, err
	}
	defer r.Close()
	src, err := manifest.ReadIn(r, filepath.ToSlash(rel))
	if err != nil {
		return "", nil, err
	}
	return file, src, nil
}

func valueTerm(v any) (*ast.Term, error) {
	x, err := ast.InterfaceToValue(v)
	if err != nil {
		return nil, err
	}
	return ast.NewTerm(x), nil
}
