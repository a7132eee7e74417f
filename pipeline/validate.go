package pipeline

import (
	"fmt"

	"github.com/drydock-dev/drydock/cache"
	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/schemas"
	"github.com/drydock-dev/drydock/tree"
)

// Validation asks a render to check every object it writes as the API
// server of the cluster it lands on would (package schemas).
type Validation struct {
	// KubeVersion is the Kubernetes version of clusters whose inventory
	// entry gives none (status.kubernetesVersion); "" is the newest
	// embedded.
	KubeVersion string
	// CRDPaths supply CustomResourceDefinitions (--crds) besides those
	// among the inputs, --observed objects and addons.
	CRDPaths []string
	// Strict makes a custom resource without a known schema an error
	// instead of a warning.
	Strict bool
}

// Finding is what validating an object found (schemas.ObjectFinding).
type Finding = schemas.ObjectFinding

// newValidator is the validation opts asks for, of the clusters of inv,
// knowing crds.
// A memo (nil: none) keeps its findings.
func newValidator(opts Validation, inv *cluster.Inventory, crds *schemas.CRDs, memo *findingsMemo) (*schemas.Stream, error) {
	vo := schemas.ValidatorOptions{KubeVersion: opts.KubeVersion, KubeVersionName: "--kube-version", CRDs: crds, Strict: opts.Strict}
	if memo != nil {
		vo.Memo = memo
	}
	v, err := schemas.NewValidator(vo)
	if err != nil {
		return nil, inputError(fmt.Errorf("--kube-version: %w", err))
	}
	return v.Stream(inv, tree.Path), nil
}

// crds gathers the CustomResourceDefinitions a validation knows: those
// among the inputs, the observed objects and the addons' hub objects, and
// those of Validation.CRDPaths (which must hold nothing else); and the
// digest of those CRDs (crdDigest).
func (in *Inputs) crds(l, observed *loaded, hub []cluster.Entry) (*schemas.CRDs, cache.Key, error) {
	var given loaded
	if err := in.files().readPaths(in.Record.Validate.CRDPaths, nil, &given); err != nil {
		return nil, cache.Key{}, err
	}
	objs := append([]*manifest.Object(nil), l.resources...)
	objs = append(objs, observed.resources...)
	for _, e := range hub {
		objs = append(objs, e.Object)
	}
	for _, o := range given.resources {
		if !schemas.IsCRD(o) {
			return nil, cache.Key{}, inputError(manifest.At(o.Pos, "--crds: %s is not an apiextensions.k8s.io/v1 CustomResourceDefinition", o.Key()))
		}
	}
	objs = append(objs, given.resources...)
	given.resources = nil
	if err := given.only("--crds", "an apiextensions.k8s.io/v1 CustomResourceDefinition", false, false); err != nil {
		return nil, cache.Key{}, err
	}
	crds := schemas.NewCRDs()
	var added []*manifest.Object
	for _, o := range objs {
		if schemas.IsCRD(o) {
			if err := crds.Add(o); err != nil {
				return nil, cache.Key{}, inputError(err)
			}
			added = append(added, o)
		}
	}
	return crds, crdDigest(added), nil
}

// undeclaredProperties are app's component and trait properties that
// their definitions' parameters do not declare: KubeVela ignores them
// silently, so they are warnings (errors when strict).
func undeclaredProperties(e *cueval.Engine, defs *render.Definitions, app *render.Application, strict bool) []Finding {
	var out []Finding
	check := func(kind, typ string, props map[string]any, path render.FieldRef, origin cluster.Origin) {
		d, err := defs.Lookup(kind, typ)
		if err != nil {
			return
		}
		for _, u := range e.Undeclared(d, props) {
			field := path.Child("properties").Join(u.Path)
			pos := app.Object.Pos
			if !field.IsExternal() {
				pos = app.Object.KeyPos(field.Path)
			}
			if !pos.IsValid() {
				pos = app.FieldPos(field)
			}
			msg := fmt.Sprintf("property %q is not declared by %s %q", u.Path, kind, typ)
			if u.Closest != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", u.Closest)
			}
			out = append(out, Finding{Key: app.Object.Key(), Field: field.String(), Message: msg + "; KubeVela ignores it", Warning: !strict, Pos: pos, Origin: origin})
		}
	}
	for i := range app.Components {
		c := &app.Components[i]
		origin := cluster.Origin{Application: app.Name, Component: c.Name, Pos: app.FieldPos(c.Path)}
		check(render.KindComponent, c.Type, c.Properties, c.Path, origin)
		for _, t := range c.Traits {
			origin := origin
			origin.Trait = t.Type
			check(render.KindTrait, t.Type, t.Properties, t.Path, origin)
		}
	}
	return out
}
