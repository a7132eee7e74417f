package pipeline

import (
	"fmt"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// karmadaPolicyKinds are the Karmada policies: written by an application,
// one places or overrides objects other applications write.
var karmadaPolicyKinds = []string{"PropagationPolicy", "ClusterPropagationPolicy", "OverridePolicy", "ClusterOverridePolicy"}

// crossApplication is why the Applications of l cannot render apart
// (Inputs.Select): what the inputs show that lets one application change
// the objects of another; "" when nothing does. It looks, conservatively
// (a mention is enough), for
//   - an Application, Workflow or Policy object that names a Karmada
//     policy kind (a k8s-objects component, an apply-object step writing
//     one) or uses a shared-resource policy;
//   - a definition among the inputs, -d or addons whose template names a
//     Karmada policy kind (the built-in definitions name none);
//   - a PropagationPolicy or ClusterPropagationPolicy among the inputs
//     that propagates dependencies (spec.propagateDeps, or a
//     ServiceImport selector, for which Karmada's webhook sets it): a
//     workload's ConfigMaps and Secrets may be another application's.
//
// It does not see two applications writing one object (the whole render
// refuses that as a conflict), nor a Helm chart that renders Karmada
// policies; see docs/sharding.md.
func crossApplication(l *loaded, defs []*render.Definition) string {
	if l.cross != "" {
		return l.cross
	}
	for _, wf := range l.workflows {
		if why := crossObject(wf.Object); why != "" {
			return why
		}
	}
	for _, p := range l.policies {
		if why := crossObject(p.Object); why != "" {
			return why
		}
	}
	for _, d := range defs {
		for _, k := range karmadaPolicyKinds {
			if strings.Contains(d.Template, k) {
				return fmt.Sprintf("%s %s (%s) may write a Karmada %s, which places other applications' objects", d.Kind, d.Name, d.Source, k)
			}
		}
	}
	for _, o := range l.resources {
		if manifest.Group(o.APIVersion()) != "policy.karmada.io" || (o.Kind() != "PropagationPolicy" && o.Kind() != "ClusterPropagationPolicy") {
			continue
		}
		spec, _ := o.Data["spec"].(map[string]any)
		deps, _ := spec["propagateDeps"].(bool)
		selectors, _ := spec["resourceSelectors"].([]any)
		for _, s := range selectors {
			if m, _ := s.(map[string]any); m["kind"] == "ServiceImport" {
				deps = true
			}
		}
		if deps {
			return fmt.Sprintf("%s %s (%s) propagates dependencies, which other applications may write", o.Kind(), objectName(o), o.Pos)
		}
	}
	return ""
}

// crossObject is why the Application, Workflow or Policy object o may
// change another application's objects (see crossApplication); "" when
// nothing in it says so.
func crossObject(o *manifest.Object) string {
	var why string
	var walk func(v any)
	walk = func(v any) {
		if why != "" {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			if v["type"] == "shared-resource" {
				why = fmt.Sprintf("%s %s (%s) uses a shared-resource policy: applications may share an object", o.Kind(), objectName(o), o.Pos)
				return
			}
			for _, k := range manifest.SortedKeys(v) {
				walk(v[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case string:
			for _, k := range karmadaPolicyKinds {
				if v == k {
					why = fmt.Sprintf("%s %s (%s) may write a Karmada %s, which places other applications' objects", o.Kind(), objectName(o), o.Pos, k)
					return
				}
			}
		}
	}
	walk(o.Data)
	return why
}

// objectName is o's namespace/name, or its name when it has no namespace.
func objectName(o *manifest.Object) string {
	if ns := o.Namespace(); ns != "" {
		return ns + "/" + o.Name()
	}
	return o.Name()
}
