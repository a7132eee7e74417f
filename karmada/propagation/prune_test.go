package propagation

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// TestPrune: rows translated from Karmada's (f8fdd02)
// pkg/resourceinterpreter/default/native/prune/prune_test.go
// (TestRemoveIrrelevantField), written as whole objects before and after,
// so the maps Karmada leaves (empty ones included) are checked too.
func TestPrune(t *testing.T) {
	tests := []struct{ name, in, want, err string }{
		{"remove common object irrelevant fields",
			`{metadata: {name: x, creationTimestamp: "2023-03-13T05:00:41Z", deletionTimestamp: "2023-03-13T06:00:41Z",
			  deletionGracePeriodSeconds: 10, generation: 2, managedFields: [{apiVersion: v1, manager: name}],
			  resourceVersion: "22222", selfLink: "http://example.com", uid: db56a4a6, ownerReferences: [{kind: Pod, name: foo}],
			  finalizers: [foregroundDeletion]}, status: {}}`,
			`{metadata: {name: x}}`, ""},
		{"remove service irrelevant fields",
			`{kind: Service, spec: {clusterIP: 10.10.10.10, clusterIPs: [10.10.10.10], ports: [{port: 80}]}}`,
			`{kind: Service, spec: {ports: [{port: 80}]}}`, ""},
		{"a headless service keeps None",
			`{kind: Service, spec: {clusterIP: None, clusterIPs: [None]}}`,
			`{kind: Service, spec: {clusterIP: None, clusterIPs: [None]}}`, ""},
		{"an empty clusterIP goes too",
			`{kind: Service, spec: {clusterIP: ""}}`, `{kind: Service, spec: {}}`, ""},
		{"remove job irrelevant fields",
			`{kind: Job, spec: {selector: {matchLabels: {foo: bar, controller-uid: ab11}},
			  template: {metadata: {labels: {controller-uid: ab11, job-name: test-job, foo: bar}}}, ttlSecondsAfterFinished: 10}}`,
			`{kind: Job, spec: {selector: {matchLabels: {foo: bar}}, template: {metadata: {labels: {foo: bar}}}}}`, ""},
		{"a job's generated selector leaves empty maps",
			`{kind: Job, spec: {selector: {matchLabels: {batch.kubernetes.io/controller-uid: ab11}},
			  template: {metadata: {labels: {batch.kubernetes.io/controller-uid: ab11, batch.kubernetes.io/job-name: j}}}}}`,
			`{kind: Job, spec: {selector: {matchLabels: {}}, template: {metadata: {labels: {}}}}}`, ""},
		{"a manual selector is kept, ttl goes",
			`{kind: Job, spec: {manualSelector: true, selector: {matchLabels: {controller-uid: a}}, ttlSecondsAfterFinished: 10}}`,
			`{kind: Job, spec: {manualSelector: true, selector: {matchLabels: {controller-uid: a}}}}`, ""},
		{"a job's labels that are not strings fail",
			`{kind: Job, spec: {template: {metadata: {labels: {x: 1}}}}}`, "",
			`.spec.template.metadata.labels accessor error: contains non-string value in the map under key "x": 1 is of the type float64, expected string`},
		{"a job's null selector fails",
			`{kind: Job, spec: {selector: null}}`, "",
			".spec.selector.matchLabels accessor error: <nil> is of the type <nil>, expected map[string]interface{}"},
		{"a job's manualSelector that is not a bool fails",
			`{kind: Job, spec: {manualSelector: "yes"}}`, "", "spec.manualSelector: cannot convert yes to a Job's bool"},
		{"remove serviceaccount irrelevant fields",
			`{kind: ServiceAccount, metadata: {name: foo}, secrets: [{name: foo-token-6pgxf}, {name: foo-dockercfg-zdr2j}]}`,
			`{kind: ServiceAccount, metadata: {name: foo}, secrets: [{name: foo-dockercfg-zdr2j}]}`, ""},
		{"two token secrets in a row: Karmada's loop keeps the second",
			`{kind: ServiceAccount, metadata: {name: foo}, secrets: [{name: foo-token-a}, {name: foo-token-b}, {name: foo-token-c}]}`,
			`{kind: ServiceAccount, metadata: {name: foo}, secrets: [{name: foo-token-b}]}`, ""},
		{"remove service-account token secret irrelevant fields",
			`{kind: Secret, metadata: {annotations: {kubernetes.io/service-account.uid: "123"}}, type: kubernetes.io/service-account-token, data: {token: abc}}`,
			`{kind: Secret, metadata: {annotations: {}}, type: kubernetes.io/service-account-token, data: null}`, ""},
		{"retains secret basic-auth fields",
			`{kind: Secret, metadata: {foo: bar}, type: kubernetes.io/basic-auth, data: {username: foo, password: bar}}`,
			`{kind: Secret, metadata: {foo: bar}, type: kubernetes.io/basic-auth, data: {username: foo, password: bar}}`, ""},
		{"remove selected-node pvc annotation",
			`{kind: PersistentVolumeClaim, metadata: {annotations: {volume.kubernetes.io/selected-node: node1}}}`,
			`{kind: PersistentVolumeClaim, metadata: {annotations: {}}}`, ""},
		{"removes deployment revision annotation",
			`{kind: Deployment, metadata: {annotations: {deployment.kubernetes.io/revision: "1", keep: "me"}}}`,
			`{kind: Deployment, metadata: {annotations: {keep: "me"}}}`, ""},
		{"removes deployment revision history annotation",
			`{kind: Deployment, metadata: {annotations: {deployment.kubernetes.io/revision-history: "1,2"}}}`,
			`{kind: Deployment, metadata: {annotations: {}}}`, ""},
		{"by kind, whatever the group",
			`{apiVersion: example.io/v1, kind: Service, spec: {clusterIP: 10.0.0.1}}`,
			`{apiVersion: example.io/v1, kind: Service, spec: {}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in map[string]any
			if err := yaml.Unmarshal([]byte(tt.in), &in); err != nil {
				t.Fatal(err)
			}
			err := prune(in)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]any
			if err := yaml.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, in); diff != "" {
				t.Errorf("pruned (-want +got):\n%s", diff)
			}
		})
	}
}
