package workflow

import (
	"strings"
	"testing"
)

// TestRevisionHashInputs: Run gives the Application KubeVela's
// application-revision hash over everything the revision records: the
// objects ref-objects components refer to, the Workflow object
// spec.workflow.ref names and the Policy objects its deploy steps name
// each change it when they change.
func TestRevisionHashInputs(t *testing.T) {
	const ref = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ref, namespace: default}\ndata: {k: %s}\n---\n"
	const refApp = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: [{name: ref, type: ref-objects, properties: {objects: [{resource: configmap}]}}]\n"
	const wf = "apiVersion: core.oam.dev/v1alpha1\nkind: Workflow\nmetadata: {name: wf, namespace: default}\nsteps: [{name: %s, type: deploy, properties: {policies: [p]}}]\n---\n"
	const pol = "apiVersion: core.oam.dev/v1alpha1\nkind: Policy\nmetadata: {name: p, namespace: default}\ntype: topology\nproperties: {clusters: [%s]}\n---\n"
	const wfApp = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: a}\nspec:\n  components: [{name: web, type: webservice, properties: {image: nginx}}]\n  workflow: {ref: wf}\n"
	pairs := map[string][2]string{
		"referred object": {strings.Replace(ref, "%s", "a", 1) + refApp, strings.Replace(ref, "%s", "b", 1) + refApp},
		"workflow object": {strings.Replace(wf, "%s", "one", 1) + strings.Replace(pol, "%s", "local", 1) + wfApp,
			strings.Replace(wf, "%s", "two", 1) + strings.Replace(pol, "%s", "local", 1) + wfApp},
		"external policy": {strings.Replace(wf, "%s", "one", 1) + strings.Replace(pol, "%s", "local", 1) + wfApp,
			strings.Replace(wf, "%s", "one", 1) + strings.Replace(pol, "%s", "m1", 1) + wfApp},
	}
	for name, docs := range pairs {
		t.Run(name, func(t *testing.T) {
			var hashes [2]string
			for i, doc := range docs {
				res, err := renderResult(t, doc)
				if err != nil {
					t.Fatal(err)
				}
				if hashes[i] = res.App.RevisionHash(); hashes[i] == "" {
					t.Fatal("no revision hash")
				}
				for _, w := range res.Writes {
					if got := w.Resource.Object["metadata"].(map[string]any)["labels"].(map[string]any)["app.oam.dev/app-revision-hash"]; got != hashes[i] {
						t.Errorf("%v carries hash %v, want the application's %s", w.Resource.Object["metadata"], got, hashes[i])
					}
				}
			}
			if hashes[0] == hashes[1] {
				t.Errorf("both hash to %s", hashes[0])
			}
		})
	}
}
