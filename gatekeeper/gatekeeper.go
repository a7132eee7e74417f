package gatekeeper

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/regosandbox"
)

// Set is compiled templates and their constraints; safe for concurrent use.
type Set struct {
	templates map[string]*template // by kind
	// constraints are sorted by id.
	constraints []*constraint
	// budget bounds the Rego templates' evaluations (nil: no limit).
	budget *regosandbox.Budget
	opts   Options
}

// Options are gator's switches that change what a Set or Verify reports.
// The zero Options are gator verify's defaults.
type Options struct {
	// RegoOnly leaves the templates' K8sNativeValidation (CEL) code out,
	// as gator's --enable-k8s-native-validation=false does: a template
	// is evaluated with its Rego even when it has CEL too, and a template
	// with CEL only fails to load.
	RegoOnly bool
	// EmptyNamespace matches objects as gator test does, which gives each
	// object it reviews a Namespace: an object without metadata.namespace
	// is in a Namespace of no name and no labels (so scope: Cluster does
	// not select it, Namespaced does, and namespaces, excludedNamespaces
	// and namespaceSelector judge it by that Namespace), and an object of
	// namespace default is in an unlabeled default Namespace when none is
	// among the objects. Without it, as in gator verify and Gatekeeper's
	// audit, such an object has no Namespace: namespaces,
	// excludedNamespaces and namespaceSelector pass a cluster-scoped
	// object, and namespaceSelector rejects an object whose Namespace is
	// missing.
	EmptyNamespace bool
}

// Load reads every YAML document under paths (files, or directories walked
// recursively for .yaml/.yml): ConstraintTemplates (templates.gatekeeper.sh,
// any version) and Constraints (apiVersion constraints.gatekeeper.sh/*,
// kind = a template's spec.crd.spec.names.kind). Other documents are
// ignored. Errors wrap ErrInvalid and start with the file:line:col they are
// about; every problem found is reported. opts apply to every template and
// review of the set.
func Load(paths []string, opts Options) (*Set, error) {
	files, err := yamlFiles(paths)
	if err != nil {
		return nil, err
	}
	var templates, constraints []*manifest.Object
	var errs []error
	for _, f := range files {
		objs, err := readObjects(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, o := range objs {
			switch {
			case isTemplate(o):
				templates = append(templates, o)
			case manifest.Group(o.APIVersion()) == constraintGroup:
				constraints = append(constraints, o)
			}
		}
	}
	s := &Set{templates: map[string]*template{}, opts: opts}
	// failed are the kinds of the templates in error: their constraints
	// are not checked.
	failed := map[string]bool{}
	for _, o := range templates {
		t, err := parseTemplate(o, opts)
		if err != nil {
			failed[manifest.String(o.Data, "spec", "crd", "spec", "names", "kind")] = true
			errs = append(errs, err)
			continue
		}
		if prev := s.templates[t.kind]; prev != nil {
			errs = append(errs, errAt(o.Pos, "ConstraintTemplate %q: kind %s is already defined by the template at %s", t.name, t.kind, prev.pos))
			continue
		}
		s.templates[t.kind] = t
	}
	seen := map[string]manifest.Pos{}
	for _, o := range constraints {
		t := s.templates[o.Kind()]
		if t == nil {
			if !failed[o.Kind()] {
				errs = append(errs, errAt(o.FieldPos(fieldpath.New("kind")), "constraint %s/%s: no ConstraintTemplate defines kind %s%s", o.Kind(), o.Name(), o.Kind(),
					manifest.DidYouMean(o.Kind(), slices.Sorted(maps.Keys(s.templates)))))
			}
			continue
		}
		c, err := parseConstraint(o, t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if prev, dup := seen[c.id]; dup {
			errs = append(errs, errAt(o.Pos, "constraint %s is already defined at %s", c.id, prev))
			continue
		}
		seen[c.id] = c.pos
		s.constraints = append(s.constraints, c)
	}
	if err := manifest.Join(errs...); err != nil {
		return nil, invalid(err)
	}
	slices.SortFunc(s.constraints, func(a, b *constraint) int { return strings.Compare(a.id, b.id) })
	return s, nil
}

// Constraints lists the loaded constraints as "Kind/name", sorted.
func (s *Set) Constraints() []string {
	out := make([]string, len(s.constraints))
	for i, c := range s.constraints {
		out[i] = c.id
	}
	return out
}

func isTemplate(o *manifest.Object) bool {
	return manifest.Group(o.APIVersion()) == templateGroup && o.Kind() == "ConstraintTemplate"
}

func isYAML(name string) bool {
	switch filepath.Ext(name) {
	case ".yaml", ".yml":
		return true
	}
	return false
}

// yamlFiles lists the .yaml/.yml files under paths (a file given
// directly is kept whatever its name), sorted, without duplicates.
func yamlFiles(paths []string) ([]string, error) {
	files, err := manifest.ListFiles(paths, isYAML)
	if err != nil {
		return nil, invalid(err)
	}
	return files, nil
}

// readObjects decodes a YAML file's objects, as Kubernetes reads them.
func readObjects(file string) ([]*manifest.Object, error) {
	data, err := manifest.ReadFile(file)
	if err != nil {
		return nil, invalid(err)
	}
	objs, err := manifest.Decode(file, data, manifest.DecodeOptions{KeepLists: true})
	if err != nil {
		return nil, invalid(err)
	}
	return objs, nil
}
