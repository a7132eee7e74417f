package workflow

import (
	"errors"
	"fmt"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/render"
)

// orderSteps runs steps in their written order except where dependsOn
// asks for a step that comes later: a step waits for the steps it depends
// on. An unknown dependency or a cycle is an error.
func (w *workflowRun) orderSteps(steps []render.WorkflowStep) ([]*render.WorkflowStep, error) {
	index := map[string]int{}
	for i, s := range steps {
		index[s.Name] = i
	}
	state := make([]int, len(steps)) // 0 new, 1 visiting, 2 done
	var out []*render.WorkflowStep
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case 1:
			return w.dependsOnErr(&steps[i], fieldpath.New("dependsOn"), "dependsOn forms a cycle")
		case 2:
			return nil
		}
		state[i] = 1
		for k, d := range steps[i].DependsOn {
			j, ok := index[d]
			if !ok {
				return w.dependsOnErr(&steps[i], fieldpath.New("dependsOn", k), fmt.Sprintf("dependsOn names unknown %s %q", stepNoun(&steps[i]), d))
			}
			if err := visit(j); err != nil {
				return err
			}
		}
		state[i] = 2
		out = append(out, &steps[i])
		return nil
	}
	for i := range steps {
		if err := visit(i); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// stepErr is an error about step s located at its field (a path under
// the step, e.g. "properties.component"; the nearest authored parent
// when the field is absent).
func (w *workflowRun) stepErr(s *render.WorkflowStep, field fieldpath.Path, msg string) error {
	return render.Locate(&render.Error{Pos: w.pos(s.Path.Join(field)), App: w.app.Name, Err: fmt.Errorf("step %q: %s", s.Name, msg)})
}

// dependsOnErr is stepErr for dependsOn, which for the steps KubeVela
// generates from components is the component's.
func (w *workflowRun) dependsOnErr(s *render.WorkflowStep, field fieldpath.Path, msg string) error {
	if s.FromComponent {
		return render.Locate(&render.Error{Pos: w.pos(s.Path.Join(field)), App: w.app.Name, Component: s.Name, Err: errors.New(msg)})
	}
	return w.stepErr(s, field, msg)
}

// stepNoun is what s's dependsOn names: steps, or components for the
// steps generated from components.
func stepNoun(s *render.WorkflowStep) string {
	if s.FromComponent {
		return "component"
	}
	return "step"
}

// shouldRun evaluates a step's `if` as KubeVela's ValidateIfValue does
// (kubevela/workflow v0.6.4 pkg/tasks/custom/task.go): over `status` of
// the finished steps (stepStatus), `inputs.<from>`, and the step's
// `context` and `parameter`. Every emulated step succeeds; "always" runs
// the step regardless.
func (w *workflowRun) shouldRun(s *render.WorkflowStep, inputs map[string]any) (bool, error) {
	if s.If == "" || s.If == "always" {
		return true, nil
	}
	if inputs == nil {
		inputs = map[string]any{}
	}
	done := w.e.Begin(w.pos(s.Path.Child("if")), fmt.Sprintf("step %q if", s.Name))
	defer done()
	v := w.e.Compile("status: _\ninputs: _\ncontext: _\nparameter: _\nresult: " + s.If)
	if err := v.Err(); err != nil {
		return false, w.stepErr(s, fieldpath.New("if"), fmt.Sprintf("if %q: %s", s.If, render.CUEMessage(err)))
	}
	params := s.Properties
	if params == nil {
		params = map[string]any{}
	}
	v = v.FillPath(cue.ParsePath("status"), w.stepStatus()).FillPath(cue.ParsePath("inputs"), inputs).
		FillPath(cue.ParsePath("context"), w.stepContext(s.Name)).FillPath(cue.ParsePath("parameter"), params)
	b, err := v.LookupPath(cue.ParsePath("result")).Bool()
	if err != nil {
		return false, w.stepErr(s, fieldpath.New("if"), fmt.Sprintf("if %q: %s", s.If, render.CUEMessage(err)))
	}
	return b, nil
}

// finish records that step s ran or was skipped.
func (w *workflowRun) finish(s *render.WorkflowStep, ran bool) {
	w.ran[s.Name] = ran
	if w.stepTypes == nil {
		w.stepTypes = map[string]string{}
	}
	w.stepTypes[s.Name] = s.Type
}

// stepStatus is the `status` an `if` sees: each finished step's
// StepStatus as JSON (id, name, type, phase; reason and message only
// when set, as omitempty drops them) with the flags buildValueForStatus
// adds (failed, succeeded, skipped, timeout, failedAfterRetries,
// terminate). A step an `if` skipped has reason "Skip" (executor.Skip in
// pkg/tasks/custom/action.go). The execute times are left out: KubeVela
// gives wall-clock times, which a reproducible render cannot.
func (w *workflowRun) stepStatus() map[string]any {
	status := make(map[string]any, len(w.ran))
	for name, ran := range w.ran {
		st := map[string]any{"id": stepID(w.app, name), "name": name, "type": w.stepTypes[name], "phase": "succeeded",
			"failed": false, "succeeded": ran, "skipped": !ran, "timeout": false, "failedAfterRetries": false, "terminate": false}
		if !ran {
			st["phase"], st["reason"] = "skipped", "Skip"
		}
		status[name] = st
	}
	return status
}
