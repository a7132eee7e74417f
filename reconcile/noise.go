package reconcile

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
)

// Noise says why an update need not be read object by object.
type Noise string

// The kinds of Noise.
const (
	// Real is an update with a change worth reading.
	Real Noise = ""
	// Bookkeeping is an update whose only changes are KubeVela's
	// bookkeeping labels and annotations (BookkeepingLabels,
	// BookkeepingAnnotations).
	Bookkeeping Noise = "bookkeeping"
	// Ignored is an update whose only changes, bookkeeping aside, are at
	// paths an Ignore rule names.
	Ignored Noise = "ignored"
)

// BookkeepingLabels are the labels KubeVela's application controller
// stamps on the objects it dispatches to record which revision, component
// and definition wrote them (pkg/oam/labels.go): a new application
// revision changes appRevision and app-revision-hash on every object of
// the application, whatever else changed. The owner labels
// (app.oam.dev/name, app.oam.dev/namespace) are not bookkeeping: a change
// of owner, or KubeVela detaching an object, is a real change.
var BookkeepingLabels = []string{
	render.LabelAppRevision, // <app>-v<N>
	render.LabelAppRevisionHash,
	render.LabelComponentRev, // the component's revision
	render.LabelAppComponent,
	render.LabelResourceType, // WORKLOAD or TRAIT
	render.LabelAppCluster,
	render.LabelWorkloadType,
	render.LabelTraitType,
	render.LabelTraitResource,
}

// BookkeepingAnnotations are the annotations KubeVela stamps on, or
// passes to, every object of an application to record its version and
// its last apply (pkg/oam/labels.go): publishVersion and deployVersion
// are the Application's, copied to each object it dispatches.
var BookkeepingAnnotations = []string{
	"app.oam.dev/publishVersion",             // AnnotationPublishVersion
	"app.oam.dev/deployVersion",              // AnnotationDeployVersion
	"app.oam.dev/last-applied-configuration", // AnnotationLastAppliedConfig
	"app.oam.dev/last-applied-time",          // AnnotationLastAppliedTime
	"oam.dev/kubevela-version",               // AnnotationKubeVelaVersion
}

// KeyChange is one bookkeeping label or annotation that an update
// changes: From and To are its values ("" where the object lacks it).
type KeyChange struct {
	Annotation bool
	Key        string
	From, To   string
	// FromSet and ToSet say whether each side has the key.
	FromSet, ToSet bool
}

// String is "key: from → to", a missing value written (none).
func (k KeyChange) String() string {
	v := func(s string, set bool) string {
		if !set {
			return "(none)"
		}
		return s
	}
	return fmt.Sprintf("%s: %s → %s", k.Key, v(k.From, k.FromSet), v(k.To, k.ToSet))
}

// Ignore is one rule of diff --ignore: the fields at Path (and below it)
// do not count as a change, in every object or, with Kind, in objects of
// that kind (and Group, when given).
type Ignore struct {
	Kind, Group string
	Path        fieldpath.Path
	// Text is the rule as written.
	Text string
}

// kindPrefix is the Kind[.group]: a rule may start with. Kinds start
// with a capital letter and field paths, in Kubernetes, with a small
// one, so the two cannot be confused.
var kindPrefix = regexp.MustCompile(`^([A-Z][A-Za-z0-9]*)(\.[a-z0-9][a-z0-9.-]*)?:`)

// ParseIgnore reads an ignore rule: a field path in drydock's notation
// (spec.replicas, metadata.labels[app.kubernetes.io/version],
// spec.template.spec.containers[*].image; a * segment matches any key or
// index), optionally after a kind and a colon (Deployment:spec.replicas,
// Deployment.apps:spec.replicas).
func ParseIgnore(s string) (Ignore, error) {
	r := Ignore{Text: s}
	rest := s
	if m := kindPrefix.FindStringSubmatch(s); m != nil {
		r.Kind, r.Group = m[1], strings.TrimPrefix(m[2], ".")
		rest = s[len(m[0]):]
	}
	if rest == "" {
		return r, fmt.Errorf("ignore %q: no field path (want e.g. spec.replicas or Deployment:spec.replicas)", s)
	}
	p, err := fieldpath.Parse(rest)
	if err != nil {
		return r, fmt.Errorf("ignore %q: %w (want e.g. spec.replicas, metadata.labels[app.kubernetes.io/version] or Deployment:spec.replicas)", s, err)
	}
	if len(p) == 0 {
		return r, fmt.Errorf("ignore %q: no field path", s)
	}
	r.Path = p
	return r, nil
}

// covers reports whether the rule ignores the field at p of an object
// whose key is k.
func (r Ignore) covers(k manifest.Key, p fieldpath.Path) bool {
	if r.Kind != "" && (r.Kind != k.Kind || r.Group != "" && r.Group != k.Group) {
		return false
	}
	if len(p) < len(r.Path) {
		return false
	}
	for i, s := range r.Path {
		if !s.IsIndex() && s.Key() == "*" {
			continue
		}
		if s != p[i] {
			return false
		}
	}
	return true
}

// Classify marks each update of the plan whose only changes are KubeVela's
// bookkeeping labels and annotations (Bookkeeping, with the keys in
// Change.Bookkeeping) or, bookkeeping aside, fields the rules ignore
// (Ignored, with the rules in Change.IgnoredBy). Creates and deletes are
// always Real, as is an update that changes anything else: its diff is
// shown whole.
func (p *Plan) Classify(rules []Ignore) error {
	for i := range p.Changes {
		c := &p.Changes[i]
		c.Noise, c.Bookkeeping, c.IgnoredBy = Real, nil, nil
		if c.Action != Update || c.Base == nil || c.Head == nil {
			continue
		}
		was, err := decodeData(c, c.Base)
		if err != nil {
			return err
		}
		now, err := decodeData(c, c.Head)
		if err != nil {
			return err
		}
		var changed []fieldpath.Path
		differences(fieldpath.Path{}, was, now, &changed)
		if len(changed) == 0 {
			continue // the same fields, written differently: shown
		}
		var keys []KeyChange
		var by []string
		real := false
		for _, path := range changed {
			if kc, ok := bookkeeping(path, was, now); ok {
				keys = append(keys, kc)
				continue
			}
			j := slices.IndexFunc(rules, func(r Ignore) bool { return r.covers(c.Key, path) })
			if j < 0 {
				real = true
				break
			}
			if !slices.Contains(by, rules[j].Text) {
				by = append(by, rules[j].Text)
			}
		}
		switch {
		case real:
		case len(by) > 0:
			c.Noise, c.IgnoredBy, c.Bookkeeping = Ignored, by, keys
		default:
			c.Noise, c.Bookkeeping = Bookkeeping, keys
		}
	}
	return nil
}

// decodeData is the object data encodes, as a tree.
func decodeData(c *Change, data []byte) (map[string]any, error) {
	objs, err := manifest.Decode(c.Path, data, manifest.DecodeOptions{})
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s %s: decode the object: %w", c.Cluster, c.Key, err)
	case len(objs) != 1:
		return nil, fmt.Errorf("%s %s: the object decodes to %d documents, want 1", c.Cluster, c.Key, len(objs))
	}
	return objs[0].Data, nil
}

// differences appends to out the paths below at where a and b differ:
// the deepest place where they still share a shape. A mapping one side
// lacks counts as empty, so each of its keys is a path of its own (a
// labels mapping added whole still shows which labels it adds).
func differences(at fieldpath.Path, a, b any, out *[]fieldpath.Path) {
	am, aMap := a.(map[string]any)
	bm, bMap := b.(map[string]any)
	switch {
	case aMap && (bMap || b == nil) || bMap && a == nil:
		for _, k := range manifest.SortedKeys(am) {
			if _, ok := bm[k]; !ok {
				differences(at.Child(k), am[k], nil, out)
			}
		}
		for _, k := range manifest.SortedKeys(bm) {
			differences(at.Child(k), am[k], bm[k], out)
		}
		return
	}
	al, aList := a.([]any)
	bl, bList := b.([]any)
	if aList && bList && len(al) == len(bl) {
		for i := range al {
			differences(at.At(i), al[i], bl[i], out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, at)
	}
}

// bookkeeping reports whether path is a bookkeeping label or annotation,
// and how it changes.
func bookkeeping(path fieldpath.Path, was, now map[string]any) (KeyChange, bool) {
	if len(path) != 3 || path[0] != fieldpath.Key("metadata") || path[2].IsIndex() {
		return KeyChange{}, false
	}
	field, key := path[1].Key(), path[2].Key()
	switch {
	case field == "labels" && slices.Contains(BookkeepingLabels, key):
	case field == "annotations" && slices.Contains(BookkeepingAnnotations, key):
	default:
		return KeyChange{}, false
	}
	kc := KeyChange{Annotation: field == "annotations", Key: key}
	var from, to any
	from, kc.FromSet = fieldpath.Get(was, path)
	to, kc.ToSet = fieldpath.Get(now, path)
	kc.From, kc.To = fmt.Sprint(orEmpty(from)), fmt.Sprint(orEmpty(to))
	return kc, true
}

func orEmpty(v any) any {
	if v == nil {
		return ""
	}
	return v
}
