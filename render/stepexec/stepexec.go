// Package stepexec runs a workflow step from its WorkflowStepDefinition's
// CUE template, as KubeVela's workflow engine does (kubevela/workflow
// v0.6.4 pkg/tasks/custom/task.go): the template is compiled with
// `parameter` (the step's properties) and `context` (the process
// context), importing KubeVela's provider packages (vela/kube,
// vela/builtin, vela/op, ...) from their upstream CUE; then every field
// that carries `#do` and `#provider` is an action, run in KubeVela's order
// (kubevela/pkg cue/cuex/compiler.go Resolve) with its result filled in
// (`$returns`, or the field itself for the legacy vela/op actions),
// until none is left.
//
// Pure providers (builtin, util, time, message, log, fail, conditional
// wait) run here. What needs the clusters or the Application (kube, oam,
// multicluster, config, query) is answered by a Host. Network providers
// (http, email) never reach the network: the call is recorded and answers
// as a successful one does, or the step fails naming the URL when the
// template needs the response body.
package stepexec

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/parser"

	"github.com/drydock-dev/drydock/manifest"
)

// Step is one step to run from its definition.
type Step struct {
	// Name and Type are the step's.
	Name, Type string
	// Template is the definition's CUE template; TemplateFile names it
	// in positions.
	Template, TemplateFile string
	// Properties are the step's properties (its parameter).
	Properties map[string]any
	// Context is the process context the template sees as `context`.
	Context map[string]any
}

// Options steer a run.
type Options struct {
	// StopAtSuspend stops the step at a suspend or at a wait whose
	// condition does not hold, instead of taking it as resumed.
	StopAtSuspend bool
	// Trace receives one line per action (nil: none).
	Trace func(line string)
}

// Result is what a step left.
type Result struct {
	// Value is the evaluated template, its concrete fields only: what
	// the step's outputs (valueFrom) are evaluated over.
	Value map[string]any
	// Suspended is true when the step stopped at a suspend or wait
	// (Options.StopAtSuspend).
	Suspended bool
	// Terminated is true when a builtin.#Break ended the workflow.
	Terminated bool
	// Message is the last message the step set (builtin.#Message, ...).
	Message string
}

// ErrFailed is wrapped when a template fails its step (builtin.#Fail).
var ErrFailed = errors.New("step failed")

// run is one step's execution.
type run struct {
	host Host
	step Step
	opts Options
	res  *Result
	// http records the URLs of the HTTP calls made, for errors.
	http []string
}

// errStop ends the resolve loop: the step suspended, waits or ended.
var errStop = errors.New("stop")

// Run runs step s with host h.
func Run(h Host, s Step, opts Options) (*Result, error) {
	r := &run{host: h, step: s, opts: opts, res: &Result{}}
	v, err := r.compile()
	if err != nil {
		return nil, err
	}
	v, err = r.resolve(v)
	if err != nil && !errors.Is(err, errStop) {
		return nil, err
	}
	if err := r.check(v); err != nil {
		return nil, err
	}
	r.res.Value, _ = concrete(v).(map[string]any)
	return r.res, nil
}

func (r *run) tracef(format string, args ...any) {
	if r.opts.Trace != nil {
		r.opts.Trace(fmt.Sprintf(format, args...))
	}
}

// compile builds the template with parameter and context, as
// MakeBasicValue and the task's CompileString do: the template's text,
// then the basic value's.
func (r *run) compile() (cue.Value, error) {
	params := r.step.Properties
	if params == nil {
		params = map[string]any{}
	}
	pj, err := json.Marshal(manifest.WholeNumbers(params, 1<<53))
	if err != nil {
		return cue.Value{}, err
	}
	cj, err := json.Marshal(r.step.Context)
	if err != nil {
		return cue.Value{}, err
	}
	src := r.step.Template + "\nparameter: " + string(pj) + "\ncontext: " + string(cj) + "\n"
	f, err := parser.ParseFile(r.step.TemplateFile, src, parser.ParseComments)
	if err != nil {
		return cue.Value{}, fmt.Errorf("template: %w", err)
	}
	bi := build.NewContext().NewInstance("", nil)
	if bi.Imports, err = velaImports(f); err != nil {
		return cue.Value{}, fmt.Errorf("template: %w", err)
	}
	if err := bi.AddSyntax(f); err != nil {
		return cue.Value{}, fmt.Errorf("template: %w", err)
	}
	// A value in error is no compile error: kubevela/pkg v1.10.0
	// cue/cuex/compiler.go CompileStringWithOptions resolves the actions
	// over BuildInstance's value without looking at its Err (see check).
	return cuecontext.New(cuecontext.EvaluatorVersion(cuecontext.EvalV2)).BuildInstance(bi), nil
}

// resolve runs the actions until none is left
// (kubevela/pkg cue/cuex/compiler.go Resolve).
func (r *run) resolve(v cue.Value) (cue.Value, error) {
	done := map[string]bool{}
	for {
		next, ok := nextAction(v, done)
		if !ok {
			return v, nil
		}
		p := next.Path()
		done[p.String()] = true
		fill, err := r.call(next)
		if fill != nil {
			v = v.FillPath(p, fill)
		}
		if err != nil {
			return v, err
		}
	}
}

// nextAction finds the first field, in KubeVela's order, that carries a
// #do not yet run.
func nextAction(v cue.Value, done map[string]bool) (cue.Value, bool) {
	var next cue.Value
	found := false
	iterate(v, func(x cue.Value) bool {
		if done[x.Path().String()] {
			return false
		}
		if do, _ := x.LookupPath(cue.ParsePath("#do")).String(); do != "" {
			next, found = x, true
			return true
		}
		return false
	})
	return next, found
}

// iterate visits v's fields depth first, children before their parent,
// skipping definitions (kubevela/pkg cue/util/iterate.go Iterate; fields
// in order, those with a @step(n) attribute first by n).
func iterate(v cue.Value, fn func(cue.Value) bool) bool {
	if strings.Contains(v.Path().String(), "#") {
		return false
	}
	for _, f := range fieldValues(v) {
		if iterate(f, fn) {
			return true
		}
	}
	return fn(v)
}

func fieldValues(v cue.Value) []cue.Value {
	var out []cue.Value
	switch v.Kind() {
	case cue.ListKind:
		it, _ := v.List()
		for it.Next() {
			out = append(out, it.Value())
		}
	case cue.StructKind:
		it, err := v.Fields(cue.Optional(true), cue.Hidden(true))
		if err != nil {
			return nil
		}
		for it.Next() {
			out = append(out, it.Value())
		}
	default:
		// an incomplete struct (a field not yet resolved) still has fields
		if it, err := v.Fields(cue.Optional(true), cue.Hidden(true)); err == nil {
			for it.Next() {
				out = append(out, it.Value())
			}
		}
	}
	stableByStep(out)
	return out
}

// stableByStep orders values with a @step(n) attribute first, by n.
func stableByStep(vs []cue.Value) {
	order := func(v cue.Value) (int, bool) {
		a := v.Attribute("step")
		var n int
		if a.Err() != nil {
			return 0, false
		}
		if _, err := fmt.Sscanf(a.Contents(), "%d", &n); err != nil {
			return 0, false
		}
		return n, true
	}
	// insertion sort: stable and the lists are short
	for i := 1; i < len(vs); i++ {
		for j := i; j > 0; j-- {
			x, okx := order(vs[j-1])
			y, oky := order(vs[j])
			if !(oky && (!okx || y < x)) {
				break
			}
			vs[j-1], vs[j] = vs[j], vs[j-1]
		}
	}
}

// check fails the step when a field needs an HTTP response body drydock
// does not have. A value otherwise in error after the actions does not
// fail it: kubevela/workflow v0.6.4 pkg/tasks/custom/task.go fails the
// step on taskv.Err() only while the step's last status
// (options.StepStatus) is succeeded, i.e. on its first run, and as a
// retryable failure (exec.err with wait); the retry finds the step failed,
// skips the check, and the step succeeds. So the workflow goes on, as
// KubeVela's controller takes it on; the error is traced.
func (r *run) check(v cue.Value) error {
	err := v.Err()
	if err == nil && len(r.http) > 0 {
		err = v.Validate()
	}
	switch {
	case err == nil:
		return nil
	case len(r.http) > 0:
		return fmt.Errorf("the template needs the response of %s, which drydock does not have (it never reaches the network): %w", strings.Join(r.http, ", "), err)
	}
	r.tracef("value in error: %v: the step fails once and succeeds on its retry, as in KubeVela", err)
	return nil
}

// concrete is the concrete part of v in the JSON data model: fields that
// are incomplete or in error, definitions and hidden fields are left out.
func concrete(v cue.Value) any {
	switch v.IncompleteKind() {
	case cue.StructKind:
		out := map[string]any{}
		it, err := v.Fields()
		if err != nil {
			return nil
		}
		for it.Next() {
			if c := concrete(it.Value()); c != nil {
				out[it.Selector().Unquoted()] = c
			}
		}
		return out
	case cue.ListKind:
		it, err := v.List()
		if err != nil {
			return nil
		}
		out := []any{}
		for it.Next() {
			c := concrete(it.Value())
			if c == nil {
				return nil
			}
			out = append(out, c)
		}
		return out
	}
	if v.Validate(cue.Concrete(true)) != nil {
		return nil
	}
	if b, err := v.Bytes(); err == nil && v.Kind() == cue.BytesKind {
		// bytes are base64 in JSON, as MarshalJSON gives them
		return base64.StdEncoding.EncodeToString(b)
	}
	var x any
	if err := v.Decode(&x); err != nil {
		return nil
	}
	return manifest.WholeNumbers(x, 1<<53)
}
