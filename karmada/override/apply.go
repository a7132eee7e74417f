package override

import (
	"errors"
	"fmt"
	"sort"

	"github.com/drydock-dev/drydock/cluster"
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
func Apply(obj *manifest.Object, c *cluster.Cluster, policies []*Policy) (*manifest.Object, []Applied, error) {
	if c == nil {
		return nil, nil, fmt.Errorf("override %s: %w: no cluster", obj.Key(), ErrApply)
	}
	out, applied, err := run(obj, c, policies, false)
	if errors.Is(err, errNative) {
		out, applied, err = run(obj, c, policies, true)
	}
	if err != nil {
		return nil, nil, err
	}
	return &manifest.Object{Data: out, Pos: obj.Pos}, applied, nil
}

// run applies the policies, patching in memory unless exact.
func run(obj *manifest.Object, c *cluster.Cluster, policies []*Policy, exact bool) (map[string]any, []Applied, error) {
	data, finite := normalize(obj.Data)
	d := &document{data: data.(map[string]any), exact: exact || !finite}
	var applied []Applied
	for _, kind := range []string{KindClusterOverridePolicy, KindOverridePolicy} {
		for _, p := range matching(d.data, kind, policies) {
			for i := range p.Rules {
				r := &p.Rules[i]
				if !r.TargetCluster.Matches(c) {
					continue
				}
				if err := applyRule(d, r); err != nil {
					return nil, nil, wrapApply(err, obj, c, p)
				}
				applied = append(applied, Applied{Kind: p.Kind, Namespace: p.Namespace, Name: p.Name, Rule: i})
			}
		}
	}
	return d.data, applied, nil
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
	path string
	err  error
}

func (e *overriderError) Error() string { return e.path + ": " + e.err.Error() }
func (e *overriderError) Unwrap() error { return e.err }

func wrapApply(err error, obj *manifest.Object, c *cluster.Cluster, p *Policy) error {
	if errors.Is(err, errNative) {
		return err
	}
	var oe *overriderError
	pos, detail := p.Pos, err.Error()
	if errors.As(err, &oe) {
		if oe.pos.IsValid() {
			pos = oe.pos
		}
	}
	msg := fmt.Sprintf("%s: %s on cluster %s: %s", p.label(), obj.Key(), c.Name, detail)
	if s := pos.String(); s != "" {
		msg = s + ": " + msg
	}
	return &policyError{msg: msg, sentinel: ErrApply}
}

// applyRule is Karmada's applyPolicyOverriders.
func applyRule(d *document, r *Rule) error {
	o := &r.Overriders
	for i := range o.Image {
		ov := &o.Image[i]
		if err := wrapOverrider(d.patchWith(imagePatches(d.data, ov)), ov.Pos, r.Path, "imageOverrider", i); err != nil {
			return err
		}
	}
	for _, target := range []string{"command", "args"} {
		list, name := o.Command, "commandOverrider"
		if target == "args" {
			list, name = o.Args, "argsOverrider"
		}
		for i := range list {
			ov := &list[i]
			if err := wrapOverrider(d.patchWith(commandArgsPatches(d.data, target, ov)), ov.Pos, r.Path, name, i); err != nil {
				return err
			}
		}
	}
	for _, field := range []string{"labels", "annotations"} {
		list, name := o.Labels, "labelsOverrider"
		if field == "annotations" {
			list, name = o.Annotations, "annotationsOverrider"
		}
		for i := range list {
			ops := labelAnnotationPatches(d.data, field, &list[i])
			if len(ops) == 0 {
				continue
			}
			if err := wrapOverrider(d.patch(ops), list[i].Pos, r.Path, name, i); err != nil {
				return err
			}
		}
	}
	for i := range o.Field {
		f := &o.Field[i]
		if err := wrapOverrider(fieldOverride(d.data, f), f.Pos, r.Path, "fieldOverrider", i); err != nil {
			return err
		}
	}
	return d.plaintext(o.Plaintext, r.Path)
}

// patchWith applies the patches a builder produced, or returns its error.
func (d *document) patchWith(ops []patchOp, err error) error {
	if err != nil {
		return err
	}
	return d.patch(ops)
}

// wrapOverrider names the overrider (rulePath.list[i]) a failure came from.
func wrapOverrider(err error, pos manifest.Pos, rulePath, list string, i int) error {
	if err == nil || errors.Is(err, errNative) {
		return err
	}
	return &overriderError{pos: pos, path: manifest.Path(rulePath, list, i), err: err}
}

// plaintext applies a rule's plaintext operations as one patch. When the
// patch fails, the message names the first operation that fails.
func (d *document) plaintext(ops []Operation, rulePath string) error {
	patch := make([]patchOp, len(ops))
	for i := range ops {
		patch[i] = patchOp{op: ops[i].Operator, path: ops[i].Path, value: ops[i].Value, raw: ops[i].raw}
	}
	err := d.patch(patch)
	if err == nil || errors.Is(err, errNative) {
		return err
	}
	for i := range patch {
		if _, perr := exactPatch(d.data, patch[:i+1]); perr != nil {
			return &overriderError{pos: ops[i].Pos, path: manifest.Path(rulePath, "plaintext", i), err: err}
		}
	}
	return &overriderError{path: rulePath + ".plaintext", err: err}
}
