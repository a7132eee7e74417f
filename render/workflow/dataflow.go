package workflow

import (
	"encoding/json"
	"fmt"
	"strings"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// Workflow data passing, as KubeVela's workflow engine does it offline:
// an output evaluates its valueFrom (a CUE expression) over the result of
// its step or component and stores the value under its name; an input
// copies a stored value into the properties at parameterKey. Values the
// render cannot know (status fields of live objects) do not resolve, and
// that is an error naming the output: a real workflow would wait there.

// setVar records an output value for later inputs.
func (w *workflowRun) setVar(name string, v any) {
	if w.vars == nil {
		w.vars = map[string]any{}
	}
	w.vars[name] = v
}

// withInputs returns a copy of props with every input's value filled in
// at its parameterKey, and the inputs by name (for `if`). owner names the
// step or component for errors; path is its field path.
func (w *workflowRun) withInputs(props map[string]any, ins []render.Input, owner string, path render.FieldRef) (map[string]any, map[string]any, error) {
	if len(ins) == 0 {
		return props, nil, nil
	}
	out, _ := manifest.DeepCopy(props).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	byName := map[string]any{}
	for i, in := range ins {
		v, ok := w.lookupVar(in.From)
		if !ok {
			return nil, nil, render.Locate(&render.Error{Pos: w.pos(path.Child("inputs").At(i).Child("from")), App: w.app.Name,
				Err: fmt.Errorf("%s: input from %q: no step or component output of that name has been produced", owner, in.From)})
		}
		byName[in.From] = v
		if in.ParameterKey == "" {
			continue
		}
		if err := setDotted(out, in.ParameterKey, manifest.DeepCopy(v)); err != nil {
			return nil, nil, render.Locate(&render.Error{Pos: w.pos(path.Child("inputs").At(i).Child("parameterKey")), App: w.app.Name,
				Err: fmt.Errorf("%s: input parameterKey %q: %v", owner, in.ParameterKey, err)})
		}
	}
	return out, byName, nil
}

// lookupVar reads a variable; `from` may address into it with dots
// (from: out.data.key), as KubeVela's context variables allow.
func (w *workflowRun) lookupVar(from string) (any, bool) {
	if v, ok := w.vars[from]; ok {
		return v, true
	}
	parts := strings.Split(from, ".")
	v, ok := w.vars[parts[0]]
	if !ok {
		return nil, false
	}
	for _, p := range parts[1:] {
		m, isMap := v.(map[string]any)
		if !isMap {
			return nil, false
		}
		if v, ok = m[p]; !ok {
			return nil, false
		}
	}
	return v, true
}

// setDotted sets m at a dotted path (a.b.c, or a[0].b for list elements
// that exist), creating maps on the way.
func setDotted(m map[string]any, key string, v any) error {
	path := cue.ParsePath(key)
	if err := path.Err(); err != nil {
		return err
	}
	sels := path.Selectors()
	var cur any = m
	for i, s := range sels {
		last := i == len(sels)-1
		switch s.Type() {
		case cue.StringLabel:
			cm, ok := cur.(map[string]any)
			if !ok {
				return fmt.Errorf("%s is not an object", cue.MakePath(sels[:i]...))
			}
			name := s.Unquoted()
			if last {
				cm[name] = v
				return nil
			}
			next, ok := cm[name]
			if !ok {
				next = map[string]any{}
				cm[name] = next
			}
			cur = next
		case cue.IndexLabel:
			l, ok := cur.([]any)
			if !ok || s.Index() >= len(l) {
				return fmt.Errorf("%s has no element %d", cue.MakePath(sels[:i]...), s.Index())
			}
			if last {
				l[s.Index()] = v
				return nil
			}
			cur = l[s.Index()]
		default:
			return fmt.Errorf("unsupported selector %s", s)
		}
	}
	return nil
}

// evalOutputs evaluates outputs over scope (the step's or component's
// result) and stores them.
func (w *workflowRun) evalOutputs(outs []render.Output, scope map[string]any, owner string) error {
	if len(outs) == 0 {
		return nil
	}
	// An encoded value used as a Scope directly resolves a reference to
	// one of its structs as {} (output, output.metadata), CUE v0.14 with
	// EvalV2: unified into a value first, it resolves whole, as KubeVela's
	// LookupPath over the component does.
	sv := w.e.Compile("_").Unify(w.e.Context().Encode(scope))
	for _, o := range outs {
		done := w.e.Begin(w.pos(o.Path.Child("valueFrom")), fmt.Sprintf("%s: output %q valueFrom", owner, o.Name))
		v := w.e.Context().CompileString(o.ValueFrom, cue.Scope(sv), cue.InferBuiltins(true))
		var goV any
		err := v.Err()
		if err == nil {
			err = v.Validate(cue.Concrete(true))
		}
		if err == nil {
			err = v.Decode(&goV)
		}
		done()
		if err != nil {
			return render.Locate(&render.Error{Pos: w.pos(o.Path.Child("valueFrom")), App: w.app.Name,
				Err: fmt.Errorf("%s: output %q: valueFrom %q does not resolve offline: %s", owner, o.Name, o.ValueFrom, render.CUEMessage(err))})
		}
		w.setVar(o.Name, goV)
		w.tracef("  output %s = %s", o.Name, shortJSON(goV))
	}
	return nil
}

// stepOutputs evaluates a finished step's outputs as kubevela/workflow's
// hooks.Output does (pkg/hooks/data_passing.go at v0.6.4): a valueFrom
// that does not resolve, also as output.$returns.<rest>, leaves the
// output null and the step succeeded with the error as its message, so
// drydock warns and goes on.
func (w *workflowRun) stepOutputs(outs []render.Output, scope map[string]any, owner string) {
	for _, o := range outs {
		err := w.evalOutputs([]render.Output{o}, scope, owner)
		if err == nil {
			continue
		}
		if alt, ok := returnsPath(o.ValueFrom); ok {
			if w.evalOutputs([]render.Output{{Name: o.Name, ValueFrom: alt, Path: o.Path}}, scope, owner) == nil {
				continue
			}
		}
		w.setVar(o.Name, nil)
		w.tracef("  output %s = null", o.Name)
		w.warnf("%s; KubeVela sets the output to null (the step succeeds with the lookup error as its message)", manifest.Format(err, nil))
	}
}

// returnsPath is hooks.Output's second try: `output.<rest>` read as
// `output.$returns.<rest>`, any other path as `<path>.$returns`; none
// for a path already through $returns.
func returnsPath(valueFrom string) (string, bool) {
	if strings.Contains(valueFrom, "$returns.") {
		return "", false
	}
	parts := strings.Split(valueFrom, "output.")
	if len(parts) > 1 {
		return parts[0] + "output.$returns." + strings.Join(parts[1:], "."), true
	}
	return valueFrom + ".$returns", true
}

// shortJSON renders a value for the trace, cut to one line.
func shortJSON(v any) string {
	s := fmt.Sprintf("%v", v)
	if b, err := json.Marshal(v); err == nil {
		s = string(b)
	}
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
