package pipeline

import (
	"encoding/json"
	"hash/fnv"
	"strconv"

	"github.com/drydock-dev/drydock/render"
)

// revisionKey identifies an Application's revision: its spec and the
// definitions of the types it names, since
// KubeVela's revision hash covers both and a changed definition alone cuts
// a new ApplicationRevision.
func revisionKey(app *render.Application, defs *render.Definitions) string {
	h := fnv.New64a()
	spec, _ := json.Marshal(app.Object.Data["spec"])
	_, _ = h.Write(spec)
	add := func(kind, typ string) {
		d := defs.Get(kind, typ)
		if d == nil {
			return
		}
		for _, s := range []string{kind, typ, d.Template, d.WorkloadType, d.Stage} {
			_, _ = h.Write([]byte(s))
			_, _ = h.Write([]byte{0})
		}
		if d.Terraform != nil {
			tf, _ := json.Marshal(d.Terraform)
			_, _ = h.Write(tf)
		}
	}
	for _, c := range app.Components {
		add(render.KindComponent, c.Type)
		for _, t := range c.Traits {
			add(render.KindTrait, t.Type)
		}
	}
	for _, p := range app.Policies {
		add(render.KindPolicy, p.Type)
	}
	var steps func([]render.WorkflowStep)
	steps = func(ss []render.WorkflowStep) {
		for _, s := range ss {
			add(render.KindWorkflowStep, s.Type)
			steps(s.SubSteps)
		}
	}
	steps(app.Workflow)
	return strconv.FormatUint(h.Sum64(), 16)
}
