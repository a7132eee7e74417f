package controller

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

const (
	members = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: m1, labels: {env: prod}}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: m2}
`
	deploy = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec: {replicas: 4, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: web, image: nginx}]}}}
`
	configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n"
	cppHead   = "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\n"
	copHead   = "apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterOverridePolicy\n"
)

// cpp is a ClusterPropagationPolicy named name selecting every kind of
// apiVersion/kind with spec's extra fields.
func cpp(name, apiVersion, kind, extra string) string {
	return cppHead + "metadata: {name: " + name + "}\nspec:\n  resourceSelectors: [{apiVersion: " + apiVersion + ", kind: " + kind + "}]\n" + extra
}

func decode(t *testing.T, docs ...string) []*manifest.Object {
	t.Helper()
	objs, err := manifest.Decode("in.yaml", []byte(strings.Join(docs, "---\n")), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

func inventory(t *testing.T, docs ...string) *cluster.Inventory {
	t.Helper()
	inv := cluster.NewInventory()
	for _, o := range decode(t, docs...) {
		if err := inv.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	return inv
}

// written lists what store holds: cluster, key, replicas and source.
func written(store *cluster.Store) []string {
	var out []string
	for _, c := range store.Clusters() {
		for _, e := range store.List(c) {
			line := c + " " + e.Object.Key().String()
			if e.Replicas > 0 {
				line += fmt.Sprintf(" (%d)", e.Replicas)
			}
			out = append(out, line+": "+e.Source)
		}
	}
	return out
}

// works lists w's frozen and preserved objects with why.
func works(w Works) []string {
	var out []string
	for what, m := range map[string]map[string]map[manifest.Key]string{"frozen": w.Frozen, "preserved": w.Preserved} {
		for c, keys := range m {
			for k, why := range keys {
				out = append(out, what+" "+c+" "+k.String()+": "+why)
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestRunAuthored(t *testing.T) {
	tests := []struct {
		name       string
		inputs     []string
		plainToHub bool
		noMembers  bool
		written    []string
		warnings   []string
		works      []string
		err        string
	}{
		{
			name:    "duplicated to every member",
			inputs:  []string{deploy, cpp("all", "apps/v1", "Deployment", "  placement: {clusterAffinity: {clusterNames: [m1, m2]}}\n")},
			written: []string{"m1 Deployment.apps default/web: template in.yaml:1:1, propagated by ClusterPropagationPolicy all", "m2 Deployment.apps default/web: template in.yaml:1:1, propagated by ClusterPropagationPolicy all"},
		},
		{
			name: "divided, with an override and cluster affinity by label",
			inputs: []string{deploy, cpp("half", "apps/v1", "Deployment", "  placement:\n    clusterAffinity: {clusterNames: [m1, m2]}\n    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted, weightPreference: {staticWeightList: [{targetCluster: {clusterNames: [m1]}, weight: 1}, {targetCluster: {clusterNames: [m2]}, weight: 1}]}}\n"),
				copHead + "metadata: {name: prod}\nspec:\n  overrideRules:\n  - targetCluster: {labelSelector: {matchLabels: {env: prod}}}\n    overriders: {labelsOverrider: [{operator: add, value: {tier: prod}}]}\n"},
			written: []string{"m1 Deployment.apps default/web (2): template in.yaml:1:1, propagated by ClusterPropagationPolicy half (2 replicas), overrides ClusterOverridePolicy prod rule 0", "m2 Deployment.apps default/web (2): template in.yaml:1:1, propagated by ClusterPropagationPolicy half (2 replicas)"},
		},
		{
			name:     "no policy selects it",
			inputs:   []string{configMap, cpp("all", "apps/v1", "Deployment", "  placement: {}\n")},
			warnings: []string{"in.yaml:1:1: ConfigMap c: no PropagationPolicy or ClusterPropagationPolicy selects it; it reaches no member cluster"},
			works:    []string{"frozen m1 ConfigMap c: no policy selects its template; Karmada keeps the binding, and what it propagated, until the template is deleted", "frozen m2 ConfigMap c: no policy selects its template; Karmada keeps the binding, and what it propagated, until the template is deleted"},
		},
		{
			name:       "a plain manifest goes to the hub, in the default namespace",
			inputs:     []string{configMap},
			plainToHub: true,
			written:    []string{"local ConfigMap default/c: template in.yaml:1:1"},
			works:      []string{"frozen m1 ConfigMap c: no policy selects its template; Karmada keeps the binding, and what it propagated, until the template is deleted", "frozen m2 ConfigMap c: no policy selects its template; Karmada keeps the binding, and what it propagated, until the template is deleted"},
		},
		{
			name:       "a template beside policies that do not select it lands nowhere",
			inputs:     []string{configMap, cpp("all", "apps/v1", "Deployment", "  placement: {}\n")},
			plainToHub: true,
			warnings:   []string{"in.yaml:1:1: ConfigMap c: no PropagationPolicy or ClusterPropagationPolicy selects it; it reaches no member cluster"},
			works:      []string{"frozen m1 ConfigMap c: no policy selects its template; Karmada keeps the binding, and what it propagated, until the template is deleted", "frozen m2 ConfigMap c: no policy selects its template; Karmada keeps the binding, and what it propagated, until the template is deleted"},
		},
		{
			name:       "beside an override policy alone a template lands nowhere",
			inputs:     []string{configMap, copHead + "metadata: {name: o}\nspec:\n  overrideRules:\n  - overriders: {labelsOverrider: [{operator: add, value: {a: b}}]}\n"},
			plainToHub: true,
			warnings:   []string{"in.yaml:1:1: ConfigMap c: no PropagationPolicy or ClusterPropagationPolicy selects it; it reaches no member cluster"},
			works:      []string{"frozen m1 ConfigMap c: no policy selects its template; Karmada keeps the binding, and what it propagated, until the template is deleted", "frozen m2 ConfigMap c: no policy selects its template; Karmada keeps the binding, and what it propagated, until the template is deleted"},
		},
		{
			name:      "no member to schedule onto",
			inputs:    []string{deploy, cpp("all", "apps/v1", "Deployment", "  placement: {}\n")},
			noMembers: true,
			warnings:  []string{"in.yaml:1:1: Deployment.apps default/web: ClusterPropagationPolicy all: Karmada's scheduler cannot place it (0/0 clusters are available: no cluster exists.); it reaches no member cluster; the inventory has no member cluster: give Cluster objects with --clusters"},
		},
		{
			name:     "suspended everywhere, preserved",
			inputs:   []string{deploy, cpp("all", "apps/v1", "Deployment", "  placement: {clusterAffinity: {clusterNames: [m1]}}\n  suspension: {dispatching: true}\n  preserveResourcesOnDeletion: true\n")},
			warnings: []string{"in.yaml:1:1: Deployment.apps default/web: ClusterPropagationPolicy all suspends dispatching: it reaches no member cluster"},
			works:    []string{"frozen m1 Deployment.apps default/web: ClusterPropagationPolicy all suspends dispatching: Karmada leaves the member's object as it is"},
		},
		{
			name:     "suspended on one member",
			inputs:   []string{deploy, cpp("all", "apps/v1", "Deployment", "  placement: {clusterAffinity: {clusterNames: [m1, m2]}}\n  suspension: {dispatchingOnClusters: {clusterNames: [m2]}}\n  preserveResourcesOnDeletion: true\n")},
			written:  []string{"m1 Deployment.apps default/web: template in.yaml:1:1, propagated by ClusterPropagationPolicy all"},
			warnings: []string{"in.yaml:1:1: Deployment.apps default/web: ClusterPropagationPolicy all suspends dispatching to m2"},
			works:    []string{"frozen m2 Deployment.apps default/web: ClusterPropagationPolicy all suspends dispatching to it: Karmada leaves the member's object as it is", "preserved m1 Deployment.apps default/web: ClusterPropagationPolicy all sets preserveResourcesOnDeletion"},
		},
		{
			name:   "a failing override",
			inputs: []string{configMap, cpp("all", "v1", "ConfigMap", "  placement: {}\n"), copHead + "metadata: {name: bad}\nspec:\n  overrideRules:\n  - overriders: {plaintext: [{path: /data/missing/deeper, operator: replace, value: x}]}\n"},
			err:    "ClusterOverridePolicy bad: ConfigMap c on cluster m1: spec.overrideRules[0].overriders.plaintext[0]: replace operation does not apply",
		},
		{
			name: "a Work Karmada cannot prune",
			inputs: []string{"apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: default}\nspec: {parallelism: 1, template: {metadata: {labels: {a: b}}, spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}}\n",
				cpp("all", "batch/v1", "Job", "  placement: {}\n"),
				copHead + "metadata: {name: num}\nspec:\n  overrideRules:\n  - overriders: {plaintext: [{path: /spec/template/metadata/labels/n, operator: add, value: 1}]}\n"},
			err: `Job.batch default/j: on cluster m1: Karmada cannot prune it for its Work: .spec.template.metadata.labels accessor error: contains non-string value in the map under key "n": 1 is of the type`,
		},
		{
			name:   "a template Karmada refuses",
			inputs: []string{strings.Replace(deploy, "replicas: 4", "replicas: many", 1), cpp("all", "apps/v1", "Deployment", "  placement: {}\n")},
			err:    "spec.replicas: Invalid value: many",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Parse(decode(t, tt.inputs...))
			if err != nil {
				t.Fatal(err)
			}
			inv := inventory(t, members)
			if tt.noMembers {
				inv = cluster.NewInventory()
			}
			store := cluster.NewStore()
			res, err := Run(context.Background(), store, inv, Options{Authored: a, PlainToHub: tt.plainToHub})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, ErrInvalid) {
					t.Fatalf("error %v: want ErrInvalid containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.written, written(store)); diff != "" {
				t.Errorf("written (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.warnings, res.Warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.works, works(res.Works)); diff != "" {
				t.Errorf("works (-want +got):\n%s", diff)
			}
			if res.Placements != nil {
				t.Errorf("Placements %v without Explain", res.Placements)
			}
		})
	}
}

func TestParse(t *testing.T) {
	a, err := Parse(decode(t, configMap))
	if err != nil || !a.HasTemplates() {
		t.Fatalf("Parse: %v, HasTemplates %v: want a template", err, a.HasTemplates())
	}
	a, err = Parse(decode(t, cpp("all", "v1", "ConfigMap", "  placement: {}\n")))
	if err != nil || a.HasTemplates() || a.empty() {
		t.Fatalf("Parse: %v, HasTemplates %v, empty %v: want a policy alone", err, a.HasTemplates(), a.empty())
	}
	var none *Authored
	if none.HasTemplates() || !none.empty() {
		t.Error("a nil Authored holds something")
	}
	_, err = Parse(decode(t, cppHead+"metadata: {name: one}\nspec: {}\n", copHead+"metadata: {name: two}\nspec: {overrideRules: 3}\n"))
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "ClusterPropagationPolicy") || !strings.Contains(err.Error(), "overrideRules") {
		t.Errorf("error %v: want both invalid policies, as ErrInvalid", err)
	}
}

// dispatchedInventory has a control plane cp with member m1 and a
// member m2 of the inputs' control plane.
const dispatchedInventory = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: cp}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: m1, annotations: {drydock.dev/karmada-control-plane: cp}}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: m2}
`

// dispatch writes objs into control plane cp as application app did.
func dispatch(t *testing.T, store *cluster.Store, objs []*manifest.Object) {
	t.Helper()
	for _, o := range objs {
		pos := o.Pos
		o.Pos = manifest.Pos{} // rendered objects have no position of their own
		if err := store.Apply("cp", cluster.Entry{Object: o, Source: "application app", Origin: cluster.Origin{Pos: pos}, Owner: "app"}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRunDispatched(t *testing.T) {
	store := cluster.NewStore()
	dispatch(t, store, decode(t, configMap, cpp("all", "v1", "ConfigMap", "  placement: {}\n")))
	a, err := Parse(decode(t, deploy, cpp("all", "apps/v1", "Deployment", "  placement: {}\n")))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), store, inventory(t, dispatchedInventory), Options{Authored: a, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"cp ConfigMap c: application app",
		"cp ClusterPropagationPolicy.policy.karmada.io all: application app",
		"cp Deployment.apps default/web: template in.yaml:1:1, propagated by ClusterPropagationPolicy all",
		"m1 ConfigMap c: application app, via Karmada control plane cp, propagated by ClusterPropagationPolicy all",
		"m2 Deployment.apps default/web: template in.yaml:1:1, propagated by ClusterPropagationPolicy all",
	}
	if diff := cmp.Diff(want, written(store)); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	cm := manifest.Key{Kind: "ConfigMap", Name: "c"}
	for _, c := range []string{"cp", "m1"} {
		if x := res.Placements.Of(c, cm); x == nil {
			t.Errorf("no placement explained for the ConfigMap in %s", c)
		}
	}
	if x := res.Placements.Of("m2", manifest.Key{Group: "apps", Kind: "Deployment", Namespace: "default", Name: "web"}); x == nil {
		t.Error("no placement explained for the Deployment in m2")
	}
	if x := res.Placements.Of("m2", cm); x != nil {
		t.Errorf("placement %v explained for an object m2 does not hold", x)
	}
	var none *Placements
	if none.Of("m1", cm) != nil {
		t.Error("a nil Placements explains something")
	}
}

func TestRunDispatchedErrors(t *testing.T) {
	tests := []struct {
		name string
		objs string
		want string
	}{
		{
			name: "an invalid policy names what dispatched it",
			objs: cppHead + "metadata: {name: bad}\nspec: {}\n",
			want: `(dispatched to Karmada control plane "cp" by application app)`,
		},
		{
			name: "a failing override too",
			objs: configMap + "---\n" + cpp("all", "v1", "ConfigMap", "  placement: {}\n") + "---\n" + copHead + "metadata: {name: bad}\nspec:\n  overrideRules:\n  - overriders: {plaintext: [{path: /data/missing/deeper, operator: replace, value: x}]}\n",
			want: `replace operation does not apply: doc is missing path: /data/missing/deeper: missing value (dispatched to Karmada control plane "cp" by application app)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := cluster.NewStore()
			dispatch(t, store, decode(t, tt.objs))
			_, err := Run(context.Background(), store, inventory(t, dispatchedInventory), Options{})
			if msg := manifest.Format(err, nil); !errors.Is(err, ErrInvalid) || !strings.Contains(msg, tt.want) || !strings.Contains(msg, "in.yaml:") {
				t.Errorf("error %v: want ErrInvalid at the object's origin containing %q", err, tt.want)
			}
		})
	}
}

func TestRunEachAndCancel(t *testing.T) {
	a, err := Parse(decode(t, configMap, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\n", cpp("all", "v1", "ConfigMap", "  placement: {}\n")))
	if err != nil {
		t.Fatal(err)
	}
	// Each places out of order and commits in order.
	var placed []int
	reversed := func(_ context.Context, n int, place func(int) func()) {
		commits := make([]func(), n)
		for i := n - 1; i >= 0; i-- {
			placed = append(placed, i)
			commits[i] = place(i)
		}
		for _, c := range commits {
			c()
		}
	}
	store := cluster.NewStore()
	if _, err := Run(context.Background(), store, inventory(t, members), Options{Authored: a, Each: reversed}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{1, 0}, placed); diff != "" {
		t.Errorf("placed (-want +got):\n%s", diff)
	}
	if got := len(written(store)); got != 4 {
		t.Errorf("%d objects written: want the two ConfigMaps in both members", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	store = cluster.NewStore()
	if _, err := Run(ctx, store, inventory(t, members), Options{Authored: a}); !errors.Is(err, context.Canceled) || errors.Is(err, ErrInvalid) {
		t.Errorf("error %v: want the context's", err)
	}
	if store.Len() != 0 {
		t.Errorf("%d objects written after the context was done", store.Len())
	}
}

// TestRunProvenance: each copy records the placement and the Work, the
// hub's copy kubectl apply's namespace.
func TestRunProvenance(t *testing.T) {
	tests := []struct {
		name       string
		inputs     []string
		plainToHub bool
		cluster    string
		key        manifest.Key
		path       string
		want       []string
	}{
		{
			name:    "propagated",
			inputs:  []string{deploy, cpp("all", "apps/v1", "Deployment", "  placement:\n    clusterAffinity: {clusterNames: [m1, m2]}\n    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted, weightPreference: {staticWeightList: [{targetCluster: {clusterNames: [m1]}, weight: 1}, {targetCluster: {clusterNames: [m2]}, weight: 1}]}}\n")},
			cluster: "m1", key: manifest.Key{Group: "apps", Kind: "Deployment", Namespace: "default", Name: "web"}, path: "spec.replicas",
			want: []string{"input", "karmada"},
		},
		{
			name:    "applied to the hub",
			inputs:  []string{configMap},
			cluster: cluster.Local, key: manifest.Key{Kind: "ConfigMap", Namespace: "default", Name: "c"}, path: "metadata.namespace", plainToHub: true,
			want: []string{"labels"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs := decode(t, tt.inputs...)
			for _, o := range objs {
				o.Provenance = o.InputProvenance()
			}
			a, err := Parse(objs)
			if err != nil {
				t.Fatal(err)
			}
			store := cluster.NewStore()
			if _, err := Run(context.Background(), store, inventory(t, members), Options{Authored: a, PlainToHub: tt.plainToHub}); err != nil {
				t.Fatal(err)
			}
			e, ok := store.Get(tt.cluster, tt.key)
			if !ok {
				t.Fatalf("%s %s not written: %v", tt.cluster, tt.key, written(store))
			}
			var stages []string
			for _, o := range e.Object.Provenance[tt.path] {
				stages = append(stages, string(o.Stage))
			}
			if diff := cmp.Diff(tt.want, stages); diff != "" {
				t.Errorf("stages of %s (-want +got):\n%s\nrecorded: %v", tt.path, diff, e.Object.Provenance)
			}
		})
	}
}
