package cueval_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/cueval"
)

// masked is r's object with an app-revision-hash of the right shape
// shown as <hash>; with prefixOnly, a generated trait name shows as
// <component>-<trait type>-* (KubeVela's TestSetOAMContract checks only
// that prefix).
func masked(t *testing.T, comp string, r *cueval.Resource, prefixOnly bool) map[string]any {
	t.Helper()
	o := manifest.DeepCopy(r.Object).(map[string]any)
	if l := manifest.Map(o, "metadata", "labels"); l != nil {
		if h, ok := l["app.oam.dev/app-revision-hash"].(string); ok {
			if h != testRevisionHash {
				t.Errorf("app-revision-hash %q, want the application's %q", h, testRevisionHash)
			}
			l["app.oam.dev/app-revision-hash"] = "<hash>"
		}
	}
	prefix := comp + "-" + strings.ToLower(r.Trait) + "-"
	if name := manifest.String(o, "metadata", "name"); prefixOnly && r.Trait != "" && strings.HasPrefix(name, prefix) {
		manifest.SetNested(o, prefix+"*", "metadata", "name")
	}
	return o
}

// ingressTrait is the TraitDefinition ingress of KubeVela's
// docs/examples/app-with-status (the conformance case
// ex-app-with-status): a nameless Service and a named Ingress.
const ingressTrait = `parameter: {
	domain: string
	http: [string]: int
}
outputs: service: {
	apiVersion: "v1"
	kind:       "Service"
	spec: {
		selector: app: context.name
		ports: [for k, v in parameter.http {port: v, targetPort: v}]
	}
}
outputs: ingress: {
	apiVersion: "networking.k8s.io/v1beta1"
	kind:       "Ingress"
	metadata: name: context.name
	spec: rules: [{
		host: parameter.domain
		http: paths: [for k, v in parameter.http {
			path: k
			backend: {serviceName: context.name, servicePort: v}
		}]
	}]
}`

// TestContract checks the labels, annotations, names and namespaces
// KubeVela puts on what a component renders: SetOAMContract
// (pkg/appfile/appfile.go: generateAndFilterCommonLabels,
// filterAndSetAnnotations with types.DefaultFilterAnnots, setNamespace,
// assembleWorkload, assembleTrait with util.GenTraitName) and
// renderComponentsAndTraits (pkg/controller/.../application/
// generator.go: SetClusterIfEmpty, the override namespace). The
// dispatch-time labels app.oam.dev/cluster, app.oam.dev/revision and
// app.oam.dev/app-revision-hash are the conformance corpus's (every
// expected object has them).
func TestContract(t *testing.T) {
	tests := []struct {
		name, doc string
		defs      map[string][2]string // name -> type, template
		pl        cueval.Placement
		// prefixOnly masks generated names (see masked).
		prefixOnly bool
		want       []string
	}{
		// KubeVela's TestSetOAMContract "SuccessBasic": app labels and
		// annotations pass to the workload and the trait's output; a
		// nameless output is named <component>-<trait>-<hash>.
		{name: "TestSetOAMContract",
			doc: "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata:\n  name: test-app\n  namespace: test-ns\n  labels: {app-label: app-label-val}\n  annotations: {app-annot: app-annot-val}\n" +
				"spec:\n  components:\n  - {name: my-comp, type: w, traits: [{type: my-trait}]}\n",
			defs: map[string][2]string{"w": {"component", `output: {apiVersion: "apps/v1", kind: "Deployment", metadata: name: "my-workload"}`},
				"my-trait": {"trait", `outputs: svc: {apiVersion: "v1", kind: "Service"}`}},
			prefixOnly: true,
			want: []string{`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-workload
  namespace: test-ns
  labels: {app-label: app-label-val, app.oam.dev/name: test-app, app.oam.dev/namespace: test-ns, app.oam.dev/appRevision: test-app-v1, app.oam.dev/component: my-comp,
    app.oam.dev/resourceType: WORKLOAD, workload.oam.dev/type: w, app.oam.dev/cluster: "", app.oam.dev/revision: "", app.oam.dev/app-revision-hash: <hash>}
  annotations: {app-annot: app-annot-val}
`, `
apiVersion: v1
kind: Service
metadata:
  name: my-comp-my-trait-*
  namespace: test-ns
  labels: {app-label: app-label-val, app.oam.dev/name: test-app, app.oam.dev/namespace: test-ns, app.oam.dev/appRevision: test-app-v1, app.oam.dev/component: my-comp,
    app.oam.dev/resourceType: TRAIT, trait.oam.dev/type: my-trait, trait.oam.dev/resource: svc, app.oam.dev/cluster: "", app.oam.dev/revision: "", app.oam.dev/app-revision-hash: <hash>}
  annotations: {app-annot: app-annot-val}
`}},
		// The conformance case ex-app-with-status: the generated name
		// KubeVela gives the Service is myweb-ingress-b7f6d99d8.
		{name: "generated trait name",
			doc: "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: application-sample}\nspec:\n  components:\n" +
				"  - {name: myweb, type: w, traits: [{type: ingress, properties: {domain: www.example.com, http: {\"/\": 80}}}]}\n",
			defs: map[string][2]string{"w": {"component", `output: {apiVersion: "apps/v1", kind: "Deployment"}`}, "ingress": {"trait", ingressTrait}},
			want: []string{`
apiVersion: apps/v1
kind: Deployment
metadata:
  name: myweb
  namespace: default
  labels: {app.oam.dev/name: application-sample, app.oam.dev/namespace: default, app.oam.dev/appRevision: application-sample-v1, app.oam.dev/component: myweb,
    app.oam.dev/resourceType: WORKLOAD, workload.oam.dev/type: w, app.oam.dev/cluster: "", app.oam.dev/revision: "", app.oam.dev/app-revision-hash: <hash>}
`, `
apiVersion: v1
kind: Service
metadata:
  name: myweb-ingress-b7f6d99d8
  namespace: default
  labels: {app.oam.dev/name: application-sample, app.oam.dev/namespace: default, app.oam.dev/appRevision: application-sample-v1, app.oam.dev/component: myweb,
    app.oam.dev/resourceType: TRAIT, trait.oam.dev/type: ingress, trait.oam.dev/resource: service, app.oam.dev/cluster: "", app.oam.dev/revision: "", app.oam.dev/app-revision-hash: <hash>}
spec:
  ports: [{port: 80, targetPort: 80}]
  selector: {app: myweb}
`, `
apiVersion: networking.k8s.io/v1beta1
kind: Ingress
metadata:
  name: myweb
  namespace: default
  labels: {app.oam.dev/name: application-sample, app.oam.dev/namespace: default, app.oam.dev/appRevision: application-sample-v1, app.oam.dev/component: myweb,
    app.oam.dev/resourceType: TRAIT, trait.oam.dev/type: ingress, trait.oam.dev/resource: ingress, app.oam.dev/cluster: "", app.oam.dev/revision: "", app.oam.dev/app-revision-hash: <hash>}
spec:
  rules: [{host: www.example.com, http: {paths: [{path: /, backend: {serviceName: myweb, servicePort: 80}}]}}]
`}},
		// filter.oam.dev/label-keys drops app labels, filter.oam.dev/
		// annotation-keys and types.DefaultFilterAnnots drop annotations;
		// the rest passes, app.oam.dev/rolling-components included.
		{name: "filtered labels and annotations",
			doc: "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata:\n  name: a\n  labels: {team: x, env: prod}\n" +
				"  annotations: {keep: \"1\", drop: \"2\", filter.oam.dev/annotation-keys: drop, filter.oam.dev/label-keys: team, app.oam.dev/inplace-upgrade: \"true\",\n" +
				"    kubectl.kubernetes.io/last-applied-configuration: \"{}\", app.oam.dev/rolling-components: c}\n" +
				"spec:\n  components:\n  - {name: c, type: w}\n",
			defs: map[string][2]string{"w": {"component", `output: {apiVersion: "v1", kind: "ConfigMap", metadata: labels: own: "yes"}`}},
			want: []string{`
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  namespace: default
  labels: {own: "yes", env: prod, app.oam.dev/name: a, app.oam.dev/namespace: default, app.oam.dev/appRevision: a-v1, app.oam.dev/component: c,
    app.oam.dev/resourceType: WORKLOAD, workload.oam.dev/type: w, app.oam.dev/cluster: "", app.oam.dev/revision: "", app.oam.dev/app-revision-hash: <hash>}
  annotations: {keep: "1", app.oam.dev/rolling-components: c}
`}},
		// setNamespace keeps a namespace the template set and gives none
		// to a Namespace; the dispatcher clears it from cluster-scoped
		// kinds (the corpus's ex-core-k8s-objects); an object naming its
		// cluster keeps it (mc-fixed-location).
		{name: "namespaces and clusters",
			doc:  "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n  - {name: c, type: w}\n",
			defs: map[string][2]string{"w": {"component", "output: {apiVersion: \"v1\", kind: \"Namespace\", metadata: name: \"ns1\"}\noutputs: {\n\town: {apiVersion: \"v1\", kind: \"ConfigMap\", metadata: {name: \"own\", namespace: \"other\", labels: \"app.oam.dev/cluster\": \"local\"}}\n\trole: {apiVersion: \"rbac.authorization.k8s.io/v1\", kind: \"ClusterRole\", metadata: name: \"r\"}\n}"}},
			pl:   cueval.Placement{Cluster: "m1"},
			want: []string{`
apiVersion: v1
kind: Namespace
metadata:
  name: ns1
  labels: {app.oam.dev/name: a, app.oam.dev/namespace: default, app.oam.dev/appRevision: a-v1, app.oam.dev/component: c,
    app.oam.dev/resourceType: WORKLOAD, workload.oam.dev/type: w, app.oam.dev/cluster: m1, app.oam.dev/revision: "", app.oam.dev/app-revision-hash: <hash>}
`, `
apiVersion: v1
kind: ConfigMap
metadata:
  name: own
  namespace: other
  labels: {app.oam.dev/name: a, app.oam.dev/namespace: default, app.oam.dev/appRevision: a-v1, app.oam.dev/component: c,
    app.oam.dev/resourceType: TRAIT, trait.oam.dev/type: AuxiliaryWorkload, trait.oam.dev/resource: own, app.oam.dev/cluster: local, app.oam.dev/revision: "", app.oam.dev/app-revision-hash: <hash>}
`, `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: r
  labels: {app.oam.dev/name: a, app.oam.dev/namespace: default, app.oam.dev/appRevision: a-v1, app.oam.dev/component: c,
    app.oam.dev/resourceType: TRAIT, trait.oam.dev/type: AuxiliaryWorkload, trait.oam.dev/resource: role, app.oam.dev/cluster: m1, app.oam.dev/revision: "", app.oam.dev/app-revision-hash: <hash>}
`}},
		// renderComponentsAndTraits: a topology namespace replaces every
		// object's namespace (the corpus's first-vela-app and
		// dryrun-testing-1 render into prod).
		{name: "override namespace",
			doc:  "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components:\n  - {name: c, type: w}\n",
			defs: map[string][2]string{"w": {"component", "output: {apiVersion: \"v1\", kind: \"ConfigMap\", metadata: namespace: \"other\"}"}},
			pl:   cueval.Placement{Cluster: "m1", Namespace: "prod"},
			want: []string{`
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  namespace: prod
  labels: {app.oam.dev/name: a, app.oam.dev/namespace: default, app.oam.dev/appRevision: a-v1, app.oam.dev/component: c,
    app.oam.dev/resourceType: WORKLOAD, workload.oam.dev/type: w, app.oam.dev/cluster: m1, app.oam.dev/revision: "", app.oam.dev/app-revision-hash: <hash>}
`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defs := withDefs(t)
			for name, d := range tt.defs {
				defs.Add(cueDef(t, name, d[0], "", d[1]))
			}
			m, err := renderFirst(t, defs, parseApp(t, tt.doc), tt.pl)
			if err != nil {
				t.Fatal(err)
			}
			var want, got []map[string]any
			for _, w := range tt.want {
				want = append(want, obj(t, w))
			}
			for _, r := range m.Objects() {
				got = append(got, masked(t, m.Name, r, tt.prefixOnly))
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
		})
	}
}
