package rules

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/drydock-dev/drydock/manifest"
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

// absPaths returns paths made absolute (as given when that fails), the
// files and directories a policy may read.
func absPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = absDir(p)
	}
	return out
}

func absDir(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return abs
}

// parseConfigFunc implements parse_config(parser, content): yaml (a
// multi-document stream gives an array of documents) or json.
func parseConfigFunc(_ rego.BuiltinContext, args []*ast.Term) (*ast.Term, error) {
	parser, err := stringArg(args[0], "parser")
	if err != nil {
		return nil, err
	}
	content, err := stringArg(args[1], "content")
	if err != nil {
		return nil, err
	}
	v, err := parseConfig(parser, "parse_config", []byte(content))
	if err != nil {
		return nil, err
	}
	return valueTerm(v)
}

// parseConfigFileFunc implements parse_config_file(path): the path is
// relative to the directory of the policy file calling it, as in
// conftest, and must be one of the inputs (Options.Readable).
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

// parserOf is the parser conftest picks by a file's extension.
func parserOf(file string) string {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".json":
		return "json"
	case ".yaml", ".yml":
		return "yaml"
	}
	return strings.TrimPrefix(filepath.Ext(file), ".")
}

// parseConfig parses src with the named parser, as conftest's: yaml (a
// file of several documents, as Documents splits it, gives an array of
// them, null for an empty one) or json.
func parseConfig(parser, name string, src []byte) (any, error) {
	switch parser {
	case "json":
		return manifest.DecodeJSONStrict(name, src)
	case "yaml":
	default:
		return nil, fmt.Errorf("parser %q is not one drydock has (yaml, json)", parser)
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

// readConfig reads and parses, by its extension, the file p names for a
// policy (see readInput); it returns the file's path and its value.
func readConfig(bctx rego.BuiltinContext, p string) (string, any, error) {
	file, src, err := readInput(bctx, p)
	if err != nil {
		return "", nil, err
	}
	v, err := parseConfig(parserOf(file), file, src)
	return file, v, err
}

// readInput reads the file p names for a policy: p joined to the
// calling policy's directory (an absolute p too, as conftest joins it),
// which must be among the evaluation's readable inputs.
func readInput(bctx rego.BuiltinContext, p string) (string, []byte, error) {
	dir := "."
	if bctx.Location != nil && bctx.Location.File != "" {
		dir = filepath.Dir(bctx.Location.File)
	}
	file := filepath.Join(dir, p)
	s, _ := bctx.Context.Value(stateKey{}).(*evalState)
	if s == nil || !s.readable(file) {
		return "", nil, fmt.Errorf("%s is not one of the inputs: a policy reads only the files it checks (a test, the files under the policy and data directories)", file)
	}
	src, err := manifest.ReadFile(file)
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

// readable reports whether the file is one of the paths (files, or
// directories holding it) a policy may read.
func (s *evalState) readable(file string) bool {
	abs, err := filepath.Abs(file)
	if err != nil {
		return false
	}
	return slices.ContainsFunc(s.readablePaths, func(root string) bool { return manifest.Within(root, abs) })
}
