package rules

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/regosandbox"
)

// Options configures Load.
type Options struct {
	// PolicyDirs are directories (searched recursively) or files holding
	// .rego policies; _test.rego files are left out. Default: "policy".
	PolicyDirs []string
	// DataPaths are JSON/YAML files or directories merged into data.
	DataPaths []string
	// Namespaces are the packages to evaluate, without "data.". Default:
	// "main". Ignored when AllNamespaces is set.
	Namespaces []string
	// AllNamespaces evaluates every package of the policies.
	AllNamespaces bool
	// RegoV0 parses the policies as Rego v0 instead of v1.
	RegoV0 bool
	// Capabilities is an OPA capabilities file (conftest --capabilities):
	// the policies may use only what it lists (and what the sandbox
	// keeps). "": OPA's own.
	Capabilities string
	// Root is the repository: parse_config_file and
	// parse_combined_config_files read regular files below it, nothing
	// else. "": the working directory.
	Root string
	// StrictBuiltinErrors makes a failing built-in (to_number("500m"),
	// object.get on a non-object) an evaluation error, as conftest
	// --show-builtin-errors does. By default it makes the expression
	// undefined, so the rule does not fire for that input, as conftest and
	// opa test do.
	StrictBuiltinErrors bool
	// Strict compiles the policies in OPA's strict mode (conftest
	// --strict): unused local variables and imports, duplicate imports,
	// deprecated built-ins and shadowed input/data are errors.
	Strict bool
	// Now, when set, is the time every evaluation sees: it makes
	// time.now_ns and io.jwt.decode_verify available and deterministic.
	// When zero those built-ins are removed.
	Now time.Time
	// QueryTimeout bounds each evaluation of a namespace's rules on one
	// input (0: no limit). Past it the evaluation is cancelled and the
	// error (ErrInvalid, ErrTimeout) names the namespace and its file:line.
	QueryTimeout time.Duration
	// Debug, when set, also receives print() output as it happens, one
	// "file:line: message" line per call. Prints are collected in the
	// Report either way.
	Debug io.Writer
}

// Engine holds compiled policies and one prepared query per evaluated
// namespace. It is safe for concurrent use.
type Engine struct {
	compiler   *ast.Compiler
	store      storage.Store
	namespaces []string
	checks     []*namespaceChecks
	now        time.Time
	timeout    time.Duration
	debug      *syncWriter
	// strictBuiltins reports failing built-ins as errors.
	strictBuiltins bool
	// root is Options.Root.
	root string
	// budget, when set (WithBudget), is the run's budget: stops are
	// reported in Report.Stopped instead of as errors.
	budget *regosandbox.Budget
}

// namespaceChecks is one namespace's check rules and its prepared query,
// whose expressions are, in order, each rule's value wrapped in an array
// (empty when undefined), the list of exception names and, when the
// package defines it, its __rego_metadata__ wrapped in an array.
type namespaceChecks struct {
	name string
	// pos is where the namespace's first module declares its package.
	pos  manifest.Pos
	path ast.Ref
	// rules are the checks, sorted; rulePos their first body's place.
	rules   []string
	rulePos map[string]manifest.Pos
	bodies  int
	// metadata tells that the package defines __rego_metadata__.
	metadata bool
	query    rego.PreparedEvalQuery
}

// regoMetadata is the rule appshield and konstraint policies describe
// their package with.
const regoMetadata = "__rego_metadata__"

var (
	warningRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^warn(_[a-zA-Z0-9]+)*$`) })
	failureRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(deny|violation)(_[a-zA-Z0-9]+)*$`) })
)

// checkName returns the name of r when r is a check (deny, violation or
// warn, with optional _suffixes) defined directly in its package.
func checkName(r *ast.Rule) (string, bool) {
	ref := r.Head.Ref()
	if len(ref) != 1 {
		return "", false
	}
	v, ok := ref[0].Value.(ast.Var)
	if !ok {
		return "", false
	}
	name := string(v)
	return name, failureRule().MatchString(name) || warningRule().MatchString(name)
}

// Load reads, parses and compiles the policies once, loads the data, finds
// the namespaces and their checks, and prepares one query per selected
// namespace. Errors in the policies or data wrap ErrInvalid and name the
// file:line.
func Load(ctx context.Context, opts Options) (*Engine, error) {
	dirs := opts.PolicyDirs
	if len(dirs) == 0 {
		dirs = []string{"policy"}
	}
	files, err := listFiles(dirs, isPolicy)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, invalid(fmt.Errorf("no policies found in %s", strings.Join(dirs, ", ")))
	}
	caps, err := loadCapabilities(opts.Capabilities)
	if err != nil {
		return nil, err
	}
	compiler, err := compile(files, caps, opts.RegoV0, opts.Strict, opts.Now)
	if err != nil {
		return nil, err
	}
	store, err := loadData(opts.DataPaths)
	if err != nil {
		return nil, err
	}
	e := &Engine{compiler: compiler, store: store, now: opts.Now, timeout: opts.QueryTimeout, strictBuiltins: opts.StrictBuiltinErrors}
	if opts.Debug != nil {
		e.debug = &syncWriter{w: opts.Debug}
	}
	e.root = opts.Root
	if err := e.prepare(ctx, opts); err != nil {
		return nil, err
	}
	return e, nil
}

// compile parses and compiles the policy files in the sandbox.
func compile(files []string, caps *ast.Capabilities, v0, strict bool, now time.Time) (*ast.Compiler, error) {
	compiler := newCompiler(caps, !now.IsZero()).WithStrict(strict)
	mods, err := parseModules(files, regoVersion(v0), compiler.Capabilities())
	if err != nil {
		return nil, err
	}
	if err := checkShapes(mods); err != nil {
		return nil, err
	}
	if err := addConftestModule(mods, regoVersion(v0)); err != nil {
		return nil, err
	}
	if compiler.Compile(mods); compiler.Failed() {
		return nil, compileError(compiler.Errors, !now.IsZero())
	}
	return compiler, nil
}

func regoVersion(v0 bool) ast.RegoVersion {
	if v0 {
		return ast.RegoV0
	}
	return ast.RegoV1
}

// Namespaces returns every namespace (package without "data.") the policies
// define, sorted.
func (e *Engine) Namespaces() []string { return slices.Clone(e.namespaces) }

// prepare discovers namespaces and checks and prepares the queries of the
// selected namespaces.
func (e *Engine) prepare(ctx context.Context, opts Options) error {
	found := map[string]*namespaceChecks{}
	for _, name := range slices.Sorted(maps.Keys(e.compiler.Modules)) {
		if name == conftestModuleName {
			continue
		}
		m := e.compiler.Modules[name]
		ns := strings.TrimPrefix(m.Package.Path.String(), "data.")
		nc := found[ns]
		if nc == nil {
			nc = &namespaceChecks{name: ns, path: m.Package.Path.Copy(), pos: locPos(m.Package.Location)}
			found[ns] = nc
		}
		for _, r := range m.Rules {
			nc.metadata = nc.metadata || r.Head.Name == regoMetadata
			if rule, ok := checkName(r); ok {
				nc.bodies++
				if !slices.Contains(nc.rules, rule) {
					nc.rules = append(nc.rules, rule)
					if nc.rulePos == nil {
						nc.rulePos = map[string]manifest.Pos{}
					}
					nc.rulePos[rule] = locPos(r.Location)
				}
			}
		}
	}
	e.namespaces = slices.Sorted(maps.Keys(found))
	selected := opts.Namespaces
	if len(selected) == 0 {
		selected = []string{"main"}
	}
	if opts.AllNamespaces {
		selected = e.namespaces
	}
	selected, err := matchNamespaces(selected, e.namespaces)
	if err != nil {
		return err
	}
	for _, ns := range dedupSorted(selected) {
		nc := found[ns]
		if nc == nil || len(nc.rules) == 0 {
			continue
		}
		slices.Sort(nc.rules)
		if err := e.prepareNamespace(ctx, nc); err != nil {
			return err
		}
		e.checks = append(e.checks, nc)
	}
	return nil
}

func (e *Engine) prepareNamespace(ctx context.Context, nc *namespaceChecks) error {
	pkg := nc.path
	var exprs []string
	for i, r := range nc.queried() {
		// The marker records which rule runs, for a stop to name it.
		exprs = append(exprs, fmt.Sprintf("%s(%d)", ruleMarker, i))
		switch r {
		case "exception":
			exprs = append(exprs, fmt.Sprintf("[n | n := %s[_][_]]", pkg.Append(ast.StringTerm(r))))
		case regoMetadata:
			exprs = append(exprs, fmt.Sprintf("[m | m := %s]", pkg.Append(ast.StringTerm(r))))
		default:
			exprs = append(exprs, fmt.Sprintf("[x | x := %s]", pkg.Append(ast.StringTerm(r))))
		}
	}
	opts := []func(*rego.Rego){
		rego.Query(strings.Join(exprs, "; ")),
		rego.Compiler(e.compiler),
		rego.Store(e.store),
		rego.Capabilities(e.compiler.Capabilities()),
		rego.PrintHook(printHook{}),
	}
	for _, b := range builtins {
		opts = append(opts, rego.FunctionDyn(b.decl, b.impl))
	}
	opts = append(opts, rego.FunctionDyn(ruleMarkerDecl, markRule))
	q, err := rego.New(opts...).PrepareForEval(ctx)
	if err != nil {
		return invalid(fmt.Errorf("namespace %s: %w", nc.name, err))
	}
	nc.query = q
	return nil
}

// queried are the rules the namespace's query evaluates, in order: the
// checks, exception and, when defined, __rego_metadata__.
func (nc *namespaceChecks) queried() []string {
	out := append(slices.Clone(nc.rules), "exception")
	if nc.metadata {
		out = append(out, regoMetadata)
	}
	return out
}

// matchNamespaces resolves the selected namespaces as conftest does: when
// any of them holds a glob character (*, ?, [), every pattern is matched
// against the policies' namespaces with path.Match ("." is an ordinary
// character: main.* matches main.gke and main.gke.deep, not main);
// otherwise they are names, as written.
func matchNamespaces(selected, found []string) ([]string, error) {
	if !slices.ContainsFunc(selected, func(p string) bool { return strings.ContainsAny(p, "*?[") }) {
		return selected, nil
	}
	var out []string
	for _, p := range selected {
		if _, err := path.Match(p, ""); err != nil {
			return nil, invalid(fmt.Errorf("namespace pattern %q: %w", p, err))
		}
		for _, ns := range found {
			if ok, _ := path.Match(p, ns); ok {
				out = append(out, ns)
			}
		}
	}
	return out, nil
}

func dedupSorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// exceptionName is the name an exception uses for a check: the check's name
// without its deny_/violation_/warn_ prefix, "" for a bare check.
func exceptionName(rule string) string {
	if rule == "deny" || rule == "violation" || rule == "warn" {
		return ""
	}
	rule = strings.TrimPrefix(rule, "violation_")
	rule = strings.TrimPrefix(rule, "deny_")
	return strings.TrimPrefix(rule, "warn_")
}

// ErrTimeout is wrapped by the error of a query that outlived
// Options.QueryTimeout.
var ErrTimeout = errors.New("rule evaluation time limit exceeded")

// locPos is the place OPA's location names (none when it names none).
func locPos(l *ast.Location) manifest.Pos {
	if l == nil {
		return manifest.Pos{}
	}
	return manifest.Pos{File: l.File, Line: l.Row, Col: l.Col}
}
