package helm_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/charts/helm"
	"github.com/drydock-dev/drydock/charts/source"
)

var update = flag.Bool("update", false, "rewrite testdata/bench/fifty")

const benchChart = "testdata/bench/fifty"

// benchComponents: 17 Deployments and Services, 16 ConfigMaps.
var benchComponents = 17

// TestGenerateBenchChart keeps testdata/bench/fifty what benchChartFiles
// generates (rewritten with -update): 50 templates using helpers and
// values, as a real application chart does.
func TestGenerateBenchChart(t *testing.T) {
	files := benchChartFiles()
	for name, want := range files {
		p := filepath.Join(benchChart, name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != want {
			t.Errorf("%s is not what the generator writes (go test ./charts/helm -run TestGenerateBenchChart -update): %v", p, err)
		}
	}
	tpls, _ := filepath.Glob(filepath.Join(benchChart, "templates", "*.yaml"))
	if len(tpls) != 50 {
		t.Errorf("%d templates, want 50", len(tpls))
	}
}

func benchChartFiles() map[string]string {
	files := map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: fifty\nversion: 1.0.0\nappVersion: \"2.3.4\"\ndescription: 50 templates for BenchmarkRender50Templates\n",
		"templates/_helpers.tpl": `{{- define "fifty.fullname" -}}
{{- printf "%s-%s" .root.Release.Name .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- define "fifty.labels" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- end -}}
{{- define "fifty.selector" -}}
app.kubernetes.io/name: {{ .name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}
`,
	}
	var values strings.Builder
	values.WriteString("global:\n  registry: registry.example.com\n  pullPolicy: IfNotPresent\ncomponents:\n")
	for i := range benchComponents {
		fmt.Fprintf(&values, "  svc%02d:\n    enabled: true\n    replicas: %d\n    image: team/svc%02d\n    tag: \"1.%d.0\"\n    port: %d\n", i, 1+i%3, i, i, 8000+i)
		fmt.Fprintf(&values, "    resources:\n      requests: {cpu: 100m, memory: 128Mi}\n      limits: {memory: 256Mi}\n")
		fmt.Fprintf(&values, "    env:\n      LOG_LEVEL: info\n      FEATURE_%02d: \"on\"\n    config:\n      app.properties: |\n        name=svc%02d\n        threads=%d\n", i, i, 4+i)
	}
	files["values.yaml"] = values.String()
	for i := range benchComponents {
		name := fmt.Sprintf("svc%02d", i)
		head := fmt.Sprintf("{{- $c := index .Values.components %q }}\n{{- $ctx := dict \"root\" $ \"name\" %q }}\n{{- if $c.enabled }}\n", name, name)
		files["templates/"+name+"-deployment.yaml"] = head + `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "fifty.fullname" $ctx }}
  labels:
    {{- include "fifty.labels" $ctx | nindent 4 }}
spec:
  replicas: {{ $c.replicas }}
  selector:
    matchLabels:
      {{- include "fifty.selector" $ctx | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "fifty.selector" $ctx | nindent 8 }}
      annotations:
        checksum/config: {{ toYaml $c.config | sha256sum }}
    spec:
      containers:
        - name: {{ $ctx.name }}
          image: "{{ $.Values.global.registry }}/{{ $c.image }}:{{ $c.tag | default $.Chart.AppVersion }}"
          imagePullPolicy: {{ $.Values.global.pullPolicy }}
          ports:
            - name: http
              containerPort: {{ $c.port }}
          env:
            {{- range $k, $v := $c.env }}
            - name: {{ $k }}
              value: {{ $v | quote }}
            {{- end }}
          resources:
            {{- toYaml $c.resources | nindent 12 }}
          volumeMounts:
            - name: config
              mountPath: /etc/{{ $ctx.name }}
      volumes:
        - name: config
          configMap:
            name: {{ include "fifty.fullname" $ctx }}
{{- end }}
`
		files["templates/"+name+"-service.yaml"] = head + `apiVersion: v1
kind: Service
metadata:
  name: {{ include "fifty.fullname" $ctx }}
  labels:
    {{- include "fifty.labels" $ctx | nindent 4 }}
spec:
  type: ClusterIP
  ports:
    - port: 80
      targetPort: http
      name: http
  selector:
    {{- include "fifty.selector" $ctx | nindent 4 }}
{{- end }}
`
		if i < benchComponents-1 {
			files["templates/"+name+"-configmap.yaml"] = head + `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "fifty.fullname" $ctx }}
  labels:
    {{- include "fifty.labels" $ctx | nindent 4 }}
data:
  {{- range $k, $v := $c.config }}
  {{ $k }}: {{ $v | quote }}
  {{- end }}
{{- end }}
`
		}
	}
	return files
}

// BenchmarkRender50Templates renders a chart of 50 templates (17
// Deployments, 17 Services, 16 ConfigMaps with helpers and values) with
// Render, loaded once. Target: ≤ 50 ms/op.
func BenchmarkRender50Templates(b *testing.B) {
	c, err := source.Open(source.Config{})
	if err != nil {
		b.Fatal(err)
	}
	ch, err := c.ChartDir(benchChart)
	if err != nil {
		b.Fatal(err)
	}
	o := helm.Options{ReleaseName: "bench", Namespace: "apps", Capabilities: helm.Capabilities{KubeVersion: "1.31.0"},
		Values: map[string]any{"global": map[string]any{"pullPolicy": "Always"}}}
	b.ReportAllocs()
	for b.Loop() {
		objs, err := helm.Render(ch, o)
		if err != nil {
			b.Fatal(err)
		}
		if len(objs) != 50 {
			b.Fatalf("%d objects, want 50", len(objs))
		}
	}
}

// BenchmarkChartDirAgain: the second load of the same chart directory
// (another Cache, as another revision's) reads and hashes its files but
// does not parse them again.
func BenchmarkChartDirAgain(b *testing.B) {
	c, err := source.Open(source.Config{})
	if err != nil {
		b.Fatal(err)
	}
	first, err := c.ChartDir(benchChart)
	if err != nil {
		b.Fatal(err)
	}
	n := source.LoadCount()
	b.ReportAllocs()
	for b.Loop() {
		ch, err := c.ChartDir(benchChart)
		if err != nil || ch != first {
			b.Fatal("loaded again", err)
		}
	}
	if source.LoadCount() != n {
		b.Errorf("parsed again: %d loads", source.LoadCount()-n)
	}
}
