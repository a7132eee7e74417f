package workflow

import (
	"encoding/json"
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/overrides/kubevela"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/render/policy"
)

// deploy emulates KubeVela's deploy step: placements from topology
// policies, components patched by override policies and replicated by
// replication policies, each component applied to each placement.
func (w *workflowRun) deploy(s *render.WorkflowStep) error {
	return w.deployWith(s, nil)
}

// deployWith is deploy with inline policies after the named ones, as
// multicluster.#Deploy's inlinePolicies (kubevela
// pkg/workflow/providers/multicluster/deploy.go Deploy).
func (w *workflowRun) deployWith(s *render.WorkflowStep, inline []*render.Policy) error {
	params, err := w.deployParameters(s)
	if err != nil {
		return err
	}
	if params.Auto != nil && !*params.Auto {
		if err := w.suspend(s.Name); err != nil {
			return err
		}
	}
	if *params.Parallelism < 1 {
		return w.stepFieldErr(s, fieldpath.New("properties", "parallelism"), "parallelism cannot be smaller than 1")
	}
	pols, err := w.selectPolicies(s, params.Policies)
	if err != nil {
		return err
	}
	pols = append(pols, inline...)
	var names []string
	for _, p := range pols {
		names = append(names, p.Name)
	}
	pls, err := policy.Placements(w.app, pols, w.inv)
	if err != nil {
		return err
	}
	comps, warnings, err := kubevela.Override(w.app, s.Name, pols)
	if err != nil {
		return err
	}
	for _, msg := range warnings {
		w.warnf("%s", msg)
	}
	comps, keys, err := policy.Replicate(w.app, pols, comps)
	if err != nil {
		return err
	}
	for _, i := range componentOrder(comps) {
		for _, pl := range pls {
			p := cueval.Placement{Cluster: pl.Cluster, Namespace: pl.Namespace, ReplicaKey: keys[i]}
			if err := w.apply(&comps[i], p, s.Name, names); err != nil {
				return withDeployContext(err, s.Name, pols)
			}
		}
	}
	return nil
}

// deployParameter is the parameter of KubeVela's deploy step definition
// (vela-templates/definitions/internal/workflowstep/deploy.cue).
const deployParameter = `parameter: {
	auto:                     *true | bool
	policies:                 *[] | [...string]
	parallelism:              *5 | int
	ignoreTerraformComponent: *true | bool
}
`

// deployParameters evaluates a deploy step's properties with the deploy
// definition's parameter, defaults included. The parser has decoded a
// top-level step's properties strictly already; a sub-step's are only
// checked here.
func (w *workflowRun) deployParameters(s *render.WorkflowStep) (*kvDeployWorkflowStepSpec, error) {
	v := w.e.Compile(deployParameter)
	if s.Properties != nil {
		v = v.FillPath(cue.ParsePath("parameter"), w.e.Context().Encode(cueval.NormalizeNumbers(s.Properties)))
	}
	params := &kvDeployWorkflowStepSpec{}
	param := v.LookupPath(cue.ParsePath("parameter"))
	err := param.Validate(cue.Concrete(true))
	if err == nil {
		var data []byte
		if data, err = param.MarshalJSON(); err == nil {
			err = json.Unmarshal(data, params)
		}
	}
	if err != nil {
		rel := fieldpath.New("properties")
		if errs := cueerrors.Errors(err); len(errs) > 0 {
			if p := errs[0].Path(); len(p) > 1 && p[0] == "parameter" {
				rel = render.PropertyPath(p[1:])
			}
		}
		return nil, w.stepFieldErr(s, rel, "%s", render.CUEMessage(err))
	}
	return params, nil
}

// stepFieldErr is a step's refusal naming the field (relative to the step).
func (w *workflowRun) stepFieldErr(s *render.WorkflowStep, rel fieldpath.Path, format string, args ...any) error {
	path := s.Path.Join(rel)
	return render.Locate(&render.Error{Pos: w.pos(path), App: w.app.Name,
		Err: fmt.Errorf("step %q: %s: %s", s.Name, path, fmt.Sprintf(format, args...))})
}

// selectPolicies finds the policies a deploy step names, among the
// Application's and the external ones the parser loaded.
func (w *workflowRun) selectPolicies(s *render.WorkflowStep, names []string) ([]*render.Policy, error) {
	var out []*render.Policy
	for i, name := range names {
		p := w.policy(name)
		if p == nil {
			return nil, render.Locate(&render.Error{Pos: w.pos(s.Path.Child("properties").Child("policies").At(i)), App: w.app.Name,
				Err: fmt.Errorf("step %q: policy %q not found", s.Name, name)})
		}
		out = append(out, p)
	}
	return out, nil
}

// withDeployContext names the deploy step and its override policies in a
// render error: an override may be what made the properties invalid.
func withDeployContext(err error, step string, pols []*render.Policy) error {
	var overrides []string
	for _, p := range pols {
		if p.Type == "override" {
			overrides = append(overrides, p.Name)
		}
	}
	render.DeployContext(err, step, overrides)
	return err
}

// componentOrder is the order a deploy dispatches components in: as
// written, except that a component waits for the components it dependsOn
// and for those producing its inputs (KubeVela dispatches the rest in
// parallel, so only this order is observable). Cycles keep written order.
func componentOrder(comps []render.Component) []int {
	producer := map[string]int{}
	byName := map[string]int{}
	for i, c := range comps {
		if _, ok := byName[c.Name]; !ok {
			byName[c.Name] = i
		}
		for _, o := range c.Outputs {
			producer[o.Name] = i
		}
	}
	state := make([]int, len(comps))
	var out []int
	var visit func(i int)
	visit = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		for _, d := range comps[i].DependsOn {
			if j, ok := byName[d]; ok {
				visit(j)
			}
		}
		for _, in := range comps[i].Inputs {
			if j, ok := producer[strings.SplitN(in.From, ".", 2)[0]]; ok {
				visit(j)
			}
		}
		state[i] = 2
		out = append(out, i)
	}
	for i := range comps {
		visit(i)
	}
	return out
}
