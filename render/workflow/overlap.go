package workflow

import (
	"fmt"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/cueval"
)

// Two outputs of one Application that render the same object (kind,
// namespace and name) in one cluster: KubeVela dispatches both, one
// after the other (the resource keeper's Dispatch applies each manifest
// in turn), so the cluster keeps the later and the earlier is silently
// lost. drydock says so.

// producer is what rendered an object: a component's workload, or one of
// its outputs (of its definition, or of a trait).
type producer struct{ component, trait, output string }

func producerOf(r *cueval.Resource) producer {
	return producer{component: r.Component, trait: r.Trait, output: r.Output}
}

func (p producer) String() string {
	switch {
	case p.output == "":
		return fmt.Sprintf("component %q workload", p.component)
	case p.trait == cueval.AuxiliaryWorkload || p.trait == "":
		return fmt.Sprintf("component %q output %q", p.component, p.output)
	}
	return fmt.Sprintf("component %q trait %q output %q", p.component, p.trait, p.output)
}

// noteOverlap records who wrote r in target and warns when another
// producer wrote the same object before. The same producer writing again
// (another step deploying the component) is an update, not an overlap.
func (w *workflowRun) noteOverlap(target string, r *cueval.Resource) {
	if r.Component == "" {
		return // apply-object and other step writes
	}
	key := target + "/" + manifest.New(r.Object).Key().String()
	if w.writers == nil {
		w.writers = map[string]producer{}
	}
	p := producerOf(r)
	if first, ok := w.writers[key]; ok && first != p {
		at := ""
		if c := w.app.Component(r.Component); c != nil {
			at = w.pos(c.Path).String() + ": "
		}
		w.warnf("%sapplication %q: %s and %s render the same object %s in cluster %q: KubeVela applies both in turn, and the cluster keeps the later",
			at, w.app.Name, first, p, manifest.New(r.Object).Key(), target)
	}
	w.writers[key] = p
}
