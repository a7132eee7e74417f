package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/schemas"
)

// conformanceInvalid lists the objects of the corpora's expected trees
// that the API server would refuse (or that drydock cannot check), with
// why: TestConformanceValidates proves every other object validates clean.
var conformanceInvalid = map[string]string{
	"kubevela/dryrun-app: expected/local/default/ingress.networking.k8s.io_myweb.yaml":                    "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/dryrun-diff-multichanges: expected/local/default/ingress.networking.k8s.io_myweb-1.yaml":    "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/dryrun-diff-multichanges: expected/local/default/ingress.networking.k8s.io_myweb-2.yaml":    "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/dryrun-diff-multichanges: expected/local/default/ingress.networking.k8s.io_myweb-3.yaml":    "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/dryrun-diff-nochange: expected/local/default/ingress.networking.k8s.io_myweb-1.yaml":        "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/dryrun-diff-onlyadd: expected/local/default/ingress.networking.k8s.io_myweb-1.yaml":         "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/dryrun-diff-onlyadd: expected/local/default/ingress.networking.k8s.io_myweb-2.yaml":         "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/dryrun-diff-onlyadd: expected/local/default/ingress.networking.k8s.io_myweb-3.yaml":         "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/dryrun-diff-onlymodif: expected/local/default/ingress.networking.k8s.io_myweb-1.yaml":       "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/dryrun-diff-onlyremove: expected/local/default/ingress.networking.k8s.io_myweb-1.yaml":      "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/ex-advanced-cue-app1: expected/local/default/ingress.networking.k8s.io_express-server.yaml": "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/ex-advanced-cue-mysql-pvc: expected/local/default/ingress.networking.k8s.io_mysql.yaml":     "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/ex-app-with-status: expected/local/default/ingress.networking.k8s.io_myweb.yaml":            "its trait renders networking.k8s.io/v1beta1 Ingress, which Kubernetes removed in 1.22 (the KubeVela test's definition predates it)",
	"kubevela/usage-hpa: expected/local/default/horizontalpodautoscaler.autoscaling_helloworld.yaml":      "the hpa trait renders autoscaling/v2beta2, which Kubernetes removed in 1.26",
	"kubevela/ex-advanced-cue-app2: expected/local/default/service_express-server.yaml":                   "its expose trait renders a ClusterIP Service without ports, which the API server's ValidateService refuses (spec.ports: Required value)",
	"kubevela/usage-daemon-update-strategy: expected/local/default/daemonset.apps_node-exporter.yaml":     "the example sets both maxSurge and maxUnavailable of a DaemonSet, which the API server's ValidateRollingUpdateDaemonSet refuses (may not be set when maxUnavailable is non-zero)",
}

// TestConformanceValidates validates every object the real KubeVela and
// Karmada produced in the corpora (their expected trees) against the
// newest embedded Kubernetes API and 1.29's, with the
// CustomResourceDefinitions among each case's inputs.
func TestConformanceValidates(t *testing.T) {
	for _, v := range []string{"1.29", schemas.DefaultKubeVersion()} {
		t.Run(v, func(t *testing.T) { validateCorpora(t, v) })
	}
}

func validateCorpora(t *testing.T, version string) {
	objects, unchecked := 0, 0
	var found []string
	for _, corpus := range []string{"kubevela", "karmada", "addons"} {
		root := filepath.Join(conformanceRoot, corpus)
		for _, c := range corpusCases(t, root) {
			dir := filepath.Join(root, "cases", c)
			if _, err := os.Stat(filepath.Join(dir, "expected")); err != nil {
				continue
			}
			crds := schemas.NewCRDs()
			for _, o := range readObjects(t, filepath.Join(dir, "input")) {
				if schemas.IsCRD(o) {
					if err := crds.Add(o); err != nil {
						t.Fatal(err)
					}
				}
			}
			for _, o := range readObjects(t, filepath.Join(dir, "expected")) {
				objects++
				name := corpus + "/" + c + ": " + o.Pos.File[len(dir)+1:]
				fs, checked, err := schemas.Check(version, crds, o)
				if err != nil {
					t.Fatal(err)
				}
				if !checked {
					unchecked++
				}
				for _, f := range fs {
					found = append(found, name+": "+f.String())
				}
			}
		}
	}
	sort.Strings(found)
	for _, f := range found {
		obj, _, _ := strings.Cut(f, ".yaml: ")
		if why, ok := conformanceInvalid[obj+".yaml"]; ok {
			t.Logf("known: %s (%s)", f, why)
			continue
		}
		t.Errorf("%s", f)
	}
	t.Logf("conformance objects validated against Kubernetes %s: %d, %d of kinds without a schema (custom resources)", version, objects, unchecked)
}

// readObjects decodes every YAML file under dir (none when it is absent).
func readObjects(t *testing.T, dir string) []*manifest.Object {
	t.Helper()
	var out []*manifest.Object
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := manifest.Decode(path, data, manifest.DecodeOptions{})
		if err != nil {
			return nil // inputs drydock refuses are the corpus's error cases
		}
		out = append(out, objs...)
		return nil
	})
	return out
}
