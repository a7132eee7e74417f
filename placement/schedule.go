package placement

import (
	"fmt"
	"hash/fnv"
	"math"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// Target is one member cluster a template reaches.
type Target struct {
	Cluster *cluster.Cluster
	// Replicas is the cluster's share (the full count when Duplicated).
	Replicas int64
	// Completions is a divided Job's share of spec.completions.
	Completions int64
}

// Decision is where a template goes under its policy.
type Decision struct {
	Policy *Policy
	// Workload tells whether the template's replicas were scheduled; a
	// non-workload goes to every selected cluster unchanged.
	Workload bool
	Targets  []Target
}

// Schedule places template on the members p selects, as Karmada's
// scheduler with its in-tree plugins does when every cluster has every
// API and no taints. Clusters left with 0 replicas of a workload receive
// nothing.
func Schedule(template *manifest.Object, p *Policy, members []*cluster.Cluster) Decision {
	d := Decision{Policy: p}
	selected := p.clusters(members)
	count, workload := replicaCount(template)
	d.Workload = workload
	if !workload {
		for _, c := range selected {
			d.Targets = append(d.Targets, Target{Cluster: c})
		}
		return d
	}
	var shares []int64
	if p.Scheduling == Divided {
		shares = webster(count, p.weights(selected), selected, namesDescending(template))
	} else {
		shares = make([]int64, len(selected))
		for i := range shares {
			shares[i] = count
		}
	}
	var completions []int64
	if template.Kind() == "Job" && p.Scheduling == Divided {
		if total, ok := jobField(template, "completions"); ok {
			completions = webster(total, shares, selected, namesDescending(template))
		}
	}
	for i, c := range selected {
		if shares[i] == 0 {
			continue
		}
		t := Target{Cluster: c, Replicas: shares[i]}
		if completions != nil {
			t.Completions = completions[i]
		}
		d.Targets = append(d.Targets, t)
	}
	return d
}

// weights is each selected cluster's static weight: the highest weight of
// the entries targeting it. When no cluster has a weight, all weigh 1.
func (p *Policy) weights(selected []*cluster.Cluster) []int64 {
	w := make([]int64, len(selected))
	anyWeight := false
	for i, c := range selected {
		for _, sw := range p.Weights {
			if sw.Target.Matches(c) && sw.Weight > w[i] {
				w[i] = sw.Weight
			}
		}
		anyWeight = anyWeight || w[i] > 0
	}
	if !anyWeight {
		for i := range w {
			w[i] = 1
		}
	}
	return w
}

// webster deals total out by the Sainte-Laguë (Webster) method, as
// Karmada's AllocateWebsterSeats: each unit goes to the cluster with the
// highest weight/(2*assigned+1), compared as float64 as Karmada does; ties
// go to the cluster with fewer units, then to the smaller name (the larger
// with descending, see namesDescending). Clusters of weight 0 get nothing.
//
// It is arithmetic, not one unit per step: a head start gives each
// cluster the units it wins whatever the tie-breaks (see headStart), then
// the last few units are dealt one by one.
func webster(total int64, weights []int64, clusters []*cluster.Cluster, descending bool) []int64 {
	out := headStart(total, weights)
	dealt := int64(0)
	for _, a := range out {
		dealt += a
	}
	for n := dealt; n < total; n++ {
		best := -1
		for i, w := range weights {
			if w <= 0 {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			switch c := comparePriority(w, out[i], weights[best], out[best]); {
			case c > 0:
				best = i
			case c == 0 && (out[i] < out[best] || (out[i] == out[best] && (clusters[i].Name < clusters[best].Name) != descending)):
				best = i
			}
		}
		if best < 0 {
			break
		}
		out[best]++
	}
	return out
}

// comparePriority compares w1/(2*a1+1) with w2/(2*a2+1) (weights >= 0,
// units >= 0) as Karmada does, in float64: -1, 0 or +1. Float division
// is monotone, so a cluster's priorities never rise as it gains units, and
// huge weights cannot overflow.
func comparePriority(w1, a1, w2, a2 int64) int {
	p1 := float64(w1) / float64(2*a1+1)
	p2 := float64(w2) / float64(2*a2+1)
	switch {
	case p1 < p2:
		return -1
	case p1 > p2:
		return 1
	}
	return 0
}

// namesDescending is Karmada's tie-break by the template's UID
// (tieBreakerByUID): when the FNV-32a hash of metadata.uid is odd, ties go
// to the larger cluster name; without a UID (drydock's templates rarely
// have one, Karmada's always do) to the smaller.
func namesDescending(template *manifest.Object) bool {
	uid := manifest.String(template.Data, "metadata", "uid")
	if uid == "" {
		return false
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(uid))
	return h.Sum32()&1 == 1
}

// headStart is an allocation that the one-by-one dealing reaches before
// its last units: each cluster's units whose priority w/(2k+1) is
// strictly above a threshold, where the threshold leaves at most
// total units in all. The dealing hands out units in decreasing priority,
// so units strictly above every unit not yet dealt come first whatever
// the tie-breaks. The threshold is found in floating point and the result
// then checked exactly; one unit per cluster is held back for rounding,
// so at most about two units per cluster remain to be dealt one by one.
func headStart(total int64, weights []int64) []int64 {
	out := make([]int64, len(weights))
	if total <= int64(16*len(weights)) {
		return out
	}
	count := func(lambda float64) ([]int64, int64) {
		a, sum := make([]int64, len(weights)), int64(0)
		for i, w := range weights {
			if w > 0 && float64(w) > lambda {
				// units k with w/(2k+1) > lambda: k < (w/lambda - 1)/2
				a[i] = int64(math.Ceil((float64(w)/lambda - 1) / 2))
				sum += a[i]
			}
		}
		return a, sum
	}
	lo, hi := 0.0, 0.0
	for _, w := range weights {
		hi = math.Max(hi, float64(w))
	}
	for range 200 { // hi always leaves at most total units
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break
		}
		if _, sum := count(mid); sum > total {
			lo = mid
		} else {
			hi = mid
		}
	}
	a, _ := count(hi)
	for i := range a {
		a[i] = max(0, a[i]-1)
	}
	return trimToPrefix(a, weights)
}

// trimToPrefix takes back units from a until every dealt unit ranks
// strictly above the best unit not dealt (ties at the boundary would need
// the tie-breaks, so they are left to the one-by-one dealing).
func trimToPrefix(a, weights []int64) []int64 {
	for range 4 * len(weights) {
		head := -1 // the cluster whose next unit ranks highest
		for j, w := range weights {
			if w > 0 && (head < 0 || comparePriority(w, a[j], weights[head], a[head]) > 0) {
				head = j
			}
		}
		trimmed := false
		for i, w := range weights {
			if a[i] > 0 && comparePriority(w, a[i]-1, weights[head], a[head]) <= 0 {
				a[i]--
				trimmed = true
			}
		}
		if !trimmed {
			return a
		}
	}
	return make([]int64, len(weights))
}

// CheckTemplate checks the counts Karmada divides (spec.replicas of a
// Deployment, StatefulSet or ReplicaSet; spec.parallelism and
// spec.completions of a Job): Kubernetes declares them int32, so the API
// server refuses the template before Karmada sees it. The error names the
// field's position.
func CheckTemplate(t *manifest.Object) error {
	var fields []string
	switch t.Kind() {
	case "Deployment", "StatefulSet", "ReplicaSet":
		fields = []string{"replicas"}
	case "Job":
		fields = []string{"parallelism", "completions"}
	}
	for _, f := range fields {
		v, ok := manifest.Lookup(t.Data, "spec", f)
		if !ok || v == nil {
			continue
		}
		n, isInt := toInt(v)
		if !isInt || n < 0 || n > math.MaxInt32 {
			return fmt.Errorf("%s: %s %s: spec.%s: Invalid value: %v: must be an integer from 0 to 2147483647 (int32)",
				t.FieldPos("spec."+f), t.Kind(), t.Name(), f, v)
		}
	}
	return nil
}

// replicaCount is the template's replica count as Karmada's resource
// interpreter reads it, and whether the template is a workload (a count
// above 0, or a pod spec with resource requests, a node selector,
// tolerations or required node affinity).
func replicaCount(t *manifest.Object) (int64, bool) {
	var count int64
	var podSpec map[string]any
	switch t.Kind() {
	case "Deployment", "StatefulSet", "ReplicaSet":
		count, _ = toInt(mustLookup(t.Data, "spec", "replicas"))
		podSpec = manifest.Map(t.Data, "spec", "template", "spec")
	case "Job":
		if par, ok := jobField(t, "parallelism"); ok {
			count = par
			if comp, ok := jobField(t, "completions"); ok && comp < count {
				count = comp
			}
		}
		podSpec = manifest.Map(t.Data, "spec", "template", "spec")
	case "Pod":
		count = 1
		podSpec = manifest.Map(t.Data, "spec")
	default:
		return 0, false
	}
	return count, count > 0 || needsScheduling(podSpec)
}

func jobField(t *manifest.Object, field string) (int64, bool) {
	v, ok := manifest.Lookup(t.Data, "spec", field)
	if !ok {
		return 0, false
	}
	return toInt(v)
}

func mustLookup(m map[string]any, keys ...string) any {
	v, _ := manifest.Lookup(m, keys...)
	return v
}

// needsScheduling reports a pod spec with scheduling requirements.
func needsScheduling(spec map[string]any) bool {
	if spec == nil {
		return false
	}
	if len(manifest.Map(spec, "nodeSelector")) > 0 {
		return true
	}
	if l, _ := spec["tolerations"].([]any); len(l) > 0 {
		return true
	}
	if _, ok := manifest.Lookup(spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"); ok {
		return true
	}
	containers, _ := spec["containers"].([]any)
	for _, c := range containers {
		cm, _ := c.(map[string]any)
		if len(manifest.Map(cm, "resources", "requests")) > 0 {
			return true
		}
	}
	return false
}

// Claim is the object Karmada's binding controller starts from for one
// target: a copy of the template carrying the policy's claim label and
// annotations (so labels and annotations exist for the overrides) and, for
// a workload, the cluster's replica fields.
func Claim(template *manifest.Object, d Decision, t Target) *manifest.Object {
	data, _ := manifest.DeepCopy(template.Data).(map[string]any)
	obj := &manifest.Object{Data: data, Pos: template.Pos}
	md, _ := data["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		data["metadata"] = md
	}
	labels := ensureMap(md, "labels")
	annotations := ensureMap(md, "annotations")
	p := d.Policy
	prefix := "propagationpolicy.karmada.io/"
	if p.Kind == KindClusterPropagationPolicy {
		prefix = "clusterpropagationpolicy.karmada.io/"
	} else {
		annotations[prefix+"namespace"] = p.Namespace
	}
	labels[prefix+"permanent-id"] = permanentID(p)
	annotations[prefix+"name"] = p.Name
	if d.Workload {
		reviseReplicas(data, template.Kind(), t)
	}
	return obj
}

func ensureMap(m map[string]any, key string) map[string]any {
	if mm, ok := m[key].(map[string]any); ok {
		return mm
	}
	mm := map[string]any{}
	m[key] = mm
	return mm
}

// permanentID stands in for the UUID Karmada gives a policy: stable, and
// removed again with the other bookkeeping keys.
func permanentID(p *Policy) string {
	h := fnv.New128a()
	_, _ = h.Write([]byte(p.String()))
	s := fmt.Sprintf("%x", h.Sum(nil))
	return s[0:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:32]
}

// reviseReplicas writes the cluster's share into the replica fields the
// template has (Karmada's ReviseReplica; Job completions when divided).
func reviseReplicas(data map[string]any, kind string, t Target) {
	spec, _ := data["spec"].(map[string]any)
	if spec == nil {
		return
	}
	switch kind {
	case "Deployment", "StatefulSet", "ReplicaSet":
		if _, ok := spec["replicas"]; ok {
			spec["replicas"] = t.Replicas
		}
	case "Job":
		if _, ok := spec["parallelism"]; ok {
			spec["parallelism"] = t.Replicas
		}
		if _, ok := spec["completions"]; ok && t.Completions > 0 {
			spec["completions"] = t.Completions
		}
	}
}

// Finish turns an overridden object into what Karmada writes into the
// member's Work: bookkeeping labels and annotations (keys whose prefix
// ends in karmada.io) removed, maps left empty dropped, and the fields the
// API server populates pruned.
func Finish(obj *manifest.Object) {
	data := obj.Data
	if md, ok := data["metadata"].(map[string]any); ok {
		for _, key := range []string{"labels", "annotations"} {
			raw, present := md[key]
			if !present {
				continue
			}
			// Karmada's Work creation adds its keys through unstructured's
			// GetLabels/GetAnnotations, which read anything but a map of
			// strings (an override may have put one there) as nothing: the
			// value is replaced by Karmada's keys alone, stripped here.
			m, ok := raw.(map[string]any)
			if !ok || !allStrings(m) {
				delete(md, key)
				continue
			}
			for k := range m {
				if isBookkeeping(k) {
					delete(m, k)
				}
			}
			if len(m) == 0 {
				delete(md, key)
			}
		}
		for _, k := range []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields",
			"finalizers", "ownerReferences", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds"} {
			delete(md, k)
		}
	}
	delete(data, "status")
	switch kindOf(data) {
	case "apps/Deployment":
		if a, ok := manifest.Map(data, "metadata")["annotations"].(map[string]any); ok {
			delete(a, "deployment.kubernetes.io/revision")
			if len(a) == 0 {
				delete(manifest.Map(data, "metadata"), "annotations")
			}
		}
	case "batch/Job":
		pruneJob(data)
	case "/Service":
		if spec := manifest.Map(data, "spec"); spec != nil {
			if ip, ok := spec["clusterIP"].(string); ok && ip != "None" {
				delete(spec, "clusterIP")
				delete(spec, "clusterIPs")
			}
		}
	}
}

func kindOf(data map[string]any) string {
	return manifest.Group(manifest.String(data, "apiVersion")) + "/" + manifest.String(data, "kind")
}

// isBookkeeping reports a label or annotation key Karmada owns.
func isBookkeeping(key string) bool {
	prefix, _, found := strings.Cut(key, "/")
	return found && strings.HasSuffix(prefix, "karmada.io")
}

// pruneJob drops what the Job controller generated: ttlSecondsAfterFinished
// and, unless the selector is manual, the selector and the controller-uid
// and job-name labels of the pod template.
func pruneJob(data map[string]any) {
	spec := manifest.Map(data, "spec")
	if spec == nil {
		return
	}
	delete(spec, "ttlSecondsAfterFinished")
	if manual, _ := spec["manualSelector"].(bool); manual {
		return
	}
	delete(spec, "selector")
	if m := manifest.Map(spec, "template", "metadata", "labels"); m != nil {
		for _, k := range []string{"controller-uid", "batch.kubernetes.io/controller-uid", "job-name", "batch.kubernetes.io/job-name"} {
			delete(m, k)
		}
	}
}

// allStrings reports whether every value of m is a string.
func allStrings(m map[string]any) bool {
	for _, v := range m {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}
