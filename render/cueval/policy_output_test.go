package cueval_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/render/cueval"
)

// TestPolicyOutputs renders policies defined by a PolicyDefinition:
// KubeVela's generatePolicyUnstructured and
// generatePolicyUnstructuredFromCUEModule (pkg/appfile/appfile.go) label
// output and outputs with the common labels and default their name to
// the policy's and their namespace to the app's
// (TestGeneratePolicyManifests); the corpus's dryrun-testing-4 fixes the
// labels the hub copy has.
func TestPolicyOutputs(t *testing.T) {
	tests := []struct {
		name, tmpl, app string
		want            []string
		wantErr         string
	}{
		{name: "TestGeneratePolicyManifests",
			tmpl: "output: {\n\tapiVersion: \"v1\"\n\tkind: \"ConfigMap\"\n\tmetadata: name: context.name\n\tdata: key: parameter.value\n}\nparameter: value: string",
			app:  "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: test-app, namespace: test-ns, labels: {label-key: label-value}}\nspec:\n  components: []\n  policies: [{name: test-policy, type: p, properties: {value: test-value}}]\n",
			want: []string{"{apiVersion: v1, kind: ConfigMap, metadata: {name: test-policy, namespace: test-ns, labels: {app.oam.dev/name: test-app, app.oam.dev/component: test-policy, app.oam.dev/appRevision: test-app-v1, app.oam.dev/namespace: test-ns, app.oam.dev/cluster: \"\"}}, data: {key: test-value}}"}},
		{name: "dryrun-testing-4",
			tmpl: "output: {\n\tapiVersion: \"testing/v1\"\n\tkind: \"Policy\"\n\tpolicy: name: parameter.name\n}\nparameter: name: string",
			app:  "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: testing-app}\nspec:\n  components: [{name: testing-dryrun, type: webservice, properties: {image: \"oamdev/hello-world:v1\"}}]\n  policies: [{name: mypolicy, type: p, properties: {name: my-policy}}]\n",
			want: []string{"{apiVersion: testing/v1, kind: Policy, metadata: {name: mypolicy, namespace: default, labels: {app.oam.dev/appRevision: testing-app-v1, app.oam.dev/cluster: \"\", app.oam.dev/component: mypolicy, app.oam.dev/name: testing-app, app.oam.dev/namespace: default}}, policy: {name: my-policy}}"}},
		{name: "outputs, own names and namespaces",
			tmpl: "output: {apiVersion: \"v1\", kind: \"ConfigMap\", metadata: {name: \"main\", namespace: \"elsewhere\"}}\noutputs: extra: {apiVersion: \"v1\", kind: \"Secret\", metadata: labels: \"app.oam.dev/cluster\": \"m1\"}",
			app:  "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: []\n  policies: [{name: p1, type: p, properties: {}}]\n",
			want: []string{"{apiVersion: v1, kind: ConfigMap, metadata: {name: main, namespace: elsewhere, labels: {app.oam.dev/name: a, app.oam.dev/component: p1, app.oam.dev/appRevision: a-v1, app.oam.dev/namespace: default, app.oam.dev/cluster: \"\"}}}",
				"{apiVersion: v1, kind: Secret, metadata: {name: p1, namespace: default, labels: {app.oam.dev/name: a, app.oam.dev/component: p1, app.oam.dev/appRevision: a-v1, app.oam.dev/namespace: default, app.oam.dev/cluster: m1}}}"}},
		{name: "incomplete outputs",
			tmpl:    "outputs: extra: {apiVersion: \"v1\", kind: \"Secret\", data: x: parameter.x}\nparameter: x: string",
			app:     "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: []\n  policies: [{name: p1, type: p, properties: {}}]\n",
			wantErr: `app.yaml:6:14: application "a": policy "p1": outputs.extra.data.x: incomplete value string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def := cueDef(t, "p", "policy", "", tt.tmpl)
			app := parseApp(t, tt.app)
			rs, err := cueval.New(withDefs(t, def)).RenderPolicy(app, &app.Policies[0], def)
			if diff := cmp.Diff(tt.wantErr, errText(t, err)); diff != "" {
				t.Fatalf("error (-want +got):\n%s", diff)
			}
			var want, got []map[string]any
			for _, w := range tt.want {
				want = append(want, obj(t, w))
			}
			for _, r := range rs {
				if r.Policy != app.Policies[0].Name {
					t.Errorf("object of policy %q, want %q", r.Policy, app.Policies[0].Name)
				}
				got = append(got, r.Object)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
		})
	}
}
