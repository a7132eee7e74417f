package propagation

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// workload is what Karmada's default resource interpreter reads from a
// template (GetReplicas): the replica count and what one replica needs.
type workload struct {
	replicas int64
	// req is nil where Karmada's ReplicaRequirements is nil (no resource
	// request and no node claim).
	req *requirements
	// uid is metadata.uid, Karmada's tie-break seed.
	uid string
	// previous is the binding's spec.clusters from an earlier schedule,
	// which the dynamic strategies build on. drydock schedules once, so
	// only tests set it.
	previous []share
}

// isWorkload reports whether Karmada assigns the template's replicas
// (AssignReplicas' test) rather than sending it whole to every cluster.
func (w workload) isWorkload() bool { return w.replicas > 0 || w.req != nil }

// requirements is Karmada's ReplicaRequirements of one replica.
type requirements struct {
	// nodeClaim tells a node selector, tolerations or required node
	// affinity; Karmada's general estimator does not read it.
	nodeClaim bool
	// request is the effective request of one pod (nil for none).
	request cluster.ResourceList
}

// readWorkload reads the template as Karmada's default interpreter does
// for apps/v1 Deployment, ReplicaSet and StatefulSet, batch/v1 Job and v1
// Pod; any other kind has no replicas and no requirements. A quantity the
// API server would refuse is an error at its field.
func readWorkload(t *manifest.Object) (workload, error) {
	w := workload{uid: manifest.String(t.Data, "metadata", "uid")}
	var specPath []string
	switch t.APIVersion() + "/" + t.Kind() {
	case "apps/v1/Deployment", "apps/v1/ReplicaSet", "apps/v1/StatefulSet":
		w.replicas, _ = toInt(mustLookup(t.Data, "spec", "replicas"))
		specPath = []string{"spec", "template", "spec"}
	case "batch/v1/Job":
		if par, ok := jobField(t, "parallelism"); ok {
			w.replicas = par
			if comp, ok := jobField(t, "completions"); ok && comp < w.replicas {
				w.replicas = comp
			}
		}
		specPath = []string{"spec", "template", "spec"}
	case "v1/Pod":
		w.replicas = 1
		specPath = []string{"spec"}
	default:
		return w, nil
	}
	var err error
	w.req, err = podRequirements(t, specPath)
	return w, err
}

// podRequirements is Karmada's GenerateReplicaRequirements: the pod's
// effective request (limits stand in for missing requests; the larger of
// the containers' sum and the largest init container; plus overhead) and
// whether it claims nodes.
func podRequirements(t *manifest.Object, specPath []string) (*requirements, error) {
	spec := manifest.Map(t.Data, specPath...)
	if spec == nil {
		return nil, nil
	}
	base := fieldpath.New()
	for _, k := range specPath {
		base = base.Child(k)
	}
	var a amounts
	for _, kind := range []string{"containers", "initContainers"} {
		list, _ := spec[kind].([]any)
		for i, c := range list {
			req, err := containerRequest(t, base.Child(kind).At(i), c)
			if err != nil {
				return nil, err
			}
			if kind == "containers" {
				a.add(req)
			} else {
				a.setMax(req)
			}
		}
	}
	overhead, err := quantities(t, base.Child("overhead"), spec["overhead"])
	if err != nil {
		return nil, err
	}
	a.add(overhead)
	r := &requirements{nodeClaim: claimsNodes(spec), request: a.list()}
	if !r.nodeClaim && r.request == nil {
		return nil, nil
	}
	return r, nil
}

// containerRequest is a container's requests with its limits standing in
// for the requests it leaves out.
func containerRequest(t *manifest.Object, path fieldpath.Path, c any) (cluster.ResourceList, error) {
	cm, _ := c.(map[string]any)
	res := manifest.Map(cm, "resources")
	out, err := quantities(t, path.Child("resources").Child("requests"), res["requests"])
	if err != nil {
		return nil, err
	}
	limits, err := quantities(t, path.Child("resources").Child("limits"), res["limits"])
	if err != nil {
		return nil, err
	}
	for name, q := range limits {
		if _, ok := out[name]; !ok {
			if out == nil {
				out = cluster.ResourceList{}
			}
			out[name] = q
		}
	}
	return out, nil
}

// quantities reads a ResourceList field.
func quantities(t *manifest.Object, path fieldpath.Path, v any) (cluster.ResourceList, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		got := manifest.TypeName(v)
		return nil, templateError(t, path, "%s: Invalid value: %q: %s in body must be of type object: %q", path, got, path, got)
	}
	if len(m) == 0 {
		return nil, nil
	}
	out := make(cluster.ResourceList, len(m))
	for name, raw := range m {
		q, err := cluster.ParseQuantity(raw)
		if err != nil {
			if s, ok := raw.(string); ok {
				raw = strconv.Quote(s)
			}
			return nil, templateError(t, path.Child(name), "%s.%s: Invalid value: %v: %w", path, name, raw, err)
		}
		out[name] = q
	}
	return out, nil
}

// templateError is a refusal of a resource template about the field at
// path, as the API server would refuse it.
func templateError(t *manifest.Object, path fieldpath.Path, format string, args ...any) error {
	return &manifest.Error{Pos: t.FieldPos(path), Subjects: []manifest.Subject{manifest.KeySubject(t.Key())},
		Field: path, Err: fmt.Errorf(format, args...)}
}

// claimsNodes is GenerateNodeClaimByPodSpec's test: a node selector,
// tolerations or required node affinity. Empty lists and maps do not
// count: the API server does not store them.
func claimsNodes(spec map[string]any) bool {
	if len(manifest.Map(spec, "nodeSelector")) > 0 {
		return true
	}
	if l, _ := spec["tolerations"].([]any); len(l) > 0 {
		return true
	}
	v, ok := manifest.Lookup(spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
	return ok && v != nil
}

// amounts is Karmada's util.Resource: CPU in millicores, the other
// resources in units, scalar resources by name.
type amounts struct {
	milliCPU, memory, ephemeral, pods int64
	scalar                            map[string]int64
}

func newAmounts(l cluster.ResourceList) *amounts {
	a := &amounts{}
	a.add(l)
	return a
}

// add adds l (resources that are neither native nor scalar are ignored).
func (a *amounts) add(l cluster.ResourceList) {
	for name, q := range l {
		switch name {
		case "cpu":
			a.milliCPU += q.MilliValue()
		case "memory":
			a.memory += q.Value()
		case "pods":
			a.pods += q.Value()
		case "ephemeral-storage":
			a.ephemeral += q.Value()
		default:
			if isScalarResource(name) {
				if a.scalar == nil {
					a.scalar = map[string]int64{}
				}
				a.scalar[name] += q.Value()
			}
		}
	}
}

// setMax raises each amount to l's where l's is larger.
func (a *amounts) setMax(l cluster.ResourceList) {
	for name, q := range l {
		switch name {
		case "cpu":
			a.milliCPU = max(a.milliCPU, q.MilliValue())
		case "memory":
			a.memory = max(a.memory, q.Value())
		case "ephemeral-storage":
			a.ephemeral = max(a.ephemeral, q.Value())
		case "pods":
			a.pods = max(a.pods, q.Value())
		default:
			if isScalarResource(name) && q.Value() > a.scalar[name] {
				if a.scalar == nil {
					a.scalar = map[string]int64{}
				}
				a.scalar[name] = q.Value()
			}
		}
	}
}

// list is the ResourceList of the positive amounts (nil for none), with
// the formats Karmada gives them.
func (a *amounts) list() cluster.ResourceList {
	out := cluster.ResourceList{}
	if a.milliCPU > 0 {
		out["cpu"] = *resource.NewMilliQuantity(a.milliCPU, resource.DecimalSI)
	}
	if a.memory > 0 {
		out["memory"] = *resource.NewQuantity(a.memory, resource.BinarySI)
	}
	if a.ephemeral > 0 {
		out["ephemeral-storage"] = *resource.NewQuantity(a.ephemeral, resource.BinarySI)
	}
	if a.pods > 0 {
		out["pods"] = *resource.NewQuantity(a.pods, resource.DecimalSI)
	}
	for name, v := range a.scalar {
		if v <= 0 {
			continue
		}
		format := resource.DecimalSI
		if strings.HasPrefix(name, "hugepages-") {
			format = resource.BinarySI
		}
		out[name] = *resource.NewQuantity(v, format)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// maxDivided is how many times l fits into a (Karmada's MaxDivided): the
// pod count bounds it too.
func (a *amounts) maxDivided(l cluster.ResourceList) int64 {
	res := int64(math.MaxInt64)
	for name, q := range l {
		var have, need int64
		switch name {
		case "cpu":
			have, need = a.milliCPU, q.MilliValue()
		case "memory":
			have, need = a.memory, q.Value()
		case "ephemeral-storage":
			have, need = a.ephemeral, q.Value()
		default:
			if !isScalarResource(name) {
				continue
			}
			have, need = a.scalar[name], q.Value()
		}
		if need > 0 {
			res = min(res, have/need)
		}
	}
	return min(res, a.pods)
}

// isScalarResource is Kubernetes' IsScalarResourceName: an extended
// resource, a hugepages or attachable-volumes resource, or a native
// resource with the kubernetes.io/ prefix.
func isScalarResource(name string) bool {
	return isExtendedResource(name) || strings.HasPrefix(name, "hugepages-") ||
		strings.Contains(name, "kubernetes.io/") || strings.HasPrefix(name, "attachable-volumes-")
}

// isExtendedResource: a name with a domain that is not kubernetes.io,
// valid as a qualified name once prefixed with "requests.".
func isExtendedResource(name string) bool {
	if !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/") || strings.HasPrefix(name, "requests.") {
		return false
	}
	// apimachinery's IsQualifiedName, a label key's rule.
	return manifest.ValidLabelKey("requests."+name) == nil
}
