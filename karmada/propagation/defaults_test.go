package propagation

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

// TestDefault: rows after Kubernetes' defaulting tests
// (pkg/apis/apps/v1/defaults_test.go TestSetDefaultDeployment,
// TestSetDefaultDaemonSetSpec, TestSetDefaultStatefulSet,
// TestSetDefaultReplicaSet; pkg/apis/batch/v1/defaults_test.go
// TestSetDefaultJob, TestSetDefaultCronJob; pkg/apis/core/v1/defaults_test.go
// TestSetDefaultService, TestSetDefaultSecret, TestSetDefaultNamespace,
// TestSetDefaultPodSpecHostNetwork, TestSetDefaultProbe,
// TestSetDefaultRequestsPod, TestSetDefaultObjectFieldSelectorAPIVersion,
// TestSetDefaultHostPathVolumeSource, TestSetDefaulServiceTargetPort), with
// the values of the defaults.go files ported in defaults.go.
func TestDefault(t *testing.T) {
	const podSpec = "dnsPolicy: ClusterFirst, restartPolicy: Always, securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: default-scheduler"
	const c = "terminationMessagePath: /dev/termination-log, terminationMessagePolicy: File"
	tests := []struct{ name, in, want string }{
		{"deployment: all unspecified",
			`{apiVersion: apps/v1, kind: Deployment, spec: {template: {spec: {containers: [{name: c, image: "nginx:1"}]}}}}`,
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 1, strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 25%, maxSurge: 25%}},
			  revisionHistoryLimit: 10, progressDeadlineSeconds: 600,
			  template: {spec: {` + podSpec + `, containers: [{name: c, image: "nginx:1", imagePullPolicy: IfNotPresent, ` + c + `}]}}}}`},
		{"deployment: recreate, values kept",
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 5, strategy: {type: Recreate}, revisionHistoryLimit: 3, progressDeadlineSeconds: 30}}`,
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 5, strategy: {type: Recreate}, revisionHistoryLimit: 3, progressDeadlineSeconds: 30}}`},
		{"deployment: replicas 0 is kept",
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 0, strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}}}`,
			`{apiVersion: apps/v1, kind: Deployment, spec: {replicas: 0, strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 25%, maxSurge: 1}},
			  revisionHistoryLimit: 10, progressDeadlineSeconds: 600}}`},
		{"daemonset: all unspecified",
			`{apiVersion: apps/v1, kind: DaemonSet}`,
			`{apiVersion: apps/v1, kind: DaemonSet, spec: {updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1, maxSurge: 0}}, revisionHistoryLimit: 10}}`},
		{"daemonset: OnDelete",
			`{apiVersion: apps/v1, kind: DaemonSet, spec: {updateStrategy: {type: OnDelete}}}`,
			`{apiVersion: apps/v1, kind: DaemonSet, spec: {updateStrategy: {type: OnDelete}, revisionHistoryLimit: 10}}`},
		{"statefulset: all unspecified, with a claim template",
			`{apiVersion: apps/v1, kind: StatefulSet, spec: {volumeClaimTemplates: [{metadata: {name: d}}]}}`,
			`{apiVersion: apps/v1, kind: StatefulSet, spec: {podManagementPolicy: OrderedReady, updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 0}},
			  persistentVolumeClaimRetentionPolicy: {whenDeleted: Retain, whenScaled: Retain}, replicas: 1, revisionHistoryLimit: 10,
			  volumeClaimTemplates: [{metadata: {name: d}, spec: {volumeMode: Filesystem}, status: {phase: Pending}}]}}`},
		{"statefulset: OnDelete gets no rollingUpdate",
			`{apiVersion: apps/v1, kind: StatefulSet, spec: {updateStrategy: {type: OnDelete}, podManagementPolicy: Parallel, replicas: 3}}`,
			`{apiVersion: apps/v1, kind: StatefulSet, spec: {podManagementPolicy: Parallel, updateStrategy: {type: OnDelete},
			  persistentVolumeClaimRetentionPolicy: {whenDeleted: Retain, whenScaled: Retain}, replicas: 3, revisionHistoryLimit: 10}}`},
		{"replicaset", `{apiVersion: apps/v1, kind: ReplicaSet}`, `{apiVersion: apps/v1, kind: ReplicaSet, spec: {replicas: 1}}`},
		{"job: all unspecified, labels from the template",
			`{apiVersion: batch/v1, kind: Job, spec: {template: {metadata: {labels: {a: b}}}}}`,
			`{apiVersion: batch/v1, kind: Job, metadata: {labels: {a: b}}, spec: {completions: 1, parallelism: 1, backoffLimit: 6, completionMode: NonIndexed,
			  suspend: false, podReplacementPolicy: TerminatingOrFailed, template: {metadata: {labels: {a: b}}}}}`},
		{"job: completions only, own labels kept",
			`{apiVersion: batch/v1, kind: Job, metadata: {labels: {x: y}}, spec: {completions: 5, template: {metadata: {labels: {a: b}}}}}`,
			`{apiVersion: batch/v1, kind: Job, metadata: {labels: {x: y}}, spec: {completions: 5, parallelism: 1, backoffLimit: 6, completionMode: NonIndexed,
			  suspend: false, podReplacementPolicy: TerminatingOrFailed, template: {metadata: {labels: {a: b}}}}}`},
		{"job: parallelism only leaves completions unset",
			`{apiVersion: batch/v1, kind: Job, spec: {parallelism: 3}}`,
			`{apiVersion: batch/v1, kind: Job, spec: {parallelism: 3, backoffLimit: 6, completionMode: NonIndexed, suspend: false, podReplacementPolicy: TerminatingOrFailed}}`},
		{"job: backoffLimitPerIndex and a pod failure policy",
			`{apiVersion: batch/v1, kind: Job, spec: {parallelism: 1, completions: 2, completionMode: Indexed, backoffLimitPerIndex: 1,
			  podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}}}`,
			`{apiVersion: batch/v1, kind: Job, spec: {parallelism: 1, completions: 2, completionMode: Indexed, backoffLimitPerIndex: 1, backoffLimit: 2147483647,
			  suspend: false, podReplacementPolicy: Failed, podFailurePolicy: {rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget, status: "True"}]}]}}}`},
		{"cronjob: the job template's pod spec, not the Job's defaults",
			`{apiVersion: batch/v1, kind: CronJob, spec: {jobTemplate: {spec: {template: {spec: {restartPolicy: OnFailure}}}}}}`,
			`{apiVersion: batch/v1, kind: CronJob, spec: {concurrencyPolicy: Allow, suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1,
			  jobTemplate: {spec: {template: {spec: {dnsPolicy: ClusterFirst, restartPolicy: OnFailure, securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: default-scheduler}}}}}}`},
		{"pod: requests from limits, service links, host network ports, probes, env and volumes",
			`{apiVersion: v1, kind: Pod, spec: {hostNetwork: true,
			  containers: [{name: c, image: "app:latest", resources: {limits: {cpu: "1"}, requests: {memory: 1Gi}}, ports: [{containerPort: 80}],
			    livenessProbe: {httpGet: {port: 80}}, readinessProbe: {exec: {command: [x]}, periodSeconds: 5},
			    lifecycle: {preStop: {httpGet: {port: 81}}}, env: [{name: N, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]}],
			  volumes: [{name: e}, {name: s, secret: {secretName: s}}, {name: h, hostPath: {path: /x}},
			    {name: p, projected: {sources: [{serviceAccountToken: {path: t}}, {downwardAPI: {items: [{path: n, fieldRef: {fieldPath: metadata.name}}]}}]}}]}}`,
			`{apiVersion: v1, kind: Pod, spec: {hostNetwork: true, enableServiceLinks: true, ` + podSpec + `,
			  containers: [{name: c, image: "app:latest", imagePullPolicy: Always, ` + c + `, resources: {limits: {cpu: "1"}, requests: {cpu: "1", memory: 1Gi}},
			    ports: [{containerPort: 80, hostPort: 80, protocol: TCP}],
			    livenessProbe: {httpGet: {port: 80, path: /, scheme: HTTP}, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3},
			    readinessProbe: {exec: {command: [x]}, timeoutSeconds: 1, periodSeconds: 5, successThreshold: 1, failureThreshold: 3},
			    lifecycle: {preStop: {httpGet: {port: 81, path: /, scheme: HTTP}}},
			    env: [{name: N, valueFrom: {fieldRef: {fieldPath: metadata.name, apiVersion: v1}}}]}],
			  volumes: [{name: e, emptyDir: {}}, {name: s, secret: {secretName: s, defaultMode: 420}}, {name: h, hostPath: {path: /x, type: ""}},
			    {name: p, projected: {defaultMode: 420, sources: [{serviceAccountToken: {path: t, expirationSeconds: 3600}},
			      {downwardAPI: {items: [{path: n, fieldRef: {fieldPath: metadata.name, apiVersion: v1}}]}}]}}]}}`},
		{"a pod template's limits do not become requests",
			`{apiVersion: apps/v1, kind: ReplicaSet, spec: {replicas: 2, template: {spec: {initContainers: [{name: i, image: "i@sha256:abc", resources: {limits: {cpu: "1"}}}]}}}}`,
			`{apiVersion: apps/v1, kind: ReplicaSet, spec: {replicas: 2, template: {spec: {` + podSpec + `,
			  initContainers: [{name: i, image: "i@sha256:abc", imagePullPolicy: IfNotPresent, ` + c + `, resources: {limits: {cpu: "1"}}}]}}}}`},
		{"replication controller: selector and labels from the template",
			`{apiVersion: v1, kind: ReplicationController, spec: {template: {metadata: {labels: {a: b}}}}}`,
			`{apiVersion: v1, kind: ReplicationController, metadata: {labels: {a: b}}, spec: {selector: {a: b}, replicas: 1, template: {metadata: {labels: {a: b}}}}}`},
		{"service: all unspecified",
			`{apiVersion: v1, kind: Service, spec: {ports: [{port: 80}, {port: 81, targetPort: http}], sessionAffinityConfig: {clientIP: {timeoutSeconds: 5}}}}`,
			`{apiVersion: v1, kind: Service, spec: {sessionAffinity: None, type: ClusterIP, internalTrafficPolicy: Cluster,
			  ports: [{port: 80, protocol: TCP, targetPort: 80}, {port: 81, targetPort: http, protocol: TCP}]}}`},
		{"service: ClientIP affinity, load balancer",
			`{apiVersion: v1, kind: Service, spec: {type: LoadBalancer, sessionAffinity: ClientIP, ports: [{port: 80, targetPort: 0, protocol: UDP}]}}`,
			`{apiVersion: v1, kind: Service, spec: {type: LoadBalancer, sessionAffinity: ClientIP, sessionAffinityConfig: {clientIP: {timeoutSeconds: 10800}},
			  externalTrafficPolicy: Cluster, internalTrafficPolicy: Cluster, allocateLoadBalancerNodePorts: true,
			  ports: [{port: 80, targetPort: 80, protocol: UDP}]}}`},
		{"service: external IPs make a ClusterIP externally accessible",
			`{apiVersion: v1, kind: Service, spec: {externalIPs: [1.2.3.4]}}`,
			`{apiVersion: v1, kind: Service, spec: {externalIPs: [1.2.3.4], sessionAffinity: None, type: ClusterIP, externalTrafficPolicy: Cluster, internalTrafficPolicy: Cluster}}`},
		{"service: ExternalName has no traffic policies",
			`{apiVersion: v1, kind: Service, spec: {type: ExternalName, externalName: x.example}}`,
			`{apiVersion: v1, kind: Service, spec: {type: ExternalName, externalName: x.example, sessionAffinity: None}}`},
		{"secret", `{apiVersion: v1, kind: Secret}`, `{apiVersion: v1, kind: Secret, type: Opaque}`},
		{"namespace", `{apiVersion: v1, kind: Namespace, metadata: {name: team}}`,
			`{apiVersion: v1, kind: Namespace, metadata: {name: team, labels: {kubernetes.io/metadata.name: team}}}`},
		{"pvc", `{apiVersion: v1, kind: PersistentVolumeClaim}`, `{apiVersion: v1, kind: PersistentVolumeClaim, spec: {volumeMode: Filesystem}}`},
		{"configmap and custom kinds are left alone",
			`{apiVersion: example.io/v1, kind: Deployment, spec: {}}`, `{apiVersion: example.io/v1, kind: Deployment, spec: {}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := manifest.New(yamlMap(t, tt.in))
			before := manifest.DeepCopy(in.Data)
			got, _ := Default(in)
			if diff := cmp.Diff(normalNumbers(yamlMap(t, tt.want)), normalNumbers(got.Data)); diff != "" {
				t.Errorf("defaulted (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, in.Data); diff != "" {
				t.Errorf("the template changed:\n%s", diff)
			}
		})
	}
}

// TestImagePullPolicy: SetDefaults_Container's policy by the tag
// parsers.ParseImageName finds.
func TestImagePullPolicy(t *testing.T) {
	tests := map[string]string{
		"nginx": "latest", "nginx:latest": "latest", "nginx:1.27": "1.27", "nginx@sha256:abc": "",
		"nginx:latest@sha256:abc": "latest", "localhost:5000/team/app": "latest", "registry.io:5000/app:v1": "v1",
		"Registry.io/app:v1": "v1", "team/App:v1": "", "": "", "nginx:": "", "nginx@": "",
	}
	for image, want := range tests {
		if got := imageTag(image); got != want {
			t.Errorf("imageTag(%q) = %q, want %q", image, got, want)
		}
	}
}

// TestElide: what Karmada and the overrides did not change goes; what
// they changed, and what was authored, stays.
func TestElide(t *testing.T) {
	tests := []struct{ name, in, change, want string }{
		{"untouched defaults go, created maps with them",
			`{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {template: {spec: {containers: [{name: c, image: x, imagePullPolicy: IfNotPresent}]}}}}`,
			"", `{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {template: {spec: {containers: [{name: c, image: x, imagePullPolicy: IfNotPresent}]}}}}`},
		{"a default changed by Karmada stays",
			`{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}}`,
			"replicas", `{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {replicas: 3}}`},
		{"a default an override changed stays; the map created for it too",
			`{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}}`,
			"maxSurge", `{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {strategy: {rollingUpdate: {maxSurge: 2}}}}`},
		{"a namespace's default label goes, the map it was made for too",
			`{apiVersion: v1, kind: Namespace, metadata: {name: team}}`, "", `{apiVersion: v1, kind: Namespace, metadata: {name: team}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stored, d := Default(manifest.New(yamlMap(t, tt.in)))
			switch tt.change {
			case "replicas":
				manifest.Map(stored.Data, "spec")["replicas"] = int64(3)
			case "maxSurge":
				manifest.Map(stored.Data, "spec", "strategy", "rollingUpdate")["maxSurge"] = int64(2)
			}
			d.Elide(stored)
			if diff := cmp.Diff(normalNumbers(yamlMap(t, tt.want)), normalNumbers(stored.Data)); diff != "" {
				t.Errorf("elided (-want +got):\n%s", diff)
			}
		})
	}
	var none *Defaults
	none.Elide(manifest.New(map[string]any{})) // a nil Defaults is nothing to elide
}

func yamlMap(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
