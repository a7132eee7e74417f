package karmada

import (
	"errors"
	"fmt"
	"sort"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/karmada"
	"github.com/drydock-dev/drydock/manifest"
)

// ErrApply is wrapped by every error Apply returns: overriding the object
// for the cluster failed, as it would fail in Karmada.
var ErrApply = errors.New("override failed")

// Applied records one rule that Apply applied.
type Applied struct {
	// Kind is KindOverridePolicy or KindClusterOverridePolicy.
	Kind      string
	Namespace string
	Name      string
	// Rule is the index in the policy's Rules.
	Rule int
}

// String formats the record as "ClusterOverridePolicy name rule 0" or
// "OverridePolicy ns/name rule 1".
func (a Applied) String() string {
	id := a.Name
	if a.Namespace != "" {
		id = a.Namespace + "/" + a.Name
	}
	return fmt.Sprintf("%s %s rule %d", a.Kind, id, a.Rule)
}

// Apply overrides obj for cluster c with the policies that apply to it, as
// Karmada's overridemanager.ApplyOverridePolicies does, and returns the new
// object and, in application order, the rules applied. It never modifies
// obj or the policies.
//
// ClusterOverridePolicies are applied first, then the OverridePolicies of
// obj's namespace (none when obj has no metadata.namespace). Within each
// scope the policies whose resource selectors match (no selectors match
// everything) are ordered by ascending implicit priority (match-all, label
// selector, name), then by name; the OverridePolicies are matched against
// the object as the ClusterOverridePolicies left it. Every rule whose target
// cluster matches c is applied; its overriders run in Karmada's fixed order
// (image, command, args, labels, annotations, field, plaintext), each as a
// JSON patch followed by a JSON round trip, so whole numbers end up as
// int64.
//
// Errors (an unparsable image, a missing path, a failing patch) wrap
// ErrApply and name the overrider, the object and the cluster.
//
// When obj has a Provenance, the new object's records, for every field an
// overrider changed, the policy, rule and overrider (at its position).
func Apply(obj *manifest.Object, c *cluster.Cluster, policies []*Policy) (*manifest.Object, []Applied, error) {
	if c == nil {
		return nil, nil, fmt.Errorf("override %s: %w: no cluster", obj.Key(), ErrApply)
	}
	out, applied, prov, err := run(obj, c, policies)
	if err != nil {
		return nil, nil, err
	}
	return &manifest.Object{Data: out, Pos: obj.Pos, Provenance: prov}, applied, nil
}

// run applies the policies to a copy of obj's data.
func run(obj *manifest.Object, c *cluster.Cluster, policies []*Policy) (map[string]any, []Applied, manifest.Provenance, error) {
	data, finite := normalize(obj.Data)
	d := &document{data: data.(map[string]any), nonFinite: !finite, prov: obj.Provenance.Clone()}
	var applied []Applied
	for _, kind := range []string{KindClusterOverridePolicy, KindOverridePolicy} {
		for _, p := range matching(d.data, kind, policies) {
			for i := range p.Rules {
				r := &p.Rules[i]
				if !r.TargetCluster.Matches(c) {
					continue
				}
				d.policy, d.rule = p, i
				if err := applyRule(d, r); err != nil {
					return nil, nil, nil, wrapApply(err, obj, c, p)
				}
				applied = append(applied, Applied{Kind: p.Kind, Namespace: p.Namespace, Name: p.Name, Rule: i})
			}
		}
	}
	return d.data, applied, d.prov, nil
}

// matching returns the policies of kind that apply to data, in Karmada's
// order.
func matching(data map[string]any, kind string, policies []*Policy) []*Policy {
	ns := manifest.String(data, "metadata", "namespace")
	if kind == KindOverridePolicy && ns == "" {
		return nil
	}
	view := &manifest.Object{Data: data}
	type match struct {
		p        *Policy
		priority int
	}
	var ms []match
	for _, p := range policies {
		if p.Kind != kind || (kind == KindOverridePolicy && p.Namespace != ns) {
			continue
		}
		prio := karmada.PriorityMatchAll
		if len(p.ResourceSelectors) > 0 {
			prio = karmada.PriorityMismatch
			for _, rs := range p.ResourceSelectors {
				prio = max(prio, rs.Priority(view))
			}
		}
		if prio > karmada.PriorityMismatch {
			ms = append(ms, match{p, prio})
		}
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].priority != ms[j].priority {
			return ms[i].priority < ms[j].priority
		}
		return ms[i].p.Name < ms[j].p.Name
	})
	out := make([]*Policy, len(ms))
	for i, m := range ms {
		out[i] = m.p
	}
	return out
}

// overriderError is a failure of one overrider of a rule.
type overriderError struct {
	pos  manifest.Pos
	path fieldpath.Path
	err  error
}

func (e *overriderError) Error() string { return e.path.String() + ": " + e.err.Error() }
func (e *overriderError) Unwrap() error { return e.err }

func wrapApply(err error, obj *manifest.Object, c *cluster.Cluster, p *Policy) error {
	var oe *overriderError
	pos, path := p.Pos, fieldpath.Path(nil)
	if errors.As(err, &oe) {
		path = oe.path
		if oe.pos.IsValid() {
			pos = oe.pos
		}
	}
	return located(pos, p.subject(), path, fmt.Sprintf("%s on cluster %s: %s", obj.Key(), c.Name, err), ErrApply)
}

// Overrider lists, in the order Karmada applies them within a rule.
var overriderLists = []string{"imageOverrider", "commandOverrider", "argsOverrider",
	"labelsOverrider", "annotationsOverrider", "fieldOverrider", "plaintext"}

// applyRule is Karmada's applyPolicyOverriders: each overrider list in
// Karmada's order, each overrider in its list's order; a rule's plaintext
// operations are one patch.
func applyRule(d *document, r *Rule) error {
	for _, list := range overriderLists {
		for i := range r.Overriders.count(list) {
			var before map[string]any
			if d.prov != nil {
				before = manifest.DeepCopy(d.data).(map[string]any)
			}
			if err := d.applyOverrider(r, list, i); err != nil {
				return err
			}
			if d.prov != nil {
				d.prov.Record(before, d.data, d.origin(r, list, i))
			}
		}
	}
	return nil
}

// count is how many overriders of list o has (the plaintext operations of
// a rule count as one overrider).
func (o *Overriders) count(list string) int {
	switch list {
	case "imageOverrider":
		return len(o.Image)
	case "commandOverrider":
		return len(o.Command)
	case "argsOverrider":
		return len(o.Args)
	case "labelsOverrider":
		return len(o.Labels)
	case "annotationsOverrider":
		return len(o.Annotations)
	case "fieldOverrider":
		return len(o.Field)
	case "plaintext":
		return min(len(o.Plaintext), 1)
	}
	return 0
}

// applyOverrider applies overrider i of list: the one dispatch over
// overrider kinds. A failure names the overrider (the plaintext operation
// that failed) and its position.
func (d *document) applyOverrider(r *Rule, list string, i int) error {
	o := &r.Overriders
	var ops []patchOp
	var err error
	switch list {
	case "imageOverrider":
		ops, err = imagePatches(d.data, &o.Image[i])
	case "commandOverrider":
		ops, err = commandArgsPatches(d.data, "command", &o.Command[i])
	case "argsOverrider":
		ops, err = commandArgsPatches(d.data, "args", &o.Args[i])
	case "labelsOverrider":
		ops = labelAnnotationPatches(d.data, "labels", &o.Labels[i])
	case "annotationsOverrider":
		ops = labelAnnotationPatches(d.data, "annotations", &o.Annotations[i])
	case "fieldOverrider":
		return overriderFailure(fieldOverride(d.data, &o.Field[i]), o.Field[i].Pos, r.Path.Child(list).At(i))
	case "plaintext":
		return d.plaintext(o.Plaintext, r.Path)
	}
	if err == nil && len(ops) > 0 {
		_, err = d.patch(ops)
	}
	return overriderFailure(err, o.pos(list, i), r.Path.Child(list).At(i))
}

// pos is where overrider i of list is authored (the first plaintext
// operation for plaintext); unknown for a list o does not have.
func (o *Overriders) pos(list string, i int) manifest.Pos {
	switch list {
	case "imageOverrider":
		return o.Image[i].Pos
	case "commandOverrider":
		return o.Command[i].Pos
	case "argsOverrider":
		return o.Args[i].Pos
	case "labelsOverrider":
		return o.Labels[i].Pos
	case "annotationsOverrider":
		return o.Annotations[i].Pos
	case "fieldOverrider":
		return o.Field[i].Pos
	case "plaintext":
		if len(o.Plaintext) > 0 {
			return o.Plaintext[0].Pos
		}
	}
	return manifest.Pos{}
}

// overriderFailure names the overrider at path a failure came from.
func overriderFailure(err error, pos manifest.Pos, path fieldpath.Path) error {
	if err == nil {
		return nil
	}
	return &overriderError{pos: pos, path: path, err: err}
}

// plaintext applies a rule's plaintext operations as one patch; a failure
// names the operation that failed.
func (d *document) plaintext(ops []Operation, rulePath fieldpath.Path) error {
	patch := make([]patchOp, len(ops))
	for i := range ops {
		patch[i] = patchOp{op: ops[i].Operator, path: ops[i].Path, value: ops[i].Value, raw: ops[i].raw}
	}
	failed, err := d.patch(patch)
	if err == nil {
		return nil
	}
	if failed < 0 {
		return &overriderError{path: rulePath.Child("plaintext"), err: err}
	}
	return overriderFailure(err, ops[failed].Pos, rulePath.Child("plaintext").At(failed))
}

// origin is the provenance of what overrider i of list in rule r (of the
// policy d applies) sets.
func (d *document) origin(r *Rule, list string, i int) manifest.Origin {
	pos := r.Overriders.pos(list, i)
	if !pos.IsValid() {
		pos = d.policy.Pos
	}
	name := d.policy.Kind + " " + d.policy.Name
	if d.policy.Namespace != "" {
		name = d.policy.Kind + " " + d.policy.Namespace + "/" + d.policy.Name
	}
	detail := fmt.Sprintf("rule %d %s[%d]", d.rule, list, i)
	if list == "plaintext" {
		detail = fmt.Sprintf("rule %d plaintext", d.rule)
	}
	return manifest.Origin{Stage: manifest.StageKarmadaOverride, Name: name, Detail: detail, Pos: pos}
}
