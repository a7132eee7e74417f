package gatekeeper

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/cel-go/cel"
	celtypes "github.com/google/cel-go/common/types"
	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	celplugin "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// The CEL engine, as Gatekeeper's K8sNativeValidation driver
// (pkg/drivers/k8scel) runs it: the ValidatingAdmissionPolicy machinery of
// the API server (k8s.io/apiserver's admission/plugin/cel), with its CEL
// environment, function libraries and cost limits. The validating
// package's Validator is not used (it links client-go); celCode.eval
// follows its Validate.

const (
	celEngine = "K8sNativeValidation"
	// celReservedPrefix is the prefix no variable or match condition may
	// have.
	celReservedPrefix = "gatekeeper_internal_"
)

// celInternalVariables are the variables Gatekeeper defines before the
// template's (transform.AllVariablesCEL): variables.anyObject and
// variables.params.
var celInternalVariables = []celVariable{
	{name: "anyObject", expr: `has(request.operation) && request.operation == "DELETE" && object == null ? oldObject : object`},
	{name: "params", expr: "!has(params.spec) ? null : !has(params.spec.parameters) ? null: params.spec.parameters"},
}

// celExpr is an expression of a template and the types it must have.
type celExpr struct {
	expr  string
	types []*cel.Type
}

func (e *celExpr) GetExpression() string    { return e.expr }
func (e *celExpr) ReturnTypes() []*cel.Type { return e.types }

var (
	celBool   = []*cel.Type{cel.BoolType}
	celString = []*cel.Type{cel.StringType}
	celAny    = []*cel.Type{cel.AnyType, cel.DynType}
)

// celVariable is one of the source's variables.
type celVariable struct{ name, expr string }

func (v *celVariable) GetExpression() string    { return v.expr }
func (v *celVariable) ReturnTypes() []*cel.Type { return celAny }
func (v *celVariable) GetName() string          { return v.name }

// celValidation is one of the source's validations.
type celValidation struct {
	expr, message string
}

// celCode is a template's K8sNativeValidation source, compiled.
type celCode struct {
	validations []celValidation
	compiler    *celplugin.CompositedCompiler
	// conditions evaluates the validations' expressions, messages their
	// messageExpressions (a placeholder for those without).
	conditions, messages celplugin.ConditionEvaluator
	// matcher is nil when there is no matchCondition.
	matcher matchconditions.Matcher
	// hasMessages is set when a validation has a messageExpression.
	hasMessages bool
	// ignore is failurePolicy Ignore: evaluation errors are dropped.
	ignore bool
}

// celSource finds the source of the first code entry of engine
// K8sNativeValidation in target, and its field path.
func celSource(target map[string]any) (any, fieldpath.Path, bool) {
	code, _ := target["code"].([]any)
	for i, e := range code {
		m, _ := e.(map[string]any)
		if manifest.String(m, "engine") == celEngine {
			return m["source"], fieldpath.New("spec", "targets", 0, "code", i, "source"), true
		}
	}
	return nil, nil, false
}

// compileCEL reads and compiles the K8sNativeValidation source at the
// field path at, as Gatekeeper's driver does, except that expressions
// that do not compile make the template fail to load.
func (t *template) compileCEL(obj *manifest.Object, v any, at fieldpath.Path) error {
	src, ok := v.(map[string]any)
	if !ok {
		return errAt(obj.FieldPos(at), "ConstraintTemplate %q: %s: could not recognize the type: the source must be an object", t.name, at)
	}
	var errs []error
	// list reads the list of objects at key.
	list := func(key string) []map[string]any {
		raw, ok := src[key]
		if !ok || raw == nil {
			return nil
		}
		l, ok := raw.([]any)
		if !ok {
			errs = append(errs, errAt(obj.FieldPos(at.Child(key)), "ConstraintTemplate %q: %s.%s must be a list", t.name, at, key))
			return nil
		}
		out := make([]map[string]any, len(l))
		for i, e := range l {
			m, ok := e.(map[string]any)
			if !ok && e != nil {
				errs = append(errs, errAt(obj.FieldPos(at.Child(key).At(i)), "ConstraintTemplate %q: %s must be an object", t.name, at.Child(key).At(i)))
			}
			out[i] = m
		}
		return out
	}
	// str reads the string at key of m, at field path path.
	str := func(m map[string]any, path fieldpath.Path, key string) string {
		raw, ok := m[key]
		if !ok || raw == nil {
			return ""
		}
		s, ok := raw.(string)
		if !ok {
			errs = append(errs, errAt(obj.FieldPos(path.Child(key)), "ConstraintTemplate %q: %s.%s must be a string", t.name, path, key))
		}
		return s
	}
	code := &celCode{}
	// An absent (or null) failurePolicy is Fail; "" is refused.
	if raw, ok := src["failurePolicy"]; ok && raw != nil {
		switch p := str(src, at, "failurePolicy"); p {
		case string(admissionregistrationv1.Fail):
		case string(admissionregistrationv1.Ignore):
			code.ignore = true
		default:
			if _, isString := raw.(string); !isString {
				break
			}
			errs = append(errs, errAt(obj.FieldPos(at.Child("failurePolicy")), "ConstraintTemplate %q: invalid failure policy: unrecognized failure policy: %s (want Fail or Ignore)", t.name, p))
		}
	}
	type named struct {
		at         fieldpath.Path
		name, expr string
	}
	var variables, conditions []named
	for i, m := range list("variables") {
		p := at.Child("variables").At(i)
		v := named{at: p, name: str(m, p, "name"), expr: str(m, p, "expression")}
		switch {
		case strings.HasPrefix(v.name, celReservedPrefix):
			errs = append(errs, errAt(obj.FieldPos(p.Child("name")), "ConstraintTemplate %q: invalid variable definition: %s is not a valid variable; cannot have %q as a prefix", t.name, v.name, celReservedPrefix))
		case v.name == "params", v.name == "anyObject":
			errs = append(errs, errAt(obj.FieldPos(p.Child("name")), "ConstraintTemplate %q: invalid variable definition: %s an invalid variable name, %q is a reserved keyword", t.name, v.name, v.name))
		}
		variables = append(variables, v)
	}
	for i, m := range list("matchCondition") {
		p := at.Child("matchCondition").At(i)
		c := named{at: p, name: str(m, p, "name"), expr: str(m, p, "expression")}
		if strings.HasPrefix(c.name, celReservedPrefix) {
			errs = append(errs, errAt(obj.FieldPos(p.Child("name")), "ConstraintTemplate %q: invalid match condition: %s is not a valid match condition; cannot have %q as a prefix", t.name, c.name, celReservedPrefix))
		}
		conditions = append(conditions, c)
	}
	validations := list("validations")
	type validation struct {
		at                 fieldpath.Path
		expr, msg, msgExpr string
	}
	var vals []validation
	for i, m := range validations {
		p := at.Child("validations").At(i)
		vals = append(vals, validation{at: p, expr: str(m, p, "expression"), msg: str(m, p, "message"), msgExpr: str(m, p, "messageExpression")})
	}
	if err := manifest.Join(errs...); err != nil {
		return err
	}

	compiler, err := celplugin.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		return errAt(obj.FieldPos(at), "ConstraintTemplate %q: CEL environment: %v", t.name, err)
	}
	code.compiler = compiler
	withParams := celplugin.OptionalVariableDeclarations{HasParams: true}
	noParams := celplugin.OptionalVariableDeclarations{}
	// check reports the compilation error of the expression at the field
	// path at, if any.
	check := func(at fieldpath.Path, res celplugin.CompilationResult) {
		if res.Error != nil {
			errs = append(errs, t.celError(obj, at, res.Error))
		}
	}
	for i := range celInternalVariables {
		if res := compiler.CompileAndStoreVariable(&celInternalVariables[i], withParams, environment.StoredExpressions); res.Error != nil {
			return errAt(obj.FieldPos(at), "ConstraintTemplate %q: Gatekeeper's variable %s: %v", t.name, celInternalVariables[i].name, res.Error)
		}
	}
	for _, v := range variables {
		check(v.at.Child("expression"), compiler.CompileAndStoreVariable(&celVariable{name: v.name, expr: v.expr}, withParams, environment.StoredExpressions))
	}
	compile := func(at fieldpath.Path, e celplugin.ExpressionAccessor) celplugin.CompilationResult {
		res := compiler.CompileCELExpression(e, noParams, environment.StoredExpressions)
		check(at, res)
		return res
	}
	if len(conditions) > 0 {
		results := make([]celplugin.CompilationResult, len(conditions))
		for i, c := range conditions {
			results[i] = compile(c.at.Child("expression"), &matchconditions.MatchCondition{Name: c.name, Expression: c.expr})
		}
		policy := admissionregistrationv1.Fail
		if code.ignore {
			policy = admissionregistrationv1.Ignore
		}
		code.matcher = matchconditions.NewMatcher(composited{celplugin.NewCondition(results), compiler}, &policy, "validatingadmissionpolicy", "vap-matcher", t.name)
	}
	conds := make([]celplugin.CompilationResult, len(vals))
	msgs := make([]celplugin.CompilationResult, len(vals))
	for i, v := range vals {
		code.validations = append(code.validations, celValidation{expr: v.expr, message: v.msg})
		conds[i] = compile(v.at.Child("expression"), &celExpr{expr: v.expr, types: celBool})
		if v.msgExpr != "" {
			code.hasMessages = true
			msgs[i] = compile(v.at.Child("messageExpression"), &celExpr{expr: v.msgExpr, types: celString})
		}
	}
	if err := manifest.Join(errs...); err != nil {
		return err
	}
	code.conditions = composited{celplugin.NewCondition(conds), compiler}
	code.messages = composited{celplugin.NewCondition(msgs), compiler}
	t.cel = code
	return nil
}

// composited evaluates conditions with the variables of compiler, as
// the ConditionEvaluator of CompositedCompiler.CompileCondition does.
type composited struct {
	celplugin.ConditionEvaluator
	compiler *celplugin.CompositedCompiler
}

func (c composited) ForInput(ctx context.Context, attr *admission.VersionedAttributes, req *admissionv1.AdmissionRequest, vars celplugin.OptionalVariableBindings, ns *corev1.Namespace, budget int64) ([]celplugin.EvaluationResult, int64, error) {
	return c.ConditionEvaluator.ForInput(c.compiler.CreateContext(ctx), attr, req, vars, ns, budget)
}

// celError places a CEL compilation error of the expression at the field
// path at in the template file.
func (t *template) celError(obj *manifest.Object, at fieldpath.Path, e *apiservercel.Error) error {
	start, block := obj.BlockStart(at)
	if !block {
		// A quoted or plain scalar: lines are where the value starts,
		// columns are unknown.
		start = obj.FieldPos(at)
		start.Col = 0
	}
	var ce *apiservercel.CompilationError
	if !errors.As(e, &ce) || ce.Issues == nil || len(ce.Issues.Errors()) == 0 {
		return errAt(start, "ConstraintTemplate %q: %s: %s", t.name, at, e.Detail)
	}
	var out []error
	for _, d := range ce.Issues.Errors() {
		p := start
		if loc := d.Location; loc != nil && loc.Line() > 0 {
			p.Line += loc.Line() - 1
			if p.Col > 0 {
				p.Col += loc.Column()
			}
		}
		msg := d.Message
		if strings.Contains(msg, "undeclared reference to 'params'") {
			msg += " (params, the constraint, is declared only in variables: use variables.params for its spec.parameters)"
		}
		out = append(out, errAt(p, "ConstraintTemplate %q: %s: %s", t.name, at, msg))
	}
	return manifest.Join(out...)
}

// celInput is what CEL reviews a target with: the request's attributes
// as the API server passes them to a ValidatingAdmissionPolicy.
type celInput struct {
	attr    *admission.VersionedAttributes
	request *admissionv1.AdmissionRequest
}

// newCELInput builds the request Gatekeeper's driver evaluates for a
// review (transform.RequestToVersionedAttributes): its object is null on
// DELETE, where variables.anyObject is the oldObject.
func newCELInput(t *target) *celInput {
	r := t.review
	gvk := func(key string) schema.GroupVersionKind {
		m := asMap(r[key])
		return schema.GroupVersionKind{Group: manifest.String(m, "group"), Version: manifest.String(m, "version"), Kind: manifest.String(m, "kind")}
	}
	kind := gvk("kind")
	res := gvk("resource")
	resource := schema.GroupVersionResource{Group: res.Group, Version: res.Version, Resource: manifest.String(asMap(r["resource"]), "resource")}
	var op admission.Operation
	switch o := admission.Operation(manifest.String(r, "operation")); o {
	case admission.Create, admission.Update, admission.Delete, admission.Connect:
		op = o
	}
	object, oldObject := runtimeObject(t.object), runtimeObject(t.oldObject)
	if op == admission.Delete {
		object = nil
	}
	var options runtime.Object
	if m, ok := r["options"].(map[string]any); ok {
		options = &unstructured.Unstructured{Object: m}
	}
	dryRun, _ := r["dryRun"].(bool)
	ui := asMap(r["userInfo"])
	info := &user.DefaultInfo{Name: manifest.String(ui, "username"), UID: manifest.String(ui, "uid"), Extra: map[string][]string{}}
	info.Groups, _ = manifest.DecodeStringList(ui["groups"])
	for k, v := range asMap(ui["extra"]) {
		info.Extra[k], _ = manifest.DecodeStringList(v)
	}
	attr := admission.NewAttributesRecord(object, oldObject, kind, manifest.String(r, "namespace"), manifest.String(r, "name"), resource, manifest.String(r, "subResource"), op, options, dryRun, info)
	va := &admission.VersionedAttributes{Attributes: attr, VersionedKind: kind, VersionedObject: admission.NewLazyObject(object), VersionedOldObject: admission.NewLazyObject(oldObject)}
	return &celInput{
		attr:    va,
		request: celplugin.CreateAdmissionRequest(attr, metav1.GroupVersionResource(resource), metav1.GroupVersionKind(kind)),
	}
}

// runtimeObject is m as an unstructured object, nil when m is.
func runtimeObject(m map[string]any) runtime.Object {
	if m == nil {
		return nil
	}
	return &unstructured.Unstructured{Object: m}
}

// eval runs the template's CEL on one request with params (the
// constraint) as Gatekeeper's driver does, and returns the messages of
// the violations: one for each validation that is false or (under
// failurePolicy Fail) fails.
func (c *celCode) eval(ctx context.Context, in *celInput, params runtime.Object) []string {
	var out []string
	fail := func(msg string) {
		if !c.ignore {
			out = append(out, msg)
		}
	}
	if c.matcher != nil {
		m := c.matcher.Match(ctx, in.attr, params, nil)
		if m.Error != nil {
			fail(m.Error.Error())
			return out
		}
		if !m.Matches {
			return nil
		}
	}
	vars := celplugin.OptionalVariableBindings{VersionedParams: params}
	results, budget, err := c.conditions.ForInput(ctx, in.attr, in.request, vars, nil, celconfig.PerCallLimit)
	if err != nil {
		fail(err.Error())
		return out
	}
	// Without messageExpressions, evaluating the placeholders gives
	// nothing.
	var messages []celplugin.EvaluationResult
	var msgErr error
	if c.hasMessages {
		messages, _, msgErr = c.messages.ForInput(ctx, in.attr, in.request, vars, nil, budget)
	}
	for i, r := range results {
		v := c.validations[i]
		switch {
		case r.Error != nil:
			fail(r.Error.Error())
		case errors.Is(msgErr, apiservercel.ErrInternal) || errors.Is(msgErr, apiservercel.ErrOutOfBudget):
			fail(fmt.Sprintf("failed messageExpression: %s", msgErr))
		case r.EvalResult != celtypes.True:
			out = append(out, celMessage(v, messages, i))
		}
	}
	return out
}

// celMessage is the message of the failed validation v: its
// messageExpression's value when that is a non-empty single-line string,
// else its message, else the expression.
func celMessage(v celValidation, messages []celplugin.EvaluationResult, i int) string {
	var msg string
	if i < len(messages) && messages[i].Error == nil && messages[i].EvalResult != nil {
		if s, ok := messages[i].EvalResult.Value().(string); ok {
			msg = strings.TrimSpace(s)
			if len(msg) > celconfig.MaxEvaluatedMessageExpressionSizeBytes || strings.ContainsAny(msg, "\n") {
				msg = ""
			}
		}
	}
	if msg == "" && v.message != "" {
		msg = strings.TrimSpace(v.message)
	}
	if msg == "" {
		msg = "failed expression: " + strings.TrimSpace(v.expr)
	}
	return msg
}
