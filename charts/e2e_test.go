package charts

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// result is an Output as the end-to-end test compares it: the producer's
// name, the Source line and the object in JSON's data model.
type result struct {
	Source string
	By     string
	Data   map[string]any
}

func jsonData(t *testing.T, data map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// helmTemplate reads `helm template` output: each object with the
// template its "# Source:" line names.
func helmTemplate(t *testing.T, file string) (objs []*manifest.Object, templates []string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range bytes.Split(data, []byte("\n---\n")) {
		doc = bytes.TrimPrefix(doc, []byte("---\n"))
		var tmpl string
		for line := range strings.SplitSeq(string(doc), "\n") {
			if s, ok := strings.CutPrefix(line, "# Source: "); ok {
				tmpl = s
			}
		}
		decoded, err := manifest.Decode(file, doc, manifest.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range decoded {
			objs = append(objs, o)
			templates = append(templates, tmpl)
		}
	}
	return objs, templates
}

func decodeFile(t *testing.T, file string) []*manifest.Object {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := manifest.Decode(file, data, manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// TestEndToEnd reconciles testdata/e2e (a Kustomization whose build holds
// a ConfigMap of values and a HelmRelease of a chart in the same Git
// source) and compares the outputs with what `kustomize build` and `helm
// template` printed (testdata/e2e/README.md records the commands) plus
// what the controllers add, as their code does:
//   - kustomize-controller: the owner labels kustomize.toolkit.fluxcd.io/name
//     and /namespace on every object (fluxcd/pkg ssa SetOwnerLabels);
//   - helm-controller: the Namespace install.createNamespace creates
//     (Helm's install, labels name: <ns>); spec.commonMetadata's labels
//     and annotations, then the origin labels helm.toolkit.fluxcd.io/name
//     and /namespace, on every object and every kept hook (the default
//     post-render strategy, combined, sends hooks through the
//     post-renderers); the release namespace on namespaced objects that
//     have none (Helm's kube client);
//   - hooks after a successful install: the post-install Job (delete
//     policy before-hook-creation) stays; the pre-install Job
//     (hook-succeeded) is deleted; test hooks never run on install.
func TestEndToEnd(t *testing.T) {
	dir := filepath.Join("testdata", "e2e")
	cache, err := source.Open(source.Config{Sources: map[string]string{"flux-system/podinfo": filepath.Join(dir, "source")}})
	if err != nil {
		t.Fatal(err)
	}
	c := &Controller{Cache: cache}
	outs, warnings, err := c.Reconcile(context.Background(), Cluster{Name: "east", KubeVersion: "1.31.0"}, decodeFile(t, filepath.Join(dir, "inputs.yaml")))
	if err != nil {
		t.Fatal(manifest.Format(err, nil))
	}
	if len(warnings) != 0 {
		t.Errorf("warnings: %q", warnings)
	}
	var got []result
	for _, o := range outs {
		got = append(got, result{Source: o.Source, By: o.By.Kind() + " " + o.By.Name(), Data: jsonData(t, o.Object.Data)})
	}

	var want []result
	for _, o := range decodeFile(t, filepath.Join(dir, "expected", "kustomize-build.yaml")) {
		setMetadata(o, "labels", map[string]string{"kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": "flux-system"})
		want = append(want, result{Source: "Kustomization flux-system/apps, path ./apps", By: "Kustomization apps", Data: jsonData(t, o.Data)})
	}
	const release = "HelmRelease flux-system/podinfo, chart podinfo 6.14.1, "
	want = append(want, result{Source: release + "install.createNamespace", By: "HelmRelease podinfo",
		Data: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "apps", "labels": map[string]any{"name": "apps"}}}})
	objs, templates := helmTemplate(t, filepath.Join(dir, "expected", "helm-template.yaml"))
	for i, o := range objs {
		hook := o.Annotations()["helm.sh/hook"]
		src := release + "template " + templates[i]
		switch hook {
		case "":
		case "post-install":
			src = release + "hook post-install, template " + templates[i]
		default:
			continue // test hooks; the pre-install Job, deleted once it succeeded
		}
		setMetadata(o, "labels", map[string]string{"team": "web"})
		setMetadata(o, "annotations", map[string]string{"owner": "web-team"})
		setMetadata(o, "labels", map[string]string{"helm.toolkit.fluxcd.io/name": "podinfo", "helm.toolkit.fluxcd.io/namespace": "flux-system"})
		if o.Namespace() == "" {
			manifest.SetNested(o.Data, "apps", "metadata", "namespace")
		}
		want = append(want, result{Source: src, By: "HelmRelease podinfo", Data: jsonData(t, o.Data)})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
}
