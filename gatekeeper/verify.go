package gatekeeper

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"

	yaml "go.yaml.in/yaml/v3"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/regosandbox"
)

const (
	suiteGroup = "test.gatekeeper.sh"
	suiteKind  = "Suite"
)

func isSuite(o *manifest.Object) bool {
	return manifest.Group(o.APIVersion()) == suiteGroup && o.Kind() == suiteKind
}

// CaseResult is the outcome of one case of a gatekeeper suite. A test with
// `invalid: true` (its constraint must fail schema validation) has one
// result with an empty Case.
type CaseResult struct {
	Suite   string       // suite file
	Test    string       // test name
	Case    string       // case name
	Pos     manifest.Pos // where the case is written
	Skipped bool
	// Err is "" when the case passed; else why it failed, in gator's
	// words where it has them ("unexpected number of violations: ...").
	Err string
}

// Verify runs every gatekeeper suite (kind Suite, apiVersion
// test.gatekeeper.sh/*) found under paths (directories walked
// recursively; other YAML ignored), as gator verify does. Paths in a suite
// are relative to the suite file's directory. Failing cases are results;
// problems in the suites and the files they name (a missing field, an
// unreadable file, a template that does not compile, a case object file
// holding several objects) are errors wrapping ErrInvalid, returned with
// the results of everything else. The templates' Rego runs under b (nil:
// no limit): a case whose template b stops, or had stopped in an earlier
// case, fails with the stop. opts apply to every template and case.
func Verify(ctx context.Context, paths []string, b *regosandbox.Budget, opts Options) ([]CaseResult, error) {
	files, err := yamlFiles(paths)
	if err != nil {
		return nil, err
	}
	v := &verifier{templates: map[string]templateOrErr{}, files: map[string]objectsOrErr{}, budget: b, opts: opts}
	var out []CaseResult
	for _, f := range files {
		doc, err := v.readSuite(f)
		if err != nil {
			v.errs = append(v.errs, err)
			continue
		}
		if doc == nil {
			continue
		}
		res, err := v.runSuite(ctx, f, doc)
		if err != nil {
			return out, err
		}
		out = append(out, res...)
	}
	return out, invalid(manifest.Join(v.errs...))
}

// verifier runs suites, collecting the problems in them.
type verifier struct {
	// templates caches compiled templates by file.
	templates map[string]templateOrErr
	// files caches the objects of the files read, by path: the YAML
	// files walked, which the suites' templates, constraints and cases
	// often are, are decoded once.
	files  map[string]objectsOrErr
	errs   []error
	budget *regosandbox.Budget
	opts   Options
}

type objectsOrErr struct {
	objs []*manifest.Object
	err  error
}

// objects is readObjects(file), once.
func (v *verifier) objects(file string) ([]*manifest.Object, error) {
	if c, ok := v.files[file]; ok {
		return c.objs, c.err
	}
	objs, err := readObjects(file)
	v.files[file] = objectsOrErr{objs, err}
	return objs, err
}

type templateOrErr struct {
	t   *template
	err error
}

// node is a YAML node of a suite file.
type node struct {
	n    *yaml.Node
	file string
}

func (n node) pos() manifest.Pos {
	if n.n == nil {
		return manifest.Pos{File: n.file}
	}
	return manifest.Pos{File: n.file, Line: n.n.Line, Col: n.n.Column}
}

// get returns the value of key in a mapping node (zero node when absent).
func (n node) get(key string) node {
	if n.n == nil || n.n.Kind != yaml.MappingNode {
		return node{file: n.file}
	}
	for i := 0; i+1 < len(n.n.Content); i += 2 {
		if n.n.Content[i].Value == key {
			return node{n: n.n.Content[i+1], file: n.file}
		}
	}
	return node{file: n.file}
}

func (n node) isNull() bool { return n.n == nil || n.n.Tag == "!!null" }

// str reads a string field ("" when absent or null).
func (n node) str(key string) (string, error) {
	v := n.get(key)
	if v.isNull() {
		return "", nil
	}
	if v.n.Kind != yaml.ScalarNode || v.n.Tag != "!!str" {
		return "", errAt(v.pos(), "%s must be a string", key)
	}
	return v.n.Value, nil
}

// boolean reads a bool field (false when absent or null).
func (n node) boolean(key string) (bool, error) {
	v := n.get(key)
	if v.isNull() {
		return false, nil
	}
	if v.n.Kind != yaml.ScalarNode || v.n.Tag != "!!bool" {
		return false, errAt(v.pos(), "%s must be true or false", key)
	}
	return strconv.ParseBool(v.n.Value)
}

// list reads a sequence field (nil when absent or null).
func (n node) list(key string) ([]node, error) {
	v := n.get(key)
	if v.isNull() {
		return nil, nil
	}
	if v.n.Kind != yaml.SequenceNode {
		return nil, errAt(v.pos(), "%s must be a list", key)
	}
	out := make([]node, len(v.n.Content))
	for i, c := range v.n.Content {
		out[i] = node{n: c, file: n.file}
	}
	return out, nil
}

// readSuite parses the first document of a YAML file with yaml.v3 (so
// yes and no stay strings) and returns it when it is a Suite, else nil.
func (v *verifier) readSuite(file string) (*node, error) {
	// The file's objects, which the suites may use, tell most files from
	// a Suite without a second parse. When they cannot be decoded, only
	// the first document's problems count.
	if objs, err := v.objects(file); err == nil && (len(objs) == 0 || !isSuite(objs[0])) {
		return nil, nil
	}
	data, err := manifest.ReadFile(file)
	if err != nil {
		return nil, invalid(err)
	}
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, invalid(manifest.YAMLError(file, data, err))
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := node{n: doc.Content[0], file: file}
	apiVersion, _ := root.str("apiVersion")
	kind, _ := root.str("kind")
	if manifest.Group(apiVersion) != suiteGroup || kind != suiteKind {
		return nil, nil
	}
	if root.n.Kind != yaml.MappingNode {
		return nil, errAt(root.pos(), "a Suite must be a mapping")
	}
	return &root, nil
}

// runSuite runs one suite's tests. Only ctx's errors are returned; the
// suite's problems are collected in v.errs.
func (v *verifier) runSuite(ctx context.Context, file string, suite *node) ([]CaseResult, error) {
	skipAll, err := suite.boolean("skip")
	if err != nil {
		v.errs = append(v.errs, err)
		return nil, nil
	}
	tests, err := suite.list("tests")
	if err != nil {
		v.errs = append(v.errs, err)
		return nil, nil
	}
	dir := filepath.Dir(file)
	var out []CaseResult
	for _, t := range tests {
		res, err := v.runTest(ctx, file, dir, t, skipAll)
		if err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			v.errs = append(v.errs, err)
		}
		out = append(out, res...)
	}
	return out, nil
}

// runTest runs one test of a suite.
func (v *verifier) runTest(ctx context.Context, file, dir string, t node, skipAll bool) ([]CaseResult, error) {
	if t.n.Kind != yaml.MappingNode {
		return nil, errAt(t.pos(), "a test must be a mapping")
	}
	var errs []error
	field := func(key string) string {
		s, err := t.str(key)
		if err != nil {
			errs = append(errs, err)
		}
		return s
	}
	flag := func(key string) bool {
		b, err := t.boolean(key)
		if err != nil {
			errs = append(errs, err)
		}
		return b
	}
	name, tmplPath, consPath, expansion := field("name"), field("template"), field("constraint"), field("expansion")
	wantInvalid, skip := flag("invalid"), flag("skip")
	cases, err := t.list("cases")
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, manifest.Join(errs...)
	}
	res := CaseResult{Suite: file, Test: name, Pos: t.pos()}
	if skipAll || skip {
		var out []CaseResult
		if wantInvalid {
			res.Skipped = true
			out = append(out, res)
		}
		for _, c := range cases {
			cn, _ := c.str("name")
			out = append(out, CaseResult{Suite: file, Test: name, Case: cn, Pos: c.pos(), Skipped: true})
		}
		return out, nil
	}
	switch {
	case expansion != "":
		return nil, errAt(t.get("expansion").pos(), "test %q: expansion templates are not supported", name)
	case tmplPath == "":
		return nil, errAt(t.pos(), "test %q: missing template", name)
	case consPath == "":
		return nil, errAt(t.pos(), "test %q: missing constraint", name)
	}
	tmpl, err := v.template(filepath.Join(dir, tmplPath), t.get("template").pos())
	if err != nil {
		return nil, err
	}
	c, err := v.readConstraint(filepath.Join(dir, consPath), t.get("constraint").pos(), tmpl)
	if wantInvalid {
		if !errors.Is(err, errSchema) {
			res.Err = fmt.Sprintf("constraint should have failed schema validation: got error %s but want %v", manifest.Format(err, nil), errSchema)
		}
		return []CaseResult{res}, nil
	}
	if err != nil {
		return nil, err
	}
	var out []CaseResult
	for _, cn := range cases {
		r, err := v.runCase(ctx, file, dir, name, c, cn)
		if err != nil {
			if ctx.Err() != nil {
				return out, err
			}
			errs = append(errs, err)
			continue
		}
		out = append(out, r)
	}
	return out, manifest.Join(errs...)
}

// template reads and compiles the ConstraintTemplate in file, once.
func (v *verifier) template(file string, ref manifest.Pos) (*template, error) {
	if c, ok := v.templates[file]; ok {
		return c.t, c.err
	}
	t, err := func() (*template, error) {
		obj, err := v.readOne(file, ref)
		if err != nil {
			return nil, err
		}
		if !isTemplate(obj) {
			return nil, errAt(obj.Pos, "not a ConstraintTemplate (apiVersion %s/*, kind ConstraintTemplate)", templateGroup)
		}
		return parseTemplate(obj, v.opts)
	}()
	v.templates[file] = templateOrErr{t, err}
	return t, err
}

// readConstraint reads the Constraint in file, for tmpl.
func (v *verifier) readConstraint(file string, ref manifest.Pos, tmpl *template) (*constraint, error) {
	obj, err := v.readOne(file, ref)
	if err != nil {
		return nil, err
	}
	if g := manifest.Group(obj.APIVersion()); g != constraintGroup {
		return nil, errAt(obj.FieldPos(fieldpath.New("apiVersion")), "constraint %s: unsupported group %q: want %s", obj.Name(), g, constraintGroup)
	}
	if obj.Kind() != tmpl.kind {
		return nil, errAt(obj.FieldPos(fieldpath.New("kind")), "constraint %s: wrong kind %s: the test's template defines %s", obj.Name(), obj.Kind(), tmpl.kind)
	}
	return parseConstraint(obj, tmpl)
}

// readOne reads a file that must hold exactly one object; ref is where
// the suite names it.
func (v *verifier) readOne(file string, ref manifest.Pos) (*manifest.Object, error) {
	objs, err := v.readAll(file, ref)
	if err != nil {
		return nil, err
	}
	if len(objs) != 1 {
		return nil, errAt(ref, "object file must contain exactly one object: %s defines %d objects", file, len(objs))
	}
	return objs[0], nil
}

// readAll reads a file's objects, at least one; ref is where the suite
// names it, where a file that cannot be read is reported (a YAML error is
// at its own place).
func (v *verifier) readAll(file string, ref manifest.Pos) ([]*manifest.Object, error) {
	objs, err := v.objects(file)
	if err != nil {
		if errors.Is(err, manifest.ErrInvalidYAML) {
			return nil, err
		}
		return nil, errAt(ref, "%v", err)
	}
	if len(objs) == 0 {
		return nil, errAt(ref, "missing objects: %s defines no YAML objects", file)
	}
	return objs, nil
}

// assertion is one of a case's assertions.
type assertion struct {
	// yes wants at least one matching violation, no none, else exactly
	// want.
	yes, no bool
	want    int
	message *regexp.Regexp
	text    string
}

// runCase runs one case: its object against c, with its inventory.
func (v *verifier) runCase(ctx context.Context, file, dir, test string, c *constraint, cn node) (CaseResult, error) {
	res := CaseResult{Suite: file, Test: test, Pos: cn.pos()}
	if cn.n.Kind != yaml.MappingNode {
		return res, errAt(cn.pos(), "a case must be a mapping")
	}
	var errs []error
	name, err := cn.str("name")
	errs = append(errs, err)
	res.Case = name
	skip, err := cn.boolean("skip")
	errs = append(errs, err)
	objPath, err := cn.str("object")
	errs = append(errs, err)
	invNodes, err := cn.list("inventory")
	errs = append(errs, err)
	asserts, err := parseAssertions(cn)
	errs = append(errs, err)
	if err := manifest.Join(errs...); err != nil {
		return res, err
	}
	if skip {
		res.Skipped = true
		return res, nil
	}
	switch {
	case objPath == "":
		return res, errAt(cn.pos(), "case %q: must define object", name)
	case len(asserts) == 0:
		return res, errAt(cn.pos(), "case %q: assertions must be non-empty", name)
	}
	obj, err := v.readOne(filepath.Join(dir, objPath), cn.get("object").pos())
	if err != nil {
		return res, err
	}
	var invObjs []*manifest.Object
	for _, in := range invNodes {
		if in.n.Kind != yaml.ScalarNode || in.n.Tag != "!!str" {
			return res, errAt(in.pos(), "inventory entries must be file paths")
		}
		objs, err := v.readAll(filepath.Join(dir, in.n.Value), in.pos())
		if err != nil {
			return res, err
		}
		invObjs = append(invObjs, objs...)
	}
	values, err := astValues(append(invObjs, obj))
	if err != nil {
		return res, err
	}
	t := objectTarget(obj, values[len(invObjs)])
	if obj.Kind() == "AdmissionReview" && manifest.Group(obj.APIVersion()) == "admission.k8s.io" {
		if t, err = admissionReviewTarget(obj); err != nil {
			return res, err
		}
	}
	out, err := review(ctx, v.budget, v.opts, []*constraint{c}, []target{t}, inventory{invObjs, values[:len(invObjs)]})
	if err == nil {
		err = out.StopErrors()
	}
	if err != nil {
		if ctx.Err() != nil {
			return res, err
		}
		res.Err = manifest.Format(err, nil)
		return res, nil
	}
	violations := out.Violations
	for _, a := range asserts {
		if msg := a.check(violations); msg != "" {
			res.Err = msg
			break
		}
	}
	return res, nil
}

// parseAssertions reads a case's assertions.
func parseAssertions(cn node) ([]assertion, error) {
	list, err := cn.list("assertions")
	if err != nil {
		return nil, err
	}
	var out []assertion
	for _, an := range list {
		a := assertion{yes: true}
		if v := an.get("violations"); !v.isNull() {
			switch {
			case v.n.Kind == yaml.ScalarNode && v.n.Tag == "!!int":
				n, err := strconv.Atoi(v.n.Value)
				if err != nil || n < 0 {
					return nil, errAt(v.pos(), `assertion.violations, if set, must be a nonnegative integer, "yes", or "no"`)
				}
				a.yes, a.want = false, n
			case v.n.Kind == yaml.ScalarNode && v.n.Tag == "!!str" && v.n.Value == "yes":
			case v.n.Kind == yaml.ScalarNode && v.n.Tag == "!!str" && v.n.Value == "no":
				a.yes, a.no = false, true
			default:
				return nil, errAt(v.pos(), `assertion.violations, if set, must be a nonnegative integer, "yes", or "no"`)
			}
		}
		msg, err := an.str("message")
		if err != nil {
			return nil, err
		}
		if !an.get("message").isNull() {
			re, err := regexp.Compile(msg)
			if err != nil {
				return nil, errAt(an.get("message").pos(), "message contains invalid regular expression: %v", err)
			}
			a.message, a.text = re, msg
		}
		out = append(out, a)
	}
	return out, nil
}

// check returns why the violations break the assertion, in gator's
// words, or "".
func (a assertion) check(violations []Violation) string {
	matching := 0
	messages := make([]string, 0, len(violations))
	for _, v := range violations {
		messages = append(messages, v.Message)
		if a.message == nil || a.message.MatchString(v.Message) {
			matching++
		}
	}
	got := fmt.Sprintf("got %d violations", matching)
	if a.message != nil {
		got = fmt.Sprintf("got %d violations containing %q", matching, a.text)
	}
	var want string
	switch {
	case a.yes && matching == 0:
		want = "at least 1"
	case a.no && matching > 0:
		want = "none"
	case !a.yes && !a.no && a.want != matching:
		want = fmt.Sprintf("exactly %d", a.want)
	default:
		return ""
	}
	return fmt.Sprintf("unexpected number of violations: %s but want %s: got messages %v", got, want, messages)
}

// admissionReviewTarget reviews an AdmissionReview's request as it is
// written (uid, operation, userInfo...), as gator verify does.
func admissionReviewTarget(obj *manifest.Object) (target, error) {
	req := manifest.Map(obj.Data, "request")
	if req == nil {
		return target{}, errAt(obj.Pos, "AdmissionReview: request did not actually pass in an AdmissionRequest")
	}
	object, old := manifest.Map(req, "object"), manifest.Map(req, "oldObject")
	if object == nil && old == nil {
		return target{}, errAt(obj.FieldPos(fieldpath.New("request")), `AdmissionReview: no object or oldObject found to review: AdmissionRequest does not contain an "object" or "oldObject" to review`)
	}
	r := emptyReview()
	for k, v := range req {
		if k == "kind" || k == "resource" {
			m := r[k].(map[string]any)
			for kk, vv := range asMap(v) {
				m[kk] = vv
			}
			continue
		}
		r[k] = v
	}
	t := target{review: r, namespace: manifest.String(req, "namespace"), object: object, oldObject: old}
	if manifest.String(req, "operation") == "DELETE" {
		if old == nil {
			return target{}, errAt(obj.FieldPos(fieldpath.New("request")), "AdmissionReview: a DELETE request must have an oldObject")
		}
		r["object"] = old
	}
	for _, m := range []map[string]any{object, old} {
		if m != nil {
			t.objs = append(t.objs, newMatchObject(manifest.New(m)))
		}
	}
	return t, nil
}
