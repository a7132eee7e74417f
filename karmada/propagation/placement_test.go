package propagation

import (
	"errors"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

func decode(t *testing.T, src string) []*manifest.Object {
	t.Helper()
	objs, err := manifest.Decode("test.yaml", []byte(src), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

func parse(t *testing.T, src string) *Policy {
	t.Helper()
	p, err := Parse(decode(t, src)[0])
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func members(names ...string) []*cluster.Cluster {
	var out []*cluster.Cluster
	for _, n := range names {
		out = append(out, &cluster.Cluster{Name: n})
	}
	return out
}

func TestWebster(t *testing.T) {
	tests := []struct {
		name    string
		total   int64
		weights []int64
		want    []int64
	}{
		{"12 over 3:2:1", 12, []int64{3, 2, 1}, []int64{6, 4, 2}},
		{"13 over 3:2:1", 13, []int64{3, 2, 1}, []int64{7, 4, 2}},
		{"14 over 3:2:1", 14, []int64{3, 2, 1}, []int64{7, 5, 2}},
		{"equal weights, ties to the smaller name", 4, []int64{1, 1, 1}, []int64{2, 1, 1}},
		{"weight 0 gets nothing", 5, []int64{0, 1, 1}, []int64{0, 3, 2}},
		{"nothing to deal", 0, []int64{1, 1}, []int64{0, 0}},
		{"2:1 for 3", 3, []int64{2, 1}, []int64{2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := members("a", "b", "c")[:len(tt.weights)]
			if diff := cmp.Diff(tt.want, webster(tt.total, tt.weights, cs, false)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// websterByUnit is the reference: one unit at a time from zero.
func websterByUnit(total int64, weights []int64, cs []*cluster.Cluster, desc bool) []int64 {
	out := make([]int64, len(weights))
	for n := int64(0); n < total; n++ {
		best := -1
		for i, w := range weights {
			if w <= 0 {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			c := comparePriority(w, out[i], weights[best], out[best])
			if c > 0 || c == 0 && (out[i] < out[best] || out[i] == out[best] && (cs[i].Name < cs[best].Name) != desc) {
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

// TestWebsterHeadStart checks the arithmetic head start against dealing
// one unit at a time, over many weights and totals.
func TestWebsterHeadStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cs := members("a", "b", "c", "d", "e")
	for range 400 {
		n := 1 + rng.IntN(5)
		weights := make([]int64, n)
		for i := range weights {
			weights[i] = rng.Int64N([]int64{3, 10, 1000, 1 << 40}[rng.IntN(4)])
		}
		total := rng.Int64N(3000)
		desc := rng.IntN(2) == 1
		want := websterByUnit(total, weights, cs[:n], desc)
		if diff := cmp.Diff(want, webster(total, weights, cs[:n], desc)); diff != "" {
			t.Fatalf("webster(%d, %v) (-by unit +arithmetic):\n%s", total, weights, diff)
		}
	}
}

// TestWebsterHuge: the largest replica counts and weights finish at once
// and deal every replica.
func TestWebsterHuge(t *testing.T) {
	for _, weights := range [][]int64{{3, 2, 1}, {math.MaxInt64, math.MaxInt64 - 1, 1}, {1, 1, 1}, {math.MaxInt64, 0, 7}} {
		got := webster(math.MaxInt32, weights, members("a", "b", "c"), false)
		sum := int64(0)
		for _, g := range got {
			sum += g
		}
		if sum != math.MaxInt32 {
			t.Errorf("webster(MaxInt32, %v) = %v: %d dealt", weights, got, sum)
		}
	}
	if got := webster(math.MaxInt32, []int64{3, 2, 1}, members("a", "b", "c"), false); got[0] != 1073741824 || got[1] != 715827882 || got[2] != 357913941 {
		t.Errorf("3:2:1 split of MaxInt32 = %v", got)
	}
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {app: web}}
spec: {replicas: 3}
`

func TestSelect(t *testing.T) {
	pol := func(kind, name string, priority int, selector string) string {
		ns := ""
		if kind == KindPropagationPolicy {
			ns = ", namespace: default"
		}
		return "apiVersion: policy.karmada.io/v1alpha1\nkind: " + kind + "\nmetadata: {name: " + name + ns + "}\n" +
			"spec:\n  priority: " + strconv.Itoa(priority) + "\n  resourceSelectors: [" + selector + "]\n"
	}
	all := `{apiVersion: apps/v1, kind: Deployment}`
	byName := `{apiVersion: apps/v1, kind: Deployment, name: web}`
	byLabel := `{apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app: web}}}`
	other := `{apiVersion: apps/v1, kind: Deployment, name: api}`
	tests := []struct {
		name     string
		policies []string
		want     string
	}{
		{"name beats labels beats all", []string{pol(KindPropagationPolicy, "a", 0, all), pol(KindPropagationPolicy, "b", 0, byLabel), pol(KindPropagationPolicy, "c", 0, byName)}, "c"},
		{"explicit priority first", []string{pol(KindPropagationPolicy, "a", 1, all), pol(KindPropagationPolicy, "b", 0, byName)}, "a"},
		{"then the smallest name", []string{pol(KindPropagationPolicy, "z", 0, all), pol(KindPropagationPolicy, "m", 0, all)}, "m"},
		{"cluster policies only without a namespaced one", []string{pol(KindClusterPropagationPolicy, "c", 9, byName), pol(KindPropagationPolicy, "p", 0, all)}, "p"},
		{"cluster policy when no namespaced one matches", []string{pol(KindClusterPropagationPolicy, "c", 0, all), pol(KindPropagationPolicy, "p", 0, other)}, "c"},
		{"nothing matches", []string{pol(KindPropagationPolicy, "p", 0, other)}, ""},
	}
	tmpl := decode(t, deployment)[0]
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ps []*Policy
			for _, src := range tt.policies {
				ps = append(ps, parse(t, src))
			}
			got := ""
			if p := Select(tmpl, ps); p != nil {
				got = p.Name
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestScheduleAndClaim(t *testing.T) {
	divided := `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: default}
spec:
  resourceSelectors: [{apiVersion: batch/v1, kind: Job}, {apiVersion: apps/v1, kind: Deployment}, {apiVersion: v1, kind: ConfigMap}]
  placement:
    clusterAffinity: {clusterNames: [m1, m2]}
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted}
`
	tests := []struct {
		name     string
		template string
		want     map[string]map[string]any // cluster -> spec
	}{
		{"deployment divided", deployment, map[string]map[string]any{"m1": {"replicas": int64(2)}, "m2": {"replicas": int64(1)}}},
		{"job splits parallelism and completions", `apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: default}
spec: {parallelism: 3, completions: 5, ttlSecondsAfterFinished: 10, selector: {matchLabels: {controller-uid: x}}}
`, map[string]map[string]any{ // Karmada's prune leaves the selector, its generated key gone
			"m1": {"parallelism": int64(2), "completions": int64(3), "selector": map[string]any{"matchLabels": map[string]any{}}},
			"m2": {"parallelism": int64(1), "completions": int64(2), "selector": map[string]any{"matchLabels": map[string]any{}}}}},
		{"zero replicas go nowhere", `apiVersion: apps/v1
kind: Deployment
metadata: {name: z, namespace: default}
spec: {replicas: 0, template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}}
`, map[string]map[string]any{}},
		{"a non-workload goes everywhere unchanged", `apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: default}
`, map[string]map[string]any{"m1": nil, "m2": nil}},
	}
	p := parse(t, divided)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmpl := decode(t, tt.template)[0]
			d, err := Schedule(tmpl, p, members("m1", "m2", "m3"))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]map[string]any{}
			for _, target := range d.Targets {
				obj := Claim(tmpl, d, target)
				if obj.Labels()["propagationpolicy.karmada.io/permanent-id"] == "" {
					t.Errorf("%s: no claim label", target.Cluster.Name)
				}
				Finish(obj)
				for k := range obj.Labels() {
					if isBookkeeping(k) {
						t.Errorf("%s: bookkeeping label %s left", target.Cluster.Name, k)
					}
				}
				if _, ok := manifest.Map(obj.Data, "metadata")["annotations"]; ok {
					t.Errorf("%s: annotations left: %v", target.Cluster.Name, obj.Annotations())
				}
				got[target.Cluster.Name] = manifest.Map(obj.Data, "spec")
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, spec, want string
		sentinel         error
	}{
		{"no selectors", "resourceSelectors: []", "test.yaml:5:", ErrInvalid},
		{"selector without kind", "resourceSelectors: [{apiVersion: v1}]", "kind", ErrInvalid},
		{"bad scheduling type", "resourceSelectors: [{apiVersion: v1, kind: Pod}]\n  placement: {replicaScheduling: {replicaSchedulingType: Spread}}", `Unsupported value: "Spread"`, ErrInvalid},
		{"bad field selector key", "resourceSelectors: [{apiVersion: v1, kind: Pod}]\n  placement: {clusterAffinity: {fieldSelector: {matchExpressions: [{key: cpu, operator: In, values: [x]}]}}}", "unsupported key", ErrInvalid},
		{"bad dynamic weight", "resourceSelectors: [{apiVersion: v1, kind: Pod}]\n  placement: {replicaScheduling: {replicaSchedulingType: Divided, weightPreference: {dynamicWeight: Free}}}", `dynamicWeight: Unsupported value: "Free": supported values: "AvailableReplicas"`, ErrInvalid},
		{"bad spread field", "resourceSelectors: [{apiVersion: v1, kind: Pod}]\n  placement: {spreadConstraints: [{spreadByField: rack}]}", `spreadByField: Unsupported value: "rack"`, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p, namespace: default}\nspec:\n  " + tt.spec + "\n"
			_, err := Parse(decode(t, src)[0])
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(manifest.Format(err, nil), tt.want) || !strings.Contains(manifest.Format(err, nil), "PropagationPolicy default/p") {
				t.Errorf("error %q lacks %q or the policy name", err, tt.want)
			}
			if !errors.Is(err, tt.sentinel) {
				t.Errorf("error %q does not wrap %v", err, tt.sentinel)
			}
		})
	}
}

func TestCheckTemplate(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"ok", "kind: Deployment\nmetadata: {name: w}\nspec: {replicas: 2147483647}\n", ""},
		{"replicas over int32", "kind: Deployment\nmetadata: {name: w}\nspec: {replicas: 2147483648}\n",
			"t.yaml:3:18: Deployment w: spec.replicas: Invalid value: 2147483648: must be an integer from 0 to 2147483647 (int32)"},
		{"negative", "kind: StatefulSet\nmetadata: {name: w}\nspec: {replicas: -1}\n", "spec.replicas: Invalid value: -1"},
		{"job completions", "kind: Job\nmetadata: {name: j}\nspec: {parallelism: 2, completions: 9999999999}\n", "spec.completions: Invalid value: 9999999999"},
		{"not a workload", "kind: ConfigMap\nmetadata: {name: c}\nspec: {replicas: 99999999999}\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, err := manifest.Decode("t.yaml", []byte(tt.src), manifest.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkErr(t, CheckTemplate(objs[0]), tt.want)
		})
	}
}

// TestWebsterTieBreakByUID: Karmada breaks ties by the template's UID,
// toward larger names when its FNV-32a hash is odd.
func TestWebsterTieBreakByUID(t *testing.T) {
	withUID := func(uid string) *manifest.Object {
		return manifest.New(map[string]any{"metadata": map[string]any{"name": "w", "uid": uid}})
	}
	odd, even := "", ""
	for i := 0; odd == "" || even == ""; i++ {
		uid := "7c4a8d09-" + strconv.Itoa(i)
		h := fnv.New32a()
		h.Write([]byte(uid))
		if h.Sum32()&1 == 1 {
			odd = uid
		} else {
			even = uid
		}
	}
	tests := []struct {
		name string
		obj  *manifest.Object
		want []int64
	}{
		{"no uid: smaller name first", manifest.New(map[string]any{"metadata": map[string]any{"name": "w"}}), []int64{2, 1}},
		{"even hash: smaller name first", withUID(even), []int64{2, 1}},
		{"odd hash: larger name first", withUID(odd), []int64{1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := webster(3, []int64{1, 1}, members("a", "b"), descendingUID(manifest.String(tt.obj.Data, "metadata", "uid")))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
