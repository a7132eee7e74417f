package schemas

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"

	"github.com/drydock-dev/drydock/manifest"
)

func decodeOne(t *testing.T, src string) *manifest.Object {
	t.Helper()
	objs, err := manifest.Decode("in.yaml", []byte(src), manifest.DecodeOptions{})
	if err != nil || len(objs) != 1 {
		t.Fatalf("decode: %v", err)
	}
	return objs[0]
}

func TestKubeValidate(t *testing.T) {
	api, err := LoadKubeAPI("1.29")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src string
		want      []string
	}{
		{"valid", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default, creationTimestamp: null, labels: {app: web}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx
          ports: [{containerPort: 80, protocol: TCP}]
          resources: {limits: {cpu: 500m, memory: 1Gi}}
`, nil},
		{"misspelt, wrong type, no image", `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replica: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          ports: [{containerPort: "eighty"}]
`, []string{
			`spec.replica: unknown field "spec.replica"`,
			`spec.template.spec.containers[0].image: Required value`,
			`spec.template.spec.containers[0].ports[0].containerPort: Invalid value: "string": spec.template.spec.containers[0].ports[0].containerPort in body must be of type integer: "string"`,
		}},
		{"enum and required", `apiVersion: v1
kind: Service
metadata: {name: web, unknownMeta: 1}
spec:
  type: Fancy
  ports: [{name: http}]
`, []string{
			`metadata.unknownMeta: unknown field "metadata.unknownMeta"`,
			`spec.ports[0].port: Required value`,
			`spec.type: Unsupported value: "Fancy": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"`,
		}},
		{"intstr and quantity", `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  ports: [{name: a, port: 80, targetPort: http}, {name: b, port: 81, targetPort: 8080}]
`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, served := api.Validate(decodeOne(t, tt.src))
			if !served {
				t.Fatal("not served")
			}
			var got []string
			for _, f := range fs {
				got = append(got, f.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestLifecycle(t *testing.T) {
	tests := []struct {
		version, apiVersion, kind string
		want                      string
		known                     bool
	}{
		{"1.29", "apps/v1", "Deployment", "", true},
		{"1.29", "extensions/v1beta1", "Ingress", "extensions/v1beta1 Ingress is not served by Kubernetes 1.29: removed in 1.22; use networking.k8s.io/v1 Ingress", true},
		{"1.25", "policy/v1beta1", "PodDisruptionBudget", "policy/v1beta1 PodDisruptionBudget is not served by Kubernetes 1.25: removed in 1.25; use policy/v1 PodDisruptionBudget", true},
		{"1.24", "policy/v1beta1", "PodDisruptionBudget", "policy/v1beta1 PodDisruptionBudget is deprecated: Kubernetes 1.25 no longer serves it; use policy/v1 PodDisruptionBudget", true},
		{"1.29", "policy/v1beta1", "PodSecurityPolicy", "policy/v1beta1 PodSecurityPolicy is not served by Kubernetes 1.29: removed in 1.25; it has no replacement", true},
		{"1.29", "example.com/v1", "Widget", "", false},
	}
	for _, tt := range tests {
		f, known := Lifecycle(tt.version, tt.apiVersion, tt.kind)
		got := ""
		if f != nil {
			got = f.Message
		}
		if got != tt.want || known != tt.known {
			t.Errorf("Lifecycle(%s, %s %s) = %q, %v; want %q, %v", tt.version, tt.apiVersion, tt.kind, got, known, tt.want, tt.known)
		}
	}
}

func TestCRDValidate(t *testing.T) {
	crds := NewCRDs()
	if err := crds.Add(decodeOne(t, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              required: [size]
              x-kubernetes-validations:
                - rule: "self.min <= self.max"
                  message: min must not exceed max
              properties:
                size: {type: string, enum: [small, large]}
                min: {type: integer}
                max: {type: integer}
`)); err != nil {
		t.Fatal(err)
	}
	fs, known := crds.Validate(decodeOne(t, `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec: {size: huge, min: 5, max: 1, colour: red}
`))
	if !known {
		t.Fatal("unknown kind")
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.String())
	}
	want := []string{
		`spec: Invalid value: min must not exceed max`,
		`spec.colour: unknown field "spec.colour"`,
		`spec.size: Unsupported value: "huge": supported values: "small", "large"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, known := crds.Validate(decodeOne(t, "apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: w}\n")); known {
		t.Error("v2 is not served")
	}
}

// unknownFields must find what the API server's pruning drops.
func TestUnknownFieldsAgreeWithPruning(t *testing.T) {
	api, err := LoadKubeAPI(DefaultKubeVersion())
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{
		`{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a", "x": 1}, "spec": {"replica": 1, "template": {"metadata": {"labels": {"a": "b"}, "y": 2}, "spec": {"containers": [{"name": "c", "z": 3, "env": [{"name": "e", "w": 4}]}], "unknownList": [{"a": 1}]}}}, "extra": true}`,
		`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"k": "v"}, "datas": {}}`,
		`{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "a"}, "spec": {"versions": [{"schema": {"openAPIV3Schema": {"type": "object", "anything": 1}}, "bogus": 1}]}}`,
	} {
		o := decodeOne(t, src)
		key := gvkKey(o.APIVersion(), o.Kind())
		v := api.validator(key)
		if v.err != nil {
			t.Fatal(v.err)
		}
		var got []string
		unknownFields(o.Data, v.structural, true, "", &got)
		if meta, ok := v.structural.Properties["metadata"]; ok {
			unknownFields(o.Data["metadata"], &meta, false, "metadata", &got)
		}
		slices.Sort(got)
		copied := manifest.DeepCopy(o.Data)
		want := pruning.PruneWithOptions(copied, v.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
		meta := v.structural.Properties["metadata"]
		want = append(want, pruning.PruneWithOptions(copied.(map[string]any)["metadata"], &meta, false, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true, ParentPath: []string{"metadata"}})...)
		slices.Sort(want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: unknownFields %v, pruning %v", key, got, want)
		}
	}
}

// TestCheckNotServed: a built-in kind a version no longer serves, or one
// no release serves, is refused; it is never taken for a custom resource
// (a CRD of another group's kind is one).
func TestCheckNotServed(t *testing.T) {
	crds := NewCRDs()
	if err := crds.Add(decodeOne(t, "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.example.com}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {kind: Widget, plural: widgets}\n  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]\n")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		version, apiVersion, kind string
		want                      string
		checked                   bool
	}{
		{"1.30", "extensions/v1beta1", "Deployment", "extensions/v1beta1 Deployment is not served by Kubernetes 1.30: removed in 1.16; use apps/v1 Deployment", true},
		{"1.30", "apps/v1beta2", "StatefulSet", "apps/v1beta2 StatefulSet is not served by Kubernetes 1.30: removed in 1.16; use apps/v1 StatefulSet", true},
		{"1.30", "policy/v1beta1", "PodSecurityPolicy", "policy/v1beta1 PodSecurityPolicy is not served by Kubernetes 1.30: removed in 1.25; it has no replacement", true},
		{"1.30", "batch/v1beta1", "CronJob", "batch/v1beta1 CronJob is not served by Kubernetes 1.30: removed in 1.25; use batch/v1 CronJob", true},
		{"1.23", "flowcontrol.apiserver.k8s.io/v1", "FlowSchema", "flowcontrol.apiserver.k8s.io/v1 FlowSchema is not served by Kubernetes 1.23: Kubernetes serves it from 1.29 on", true},
		{"1.30", "apps/v1", "Deploymnet", `no matches for kind "Deploymnet" in version "apps/v1" (did you mean "Deployment"?)`, true},
		{"1.30", "v1", "ConfigMaps", `no matches for kind "ConfigMaps" in version "v1" (did you mean "ConfigMap"?)`, true},
		{"1.30", "apps/v2", "Deployment", `no matches for kind "Deployment" in version "apps/v2": Kubernetes 1.30 serves apps/v1 Deployment`, true},
		{"1.30", "networking.k8s.io/v1", "Gateway", `no matches for kind "Gateway" in version "networking.k8s.io/v1"`, true},
		{"1.30", "example.com/v1", "Widget", "", true},
		{"1.30", "example.com/v1", "Gadget", "", false},
	}
	for _, tt := range tests {
		o := decodeOne(t, fmt.Sprintf("apiVersion: %s\nkind: %s\nmetadata: {name: x, namespace: default}\n", tt.apiVersion, tt.kind))
		fs, checked, err := Check(tt.version, crds, o)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range fs {
			if f.Warning {
				t.Errorf("%s %s: a warning: %s", tt.apiVersion, tt.kind, f)
			}
			got = append(got, f.String())
		}
		want := []string{}
		if tt.want != "" {
			want = []string{tt.want}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") || checked != tt.checked {
			t.Errorf("Check(%s, %s %s) = %q, %v; want %q, %v", tt.version, tt.apiVersion, tt.kind, got, checked, want, tt.checked)
		}
	}
}

// TestCRDDefaultsBeforeValidation: the API server applies a custom
// resource's schema defaults before it validates, so its CEL rules (and
// the schema) see them.
func TestCRDDefaultsBeforeValidation(t *testing.T) {
	crds := NewCRDs()
	if err := crds.Add(decodeOne(t, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: jobs.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Job, plural: jobs}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              x-kubernetes-validations:
                - rule: "!has(self.mode) || self.mode != 'fast' || self.budget <= 10"
                  message: fast mode allows a budget of at most 10
              properties:
                mode: {type: string, default: fast}
                budget: {type: integer}
                retries: {type: integer, default: 3, maximum: 5}
`)); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ spec, want string }{
		{"{budget: 20}", "spec: Invalid value: fast mode allows a budget of at most 10"},
		{"{budget: 20, mode: slow}", ""},
		{"{budget: 5}", ""},
	} {
		o := decodeOne(t, "apiVersion: example.com/v1\nkind: Job\nmetadata: {name: j}\nspec: "+tt.spec+"\n")
		fs, _ := crds.Validate(o)
		var got []string
		for _, f := range fs {
			got = append(got, f.String())
		}
		if strings.Join(got, "\n") != tt.want {
			t.Errorf("spec %s: %q, want %q", tt.spec, got, tt.want)
		}
		if _, ok := o.Data["spec"].(map[string]any)["retries"]; ok {
			t.Errorf("spec %s: the object was changed", tt.spec)
		}
	}
}
