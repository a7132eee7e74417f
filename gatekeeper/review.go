package gatekeeper

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/drydock-dev/drydock/manifest"
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
}

// Review evaluates every constraint against every object of one cluster,
// as gator verify and Gatekeeper's audit do (see the package
// documentation): data.inventory holds all the objects, and the Namespace
// objects among them serve namespaceSelector. Violations are sorted by
// object index, constraint and message. Errors wrap ErrInvalid, except
// those of ctx.
func (s *Set) Review(ctx context.Context, objects []*manifest.Object) ([]Violation, error) {
	targets := make([]target, len(objects))
	for i, o := range objects {
		targets[i] = objectTarget(o)
	}
	return review(ctx, s.constraints, targets, objects)
}

// target is one thing to review: input.review and the objects matched
// against spec.match (the object, or an AdmissionRequest's object and
// oldObject).
type target struct {
	review    map[string]any
	objs      []*manifest.Object
	namespace string
}

// objectTarget is the review of an object as gator builds it: an
// AdmissionRequest without operation, user or old object.
func objectTarget(o *manifest.Object) target {
	apiVersion := o.APIVersion()
	group := manifest.Group(apiVersion)
	version := strings.TrimPrefix(strings.TrimPrefix(apiVersion, group), "/")
	r := map[string]any{
		"uid":             "",
		"kind":            map[string]any{"group": group, "version": version, "kind": o.Kind()},
		"resource":        map[string]any{"group": "", "version": "", "resource": ""},
		"operation":       "",
		"userInfo":        map[string]any{},
		"object":          o.Data,
		"oldObject":       nil,
		"options":         nil,
		"namespaceObject": map[string]any{},
	}
	if n := o.Name(); n != "" {
		r["name"] = n
	}
	if ns := o.Namespace(); ns != "" {
		r["namespace"] = ns
	}
	return target{review: r, objs: []*manifest.Object{o}, namespace: o.Namespace()}
}

// review evaluates constraints against targets with data.inventory (and
// the namespaces namespaceSelector sees) built from inventory.
func review(ctx context.Context, constraints []*constraint, targets []target, inventory []*manifest.Object) ([]Violation, error) {
	inv, namespaces := buildInventory(inventory)
	store := inmem.NewFromObjectWithOpts(map[string]any{"inventory": inv},
		inmem.OptRoundTripOnWrite(false), inmem.OptReturnASTValuesOnRead(true))
	queries := map[*template]rego.PreparedEvalQuery{}
	for _, c := range constraints {
		if _, ok := queries[c.tmpl]; ok || c.skip {
			continue
		}
		q, err := rego.New(rego.ParsedQuery(violationQuery), rego.Compiler(c.tmpl.compiler), rego.Store(store)).PrepareForEval(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, errAt(c.tmpl.pos, "ConstraintTemplate %q: %v", c.tmpl.name, err)
		}
		queries[c.tmpl] = q
	}
	var out []Violation
	for i, t := range targets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var reviewValue ast.Value
		for _, c := range constraints {
			if c.skip {
				continue
			}
			v := Violation{Object: i, Constraint: c.id, Pos: c.pos, EnforcementAction: c.action}
			matched, err := c.matchAny(t, namespaces)
			if err != nil {
				v.Message = fmt.Sprintf("unable to match constraints: %v", err)
				out = append(out, v)
				continue
			}
			if !matched {
				continue
			}
			if reviewValue == nil {
				if reviewValue, err = ast.InterfaceToValue(t.review); err != nil {
					return nil, invalid(fmt.Errorf("review object %d: %w", i, err))
				}
			}
			results, err := c.eval(ctx, queries[c.tmpl], reviewValue)
			if err != nil {
				return nil, err
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
	return out, nil
}

// buildInventory is data.inventory for objs: cluster[gv][Kind][name] for
// those without metadata.namespace, namespace[ns][gv][Kind][name] for the
// others; and the Namespace objects among them by name.
func buildInventory(objs []*manifest.Object) (map[string]any, map[string]*namespaceInfo) {
	cluster := map[string]any{}
	namespaced := map[string]any{}
	namespaces := map[string]*namespaceInfo{}
	for _, o := range objs {
		if ns := o.Namespace(); ns == "" {
			manifest.SetNested(cluster, o.Data, o.APIVersion(), o.Kind(), o.Name())
		} else {
			manifest.SetNested(namespaced, o.Data, ns, o.APIVersion(), o.Kind(), o.Name())
		}
		if o.Kind() == "Namespace" && manifest.Group(o.APIVersion()) == "" {
			namespaces[o.Name()] = &namespaceInfo{name: o.Name(), labels: o.Labels()}
		}
	}
	return map[string]any{"cluster": cluster, "namespace": namespaced}, namespaces
}

// matchAny reports whether any of the target's objects is in scope;
// errors are worded as Gatekeeper's autoreject results.
func (c *constraint) matchAny(t target, namespaces map[string]*namespaceInfo) (bool, error) {
	if c.match == nil {
		return true, nil
	}
	var ns *namespaceInfo
	if t.namespace != "" {
		ns = namespaces[t.namespace]
	}
	for _, o := range t.objs {
		ok, err := c.match.matches(o, ns)
		if err != nil {
			return false, fmt.Errorf("error matching the requested object: %s :failed to run Match criteria: %w", o.Name(), err)
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
	for name := range t.sources {
		re := regexp.MustCompile(regexp.QuoteMeta(name) + `:(\d+)`)
		msg = re.ReplaceAllStringFunc(msg, func(m string) string {
			row, _ := strconv.Atoi(m[len(name)+1:])
			p := t.at(&ast.Location{File: name, Row: row})
			p.Col = 0
			return p.String()
		})
	}
	return msg
}
