package kustomize

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// ks is a Flux Kustomization named ns/name with spec fields.
func ks(ns, name string, spec map[string]any) *manifest.Object {
	return manifest.New(map[string]any{
		"apiVersion": "kustomize.toolkit.fluxcd.io/v1",
		"kind":       "Kustomization",
		"metadata":   map[string]any{"name": name, "namespace": ns},
		"spec":       spec,
	})
}

// readKs reads the Flux Kustomization in file.
func readKs(t *testing.T, file string) *manifest.Object {
	t.Helper()
	objs := readObjects(t, file)
	if len(objs) != 1 {
		t.Fatalf("%s: %d objects, want 1", file, len(objs))
	}
	return objs[0]
}

// readObjects decodes file.
func readObjects(t *testing.T, file string) []*manifest.Object {
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

// datas is the content of objs, for cmp.Diff.
func datas(objs []*manifest.Object) []map[string]any {
	out := make([]map[string]any, len(objs))
	for i, o := range objs {
		out[i] = o.Data
	}
	return out
}

// byKey sorts objs by Key: `kustomize build` orders by kind (its legacy
// order), kustomize-controller's krusty options keep accumulation order.
func byKey(objs []*manifest.Object) []*manifest.Object {
	out := slices.Clone(objs)
	slices.SortStableFunc(out, func(a, b *manifest.Object) int {
		switch {
		case a.Key().Less(b.Key()):
			return -1
		case b.Key().Less(a.Key()):
			return 1
		}
		return 0
	})
	return out
}

// withoutOwnerLabels drops the labels the controller adds, so a build
// compares with `kustomize build` and fluxcd/pkg's expectations.
func withoutOwnerLabels(objs []*manifest.Object) []*manifest.Object {
	for _, o := range objs {
		meta := manifest.Map(o.Data, "metadata")
		labels := manifest.Map(meta, "labels")
		delete(labels, labelName)
		delete(labels, labelNamespace)
		if labels != nil && len(labels) == 0 {
			delete(meta, "labels")
		}
	}
	return objs
}

// lookupIn finds objects among objs.
func lookupIn(objs ...*manifest.Object) Lookup {
	return func(kind, ns, name string) *manifest.Object {
		for _, o := range objs {
			if o.Kind() == kind && o.Namespace() == ns && o.Name() == name {
				return o
			}
		}
		return nil
	}
}

// treeHash is a digest of every path, mode and content below dir.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %v %d\n", p, info.Mode(), info.ModTime().UnixNano())
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// Plain kustomizations build as `kustomize build` does (expected/*.yaml,
// from expected/kustomize.sh) apart from the owner labels.
func TestBuildMatchesKustomize(t *testing.T) {
	tests := []struct {
		root, path, want string
	}{
		{"upstream/kustomize/helloWorld", ".", "helloWorld"},
		{"upstream/kustomize/ldap", "base", "ldap-base"},
		{"upstream/kustomize/ldap", "overlays/staging", "ldap-staging"},
		{"upstream/kustomize/ldap", "overlays/production", "ldap-production"},
		{"upstream/kustomize/multibases", ".", "multibases"},
		{"upstream/kustomize/wordpress", ".", "wordpress"},
		{"upstream/flux2-kustomize-helm-example/apps", "staging", "flux-example-apps-staging"},
		{"upstream/flux2-kustomize-helm-example/apps", "production", "flux-example-apps-production"},
		{"upstream/flux2-kustomize-helm-example/infrastructure", "controllers", "flux-example-infra-controllers"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			root := filepath.Join("testdata", tt.root)
			before := treeHash(t, root)
			got, err := BuildWith(Options{
				Root: root, Dir: filepath.Join(root, tt.path),
				Kustomization: ks("flux-system", "k", map[string]any{"path": "./" + tt.path}),
			})
			if err != nil {
				t.Fatal(err)
			}
			want := readObjects(t, filepath.Join("testdata/expected", tt.want+".yaml"))
			if diff := cmp.Diff(datas(byKey(want)), datas(byKey(withoutOwnerLabels(got)))); diff != "" {
				t.Errorf("build (-kustomize build +drydock):\n%s", diff)
			}
			if after := treeHash(t, root); after != before {
				t.Errorf("the build changed %s", root)
			}
		})
	}
}

// Build takes the source root off the end of dir, so an overlay reads
// its ../../base.
func TestBuildFindsRoot(t *testing.T) {
	dir := filepath.Join("testdata/upstream/kustomize/ldap", "overlays/staging")
	got, err := Build(dir, ks("flux-system", "ldap", map[string]any{"path": "./overlays/staging"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := readObjects(t, "testdata/expected/ldap-staging.yaml")
	if diff := cmp.Diff(datas(byKey(want)), datas(byKey(withoutOwnerLabels(got)))); diff != "" {
		t.Errorf("build (-want +got):\n%s", diff)
	}
	if _, err := Build(dir, ks("flux-system", "ldap", map[string]any{"path": "./elsewhere"}), nil); err == nil ||
		!strings.Contains(err.Error(), "fs-security-constraint") {
		t.Errorf("an overlay outside the root: err = %v, want the secure filesystem's refusal", err)
	}
}

// Every object carries the owner labels, and spec.commonMetadata over
// them, as the controller applies it.
func TestBuildOwnerLabelsAndCommonMetadata(t *testing.T) {
	k := ks("apps", "hello", map[string]any{"commonMetadata": map[string]any{
		"labels":      map[string]any{"team": "a", labelName: "overridden"},
		"annotations": map[string]any{"owner": "a@example.com"},
	}})
	got, err := Build("testdata/upstream/kustomize/helloWorld", k, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range got {
		want := map[string]string{"app": "hello", "team": "a", labelName: "overridden", labelNamespace: "apps"}
		if diff := cmp.Diff(want, o.Labels()); diff != "" {
			t.Errorf("%s labels (-want +got):\n%s", o.Key(), diff)
		}
		if a := o.Annotations()["owner"]; a != "a@example.com" {
			t.Errorf("%s owner annotation = %q", o.Key(), a)
		}
	}
}

// Cases of fluxcd/pkg/kustomize v1.41.0's own tests (vendored under
// testdata/upstream/fluxcd-pkg-kustomize).
func TestBuildFluxPkgCases(t *testing.T) {
	const up = "testdata/upstream/fluxcd-pkg-kustomize"
	cm := readObjects(t, up+"/configmap.yaml")
	t.Run("generator", func(t *testing.T) { // TestKustomizationGenerator
		got, err := BuildWith(Options{Dir: up + "/resources", Kustomization: readKs(t, up+"/kustomization.yaml")})
		if err != nil {
			t.Fatal(err)
		}
		want := readObjects(t, up+"/kustomization_expected.yaml")
		if diff := cmp.Diff(datas(want), datas(withoutOwnerLabels(got))); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("varsub", func(t *testing.T) { // TestKustomization_Varsub
		got, err := BuildWith(Options{Dir: up + "/resources", Kustomization: readKs(t, up+"/kustomization_varsub.yaml"), Lookup: lookupIn(cm...)})
		if err != nil {
			t.Fatal(err)
		}
		want := readObjects(t, up+"/kustomization_varsub_expected.yaml")
		if diff := cmp.Diff(datas(want), datas(withoutOwnerLabels(got))); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("strict", func(t *testing.T) {
		o := Options{Dir: up + "/varsubstrict", Kustomization: readKs(t, up+"/kustomization_varsub.yaml"), Lookup: lookupIn(cm...)}
		if _, err := BuildWith(o); err != nil {
			t.Errorf("strict off: %v", err)
		}
		o.StrictSubstitution = true
		if _, err := BuildWith(o); err == nil || !strings.Contains(err.Error(), "variable not set") {
			t.Errorf("strict on: err = %v, want variable not set", err)
		}
	})
	t.Run("always", func(t *testing.T) { // TestKustomization_Varsub_Always
		k := readKs(t, up+"/kustomization_varsub_novars.yaml")
		got, err := BuildWith(Options{Dir: up + "/varsubalways", Kustomization: k})
		if err != nil {
			t.Fatal(err)
		}
		if l := got[0].Labels(); l["environment"] != "${cluster_env:=dev}" {
			t.Errorf("WithVariables without variables substituted: %v", l)
		}
		manifest.SetNested(k.Data, "Always", "spec", "postBuild", "substituteStrategy")
		got, err = BuildWith(Options{Dir: up + "/varsubalways", Kustomization: k})
		if err != nil {
			t.Fatal(err)
		}
		if l, r := got[0].Labels()["environment"], manifest.String(got[0].Data, "data", "region"); l != "dev" || r != "eu-central-1" {
			t.Errorf("Always: environment %q, region %q, want the defaults", l, r)
		}
	})
	t.Run("strict empty values", func(t *testing.T) { // TestKustomization_Varsub_StrictEmptyValues
		lookup := lookupIn(append(readObjects(t, up+"/configmap_empty.yaml"), readObjects(t, up+"/secret_empty.yaml")...)...)
		got, err := BuildWith(Options{Dir: up + "/varsubstrictempty", Kustomization: readKs(t, up+"/kustomization_varsub_empty.yaml"), Lookup: lookup, StrictSubstitution: true})
		if err != nil {
			t.Fatal(err)
		}
		labels := manifest.Map(got[0].Data, "metadata", "labels")
		for _, k := range []string{"from-inline", "from-configmap", "from-secret"} {
			if v, ok := labels[k]; !ok || v != nil {
				t.Errorf("label %s = %#v, want null", k, v)
			}
		}
	})
	t.Run("secret", func(t *testing.T) { // TestKustomization_Varsub_ContextWithSecretVarsCollector's inputs
		lookup := lookupIn(append(cm, readObjects(t, up+"/secret.yaml")...)...)
		if _, err := BuildWith(Options{Dir: up + "/resources", Kustomization: readKs(t, up+"/kustomization_varsub_with_secret.yaml"), Lookup: lookup}); err != nil {
			t.Fatal(err)
		}
	})
}

// The Flux-field fixtures (testdata/flux), and kustomize's examples as
// Flux builds them (owner labels, no reordering), equal `flux build
// kustomization` (expected/flux.sh), order included.
func TestBuildMatchesFluxCLI(t *testing.T) {
	tests := []struct{ ks, root, want string }{
		{"testdata/flux/overlay.ks.yaml", "testdata/flux/src", "flux-overlay"},
		{"testdata/flux/plain.ks.yaml", "testdata/flux/src", "flux-plain"},
		{"testdata/flux/disabled.ks.yaml", "testdata/flux/src", "flux-disabled"},
		{"testdata/flux/infra-configs.ks.yaml", "testdata/upstream/flux2-kustomize-helm-example/infrastructure", "flux-example-infra-configs"},
		{"testdata/flux/ldap-staging.ks.yaml", "testdata/upstream/kustomize/ldap", "flux-ldap-staging"},
		{"testdata/flux/wordpress.ks.yaml", "testdata/upstream/kustomize/wordpress", "flux-wordpress"},
		{"testdata/flux/multibases.ks.yaml", "testdata/upstream/kustomize/multibases", "flux-multibases"},
		{"testdata/flux/typo.ks.yaml", "testdata/flux/src", "flux-typo"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			k := readKs(t, tt.ks)
			before := treeHash(t, tt.root)
			got, err := BuildWith(Options{Root: tt.root, Dir: filepath.Join(tt.root, manifest.String(k.Data, "spec", "path")), Kustomization: k})
			if err != nil {
				t.Fatal(err)
			}
			want := readObjects(t, filepath.Join("testdata/expected", tt.want+".yaml"))
			if diff := cmp.Diff(datas(want), datas(got)); diff != "" {
				t.Errorf("build (-flux build +drydock):\n%s", diff)
			}
			if treeHash(t, tt.root) != before {
				t.Errorf("the build changed %s", tt.root)
			}
		})
	}
}

// A read-only source builds (nothing is written to it), generated
// kustomization.yaml included.
func TestBuildReadOnlyDir(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/flux/src")); err != nil {
		t.Fatal(err)
	}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			mode := os.FileMode(0o444)
			if d.IsDir() {
				mode = 0o555
			}
			err = os.Chmod(p, mode)
		}
		return err
	})
	t.Cleanup(func() { _ = os.Chmod(root, 0o755) })
	before := treeHash(t, root)
	for _, p := range []string{"plain", "overlay"} {
		if _, err := Build(filepath.Join(root, p), ks("ns", p, map[string]any{"path": p, "namePrefix": "x-"}), nil); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if treeHash(t, root) != before {
		t.Error("the build changed the read-only source")
	}
	if _, err := os.Stat(filepath.Join(root, "plain", "kustomization.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a kustomization.yaml was left in the source: %v", err)
	}
}

// What the build refuses, and how it says so.
func TestBuildRefusals(t *testing.T) {
	write := func(t *testing.T, files map[string]string) string {
		dir := t.TempDir()
		for name, content := range files {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: ${VAR}\n"
	postBuild := func(optional bool) map[string]any {
		return map[string]any{"postBuild": map[string]any{"substituteFrom": []any{
			map[string]any{"kind": "ConfigMap", "name": "vars", "optional": optional},
		}}}
	}
	tests := []struct {
		name    string
		files   map[string]string
		spec    map[string]any
		strict  bool
		is      error
		message string
	}{
		{name: "missing path", files: map[string]string{"a.yaml": cm}, spec: map[string]any{"path": "./nope"},
			is: ErrPathNotFound, message: "kustomization path not found"},
		{name: "bad kustomization.yaml", files: map[string]string{"kustomization.yaml": "resources: [a.yaml\n"},
			message: "kustomization.yaml: error converting YAML to JSON"},
		{name: "missing resource", files: map[string]string{"kustomization.yaml": "resources: [missing.yaml]\n"},
			message: "kustomize build failed: accumulating resources"},
		{name: "remote https resource", files: map[string]string{"kustomization.yaml": "resources:\n- https://example.com/app.yaml\n"},
			is: ErrRemote, message: `kustomization.yaml: resources[0] "https://example.com/app.yaml": remote reference: drydock never fetches`},
		{name: "remote git base in a base", files: map[string]string{
			"kustomization.yaml":      "resources: [base]\n",
			"base/kustomization.yaml": "resources:\n- github.com/org/repo//deploy?ref=v1\n",
		}, is: ErrRemote, message: `base/kustomization.yaml: resources[0] "github.com/org/repo//deploy?ref=v1"`},
		{name: "host path base", files: map[string]string{"kustomization.yaml": "resources:\n- gitlab.example.com/org/repo/deploy\n"},
			is: ErrRemote},
		{name: "remote patch file", files: map[string]string{"kustomization.yaml": "resources: [a.yaml]\npatches:\n- path: http://example.com/p.yaml\n", "a.yaml": cm},
			is: ErrRemote, message: `patches[0].path`},
		{name: "helmCharts", files: map[string]string{"kustomization.yaml": "helmCharts:\n- name: podinfo\n  repo: https://stefanprodan.github.io/podinfo\n"},
			is: ErrRemote, message: "helmCharts"},
		{name: "remote component in the Flux Kustomization", files: map[string]string{"a.yaml": cm},
			spec: map[string]any{"components": []any{"https://example.com/c"}}, message: "component path 'https://example.com/c' must be local and relative"},
		{name: "missing substituteFrom", files: map[string]string{"a.yaml": cm}, spec: postBuild(false),
			is: ErrSubstituteFrom, message: `post build failed for 'ConfigMap.v1.[noGrp]/c': substitute from 'ConfigMap/vars' error: substituteFrom not found: configmaps "vars" not found in namespace "ns"`},
		{name: "strict unset variable", files: map[string]string{"a.yaml": cm}, strict: true,
			spec:    map[string]any{"postBuild": map[string]any{"substitute": map[string]any{"OTHER": "x"}}},
			message: "envsubst error: variable substitution failed: variable not set (strict mode): \"VAR\""},
		{name: "invalid variable name", files: map[string]string{"a.yaml": cm},
			spec:    map[string]any{"postBuild": map[string]any{"substitute": map[string]any{"1X": "x"}}},
			message: "'1X' var name is invalid"},
		{name: "not a Kustomization", files: map[string]string{"a.yaml": cm}, spec: nil, is: ErrNotKustomization},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := write(t, tt.files)
			k := ks("ns", "k", tt.spec)
			if tt.is == ErrNotKustomization {
				k.Data["apiVersion"] = "kustomize.config.k8s.io/v1beta1"
			}
			d := dir
			if p := manifest.String(k.Data, "spec", "path"); p != "" {
				d = filepath.Join(dir, p)
			}
			before := treeHash(t, dir)
			_, err := BuildWith(Options{Root: dir, Dir: d, Kustomization: k, StrictSubstitution: tt.strict})
			if err == nil {
				t.Fatal("no error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("err = %v, want %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Errorf("err = %v\nwant it to contain %q", err, tt.message)
			}
			if treeHash(t, dir) != before {
				t.Error("the failed build changed the source")
			}
		})
	}
	t.Run("optional substituteFrom", func(t *testing.T) {
		dir := write(t, map[string]string{"a.yaml": cm})
		got, err := Build(dir, ks("ns", "k", postBuild(true)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if v := manifest.String(got[0].Data, "data", "k"); v != "${VAR}" {
			t.Errorf("data.k = %q: without variables nothing is substituted", v)
		}
	})
}

// v1beta2's patchesStrategicMerge and patchesJson6902 go into the
// kustomization as the generator writes them; expected: `kustomize
// build` of the hand-written equivalent (expected/kustomize.sh).
func TestBuildV1beta2Patches(t *testing.T) {
	k := readKs(t, "testdata/flux/v1beta2.ks.yaml")
	got, err := Build("testdata/flux/src/v1beta2", k, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := readObjects(t, "testdata/expected/flux-v1beta2-equivalent.yaml")
	if diff := cmp.Diff(datas(want), datas(withoutOwnerLabels(got))); diff != "" {
		t.Errorf("(-kustomize build +drydock):\n%s", diff)
	}
}

// An unknown field the generator drops is a warning.
func TestBuildWarnsDroppedField(t *testing.T) {
	var warnings []string
	_, err := BuildWith(Options{
		Root: "testdata/flux/src", Dir: "testdata/flux/src/typo",
		Kustomization: ks("ns", "k", nil),
		Warn:          func(w string) { warnings = append(warnings, w) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], `typo/kustomization.yaml: invalid Kustomization: json: unknown field "resource": kustomize-controller drops the field`) {
		t.Errorf("warnings = %q", warnings)
	}
}

// kustomize's deprecation warnings reach Options.Warn, not stderr.
func TestBuildWarnings(t *testing.T) {
	var warnings []string
	_, err := BuildWith(Options{
		Dir:           "testdata/upstream/kustomize/helloWorld",
		Kustomization: ks("ns", "k", nil),
		Warn:          func(w string) { warnings = append(warnings, w) },
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Warning: 'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize edit fix' to update your Kustomization automatically."}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// BenchmarkBuild builds a base of 20 resources with an overlay and the
// Flux fields (namePrefix, targetNamespace, images, patches, postBuild).
func BenchmarkBuild(b *testing.B) {
	root := b.TempDir()
	base := filepath.Join(root, "base")
	overlay := filepath.Join(root, "overlay")
	for _, d := range []string{base, overlay} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	var resources []string
	for i := range 20 {
		name := fmt.Sprintf("r%02d.yaml", i)
		resources = append(resources, name)
		doc := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-%02d
  labels: {app: app-%02d}
spec:
  replicas: 1
  selector: {matchLabels: {app: app-%02d}}
  template:
    metadata: {labels: {app: app-%02d}}
    spec:
      containers:
        - name: app
          image: nginx:1.25
          env: [{name: REGION, value: "${REGION}"}]
---
apiVersion: v1
kind: Service
metadata: {name: app-%02d}
spec:
  selector: {app: app-%02d}
  ports: [{port: 80}]
`, i, i, i, i, i, i)
		if err := os.WriteFile(filepath.Join(base, name), []byte(doc), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	kbase := "resources:\n- " + strings.Join(resources, "\n- ") + "\n"
	kover := "resources: [../base]\nnamePrefix: stg-\ncommonLabels: {env: staging}\nimages: [{name: nginx, newTag: '1.26'}]\n"
	if err := os.WriteFile(filepath.Join(base, "kustomization.yaml"), []byte(kbase), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(overlay, "kustomization.yaml"), []byte(kover), 0o644); err != nil {
		b.Fatal(err)
	}
	k := ks("flux-system", "apps", map[string]any{
		"path": "./overlay", "targetNamespace": "apps", "nameSuffix": "-v1",
		"patches":   []any{map[string]any{"patch": "- op: replace\n  path: /spec/replicas\n  value: 2\n", "target": map[string]any{"kind": "Deployment"}}},
		"postBuild": map[string]any{"substitute": map[string]any{"REGION": "eu-west-1"}},
	})
	b.ReportAllocs()
	for b.Loop() {
		objs, err := Build(overlay, k, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(objs) != 40 {
			b.Fatalf("%d objects", len(objs))
		}
	}
}

// A kustomization's `openapi:` schema applies to its own build and does
// not leak into the next (fluxcd/pkg/kustomize TestOpenAPIPollution);
// expected: `kustomize build` of each alone.
func TestBuildOpenAPISchemaDoesNotLeak(t *testing.T) {
	const p = "testdata/upstream/fluxcd-pkg-kustomize/openapiPollution/"
	for _, name := range []string{"victim", "pollutor", "victim", "pollutor"} {
		got, err := Build(p+name, ks("ns", name, nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := readObjects(t, "testdata/expected/openapi-"+name+".yaml")
		if diff := cmp.Diff(datas(want), datas(withoutOwnerLabels(got))); diff != "" {
			t.Errorf("%s (-kustomize build +drydock):\n%s", name, diff)
		}
	}
}

// An inline transformer config is not taken for a remote reference.
func TestBuildInlineTransformer(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
		"kustomization.yaml": `resources: [a.yaml]
transformers:
- |-
  apiVersion: builtin
  kind: PrefixSuffixTransformer
  metadata:
    name: x.y/z
  prefix: inline-
  fieldSpecs:
  - path: metadata/name
`,
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Build(dir, ks("ns", "k", nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Name() != "inline-a" {
		t.Errorf("name = %q, want inline-a", got[0].Name())
	}
}
