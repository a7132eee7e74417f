package schemas

import (
	"fmt"
	"sort"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// ValidatorOptions configure a Validator.
type ValidatorOptions struct {
	// KubeVersion is the Kubernetes version objects are validated as when
	// nothing gives another (KubeVersion resolves it to an embedded one);
	// "" is the newest embedded.
	KubeVersion string
	// KubeVersionName names what gave KubeVersion in the note about it
	// (for instance a flag, "--kube-version").
	KubeVersionName string
	// CRDs are the CustomResourceDefinitions whose custom resources are
	// validated (nil: none).
	CRDs *CRDs
	// Strict makes a custom resource without a known schema an error
	// instead of a warning.
	Strict bool
	// Memo, when set, is asked for a Stream's findings before an object
	// is validated (nil: every object is validated).
	Memo Memo
}

// Memo keeps what validating objects found, so that an object validated
// before is not validated again (a Stream asks it first). Validate's
// findings depend on the object's content, the Kubernetes version, the
// CRDs, Strict and drydock's build: a Memo keys on them all (the
// version and the object are given; the rest it must know from how the
// validator was made), and it is called from one goroutine.
type Memo interface {
	// Findings returns the findings of o validated as the embedded
	// Kubernetes version: those kept for them, else validate's, which
	// it keeps.
	Findings(o *manifest.Object, version string, validate func() []Finding) []Finding
	// Known returns the findings kept for an object whose content hash
	// (manifest.Sums.Content) is content, validated as version, and
	// whether any are kept; it does not validate.
	Known(content [32]byte, version string) ([]Finding, bool)
}

// Validator checks objects as the API server of a Kubernetes version
// would, with the embedded schemas of that version and the given
// CustomResourceDefinitions; like kubeconform's Validator it takes any
// object, and Stream validates what is written to fake clusters.
type Validator struct {
	opts ValidatorOptions
	// version is the embedded version KubeVersion resolves to, note what
	// the resolution says of it.
	version, note string
}

// NewValidator returns a validator, or why opts.KubeVersion is not a
// version it knows.
func NewValidator(opts ValidatorOptions) (*Validator, error) {
	v := &Validator{opts: opts, version: DefaultKubeVersion()}
	if opts.CRDs == nil {
		v.opts.CRDs = NewCRDs()
	}
	if opts.KubeVersion != "" {
		version, note, err := KubeVersion(opts.KubeVersion)
		if err != nil {
			return nil, err
		}
		v.version, v.note = version, note
	}
	return v, nil
}

// drydockGroups are the API groups whose objects drydock checks as inputs
// itself (KubeVela's, Karmada's): no API server schema is missing.
var drydockGroups = map[string]bool{"core.oam.dev": true, "policy.karmada.io": true, "cluster.karmada.io": true, "work.karmada.io": true}

// Validate is what the API server of kubeVersion (an embedded version, as
// KubeVersion returns it; "" for the validator's) finds in o: Check's
// findings, a warning when the check fails, and one when no schema knows
// o's kind (an error when strict).
func (v *Validator) Validate(o *manifest.Object, kubeVersion string) []Finding {
	if kubeVersion == "" {
		kubeVersion = v.version
	}
	fs, checked, err := Check(kubeVersion, v.opts.CRDs, o)
	switch {
	case err != nil:
		return append(fs, Finding{Message: err.Error(), Warning: true})
	case checked || drydockGroups[manifest.Group(o.APIVersion())]:
		return fs
	}
	return append(fs, Finding{Warning: !v.opts.Strict,
		Message: fmt.Sprintf("no schema for %s %s: not validated (give its CustomResourceDefinition with --crds)", o.APIVersion(), o.Kind())})
}

// ObjectFinding is what validating an object found: an API server's
// refusal, or a warning (a deprecated API; an object drydock has no
// schema for). A finding about an Application's properties has no
// Cluster: Key is the Application's and Field the property's path in it.
type ObjectFinding struct {
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

func (f ObjectFinding) String() string {
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

// Stream is a cluster.Sink that validates the objects written to fake
// clusters as they are written, each as the API server of its cluster
// would (the Kubernetes version of its inventory entry, else the
// validator's), and passes them on to Next. A later write of the same
// cluster and key replaces the findings of the earlier one; observed
// objects (no Owner) are the clusters', not validated.
type Stream struct {
	// Next receives every object after its validation (nil: none).
	Next cluster.Sink
	v    *Validator
	inv  *cluster.Inventory
	path func(cluster string, o *manifest.Object) string
	// givenNote is what to say of the validator's version, once, when a
	// cluster uses it.
	givenNote string
	versions  map[string]string // cluster -> embedded version
	notes     []string
	findings  map[string]map[manifest.Key][]ObjectFinding
}

// Stream returns a stream validating the clusters of inv (nil: none
// known); path names an object's file in the output tree
// (ObjectFinding.Path; nil: none).
func (v *Validator) Stream(inv *cluster.Inventory, path func(cluster string, o *manifest.Object) string) *Stream {
	s := &Stream{v: v, inv: inv, path: path, versions: map[string]string{}, findings: map[string]map[manifest.Key][]ObjectFinding{}}
	if v.note != "" {
		s.givenNote = v.note
		if v.opts.KubeVersionName != "" {
			s.givenNote = v.opts.KubeVersionName + ": " + v.note
		}
	}
	return s
}

// version is the embedded Kubernetes version that validates cluster c:
// its inventory entry's, else the validator's.
func (s *Stream) version(c string) string {
	if ver, ok := s.versions[c]; ok {
		return ver
	}
	ver := s.v.version
	var cl *cluster.Cluster
	if s.inv != nil {
		cl, _ = s.inv.Get(c)
	}
	if cl == nil || cl.KubernetesVersion == "" {
		if s.givenNote != "" {
			s.notes, s.givenNote = append(s.notes, s.givenNote), ""
		}
	} else {
		from := fmt.Sprintf("cluster %s (%s)", c, cl.Source)
		got, note, err := KubeVersion(cl.KubernetesVersion)
		switch {
		case err != nil:
			ver = DefaultKubeVersion()
			s.notes = append(s.notes, fmt.Sprintf("%s: %v; validated as Kubernetes %s", from, err, ver))
		case note != "":
			s.notes = append(s.notes, from+": "+note)
			ver = got
		default:
			ver = got
		}
	}
	s.versions[c] = ver
	return ver
}

// Put validates e and passes it on.
func (s *Stream) Put(c string, e cluster.Entry) error {
	key := e.Key()
	if m := s.findings[c]; m != nil {
		delete(m, key)
	}
	if e.Owner != "" { // observed objects are the clusters', not the render's
		if fs := s.check(c, e); len(fs) > 0 {
			if s.findings[c] == nil {
				s.findings[c] = map[manifest.Key][]ObjectFinding{}
			}
			s.findings[c][key] = fs
		}
	}
	if s.Next == nil {
		return nil
	}
	return s.Next.Put(c, e)
}

func (s *Stream) check(c string, e cluster.Entry) []ObjectFinding {
	version := s.version(c)
	var fs []Finding
	m := s.v.opts.Memo
	known := false
	if m != nil && e.Object == nil && e.Lazy != nil && e.Lazy.Sums != nil {
		// A Lazy object is decoded only when the memo lacks its findings
		// or has some (they are located in it).
		fs, known = m.Known(e.Lazy.Sums.Content, version)
	}
	if !known {
		o := e.Obj()
		if m != nil {
			fs = m.Findings(o, version, func() []Finding { return s.v.Validate(o, version) })
		} else {
			fs = s.v.Validate(o, version)
		}
	}
	if len(fs) == 0 {
		return nil
	}
	o := e.Obj()
	path := ""
	if s.path != nil {
		path = s.path(c, o)
	}
	out := make([]ObjectFinding, len(fs))
	for i, f := range fs {
		out[i] = ObjectFinding{Cluster: c, Key: o.Key(), Path: path, Field: f.Field, Message: f.Message, Warning: f.Warning, Pos: e.FieldPos(kubeFieldPath(f.Field)), Origin: e.Origin}
	}
	return out
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

// TakesLazy: the stream decodes a Lazy object only to validate it or to
// locate its findings (cluster.LazySink).
func (s *Stream) TakesLazy() bool { return cluster.TakesLazy(s.Next) }

// Notes are what the stream said of the Kubernetes versions its clusters
// were validated as, in the order it first used them.
func (s *Stream) Notes() []string { return s.notes }

// Findings are every finding in cluster, key and field order.
func (s *Stream) Findings() []ObjectFinding {
	var out []ObjectFinding
	for c, m := range s.findings {
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
