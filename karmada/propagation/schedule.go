package propagation

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strings"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// Target is one member cluster a template reaches.
type Target struct {
	Cluster *cluster.Cluster
	// Replicas is the cluster's share (the full count when Duplicated).
	Replicas int64
	// Completions is a divided Job's share of spec.completions, when
	// HasCompletions.
	Completions    int64
	HasCompletions bool
}

// Decision is where a template goes under its policy.
type Decision struct {
	Policy *Policy
	// Workload tells whether the template's replicas were scheduled; a
	// non-workload goes to every selected cluster unchanged.
	Workload bool
	// Affinity names the clusterAffinities term the template was placed
	// by ("" without clusterAffinities).
	Affinity string
	Targets  []Target
	// Empty, when set, says why a workload went to no cluster: it has no
	// replicas to divide but its pod template makes it a workload, so
	// Karmada's scheduler (without --enable-empty-workload-propagation,
	// its default) assigns it no cluster.
	Empty string
}

// Schedule places template on the members p selects, as Karmada's
// scheduler does on a first schedule (every score is 0, no cluster holds
// the template yet) with its default plugins and estimator: clusters
// filtered by affinity, taints and spread fields, the room of each from
// the inventory's resource figures, spread constraints, then Duplicated,
// static-weight, dynamic-weight or Aggregated assignment. With
// clusterAffinities the terms are tried in order and the first that
// schedules wins. Clusters left with 0 replicas of a workload receive
// nothing. An error wrapping ErrUnschedulable carries Karmada's scheduler
// message: Karmada places the template nowhere. Other errors are bad
// input in the template.
func Schedule(template *manifest.Object, p *Policy, members []*cluster.Cluster) (Decision, error) {
	w, err := readWorkload(template)
	if err != nil {
		return Decision{}, err
	}
	if len(p.Affinities) == 0 {
		return p.scheduleTerm(template, w, members, nil)
	}
	var first error
	for i := range p.Affinities {
		d, err := p.scheduleTerm(template, w, members, &p.Affinities[i])
		if err == nil {
			d.Affinity = p.Affinities[i].Name
			return d, nil
		}
		if first == nil {
			first = err
		}
	}
	return Decision{Policy: p}, first
}

// scheduleTerm is one run of Karmada's generic scheduler, with the given
// clusterAffinities term observed (nil without clusterAffinities).
func (p *Policy) scheduleTerm(template *manifest.Object, w workload, members []*cluster.Cluster, term *AffinityTerm) (Decision, error) {
	feasible, err := p.filter(w, members, term)
	if err != nil {
		return Decision{}, err
	}
	cands := candidates(feasible, w, term)
	chosen, err := p.spreadSelection(w.replicas).selectBest(cands)
	if err != nil {
		return Decision{}, unschedulable("failed to select clusters: %v", err)
	}
	shares, err := p.assign(chosen, w, term)
	if err != nil {
		return Decision{}, unschedulable("failed to assign replicas: %v", err)
	}
	d := Decision{Policy: p, Workload: w.isWorkload()}
	byName := map[string]*cluster.Cluster{}
	for _, c := range chosen {
		byName[c.cluster.Name] = c.cluster
	}
	for _, s := range shares {
		d.Targets = append(d.Targets, Target{Cluster: byName[s.name], Replicas: s.replicas})
	}
	jobCompletions(template, p, w, d.Targets)
	if len(d.Targets) == 0 && w.replicas == 0 && w.req != nil {
		d.Empty = emptyWorkload(template, w)
	}
	return d, nil
}

// emptyWorkload says why Karmada places the workload w nowhere.
func emptyWorkload(t *manifest.Object, w workload) string {
	count := "spec.replicas is 0"
	switch t.Kind() {
	case "Job":
		count = "spec.parallelism is absent or 0"
	default:
		if _, ok := manifest.Lookup(t.Data, "spec", "replicas"); !ok {
			count = "spec.replicas is absent (a karmada-apiserver defaults it to 1, a template read as written has 0)"
		}
	}
	var claims []string
	if w.req.request != nil {
		claims = append(claims, "resource requests")
	}
	if w.req.nodeClaim {
		claims = append(claims, "a node selector, tolerations or required node affinity")
	}
	return fmt.Sprintf("%s and its pod template has %s, so it is a workload with nothing to divide: Karmada's scheduler assigns it no cluster (unless it runs with --enable-empty-workload-propagation)", count, strings.Join(claims, " and "))
}

// spreadSelection is what SelectBestClusters reads of the policy for a
// template of the given replicas.
func (p *Policy) spreadSelection(replicas int64) spreadSelection {
	return spreadSelection{constraints: p.Spread, duplicated: p.Scheduling != Divided, ignore: p.ignoresSpread(), replicas: replicas}
}

// candidates ranks the feasible clusters as Karmada's GroupClustersWithScore
// does: overflow order, score (0), room, name.
func candidates(feasible []*cluster.Cluster, w workload, term *AffinityTerm) []candidate {
	room := availableReplicas(feasible, w)
	out := make([]candidate, len(feasible))
	for i, c := range feasible {
		out[i] = candidate{cluster: c, overflow: overflowOrder(c, term), available: room[i], allocatable: room[i]}
	}
	sortCandidates(out)
	return out
}

// overflowOrder is getClusterOverflowOrder: 0 for the term's own
// affinity, i for its i-th overflow affinity.
func overflowOrder(c *cluster.Cluster, term *AffinityTerm) int32 {
	if term == nil || term.Affinity.Matches(c) {
		return 0
	}
	for i, a := range term.Overflow {
		if a.Matches(c) {
			return int32(i + 1)
		}
	}
	return 1000
}

// assign is Karmada's AssignReplicas: a workload's replicas by the
// policy's strategy (per overflow tier when the term overflows), anything
// else whole to every chosen cluster. Shares of 0 are dropped.
func (p *Policy) assign(chosen []candidate, w workload, term *AffinityTerm) ([]share, error) {
	if len(chosen) == 0 {
		return nil, errors.New("no clusters available to schedule")
	}
	if !w.isWorkload() {
		out := make([]share, len(chosen))
		for i, c := range chosen {
			out[i] = share{name: c.cluster.Name}
		}
		return sortShares(out), nil
	}
	if term != nil && term.overflows && p.Affinity == nil {
		return p.assignTiers(chosen, w)
	}
	return p.assignTo(chosen, w, w.replicas)
}

// assignTiers is assignWorkloadReplicas with overflow: the primary
// clusters take what they have room for, then each overflow tier in turn.
func (p *Policy) assignTiers(chosen []candidate, w workload) ([]share, error) {
	tiers := map[int32][]candidate{}
	room := map[int32]int64{}
	var last int32
	for _, c := range chosen {
		tiers[c.overflow] = append(tiers[c.overflow], c)
		room[c.overflow] += c.available
		last = max(last, c.overflow)
	}
	var out []share
	remaining := w.replicas
	for i := int32(0); i <= last; i++ {
		if len(tiers[i]) == 0 {
			continue
		}
		n := min(remaining, room[i])
		res, err := p.assignTo(tiers[i], w, n)
		if err != nil {
			return nil, err
		}
		out = append(out, res...)
		if remaining -= n; remaining <= 0 {
			break
		}
	}
	if remaining > 0 {
		return nil, &UnschedulableError{Message: "Clusters available replicas are not enough to schedule."}
	}
	return sortShares(out), nil
}

// assignTo is assignReplicasToClusters: replicas over cs by the policy's
// strategy, zero shares dropped.
func (p *Policy) assignTo(cs []candidate, w workload, replicas int64) ([]share, error) {
	out, err := p.assignStrategy(cs, w, replicas)
	if err != nil {
		return nil, err
	}
	return sortShares(removeZero(out)), nil
}

// assignStrategy is the policy's assignment function (assignFuncMap):
// every candidate's share, zeros included.
func (p *Policy) assignStrategy(cs []candidate, w workload, replicas int64) ([]share, error) {
	switch p.strategy() {
	case strategyDuplicated:
		out := make([]share, len(cs))
		for i, c := range cs {
			out[i] = share{name: c.cluster.Name, replicas: replicas}
		}
		return out, nil
	case strategyStaticWeight:
		clusters := make([]*cluster.Cluster, len(cs))
		for i, c := range cs {
			clusters[i] = c.cluster
		}
		seats := webster(replicas, p.weights(clusters), clusters, descendingUID(w.uid))
		out := make([]share, len(cs))
		for i, c := range clusters {
			out[i] = share{name: c.Name, replicas: seats[i]}
		}
		return out, nil
	}
	return assignDynamic(&assignment{candidates: cs, strategy: p.strategy(), replicas: replicas, uid: w.uid, previous: w.previous})
}

// jobCompletions divides a divided Job's spec.completions over its
// targets by their replicas, as Karmada's binding controller does.
func jobCompletions(t *manifest.Object, p *Policy, w workload, targets []Target) {
	if t.APIVersion() != "batch/v1" || t.Kind() != "Job" || w.replicas <= 0 || p.Scheduling != Divided {
		return
	}
	total, ok := jobField(t, "completions")
	if !ok || len(targets) == 0 {
		return
	}
	weights := make([]int64, len(targets))
	names := make([]string, len(targets))
	for i, tg := range targets {
		weights[i], names[i] = tg.Replicas, tg.Cluster.Name
	}
	seats := websterSeats(total, weights, nil, names, descendingUID(w.uid))
	for i := range targets {
		targets[i].Completions, targets[i].HasCompletions = seats[i], true
	}
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

// descendingUID is Karmada's tie-break by the template's UID
// (tieBreakerByUID): when the FNV-32a hash of metadata.uid is odd, ties go
// to the larger cluster name; without a UID (drydock's templates rarely
// have one, Karmada's always do) to the smaller.
func descendingUID(uid string) bool {
	if uid == "" {
		return false
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(uid))
	return h.Sum32()&1 == 1
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
			return &manifest.Error{Pos: t.FieldPos(fieldpath.New("spec", f)), Subjects: []manifest.Subject{{Kind: t.Kind(), Name: t.Name(), Bare: true}},
				Field: fieldpath.New("spec", f), Err: fmt.Errorf("spec.%s: Invalid value: %v: must be an integer from 0 to 2147483647 (int32)", f, v)}
		}
	}
	return nil
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
		if _, ok := spec["completions"]; ok && t.HasCompletions {
			spec["completions"] = t.Completions
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
