package gatekeeper

import (
	"cmp"
	"errors"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

const (
	templateGroup   = "templates.gatekeeper.sh"
	admissionTarget = "admission.k8s.gatekeeper.sh"
	// templatePackage is where every template's own module lives in its
	// compiler, whatever package it declares.
	templatePackage = "template"
)

// violationQuery enumerates the template's violation set.
// It is parsed on first use, not at every drydock start.
var violationQuery = sync.OnceValue(func() ast.Body { return ast.MustParseBody("data." + templatePackage + ".violation[result]") })

// template is one compiled ConstraintTemplate.
type template struct {
	kind string
	// name is metadata.name, pos where the document starts.
	name string
	pos  manifest.Pos
	// compiler holds the template's module (as data.template) and its
	// libs (under data.lib), nothing else; nil for a CEL template.
	compiler *ast.Compiler
	// cel is the template's K8sNativeValidation code, which Gatekeeper
	// prefers to its Rego; nil when it has none.
	cel *celCode
	// schema is spec.crd.spec.validation.openAPIV3Schema, nil when none.
	schema map[string]any
	// legacySchema makes every parameter acceptable (v1beta1 and v1alpha1
	// templates by default, as Gatekeeper's conversion does).
	legacySchema bool
	// sources maps each module's name (the field path of its text) to
	// where its text starts: the line after a block scalar's indicator and
	// the column its indentation ends at (0 for other scalars).
	sources map[string]manifest.Pos
	// modules matches the names of sources followed by a line number.
	modules *regexp.Regexp
}

// at maps a location in a module of the template to the template file.
func (t *template) at(loc *ast.Location) manifest.Pos {
	if loc == nil {
		return t.pos
	}
	p, ok := t.sources[loc.File]
	if !ok {
		return t.pos
	}
	p.Line += loc.Row - 1
	if p.Col > 0 {
		p.Col += loc.Col - 1
	}
	return p
}

// regoCode is the Rego a template's target holds.
type regoCode struct {
	rego    string
	regoAt  fieldpath.Path // field path of rego
	libs    []lib
	version ast.RegoVersion
}

// lib is one of a target's libs: its text and field path.
type lib struct {
	at   fieldpath.Path
	text string
}

// readLibs reads the list of libs at the field path at.
func readLibs(obj *manifest.Object, v any, at fieldpath.Path) ([]lib, error) {
	texts, err := stringList(obj, v, at)
	if err != nil {
		return nil, err
	}
	out := make([]lib, len(texts))
	for i, text := range texts {
		out[i] = lib{at: at.At(i), text: text}
	}
	return out, nil
}

// parseTemplate reads and compiles one ConstraintTemplate.
func parseTemplate(obj *manifest.Object, opts Options) (*template, error) {
	kind := manifest.String(obj.Data, "spec", "crd", "spec", "names", "kind")
	if kind == "" {
		return nil, errAt(obj.FieldPos(fieldpath.New("spec", "crd", "spec", "names")), "ConstraintTemplate %q: spec.crd.spec.names.kind is required", obj.Name())
	}
	if want := strings.ToLower(kind); obj.Name() != want {
		return nil, errAt(obj.FieldPos(fieldpath.New("metadata", "name")), "ConstraintTemplate %q: metadata.name must be %q, the lowercased kind %s", obj.Name(), want, kind)
	}
	t := &template{kind: kind, name: obj.Name(), pos: obj.Pos, sources: map[string]manifest.Pos{}}
	if v, ok := manifest.Lookup(obj.Data, "spec", "crd", "spec", "validation", "openAPIV3Schema"); ok && v != nil {
		s, ok := v.(map[string]any)
		if !ok {
			return nil, errAt(obj.FieldPos(fieldpath.New("spec", "crd", "spec", "validation", "openAPIV3Schema")), "ConstraintTemplate %q: openAPIV3Schema must be an object", t.name)
		}
		t.schema = s
	}
	switch v := obj.APIVersion(); {
	case strings.HasSuffix(v, "/v1beta1"), strings.HasSuffix(v, "/v1alpha1"):
		t.legacySchema = true
	}
	if b, ok := manifest.Lookup(obj.Data, "spec", "crd", "spec", "validation", "legacySchema"); ok {
		if b, ok := b.(bool); ok {
			t.legacySchema = b
		}
	}
	target, err := t.target(obj)
	if err != nil {
		return nil, err
	}
	// Gatekeeper (gator included) registers its CEL driver before Rego's:
	// a template with CEL code is evaluated with it, and its Rego, not
	// even compiled, is ignored. Without the CEL driver (gator
	// --enable-k8s-native-validation=false) the Rego driver is the only
	// one: the client picks the engine whose driver it has
	// (frameworks/constraint pkg/client/client.go, driverForTemplate).
	src, at, hasCEL := celSource(target)
	if hasCEL && !opts.RegoOnly {
		if err := t.compileCEL(obj, src, at); err != nil {
			return nil, err
		}
		return t, nil
	}
	code, err := t.regoCode(obj, target, hasCEL)
	if err != nil {
		return nil, err
	}
	if err := t.compile(obj, code); err != nil {
		return nil, err
	}
	return t, nil
}

// target is the template's single target.
func (t *template) target(obj *manifest.Object) (map[string]any, error) {
	targets, _ := manifest.Lookup(obj.Data, "spec", "targets")
	list, ok := targets.([]any)
	switch {
	case !ok || len(list) == 0:
		return nil, errAt(obj.FieldPos(fieldpath.New("spec")), "ConstraintTemplate %q: no targets specified: a ConstraintTemplate must specify one target", t.name)
	case len(list) > 1:
		return nil, errAt(obj.FieldPos(fieldpath.New("spec", "targets", 1)), "ConstraintTemplate %q: multi-target templates are not supported", t.name)
	}
	target, _ := list[0].(map[string]any)
	if name := manifest.String(target, "target"); name != admissionTarget {
		return nil, errAt(obj.FieldPos(fieldpath.New("spec", "targets", 0, "target")), "ConstraintTemplate %q: target %q is not supported (want %s)", t.name, name, admissionTarget)
	}
	return target, nil
}

// regoCode finds the Rego of the template's target: the legacy
// targets[0].rego (always v0) when it is set, else the source of its code
// entry of engine Rego.
func (t *template) regoCode(obj *manifest.Object, target map[string]any, hasCEL bool) (regoCode, error) {
	if rego := manifest.String(target, "rego"); rego != "" {
		c := regoCode{rego: rego, regoAt: fieldpath.New("spec", "targets", 0, "rego"), version: ast.RegoV0}
		var err error
		c.libs, err = readLibs(obj, target["libs"], fieldpath.New("spec", "targets", 0, "libs"))
		return c, err
	}
	code, _ := target["code"].([]any)
	for i, e := range code {
		m, _ := e.(map[string]any)
		if manifest.String(m, "engine") != "Rego" {
			continue
		}
		at := fieldpath.New("spec", "targets", 0, "code", i, "source")
		c := regoCode{rego: manifest.String(m, "source", "rego"), regoAt: at.Child("rego"), version: ast.RegoV0}
		if manifest.String(m, "source", "version") == "v1" {
			c.version = ast.RegoV1
		}
		var err error
		if c.libs, err = readLibs(obj, manifest.Map(m, "source")["libs"], at.Child("libs")); err != nil {
			return c, err
		}
		if c.rego == "" {
			return c, errAt(obj.FieldPos(at), "ConstraintTemplate %q: its Rego code has no source.rego", t.name)
		}
		return c, nil
	}
	if hasCEL {
		return regoCode{}, errAt(obj.FieldPos(fieldpath.New("spec", "targets", 0)), "ConstraintTemplate %q has no Rego code (targets[0].rego, or code with engine Rego), and its K8sNativeValidation (CEL) code is disabled: no driver can evaluate it", t.name)
	}
	return regoCode{}, errAt(obj.FieldPos(fieldpath.New("spec", "targets", 0)), "ConstraintTemplate %q has no code: neither Rego (targets[0].rego, or code with engine Rego) nor CEL (code with engine K8sNativeValidation)", t.name)
}

func stringList(obj *manifest.Object, v any, at fieldpath.Path) ([]string, error) {
	out, err := manifest.DecodeStringList(v)
	if err != nil {
		return nil, errAt(obj.FieldPos(at), "%s: %v", at, err)
	}
	return out, nil
}

// compile parses the template's module and libs, enforces Gatekeeper's
// restrictions and compiles them in a compiler of their own.
func (t *template) compile(obj *manifest.Object, code regoCode) error {
	caps := capabilities()
	parse := func(at fieldpath.Path, text string) (*ast.Module, error) {
		pos, ok := obj.BlockStart(at)
		if !ok {
			// A quoted or plain scalar: lines are where the value starts,
			// columns are unknown.
			pos = obj.FieldPos(at)
			pos.Col = 0
		}
		t.sources[at.String()] = pos
		m, err := ast.ParseModuleWithOpts(at.String(), text, ast.ParserOptions{RegoVersion: code.version, Capabilities: caps})
		if err != nil {
			return nil, t.regoError(err)
		}
		if m == nil {
			return nil, errAt(pos, "ConstraintTemplate %q: %s holds no Rego module", t.name, at)
		}
		return m, nil
	}
	main, err := parse(code.regoAt, code.rego)
	if err != nil {
		return err
	}
	var errs ast.Errors
	if !slices.ContainsFunc(main.Rules, func(r *ast.Rule) bool { return r.Head.Name == "violation" }) {
		errs = append(errs, ast.NewError(ast.CompileErr, main.Package.Location, "missing required rule violation (write `violation[{\"msg\": msg}] { ... }`, or `violation contains {\"msg\": msg} if { ... }` in v1)"))
	}
	errs = append(errs, checkModule(main)...)
	main.Package.Path = ast.Ref{ast.DefaultRootDocument, ast.StringTerm(templatePackage)}
	mods := map[string]*ast.Module{code.regoAt.String(): main}
	for _, l := range code.libs {
		lib, err := parse(l.at, l.text)
		if err != nil {
			return err
		}
		if p := lib.Package.Path; len(p) < 3 || !p[1].Equal(ast.StringTerm("lib")) {
			errs = append(errs, ast.NewError(ast.CompileErr, lib.Package.Location, "invalid lib package %s: a lib's package must be under lib (package lib.<name>)", p))
		}
		errs = append(errs, checkModule(lib)...)
		mods[l.at.String()] = lib
	}
	if len(errs) > 0 {
		return t.regoError(errs)
	}
	c := ast.NewCompiler().WithCapabilities(caps)
	if c.Compile(mods); c.Failed() {
		return t.regoError(c.Errors)
	}
	// A rule named violation is there (checked above), but only the
	// query tells whether it can be enumerated: a function violation(x)
	// or a single value (violation = 5) fails here, at Load, rather than
	// on every review.
	if _, err := c.QueryCompiler().Compile(violationQuery()); err != nil {
		return t.regoError(err)
	}
	t.compiler = c
	t.modules = modulePattern(slices.Collect(maps.Keys(t.sources)))
	return nil
}

// modulePattern matches, in OPA's messages, one of the module names
// followed by a line number ("spec.targets[0].rego:3").
func modulePattern(names []string) *regexp.Regexp {
	// Longest first, so that no name stops at a shorter one it starts with.
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return regexp.MustCompile(`(?:` + strings.Join(quoted, "|") + `):\d+`)
}

// checkModule enforces Gatekeeper's restrictions on a template module or
// lib: it may import only data.lib.* and future.*, and refer to data only
// as data.inventory and data.lib.
func checkModule(m *ast.Module) ast.Errors {
	var errs ast.Errors
	for _, imp := range m.Imports {
		ref, _ := imp.Path.Value.(ast.Ref)
		ok := len(ref) > 0 && (ref.HasPrefix(ast.Ref{ast.DefaultRootDocument, ast.StringTerm("lib")}) && len(ref) > 2 ||
			ref[0].Equal(ast.VarTerm("future")))
		if !ok {
			errs = append(errs, ast.NewError(ast.CompileErr, imp.Location, "bad import %s: a template may import only data.lib.* and future.*", imp.Path))
		}
	}
	var vis *ast.GenericVisitor
	vis = ast.NewGenericVisitor(func(x any) bool {
		switch x := x.(type) {
		case *ast.Import, *ast.Package:
			return true
		case ast.Ref:
			if x[0].Equal(ast.DefaultRootDocument) {
				if len(x) < 2 || !(x[1].Equal(ast.StringTerm("inventory")) || x[1].Equal(ast.StringTerm("lib"))) {
					errs = append(errs, ast.NewError(ast.CompileErr, x[0].Location, "disallowed ref %s: a template may refer only to data.inventory and data.lib", x))
				}
			}
			for _, t := range x[1:] {
				vis.Walk(t)
			}
			return true
		case *ast.Term:
			if v, ok := x.Value.(ast.Var); ok && v.Equal(ast.DefaultRootDocument.Value) {
				errs = append(errs, ast.NewError(ast.CompileErr, x.Location, "disallowed ref data: a template may refer only to data.inventory and data.lib"))
			}
		}
		return false
	})
	for _, r := range m.Rules {
		vis.Walk(r)
	}
	return errs
}

// regoError turns OPA's parse or compile errors into one ErrInvalid error
// listing each at its place in the template file.
func (t *template) regoError(err error) error {
	var errs ast.Errors
	if !errors.As(err, &errs) {
		return errAt(t.pos, "ConstraintTemplate %q: %v", t.name, err)
	}
	unavailable(errs)
	var out []error
	for _, e := range errs {
		out = append(out, errAt(t.at(e.Location), "ConstraintTemplate %q: %s: %s", t.name, e.Code, e.Message))
	}
	return manifest.Join(out...)
}
