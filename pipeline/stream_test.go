package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// recorder is a sink that records every Put, and fails at the nth one
// when failAt is set.
type recorder struct {
	puts   []string
	final  map[string]string
	failAt int
}

var errSinkFull = errors.New("sink full")

func (r *recorder) Put(c string, e cluster.Entry) error {
	if r.failAt > 0 && len(r.puts)+1 == r.failAt {
		return errSinkFull
	}
	line := c + " " + e.Object.Key().String() + " " + e.Source
	r.puts = append(r.puts, line)
	if r.final == nil {
		r.final = map[string]string{}
	}
	r.final[c+" "+e.Object.Key().String()] = line
	return nil
}

// streamInputs writes applications (one of them deployed through a
// Karmada control plane), observed objects, resource templates and
// Karmada policies, and returns their Inputs.
func streamInputs(t *testing.T) Inputs {
	t.Helper()
	dir := t.TempDir()
	var apps strings.Builder
	for i := range 12 {
		fmt.Fprintf(&apps, "---\napiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: app-%d, namespace: ns-%d}\n"+
			"spec:\n  components:\n    - {name: web-%d, type: webservice, properties: {image: \"img:%d\", ports: [{port: 80, expose: true}]}, traits: [{type: scaler, properties: {replicas: %d}}]}\n",
			i, i%3, i, i, 1+i%4)
	}
	apps.WriteString(`---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: fleet, namespace: default}
spec:
  components:
    - {name: shared, type: webservice, properties: {image: shared:1}}
    - name: placement
      type: k8s-objects
      properties:
        objects:
          - apiVersion: policy.karmada.io/v1alpha1
            kind: ClusterPropagationPolicy
            metadata: {name: members}
            spec:
              resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
              placement: {clusterAffinity: {clusterNames: [m1, m2]}}
  policies:
    - {name: hub, type: topology, properties: {clusters: [karmada]}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: plain, namespace: default}
spec: {replicas: 1}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: all}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement: {clusterAffinity: {clusterNames: [karmada]}}
`)
	clusters := `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: karmada}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: m1, annotations: {drydock.dev/karmada-control-plane: karmada}}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: m2, annotations: {drydock.dev/karmada-control-plane: karmada}}
`
	observed := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: seen, namespace: default}\n---\n" +
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web-0, namespace: ns-0}\nspec: {replicas: 9}\n"
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	return Inputs{Paths: []string{write("apps.yaml", apps.String())}, ClusterPaths: []string{write("clusters.yaml", clusters)},
		ObservedPaths: []string{write("observed.yaml", observed)}}
}

// TestStreamLikeRun: Stream hands the sink, in one order whatever the
// number of workers, objects whose last writes are Run's final state.
func TestStreamLikeRun(t *testing.T) {
	in := streamInputs(t)
	res, err := Run(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, c := range res.Clusters.Clusters() {
		for _, e := range res.Clusters.List(c) {
			key := c + " " + e.Object.Key().String()
			want[key] = key + " " + e.Source
		}
	}
	var first []string
	for _, workers := range []int{1, 2, 5} {
		in.Workers = workers
		rec := &recorder{}
		out, err := Stream(context.Background(), in, rec)
		if err != nil {
			t.Fatal(err)
		}
		if out.Clusters != nil || out.Applications != 13 {
			t.Errorf("workers %d: Clusters %v, Applications %d", workers, out.Clusters, out.Applications)
		}
		if diff := cmp.Diff(want, rec.final); diff != "" {
			t.Errorf("workers %d: final state differs from Run's (-run +stream):\n%s", workers, diff)
		}
		if first == nil {
			first = rec.puts
		} else if diff := cmp.Diff(first, rec.puts); diff != "" {
			t.Errorf("workers %d: the order of the writes changed (-1 worker +%d):\n%s", workers, workers, diff)
		}
	}
	if last := first[len(first)-1]; !strings.HasPrefix(last, "m2 ") || !strings.Contains(last, "via Karmada control plane karmada") {
		t.Errorf("the last write is %q, want a member's copy from the control plane", last)
	}
	// The observed Deployment web-0 is written first and replaced by the
	// application's.
	if !strings.HasPrefix(first[0], "local ") || !strings.Contains(strings.Join(first[:2], "\n"), "observed") {
		t.Errorf("observed objects do not come first: %q", first[:2])
	}
	if got := want["local Deployment.apps ns-0/web-0"]; !strings.Contains(got, "application app-0") {
		t.Errorf("web-0 = %q, want the application's", got)
	}
}

// TestStreamSinkError: the sink's error stops the run and comes back as
// it is, not as bad input.
func TestStreamSinkError(t *testing.T) {
	rec := &recorder{}
	if _, err := Stream(context.Background(), streamInputs(t), rec); err != nil {
		t.Fatal(err)
	}
	// The first put (an observed object), one of an application, the
	// last (a Karmada member's copy).
	for _, at := range []int{1, 3, len(rec.puts)} {
		_, err := Stream(context.Background(), streamInputs(t), &recorder{failAt: at})
		if !errors.Is(err, errSinkFull) || errors.Is(err, ErrInput) {
			t.Errorf("failing at put %d: %v", at, err)
		}
	}
}

// TestStreamReportsEveryInvalidApp: an invalid application among valid
// ones is reported with the others, after every application rendered.
func TestStreamReportsEveryInvalidApp(t *testing.T) {
	dir := t.TempDir()
	var apps strings.Builder
	for i := range 40 {
		typ := "webservice"
		if i == 7 || i == 33 {
			typ = "no-such-type"
		}
		fmt.Fprintf(&apps, "---\napiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: app-%d}\n"+
			"spec:\n  components:\n    - {name: c-%d, type: %s, properties: {image: x}}\n", i, i, typ)
	}
	path := filepath.Join(dir, "apps.yaml")
	if err := os.WriteFile(path, []byte(apps.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Stream(context.Background(), Inputs{Paths: []string{path}, Workers: 2}, &recorder{})
	if !errors.Is(err, ErrInput) || !strings.Contains(manifest.Format(err, nil), `"c-7"`) || !strings.Contains(manifest.Format(err, nil), `"c-33"`) {
		t.Errorf("error %v, want both invalid applications", err)
	}
}
