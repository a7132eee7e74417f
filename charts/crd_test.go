package charts

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// TestCRDPolicyAndHooks renders testdata/crdchart (expected output from
// `helm template --include-crds`, see crdchart.README.md) under each
// install.crds policy and install.disableHooks: the CRD stays unless the
// policy is Skip (Create and CreateReplace only differ on upgrade), with
// the origin labels only; the pre-install hook (Helm's default delete
// policy, before-hook-creation) stays unless hooks are disabled.
func TestCRDPolicyAndHooks(t *testing.T) {
	cache, err := source.Open(source.Config{Sources: map[string]string{"flux-system/widgets": filepath.Join("testdata", "crdchart")}})
	if err != nil {
		t.Fatal(err)
	}
	expected, templates := helmTemplate(t, filepath.Join("testdata", "crdchart.expected.yaml"))
	tests := []struct {
		install string
		want    []int // indexes into expected
	}{
		{"{}", []int{0, 1, 2}},
		{"{crds: Create}", []int{0, 1, 2}},
		{"{crds: CreateReplace}", []int{0, 1, 2}},
		{"{crds: Skip}", []int{1, 2}},
		{"{disableHooks: true}", []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.install, func(t *testing.T) {
			c := &Controller{Cache: cache}
			objs := decode(t, `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: rel, namespace: apps}
spec:
  install: `+tt.install+`
  chart: {spec: {chart: ./, sourceRef: {kind: GitRepository, name: widgets, namespace: flux-system}}}
`)
			outs, _, err := c.Reconcile(context.Background(), Cluster{Name: "east", KubeVersion: "1.31.0"}, objs)
			if err != nil {
				t.Fatal(manifest.Format(err, nil))
			}
			var got, want []result
			for _, o := range outs {
				got = append(got, result{Source: o.Source, Data: jsonData(t, o.Object.Data)})
			}
			for _, i := range tt.want {
				o := manifest.New(manifest.DeepCopy(expected[i].Data).(map[string]any))
				setMetadata(o, "labels", map[string]string{labelHelmName: "rel", labelHelmNamespace: "apps"})
				src := "HelmRelease apps/rel, chart widgets 0.1.0, template " + templates[i]
				switch o.Kind() {
				case "CustomResourceDefinition":
					src = "HelmRelease apps/rel, chart widgets 0.1.0, crd " + templates[i]
				case "Job":
					src = "HelmRelease apps/rel, chart widgets 0.1.0, hook pre-install,pre-upgrade, template " + templates[i]
					fallthrough
				default:
					manifest.SetNested(o.Data, "apps", "metadata", "namespace")
				}
				want = append(want, result{Source: src, Data: jsonData(t, o.Data)})
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
