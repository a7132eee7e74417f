package workflow

import (
	"errors"
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/stepexec"
)

// Steps run from their WorkflowStepDefinition: every type the workflow
// does not emulate natively (see workflowRun.step).

// errTerminated ends a workflow at a step that terminated it
// (builtin.#Break).
var errTerminated = errors.New("workflow terminated")

// fromDefinition runs step s from its definition's template through
// render/stepexec, with w as the host of its providers. The result is
// the template's evaluated value: what the step's outputs see.
func (w *workflowRun) fromDefinition(s *render.WorkflowStep) (map[string]any, error) {
	def := w.defs.Get(render.KindWorkflowStep, s.Type)
	if def == nil {
		// parseWorkflowSteps' fetchAndSetWorkflowStepDefinition
		return nil, w.stepErr(s, fieldpath.New("type"), fmt.Sprintf("failed to get workflow step definition %s: %s", s.Type, notFound("workflowstepdefinitions", s.Type)))
	}
	if strings.TrimSpace(def.Template) == "" {
		return nil, w.stepErr(s, fieldpath.New("type"), fmt.Sprintf("WorkflowStepDefinition %q has no CUE template (spec.schematic.cue.template)", s.Type))
	}
	host := &stepHost{w: w, s: s}
	res, err := stepexec.Run(host, stepexec.Step{Name: s.Name, Type: s.Type, Template: def.Template, TemplateFile: def.TemplateFile,
		Properties: s.Properties, Context: w.stepContext(s.Name)}, stepexec.Options{StopAtSuspend: w.opts.StopAtSuspend, Trace: func(l string) { w.tracef("%s", l) }})
	if err != nil {
		var re *render.Error
		if errors.As(err, &re) {
			return nil, err
		}
		return nil, w.stepErr(s, fieldpath.New("type"), fmt.Sprintf("WorkflowStepDefinition %q: %v", s.Type, err))
	}
	switch {
	case res.Suspended:
		return nil, errSuspended
	case res.Terminated:
		return nil, errTerminated
	}
	return res.Value, nil
}

// componentMap is a component as KubeVela's oam provider loads it (the
// authored entry without inputs and outputs).
func componentMap(c *render.Component) map[string]any {
	out, _ := manifest.DeepCopy(c.Raw).(map[string]any)
	if out == nil {
		out = map[string]any{"name": c.Name, "type": c.Type}
		if c.Properties != nil {
			out["properties"] = manifest.DeepCopy(c.Properties)
		}
	}
	delete(out, "inputs")
	delete(out, "outputs")
	return out
}

// fromMap is the authored component named in m, with m's type,
// properties and traits (a provider may have patched them).
func (w *workflowRun) fromMap(m map[string]any) (*render.Component, error) {
	name := manifest.String(m, "name")
	orig := w.app.Component(name)
	if orig == nil {
		return nil, fmt.Errorf("component %s not found", name)
	}
	c := *orig
	c.Inputs, c.Outputs = nil, nil
	if t := manifest.String(m, "type"); t != "" {
		c.Type = t
	}
	c.Properties, _ = m["properties"].(map[string]any)
	list, _ := m["traits"].([]any)
	c.Traits = nil
	for i, x := range list {
		tm, _ := x.(map[string]any)
		t := render.Trait{Type: manifest.String(tm, "type")}
		t.Properties, _ = tm["properties"].(map[string]any)
		t.Path = orig.Path.Child("traits").At(i)
		if i < len(orig.Traits) && orig.Traits[i].Type == t.Type {
			t.Path, t.Overlays = orig.Traits[i].Path, orig.Traits[i].Overlays
		}
		c.Traits = append(c.Traits, t)
	}
	return &c, nil
}
