package pipeline

import (
	"fmt"
	"sort"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/golden"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/cueval"
	"github.com/drydock-dev/drydock/schemas"
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

// Finding is what validating an object found: an API server's refusal,
// or a warning (a deprecated API; an object drydock has no schema for).
// A finding about an Application's properties has no Cluster: Key is the
// Application's and Field the property's path in it.
type Finding struct {
	Cluster string
	Key     manifest.Key
	// Path is the object's file in the output tree.
	Path string
	// Field is the offending value's path in the object ("" for the
	// object).
	Field   string
	Message string
	Warning bool
	// Pos is where the value was authored: the field in an input
	// document, else the component, trait, policy or template that
	// produced the object.
	Pos    manifest.Pos
	Origin cluster.Origin
}

func (f Finding) String() string {
	s := ""
	if f.Pos.IsValid() {
		s = f.Pos.String() + ": "
	}
	if subject := f.Origin.Subject(); subject != "" {
		s += subject + ": "
	}
	if f.Cluster != "" {
		s += fmt.Sprintf("cluster %s: %s: ", f.Cluster, f.Key)
	}
	if f.Warning {
		s += "warning: "
	}
	if f.Field != "" {
		s += f.Field + ": "
	}
	return s + f.Message
}

// drydockGroups are the API groups whose objects drydock checks as inputs
// itself (KubeVela's, Karmada's): no API server schema is missing.
var drydockGroups = map[string]bool{"core.oam.dev": true, "policy.karmada.io": true, "cluster.karmada.io": true, "work.karmada.io": true}

// validator checks the objects a render writes, as they are written: a
// later write of the same cluster and key replaces the findings of the
// earlier one.
type validator struct {
	opts Validation
	inv  *cluster.Inventory
	crds *schemas.CRDs
	// given is the version --kube-version gives (default: the newest);
	// givenNote is what to say of it, once, when a cluster uses it.
	given, givenNote string
	versions         map[string]string // cluster -> embedded version
	notes            []string
	findings         map[string]map[manifest.Key][]Finding
	next             cluster.Sink
}

func newValidator(opts Validation, inv *cluster.Inventory, crds *schemas.CRDs) (*validator, error) {
	v := &validator{opts: opts, inv: inv, crds: crds, given: schemas.DefaultKubeVersion(), versions: map[string]string{}, findings: map[string]map[manifest.Key][]Finding{}}
	if opts.KubeVersion != "" {
		given, note, err := schemas.KubeVersion(opts.KubeVersion)
		if err != nil {
			return nil, inputError(fmt.Errorf("--kube-version: %w", err))
		}
		if note != "" {
			v.givenNote = "--kube-version: " + note
		}
		v.given = given
	}
	return v, nil
}

// version is the embedded Kubernetes version that validates cluster c:
// its inventory entry's, else --kube-version's.
func (v *validator) version(c string) string {
	if ver, ok := v.versions[c]; ok {
		return ver
	}
	ver := v.given
	if cl, ok := v.inv.Get(c); !ok || cl.KubernetesVersion == "" {
		if v.givenNote != "" {
			v.notes, v.givenNote = append(v.notes, v.givenNote), ""
		}
	} else {
		from := fmt.Sprintf("cluster %s (%s)", c, cl.Source)
		got, note, err := schemas.KubeVersion(cl.KubernetesVersion)
		switch {
		case err != nil:
			ver = schemas.DefaultKubeVersion()
			v.notes = append(v.notes, fmt.Sprintf("%s: %v; validated as Kubernetes %s", from, err, ver))
		case note != "":
			v.notes = append(v.notes, from+": "+note)
			ver = got
		default:
			ver = got
		}
	}
	v.versions[c] = ver
	return ver
}

// Put validates e and passes it on.
func (v *validator) Put(c string, e cluster.Entry) error {
	key := e.Object.Key()
	if m := v.findings[c]; m != nil {
		delete(m, key)
	}
	if e.Owner != "" { // observed objects are the clusters', not the render's
		if fs := v.check(c, e); len(fs) > 0 {
			if v.findings[c] == nil {
				v.findings[c] = map[manifest.Key][]Finding{}
			}
			v.findings[c][key] = fs
		}
	}
	if v.next == nil {
		return nil
	}
	return v.next.Put(c, e)
}

func (v *validator) check(c string, e cluster.Entry) []Finding {
	o := e.Object
	found := func(f schemas.Finding) Finding {
		return Finding{Cluster: c, Key: o.Key(), Path: golden.ObjectPath(c, o), Field: f.Field, Message: f.Message, Warning: f.Warning, Pos: e.FieldPos(kubeFieldPath(f.Field)), Origin: e.Origin}
	}
	fs, checked, err := schemas.Check(v.version(c), v.crds, o)
	var out []Finding
	for _, f := range fs {
		out = append(out, found(f))
	}
	switch {
	case err != nil:
		return append(out, found(schemas.Finding{Message: err.Error(), Warning: true}))
	case checked || drydockGroups[manifest.Group(o.APIVersion())]:
		return out
	}
	return append(out, found(schemas.Finding{Warning: !v.opts.Strict,
		Message: fmt.Sprintf("no schema for %s %s: not validated (give its CustomResourceDefinition with --crds)", o.APIVersion(), o.Kind())}))
}

// kubeFieldPath reads the API server's field path
// (metadata.labels[app]); the object itself when it does not parse.
func kubeFieldPath(p string) fieldpath.Path {
	path, err := fieldpath.Parse(p)
	if err != nil {
		return nil
	}
	return path
}

// result is every finding in cluster, key and field order.
func (v *validator) result() []Finding {
	var out []Finding
	for c, m := range v.findings {
		for _, fs := range m {
			for _, f := range fs {
				f.Cluster = c
				out = append(out, f)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Cluster != b.Cluster {
			return a.Cluster < b.Cluster
		}
		if a.Key != b.Key {
			return a.Key.String() < b.Key.String()
		}
		return a.Field < b.Field
	})
	return out
}

// crds gathers the CustomResourceDefinitions a validation knows: those
// among the inputs, the observed objects and the addons' hub objects, and
// those of Validation.CRDPaths (which must hold nothing else).
func (in *Inputs) crds(l, observed *loaded, hub []cluster.Entry) (*schemas.CRDs, error) {
	var given loaded
	if err := in.files().readPaths(in.Validate.CRDPaths, nil, &given); err != nil {
		return nil, err
	}
	objs := append([]*manifest.Object(nil), l.resources...)
	objs = append(objs, observed.resources...)
	for _, e := range hub {
		objs = append(objs, e.Object)
	}
	for _, o := range given.resources {
		if !schemas.IsCRD(o) {
			return nil, inputError(manifest.At(o.Pos, "--crds: %s is not an apiextensions.k8s.io/v1 CustomResourceDefinition", o.Key()))
		}
	}
	objs = append(objs, given.resources...)
	given.resources = nil
	if err := given.only("--crds", "an apiextensions.k8s.io/v1 CustomResourceDefinition", false, false); err != nil {
		return nil, err
	}
	crds := schemas.NewCRDs()
	for _, o := range objs {
		if schemas.IsCRD(o) {
			if err := crds.Add(o); err != nil {
				return nil, inputError(err)
			}
		}
	}
	return crds, nil
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
