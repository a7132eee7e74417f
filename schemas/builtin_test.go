package schemas

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// deployment is a valid Deployment whose pod spec is podSpec (YAML
// indented for it) and whose spec adds extra.
func deployment(extra, podSpec string) string {
	return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  selector: {matchLabels: {app: web}}
` + extra + `
  template:
    metadata: {labels: {app: web}}
    spec:
` + podSpec
}

const webContainer = "      containers: [{name: web, image: nginx}]\n"

// findingsAt validates src as the API server of version would: the
// findings, warnings prefixed "warning: ".
func findingsAt(t *testing.T, version, src string) (out []string, served bool) {
	t.Helper()
	api, err := LoadKubeAPI(version)
	if err != nil {
		t.Fatal(err)
	}
	fs, served := api.Validate(decodeOne(t, src))
	for _, f := range fs {
		s := f.String()
		if f.Warning {
			s = "warning: " + s
		}
		out = append(out, s)
	}
	return out, served
}

// TestBuiltinValidation: each rule of the API server's validation of
// built-in kinds, at every embedded version that serves the kind unless
// the rule is a version's.
func TestBuiltinValidation(t *testing.T) {
	tests := []struct {
		name string
		// from and to bound the versions (minor numbers; 0 for none).
		from, to int
		src      string
		want     []string
		// none are findings that must not be there.
		none []string
	}{
		// Port numbers.
		{name: "container port out of range", src: deployment("", "      containers: [{name: web, image: nginx, ports: [{containerPort: 70000}, {containerPort: 80, hostPort: 65536}]}]\n"),
			want: []string{
				"spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
				"spec.template.spec.containers[0].ports[1].hostPort: Invalid value: 65536: must be between 1 and 65535, inclusive",
			}},
		{name: "container port zero is missing", src: deployment("", "      containers: [{name: web, image: nginx, ports: [{containerPort: 0}]}]\n"),
			want: []string{"spec.template.spec.containers[0].ports[0].containerPort: Required value"}},
		{name: "service ports", src: "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  ports: [{name: a, port: 0}, {name: b, port: 80, targetPort: 70000}, {name: c, port: 81, targetPort: http_web}, {name: d, port: 82, nodePort: 30080}]\n",
			want: []string{
				"spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
				"spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
				"spec.ports[2].targetPort: Invalid value: \"http_web\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
				"spec.ports[3].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
			}},
		{name: "probe ports are numbers or names", src: deployment("", "      containers:\n        - {name: web, image: nginx, livenessProbe: {httpGet: {path: /, port: 0}}, readinessProbe: {tcpSocket: {port: HTTP}}, startupProbe: {grpc: {port: 70000}}}\n"),
			want: []string{
				"spec.template.spec.containers[0].livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive",
				"spec.template.spec.containers[0].readinessProbe.tcpSocket.port: Invalid value: \"HTTP\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
				"spec.template.spec.containers[0].startupProbe.grpc.port: Invalid value: 70000: must be between 1 and 65535, inclusive",
			}},
		{name: "probe handlers and thresholds", src: deployment("", "      containers:\n        - {name: web, image: nginx, livenessProbe: {exec: {command: [x]}, tcpSocket: {port: 80}, successThreshold: 2}, readinessProbe: {periodSeconds: -1, tcpSocket: {port: 80}}, startupProbe: {failureThreshold: 3}}\n"),
			want: []string{
				"spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1",
				"spec.template.spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type",
				"spec.template.spec.containers[0].readinessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0",
				"spec.template.spec.containers[0].startupProbe: Required value: must specify a handler type",
			}},
		{name: "ingress backend port", src: "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web}\nspec:\n  rules:\n    - host: shop.example.com\n      http:\n        paths:\n          - {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 70000}}}}\n          - {path: /a, pathType: Prefix, backend: {service: {name: web, port: {name: http, number: 80}}}}\n          - {path: b, pathType: Prefix, backend: {service: {name: web, port: {}}}}\n",
			want: []string{
				"spec.rules[0].http.paths[0].backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive",
				`spec.rules[0].http.paths[1].backend: Invalid value: "": cannot set both port name & port number`,
				`spec.rules[0].http.paths[2].backend: Required value: port name or number is required`,
				`spec.rules[0].http.paths[2].path: Invalid value: "b": must be an absolute path`,
			}},
		{name: "network policy port", src: "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: np}\nspec:\n  podSelector: {}\n  ingress: [{ports: [{port: 70000}, {port: 80, endPort: 79}]}]\n",
			want: []string{
				"spec.ingress[0].ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
				"spec.ingress[0].ports[1].endPort: Invalid value: 79: must be greater than or equal to `port`",
			}},

		// Int-or-string: a number or a percentage.
		{name: "rolling update surge and unavailability", src: deployment("  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}", webContainer),
			want: []string{"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"}},
		{name: "percentages", src: deployment("  strategy: {rollingUpdate: {maxSurge: ten, maxUnavailable: \"110%\"}}", webContainer),
			want: []string{
				`spec.strategy.rollingUpdate.maxSurge: Invalid value: "ten": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
				`spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "110%": must not be greater than 100%`,
			}},
		{name: "surge alone: unavailability defaults to 25%", src: deployment("  strategy: {rollingUpdate: {maxSurge: 0}}", webContainer), none: []string{"spec.strategy"}},
		{name: "recreate with a rolling update", src: deployment("  strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}", webContainer),
			want: []string{"spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"}},
		{name: "daemonset surge and unavailability", src: "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds}\nspec:\n  selector: {matchLabels: {app: ds}}\n  updateStrategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 1}}\n  template:\n    metadata: {labels: {app: ds}}\n    spec: {containers: [{name: c, image: i}]}\n",
			want: []string{"spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"}},
		{name: "pod disruption budget", src: "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: pdb}\nspec: {minAvailable: \"150%\", maxUnavailable: -1, selector: {matchLabels: {app: web}}}\n",
			want: []string{
				`spec: Invalid value: {"maxUnavailable":-1,"minAvailable":"150%","selector":{"matchLabels":{"app":"web"}}}: minAvailable and maxUnavailable cannot be both set`,
				`spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0`,
				`spec.minAvailable: Invalid value: "150%": must not be greater than 100%`,
			}},

		// Counts that may not be negative.
		{name: "deployment counts", src: deployment("  replicas: -1\n  minReadySeconds: 700\n  revisionHistoryLimit: -2", webContainer),
			want: []string{
				"spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds",
				"spec.replicas: Invalid value: -1: must be greater than or equal to 0",
				"spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0",
			}},
		{name: "job counts and restart policy", src: "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  backoffLimit: -1\n  parallelism: -2\n  completions: -3\n  template:\n    spec: {containers: [{name: c, image: i}]}\n",
			want: []string{
				"spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0",
				"spec.completions: Invalid value: -3: must be greater than or equal to 0",
				"spec.parallelism: Invalid value: -2: must be greater than or equal to 0",
				`spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"`,
			}},
		{name: "cronjob", src: "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec:\n  schedule: '* * * * *'\n  startingDeadlineSeconds: -1\n  jobTemplate:\n    spec:\n      template:\n        spec: {restartPolicy: Never, containers: [{name: c, image: i}]}\n",
			want: []string{"spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0"}},
		{name: "statefulset replicas; its pod spec is not checked", src: "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: -1\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: c, image: i, volumeMounts: [{name: data, mountPath: /data}]}]}\n",
			want: []string{"spec.replicas: Invalid value: -1: must be greater than or equal to 0"}, none: []string{"volumeMounts"}},
		{name: "hpa replicas", src: "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 0\n  maxReplicas: 3\n", from: 23,
			want: []string{"spec.minReplicas: Invalid value: 0: must be greater than or equal to 1"}},
		{name: "pod active deadline", src: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {activeDeadlineSeconds: 0, containers: [{name: c, image: i}]}\n",
			want: []string{"spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"}},

		// Labels, annotations, names, selectors.
		{name: "labels and annotations", src: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels: {app: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, -bad: x}\n  annotations: {bad key: x}\n",
			want: []string{
				`metadata.annotations: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
				`metadata.labels: Invalid value: "-bad": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
				`metadata.labels: Invalid value: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": must be no more than 63 bytes`,
			}},
		{name: "template labels", src: strings.Replace(deployment("", webContainer), "metadata: {labels: {app: web}}", "metadata: {labels: {app: web, version: \"1.0 beta\"}}", 1),
			want: []string{`spec.template.metadata.labels: Invalid value: "1.0 beta": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
		{name: "service name is a DNS-1035 label", src: "apiVersion: v1\nkind: Service\nmetadata: {name: 9web}\nspec: {ports: [{port: 80}]}\n",
			want: []string{`metadata.name: Invalid value: "9web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`}},
		{name: "deployment name is a DNS subdomain", src: strings.Replace(deployment("", webContainer), "name: web, namespace", "name: Web.app, namespace", 1),
			want: []string{`metadata.name: Invalid value: "Web.app": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
		{name: "namespace name is a DNS label", src: "apiVersion: v1\nkind: Namespace\nmetadata: {name: team.a}\n",
			want: []string{`metadata.name: Invalid value: "team.a": must not contain dots`}},
		{name: "rbac names are path segments", src: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: \"system:controller:web\"}\nrules: []\n", none: []string{"metadata"}},
		{name: "selector does not match the template", src: strings.Replace(deployment("", webContainer), "matchLabels: {app: web}", "matchLabels: {app: api}", 1),
			want: []string{"spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"}},
		{name: "empty selector", src: strings.Replace(deployment("", webContainer), "matchLabels: {app: web}", "matchLabels: {}", 1),
			want: []string{`spec.selector: Invalid value: {}: empty selector is invalid for deployment`}},
		{name: "selector label value", src: strings.Replace(deployment("", webContainer), "selector: {matchLabels: {app: web}}", "selector: {matchLabels: {app: web}, matchExpressions: [{key: tier, operator: Within, values: [a]}]}", 1),
			want: []string{`spec.selector.matchExpressions[0].operator: Invalid value: "Within": not a valid selector operator`}},

		// Duplicates in keyed lists, whatever the version's schema marks.
		{name: "container names across init and regular containers", src: deployment("", "      initContainers: [{name: web, image: busybox}]\n      containers: [{name: web, image: nginx}, {name: web, image: nginx}]\n"),
			want: []string{
				`spec.template.spec.containers[1].name: Duplicate value: "web"`,
				`spec.template.spec.initContainers[0].name: Duplicate value: "web"`,
			}},
		{name: "container port names", src: deployment("", "      containers: [{name: web, image: nginx, ports: [{name: http, containerPort: 80}, {name: http, containerPort: 81}, {name: web_port, containerPort: 82}]}]\n"),
			want: []string{
				`spec.template.spec.containers[0].ports[1].name: Duplicate value: "http"`,
				`spec.template.spec.containers[0].ports[2].name: Invalid value: "web_port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
			}},
		{name: "the same container port twice: a warning", src: deployment("", "      containers: [{name: web, image: nginx, ports: [{containerPort: 80}, {containerPort: 80, protocol: TCP}]}]\n"),
			want: []string{"warning: spec.template.spec.containers[0].ports[1]: duplicate port definition with spec.template.spec.containers[0].ports[0]"},
			none: []string{"spec.template.spec.containers[0].ports[1]: Duplicate"}},
		{name: "host ports", src: deployment("", "      containers: [{name: a, image: nginx, ports: [{containerPort: 80, hostPort: 8080}]}, {name: b, image: nginx, ports: [{containerPort: 81, hostPort: 8080}]}]\n"),
			want: []string{`spec.template.spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"`}},
		{name: "env names given twice: a warning", src: deployment("", "      containers: [{name: web, image: nginx, env: [{name: A, value: \"1\"}, {name: A, value: \"2\"}, {name: P, value: /bin}, {name: P, value: \"$(P):/usr/bin\"}]}]\n"),
			want: []string{`warning: spec.template.spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply`},
			none: []string{"spec.template.spec.containers[0].env[1]: Duplicate", "hides previous definition of \"P\""}},
		{name: "env value and valueFrom", src: deployment("", "      containers: [{name: web, image: nginx, env: [{name: A, value: \"1\", valueFrom: {fieldRef: {fieldPath: metadata.name}}}]}]\n"),
			want: []string{"spec.template.spec.containers[0].env[0].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty"}},
		{name: "env name before relaxed names", to: 31, src: deployment("", "      containers: [{name: web, image: nginx, env: [{name: 1A, value: x}]}]\n"),
			want: []string{`spec.template.spec.containers[0].env[0].name: Invalid value: "1A": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`}},
		{name: "env name with relaxed names", from: 32, src: deployment("", "      containers: [{name: web, image: nginx, env: [{name: 1A, value: x}]}]\n"),
			none: []string{"env[0].name"}},
		{name: "volumes and mounts", src: deployment("", "      volumes: [{name: data, emptyDir: {}}, {name: data, emptyDir: {}}, {name: cache}]\n      containers: [{name: web, image: nginx, volumeMounts: [{name: data, mountPath: /d}, {name: logs, mountPath: /d}]}]\n"),
			want: []string{
				`spec.template.spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/d": must be unique`,
				`spec.template.spec.containers[0].volumeMounts[1].name: Not found: "logs"`,
				`spec.template.spec.volumes[1].name: Duplicate value: "data"`,
				`spec.template.spec.volumes[2]: Required value: must specify a volume type`,
			}},
		{name: "service port names and ports", src: "apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  ports: [{name: http, port: 80}, {name: http, port: 81}, {port: 80, name: other}, {port: 82}]\n",
			want: []string{
				`spec.ports[1].name: Duplicate value: "http"`,
				`spec.ports[2]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}`,
				`spec.ports[3].name: Required value`,
			}},
		{name: "init containers' probes need a sidecar", from: 29, src: deployment("", "      initContainers: [{name: init, image: busybox, restartPolicy: Always, readinessProbe: {tcpSocket: {port: 80}}}, {name: once, image: busybox, readinessProbe: {tcpSocket: {port: 80}}}]\n"+webContainer),
			want: []string{"spec.template.spec.initContainers[1].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always"},
			none: []string{"initContainers[0]"}},

		// Enums and what a controller requires.
		{name: "enums", src: deployment("", "      restartPolicy: OnFailure\n      containers: [{name: web, image: nginx, imagePullPolicy: Sometimes, terminationMessagePolicy: Log}]\n"),
			want: []string{
				`spec.template.spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`,
				`spec.template.spec.containers[0].terminationMessagePolicy: Unsupported value: "Log": supported values: "FallbackToLogsOnError", "File"`,
				`spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`,
			}},
		{name: "access modes before ReadWriteOncePod", to: 26, src: "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: {accessModes: [ReadWriteOncePod], resources: {requests: {storage: 1Gi}}}\n",
			want: []string{`spec.accessModes: Unsupported value: "ReadWriteOncePod": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce"`}},
		{name: "access modes with ReadWriteOncePod", from: 27, src: "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: {accessModes: [ReadWriteOncePod, Everyone]}\n",
			want: []string{
				`spec.accessModes: Unsupported value: "Everyone": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"`,
				`spec.resources[storage]: Required value`,
			}},

		// Quantities.
		{name: "resources", src: deployment("", "      containers: [{name: web, image: nginx, resources: {requests: {cpu: \"2\", memory: 1GB}, limits: {cpu: \"1\"}}}]\n"),
			want: []string{
				`spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1`,
				`spec.template.spec.containers[0].resources.requests[memory]: Invalid value: "1GB": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
			}},
		{name: "extended resources are not overcommitted", src: deployment("", "      containers: [{name: web, image: nginx, resources: {requests: {nvidia.com/gpu: 1, example.com/dongle: 1}, limits: {nvidia.com/gpu: 2}}}]\n"),
			want: []string{
				`spec.template.spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources`,
				`spec.template.spec.containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2`,
			}},
		{name: "tolerations", src: "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i}]\n  tolerations: [{key: dedicated, operator: Exists, value: gpu}, {operator: Equal, value: x}, {key: a, tolerationSeconds: 30, effect: NoSchedule}, {key: b, operator: In}]\n",
			want: []string{
				`spec.tolerations[0].operator: Invalid value: {"Key":"dedicated","Operator":"Exists","Value":"gpu","Effect":"","TolerationSeconds":null}: value must be empty when ` + "`operator`" + ` is 'Exists'`,
				`spec.tolerations[1].operator: Invalid value: "Equal": operator must be Exists when ` + "`key`" + ` is empty, which means "match all values and all keys"`,
				`spec.tolerations[2].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when ` + "`tolerationSeconds`" + ` is set`,
				`spec.tolerations[3].operator: Unsupported value: "In": supported values: "Equal", "Exists"`,
			}},
		{name: "topology spread constraints", src: deployment("", "      topologySpreadConstraints: [{maxSkew: 0, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {}}, {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {}}]\n"+webContainer),
			want: []string{
				`spec.template.spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero`,
				`spec.template.spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"`,
			},
			none: []string{"topologySpreadConstraints[1]"}},
		{name: "config map keys", src: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {\"a b\": x}\n",
			want: []string{`data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran := 0
			for _, version := range KubeVersions() {
				if m := minorOf(version); tt.from != 0 && m < tt.from || tt.to != 0 && m > tt.to {
					continue
				}
				got, served := findingsAt(t, version, tt.src)
				if !served {
					continue
				}
				ran++
				for _, w := range tt.want {
					if !slices.Contains(got, w) {
						t.Errorf("%s: missing\n  %s\nin\n  %s", version, w, strings.Join(got, "\n  "))
					}
				}
				for _, n := range tt.none {
					for _, g := range got {
						if strings.Contains(g, n) {
							t.Errorf("%s: unexpected %s", version, g)
						}
					}
				}
				if len(tt.want) == 0 && len(tt.none) == 0 {
					t.Fatal("a case asserts nothing")
				}
			}
			if ran == 0 {
				t.Fatal("no embedded version serves the kind")
			}
		})
	}
}

// TestBuiltinValid: valid objects of every kind checked find nothing at
// any version that serves them.
func TestBuiltinValid(t *testing.T) {
	for _, src := range []string{
		deployment("  replicas: 3\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: \"50%\", maxUnavailable: 0}}", `      volumes: [{name: data, emptyDir: {}}]
      initContainers: [{name: init, image: busybox}]
      containers:
        - name: web
          image: nginx
          ports: [{name: http, containerPort: 80}, {containerPort: 80, protocol: UDP}]
          env: [{name: A, value: "1"}, {name: B, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]
          volumeMounts: [{name: data, mountPath: /data}]
          livenessProbe: {httpGet: {path: /, port: http}}
          readinessProbe: {tcpSocket: {port: 80}, periodSeconds: 5}
          resources: {requests: {cpu: 100m, memory: 128Mi}, limits: {cpu: "1", memory: 1Gi}}
`),
		"apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  type: NodePort\n  selector: {app: web}\n  ports: [{name: http, port: 80, targetPort: http, nodePort: 30080}, {name: dns, port: 53, protocol: UDP}, {name: dns-tcp, port: 53}]\n",
		"apiVersion: v1\nkind: Service\nmetadata: {name: db}\nspec: {clusterIP: None, selector: {app: db}}\n",
		"apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  backoffLimit: 0\n  template:\n    spec: {restartPolicy: Never, containers: [{name: c, image: i}]}\n",
		"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: pdb}\nspec: {minAvailable: \"50%\", selector: {matchLabels: {app: web}}}\n",
		"apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web}\nspec:\n  rules:\n    - host: '*.example.com'\n      http:\n        paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {name: http}}}}]\n",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {password: x}\n",
		"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds}\nspec:\n  selector: {matchLabels: {app: ds}}\n  template:\n    metadata: {labels: {app: ds}}\n    spec: {containers: [{name: c, image: i}]}\n",
		"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n",
		// Fields named description (the embedded schemas drop the
		// documentation keyword, never a field of that name).
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\ndescription: for the shop\n",
		"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n    - name: v1\n      served: true\n      storage: true\n      additionalPrinterColumns: [{name: Age, type: date, jsonPath: .metadata.creationTimestamp, description: its age}]\n      schema:\n        openAPIV3Schema:\n          description: A widget.\n          type: object\n          externalDocs: {description: more, url: https://example.com}\n          properties: {spec: {type: object, description: the spec}}\n",
	} {
		for _, version := range KubeVersions() {
			got, served := findingsAt(t, version, src)
			if served && len(got) > 0 {
				t.Errorf("%s: %s\n  %s", version, strings.SplitN(src, "\n", 3)[1], strings.Join(got, "\n  "))
			}
		}
	}
}

// TestListTypeDuplicates: a duplicate the API server accepts but a
// version's schema marks as a list-map key is what server-side apply
// refuses: a warning, not an error.
func TestListTypeDuplicates(t *testing.T) {
	src := deployment("", "      containers: [{name: web, image: nginx, env: [{name: P, value: /bin}, {name: P, value: \"$(P):/usr/bin\"}]}]\n")
	got, _ := findingsAt(t, "1.30", src)
	want := `warning: spec.template.spec.containers[0].env[1]: Duplicate value: {"name":"P"}: the API server accepts it, but server-side apply refuses duplicate entries`
	if fmt.Sprint(got) != fmt.Sprint([]string{want}) {
		t.Errorf("findings %q, want %q", got, want)
	}
	// 1.29's schema does not mark env as keyed.
	if got, _ := findingsAt(t, "1.29", src); len(got) != 0 {
		t.Errorf("1.29: %q", got)
	}
}
