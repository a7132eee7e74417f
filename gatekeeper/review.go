package gatekeeper

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/regosandbox"
)

// Violation is one result of a constraint for one object.
type Violation struct {
	Object     int          // index of the object in Review's objects
	Constraint string       // "Kind/name" of the constraint
	Pos        manifest.Pos // where the constraint is written
	Message    string
	Details    any // the violation's details (nil when none)
	// EnforcementAction is the constraint's spec.enforcementAction: "deny"
	// (default), "warn", "dryrun", "scoped" or whatever is written.
	EnforcementAction string
	// ScopedEnforcementActions are, when EnforcementAction is "scoped",
	// the actions its scopedEnforcementActions give gator's enforcement
	// point (gator.gatekeeper.sh, or "*"), sorted, without duplicates:
	// what gator reports as the result's scopedActions.
	ScopedEnforcementActions []string
}

// Review evaluates every constraint against every object of one cluster,
// as gator verify and Gatekeeper's audit do (see the package
// documentation): data.inventory holds all the objects, and the Namespace
// objects among them serve namespaceSelector. Violations are sorted by
// object index, constraint and message. Errors wrap ErrInvalid, except
// those of ctx. Under a budget (WithBudget), a template it stops is an
// error (see Check).
func (s *Set) Review(ctx context.Context, objects []*manifest.Object) ([]Violation, error) {
	out, err := s.Check(ctx, objects)
	if err != nil {
		return nil, err
	}
	if err := out.StopErrors(); err != nil {
		return nil, err
	}
	return out.Violations, nil
}

// Check is Review that reports the templates its budget stopped in
// Outcome.Stopped, besides the violations of the others.
func (s *Set) Check(ctx context.Context, objects []*manifest.Object) (*Outcome, error) {
	// Only Rego needs the objects as OPA values (CEL reads them as they
	// are).
	values := make([]ast.Value, len(objects))
	if usesRego(s.constraints) {
		var err error
		if values, err = astValues(objects); err != nil {
			return nil, err
		}
	}
	targets := make([]target, len(objects))
	for i, o := range objects {
		targets[i] = objectTarget(o, values[i])
	}
	return review(ctx, s.budget, s.opts, s.constraints, targets, inventory{objects, values})
}

// inventory is the objects of data.inventory, with their data as OPA
// values (converted once, for data.inventory and input.review.object).
type inventory struct {
	objs   []*manifest.Object
	values []ast.Value
}

// usesRego reports whether any of constraints is evaluated with Rego.
func usesRego(constraints []*constraint) bool {
	return slices.ContainsFunc(constraints, func(c *constraint) bool { return !c.skip && c.tmpl.cel == nil })
}

// astValues converts each object's data to an OPA value.
func astValues(objs []*manifest.Object) ([]ast.Value, error) {
	out := make([]ast.Value, len(objs))
	for i, o := range objs {
		v, err := ast.InterfaceToValue(o.Data)
		if err != nil {
			return nil, errAt(o.Pos, "object %s/%s: %v", o.Kind(), o.Name(), err)
		}
		out[i] = v
	}
	return out, nil
}

// target is one thing to review: input.review and the objects matched
// against spec.match (the object, or an AdmissionRequest's object and
// oldObject).
type target struct {
	review    map[string]any
	objs      []matchObject
	namespace string
	// object and oldObject are the request's objects as written, for CEL
	// (review holds OPA values, and on DELETE the oldObject as object).
	object, oldObject map[string]any
	// label names the target in a budget's stop.
	label string
}

// emptyReview is an AdmissionRequest as gator starts it: every field
// empty.
func emptyReview() map[string]any {
	return map[string]any{
		"uid":             "",
		"kind":            map[string]any{"group": "", "version": "", "kind": ""},
		"resource":        map[string]any{"group": "", "version": "", "resource": ""},
		"operation":       "",
		"userInfo":        map[string]any{},
		"object":          nil,
		"oldObject":       nil,
		"options":         nil,
		"namespaceObject": map[string]any{},
	}
}

// objectTarget is the review of an object as gator builds it: an
// AdmissionRequest without operation, user or old object. data is
// o.Data as an OPA value.
func objectTarget(o *manifest.Object, data ast.Value) target {
	apiVersion := o.APIVersion()
	group := manifest.Group(apiVersion)
	version := strings.TrimPrefix(strings.TrimPrefix(apiVersion, group), "/")
	r := emptyReview()
	r["kind"] = map[string]any{"group": group, "version": version, "kind": o.Kind()}
	r["object"] = data
	if n := o.Name(); n != "" {
		r["name"] = n
	}
	if ns := o.Namespace(); ns != "" {
		r["namespace"] = ns
	}
	return target{review: r, objs: []matchObject{newMatchObject(o)}, namespace: o.Namespace(), object: o.Data, label: objectLabel(o)}
}

// review evaluates constraints against targets with data.inventory (and
// the namespaces namespaceSelector sees) built from inv, the Rego under b
// (nil: no limit).
func review(ctx context.Context, b *regosandbox.Budget, opts Options, constraints []*constraint, targets []target, inv inventory) (*Outcome, error) {
	withRego := usesRego(constraints)
	data, namespaces, err := inv.build(withRego)
	if err != nil {
		return nil, err
	}
	queries := map[*template]rego.PreparedEvalQuery{}
	var store storage.Store
	if withRego {
		store = inmem.NewFromASTObject(data)
	}
	for _, c := range constraints {
		if _, ok := queries[c.tmpl]; ok || c.skip || c.tmpl.cel != nil {
			continue
		}
		q, err := rego.New(rego.ParsedQuery(violationQuery()), rego.Compiler(c.tmpl.compiler), rego.Store(store)).PrepareForEval(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, errAt(c.tmpl.pos, "ConstraintTemplate %q: %v", c.tmpl.name, err)
		}
		queries[c.tmpl] = q
	}
	var out []Violation
	var stopped []Stopped
	for i, t := range targets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var reviewValue ast.Value
		var celIn *celInput
		for _, c := range constraints {
			if c.skip {
				continue
			}
			v := Violation{Object: i, Constraint: c.id, Pos: c.pos, EnforcementAction: c.action, ScopedEnforcementActions: c.scoped}
			matched, err := c.matchAny(&t, targetNamespace(t.namespace, namespaces, opts.EmptyNamespace))
			if err != nil {
				v.Message = fmt.Sprintf("unable to match constraints: %s", manifest.Format(err, nil))
				out = append(out, v)
				continue
			}
			if !matched {
				continue
			}
			if c.tmpl.cel != nil {
				if celIn == nil {
					celIn = newCELInput(&t)
				}
				for _, msg := range c.tmpl.cel.eval(ctx, celIn, c.celParams) {
					v.Message = msg
					out = append(out, v)
				}
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				continue
			}
			if reviewValue == nil {
				if reviewValue, err = ast.InterfaceToValue(t.review); err != nil {
					return nil, invalid(fmt.Errorf("review object %d: %w", i, err))
				}
			}
			results, stop, err := c.evalBudgeted(ctx, b, queries[c.tmpl], reviewValue, t.label)
			if err != nil {
				return nil, err
			}
			if stop != nil {
				stopped = append(stopped, Stopped{Object: i, Constraint: c.id, Stop: stop.Stop, Skipped: stop.Skipped})
				continue
			}
			for _, r := range results {
				v.Message, v.Details = r.msg, r.details
				out = append(out, v)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Violation) int {
		return cmp.Or(cmp.Compare(a.Object, b.Object), strings.Compare(a.Constraint, b.Constraint), strings.Compare(a.Message, b.Message))
	})
	return &Outcome{Violations: out, Stopped: stopped}, nil
}

// build is the root of data for inv (when withData is set; else nil):
// inventory.cluster[gv][Kind][name] for the objects without
// metadata.namespace, inventory.namespace[ns][gv][Kind][name] for the
// others; and the labels of the Namespace objects among them by name.
func (inv inventory) build(withData bool) (ast.Object, map[string]map[string]string, error) {
	cluster := map[string]any{}
	namespaced := map[string]any{}
	namespaces := map[string]map[string]string{}
	for i, o := range inv.objs {
		if o.Kind() == "Namespace" && manifest.Group(o.APIVersion()) == "" {
			namespaces[o.Name()] = o.Labels()
		}
		if !withData {
			continue
		}
		if ns := o.Namespace(); ns == "" {
			manifest.SetNested(cluster, inv.values[i], o.APIVersion(), o.Kind(), o.Name())
		} else {
			manifest.SetNested(namespaced, inv.values[i], ns, o.APIVersion(), o.Kind(), o.Name())
		}
	}
	if !withData {
		return nil, namespaces, nil
	}
	// The leaves are ast.Values already, which InterfaceToValue keeps.
	data, err := ast.InterfaceToValue(map[string]any{"inventory": map[string]any{"cluster": cluster, "namespace": namespaced}})
	if err != nil {
		return nil, nil, invalid(fmt.Errorf("data.inventory: %w", err))
	}
	return data.(ast.Object), namespaces, nil
}

// targetNamespace is the Namespace an object of namespace name is matched
// in, nil for none: the Namespace of that name among the objects (known,
// by name, their labels), as Gatekeeper's matcher looks it up in its
// cache (gatekeeper pkg/target/matcher.go). With empty, gator test's
// Namespace when there is none: its expander gives an object without
// namespace an empty Namespace, and one of namespace default an unlabeled
// default (pkg/gator/expand/expand.go, NamespaceForResource).
func targetNamespace(name string, known map[string]map[string]string, empty bool) *namespace {
	if labels, ok := known[name]; ok && name != "" {
		return &namespace{name: name, labels: labels}
	}
	if empty && (name == "" || name == "default") {
		return &namespace{name: name}
	}
	return nil
}

// matchAny reports whether any of the target's objects is in scope, ns
// being the Namespace they are reviewed in (nil: none); errors are worded
// as Gatekeeper's autoreject results.
func (c *constraint) matchAny(t *target, ns *namespace) (bool, error) {
	if c.match == nil {
		return true, nil
	}
	for i := range t.objs {
		o := &t.objs[i]
		ok, err := c.match.matches(o, ns)
		if err != nil {
			return false, fmt.Errorf("error matching the requested object: %s :failed to run Match criteria: %w", o.name, err)
		}
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// result is one element of a template's violation set.
type result struct {
	msg     string
	details any
}

// eval runs the constraint's template on one review. An evaluation error
// is a result carrying its text (as Gatekeeper reports it); a msg that is
// not a string is an error.
func (c *constraint) eval(ctx context.Context, q rego.PreparedEvalQuery, review ast.Value) ([]result, error) {
	input := ast.NewObject(
		ast.Item(ast.StringTerm("review"), ast.NewTerm(review)),
		ast.Item(ast.StringTerm("parameters"), ast.NewTerm(c.params)),
	)
	rs, err := q.Eval(ctx, rego.EvalParsedInput(input))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return []result{{msg: c.tmpl.evalMessage(err)}}, nil
	}
	seen := map[string]bool{}
	var out []result
	for _, r := range rs {
		m, ok := r.Bindings["result"].(map[string]any)
		if !ok {
			continue
		}
		raw, ok := m["msg"]
		if !ok {
			continue
		}
		msg, ok := raw.(string)
		if !ok {
			return nil, errAt(c.tmpl.pos, "ConstraintTemplate %q: constraint %s: a violation's msg must be a string, not %s", c.tmpl.name, c.id, manifest.JSONKind(manifest.FromJSONNumbers(raw)))
		}
		details, hasDetails := m["details"]
		keyDetails := details
		if !hasDetails {
			keyDetails = map[string]any{}
		}
		key, _ := json.Marshal([]any{msg, keyDetails})
		if seen[string(key)] {
			continue
		}
		seen[string(key)] = true
		res := result{msg: msg}
		if hasDetails {
			res.details = manifest.FromJSONNumbers(details)
		}
		out = append(out, res)
	}
	return out, nil
}

// evalMessage words an evaluation error as Gatekeeper does
// ("template:3: eval_conflict_error: ..."), at its place in the template
// file.
func (t *template) evalMessage(err error) string {
	var te *topdown.Error
	if errors.As(err, &te) && te.Location != nil {
		return fmt.Sprintf("%s: %s: %s", t.at(te.Location), te.Code, t.placeModules(te.Message))
	}
	return t.placeModules(err.Error())
}

// placeModules replaces, in an OPA message, the module names that
// locations use ("spec.targets[0].rego:3") by file:line.
func (t *template) placeModules(msg string) string {
	if t.modules == nil {
		return msg
	}
	return t.modules.ReplaceAllStringFunc(msg, func(m string) string {
		i := strings.LastIndexByte(m, ':')
		row, _ := strconv.Atoi(m[i+1:])
		p := t.at(&ast.Location{File: m[:i], Row: row})
		p.Col = 0
		return p.String()
	})
}
