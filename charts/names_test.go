package charts

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/charts/helm"
	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// TestShortenName is helm-controller internal/release/name_test.go's
// TestShortName table.
func TestShortenName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"release-name", "release-name"},
		{"release-name-with-very-long-name-which-is-longer-than-53-characters", "release-name-with-very-long-name-which-i-788ca0d0d7b0"},
		{"another-release-name-with-very-long-name-which-is-longer-than-53-characters", "another-release-name-with-very-long-name-7e72150d5a36"},
		{"", ""},
	}
	for _, tt := range tests {
		got := shortenName(tt.name)
		if got != tt.want || len(got) > 53 {
			t.Errorf("shortenName(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestReleaseName is helm-controller's GetReleaseName and
// GetReleaseNamespace (api/v2/helmrelease_types.go).
func TestReleaseName(t *testing.T) {
	tests := []struct{ name, releaseName, target, wantName, wantNS string }{
		{"podinfo", "", "", "podinfo", "flux-system"},
		{"podinfo", "", "apps", "apps-podinfo", "apps"},
		{"podinfo", "web", "apps", "web", "apps"},
		{"podinfo", "web", "", "web", "flux-system"},
	}
	for _, tt := range tests {
		if got := releaseName(tt.name, tt.releaseName, tt.target); got != tt.wantName {
			t.Errorf("releaseName(%q, %q, %q) = %q, want %q", tt.name, tt.releaseName, tt.target, got, tt.wantName)
		}
		if got := releaseNamespace("flux-system", tt.target); got != tt.wantNS {
			t.Errorf("releaseNamespace(%q) = %q, want %q", tt.target, got, tt.wantNS)
		}
	}
}

// TestCRDPolicy is helm-controller's crdPolicyOrDefault
// (internal/action/crds.go): "" is Create; anything else but Skip, Create
// and CreateReplace an error.
func TestCRDPolicy(t *testing.T) {
	for in, want := range map[string]string{"": "Create", "Skip": "Skip", "Create": "Create", "CreateReplace": "CreateReplace", "Replace": ""} {
		got, err := crdPolicy(in)
		if want == "" {
			if err == nil {
				t.Errorf("crdPolicy(%q): no error", in)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("crdPolicy(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestHookKept: after a successful install (and its tests, when
// spec.test.enable), a hook stays when they run it and no hook-succeeded
// delete policy removes it (Helm's default policy, before-hook-creation,
// keeps it until the next run).
func TestHookKept(t *testing.T) {
	hook := func(policy string, events ...string) helm.Object {
		md := map[string]any{"name": "h"}
		if policy != "" {
			md["annotations"] = map[string]any{"helm.sh/hook-delete-policy": policy}
		}
		return helm.Object{Object: manifest.New(map[string]any{"kind": "Job", "metadata": md}), Hooks: events}
	}
	tests := []struct {
		name string
		o    helm.Object
		test testSpec
		want bool
	}{
		{"post-install, default policy", hook("", "post-install"), testSpec{}, true},
		{"pre-install, before-hook-creation", hook("before-hook-creation", "pre-install"), testSpec{}, true},
		{"post-install, hook-failed", hook("hook-failed", "post-install"), testSpec{}, true},
		{"post-install, hook-succeeded", hook("hook-succeeded", "post-install"), testSpec{}, false},
		{"pre-install, before-hook-creation,hook-succeeded", hook("before-hook-creation, hook-succeeded", "pre-install", "pre-upgrade"), testSpec{}, false},
		{"pre-upgrade only", hook("", "pre-upgrade"), testSpec{}, false},
		{"test", hook("", "test"), testSpec{}, false},
		{"post-delete", hook("", "post-delete"), testSpec{}, false},
		{"test, tests enabled", hook("", "test"), testSpec{Enable: true}, true},
		{"test-success, tests enabled, hook-succeeded", hook("before-hook-creation,hook-succeeded", "test-success"), testSpec{Enable: true}, false},
		{"test, excluded by name", hook("", "test"), testSpec{Enable: true, Filters: []testFilter{{"h", true}}}, false},
		{"test, another included", hook("", "test"), testSpec{Enable: true, Filters: []testFilter{{"other", false}}}, false},
		{"test, included", hook("", "test"), testSpec{Enable: true, Filters: []testFilter{{"h", false}}}, true},
	}
	for _, tt := range tests {
		if got := hookKept(tt.o, tt.test); got != tt.want {
			t.Errorf("%s: hookKept = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestReads(t *testing.T) {
	tests := []struct {
		apiVersion, kind string
		want             bool
	}{
		{"helm.toolkit.fluxcd.io/v2", "HelmRelease", true},
		{"helm.toolkit.fluxcd.io/v2beta1", "HelmRelease", true},
		{"kustomize.toolkit.fluxcd.io/v1", "Kustomization", true},
		{"source.toolkit.fluxcd.io/v1", "HelmRepository", true},
		{"source.toolkit.fluxcd.io/v1", "HelmChart", true},
		{"source.toolkit.fluxcd.io/v1", "GitRepository", true},
		{"source.toolkit.fluxcd.io/v1beta2", "OCIRepository", true},
		{"source.toolkit.fluxcd.io/v1", "Bucket", true},
		{"v1", "ConfigMap", true},
		{"v1", "Secret", true},
		{"kustomize.config.k8s.io/v1beta1", "Kustomization", false},
		{"apps/v1", "Deployment", false},
		{"example.com/v1", "ConfigMap", false},
		{"", "ConfigMap", false},
	}
	for _, tt := range tests {
		o := manifest.New(map[string]any{"apiVersion": tt.apiVersion, "kind": tt.kind})
		if got := Reads(o); got != tt.want {
			t.Errorf("Reads(%s %s) = %v, want %v", tt.apiVersion, tt.kind, got, tt.want)
		}
	}
}

func TestOCIVersion(t *testing.T) {
	tests := []struct {
		ref  map[string]any
		want string
	}{
		{nil, "latest"},
		{map[string]any{"tag": "6.7.1"}, "6.7.1"},
		{map[string]any{"tag": "6.7.1", "semver": ">=6.0.0"}, ">=6.0.0"},
		{map[string]any{"tag": "6.7.1", "semver": ">=6.0.0", "digest": "sha256:abc"}, "sha256:abc"},
	}
	for _, tt := range tests {
		if got := ociVersion(tt.ref); got != tt.want {
			t.Errorf("ociVersion(%v) = %q, want %q", tt.ref, got, tt.want)
		}
	}
}

func decode(t *testing.T, text string) []*manifest.Object {
	t.Helper()
	objs, err := manifest.Decode("in.yaml", []byte(text), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

func emptyCache(t *testing.T) *source.Cache {
	t.Helper()
	c, err := source.Open(source.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestReconcileSkips: suspended producers and those for a remote cluster
// are not rendered, with a warning naming them and their place.
func TestReconcileSkips(t *testing.T) {
	objs := decode(t, `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: a, namespace: apps}
spec:
  suspend: true
  chart: {spec: {chart: podinfo, sourceRef: {kind: HelmRepository, name: podinfo}}}
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: b, namespace: flux-system}
spec:
  kubeConfig: {secretRef: {name: remote}}
  sourceRef: {kind: GitRepository, name: repo}
`)
	c := &Controller{Cache: emptyCache(t)}
	out, warnings, err := c.Reconcile(context.Background(), Cluster{Name: "east"}, objs)
	if err != nil || len(out) != 0 {
		t.Fatalf("out = %v, err = %v", out, err)
	}
	want := []string{
		"in.yaml:8:1: Kustomization flux-system/b: spec.kubeConfig applies it to a remote cluster: not rendered on cluster east",
		"in.yaml:1:1: HelmRelease apps/a: spec.suspend is true: not rendered",
	}
	if diff := cmp.Diff(want, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestReconcileSourceErrors: a HelmRelease whose source is not on the
// cluster, or of a kind Flux does not know, is an error naming it at its
// line; the others still render (here: fail on their own).
func TestReconcileSourceErrors(t *testing.T) {
	objs := decode(t, `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: a, namespace: apps}
spec:
  chart:
    spec:
      chart: podinfo
      sourceRef: {kind: HelmRepository, name: podinfo}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: b, namespace: apps}
spec:
  chartRef: {kind: GitRepository, name: x}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: c, namespace: apps}
spec:
  install: {crds: Replace}
  chart: {spec: {chart: podinfo, sourceRef: {kind: HelmRepository, name: podinfo}}}
`)
	c := &Controller{Cache: emptyCache(t)}
	_, _, err := c.Reconcile(context.Background(), Cluster{Name: "east"}, objs)
	var msgs []string
	for _, e := range err.(manifest.Errors) {
		msgs = append(msgs, manifest.Format(e, nil))
	}
	want := []string{
		`in.yaml:7:7: HelmRelease apps/a: HelmRepository apps/podinfo is not on cluster east`,
		`in.yaml:14:20: HelmRelease apps/b: chartRef kind "GitRepository" is not OCIRepository or HelmChart`,
		`in.yaml:20:19: HelmRelease apps/c: invalid CRD policy 'Replace', valid values are 'Skip', 'Create' or 'CreateReplace'`,
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestAddDuplicates: an object produced where one already is is an error
// naming both producers, but one produced again the same but for the
// owner labels (a Kustomization that manages itself) is not, and is not
// output again; a new producer is queued.
func TestAddDuplicates(t *testing.T) {
	objs := decode(t, `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: flux-system, namespace: flux-system}
spec: {path: ./clusters/prod, sourceRef: {kind: GitRepository, name: flux-system}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm, namespace: apps}
`)
	ks, cm := objs[0], objs[1]
	r := &run{objects: map[manifest.Key]entry{}, depth: map[*manifest.Object]int{}}
	for _, o := range objs {
		r.objects[o.Key()] = entry{obj: o}
	}
	self := manifest.New(manifest.DeepCopy(ks.Data).(map[string]any))
	changed := manifest.New(manifest.DeepCopy(ks.Data).(map[string]any))
	manifest.SetNested(changed.Data, "./elsewhere", "spec", "path")
	hr := manifest.New(map[string]any{"apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease", "metadata": map[string]any{"name": "web", "namespace": "apps"}})
	cm2 := manifest.New(manifest.DeepCopy(cm.Data).(map[string]any))
	cm2.Data["data"] = map[string]any{"k": "v"}
	cm3 := manifest.New(manifest.DeepCopy(cm.Data).(map[string]any))
	cm3.Data["metadata"].(map[string]any)["labels"] = map[string]any{"helm.toolkit.fluxcd.io/name": "web", "helm.toolkit.fluxcd.io/namespace": "apps"}
	r.add(ks, []Output{{Object: self, By: ks}, {Object: hr, By: ks}})
	if len(r.errs) != 0 || len(r.outputs) != 1 || r.outputs[0].Object != hr || len(r.pending) != 1 {
		t.Fatalf("errs %v, outputs %v, pending %v", r.errs, r.outputs, r.pending)
	}
	r.add(hr, []Output{{Object: changed, By: hr}, {Object: cm2, By: hr}, {Object: cm3, By: hr}})
	var msgs []string
	for _, e := range r.errs {
		if !errors.Is(e, ErrCycle) {
			t.Errorf("%v does not wrap ErrCycle", e)
		}
		msgs = append(msgs, manifest.Format(e, nil))
	}
	want := []string{
		"HelmRelease apps/web: produced twice: Kustomization.kustomize.toolkit.fluxcd.io flux-system/flux-system is on the cluster already (an input); one object must have one producer (first at in.yaml:1:1)",
		"HelmRelease apps/web: produced twice: ConfigMap apps/cm is on the cluster already (an input); one object must have one producer (first at in.yaml:6:1)",
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestNext: Kustomizations are reconciled before HelmReleases, each kind
// in the order it reached the cluster.
func TestNext(t *testing.T) {
	mk := func(kind, name string) *manifest.Object {
		return manifest.New(map[string]any{"kind": kind, "metadata": map[string]any{"name": name}})
	}
	r := &run{pending: []*manifest.Object{mk("HelmRelease", "h1"), mk("Kustomization", "k1"), mk("HelmRelease", "h2"), mk("Kustomization", "k2")}}
	var got []string
	for len(r.pending) > 0 {
		got = append(got, r.next().Name())
	}
	if diff := cmp.Diff([]string{"k1", "k2", "h1", "h2"}, got); diff != "" {
		t.Error(diff)
	}
}

// TestExcluded is kustomize-controller's apply ExclusionSelector.
func TestExcluded(t *testing.T) {
	tests := []struct {
		labels, annotations map[string]any
		want                bool
	}{
		{nil, nil, false},
		{map[string]any{"kustomize.toolkit.fluxcd.io/reconcile": "disabled"}, nil, true},
		{nil, map[string]any{"kustomize.toolkit.fluxcd.io/reconcile": "Disabled"}, true},
		{nil, map[string]any{"kustomize.toolkit.fluxcd.io/ssa": "ignore"}, true},
		{nil, map[string]any{"kustomize.toolkit.fluxcd.io/ssa": "IfNotPresent"}, false},
		{map[string]any{"kustomize.toolkit.fluxcd.io/reconcile": "enabled"}, nil, false},
	}
	for _, tt := range tests {
		md := map[string]any{"name": "x"}
		if tt.labels != nil {
			md["labels"] = tt.labels
		}
		if tt.annotations != nil {
			md["annotations"] = tt.annotations
		}
		if got := excluded(manifest.New(map[string]any{"kind": "ConfigMap", "metadata": md})); got != tt.want {
			t.Errorf("excluded(%v, %v) = %v, want %v", tt.labels, tt.annotations, got, tt.want)
		}
	}
}

// TestDepth: producers nested deeper than maxDepth are an error wrapping
// ErrDepth (a chart that templates HelmReleases of itself never ends).
func TestDepth(t *testing.T) {
	mk := func(name string) *manifest.Object {
		return manifest.New(map[string]any{"apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease", "metadata": map[string]any{"name": name, "namespace": "a"}})
	}
	r := &run{objects: map[manifest.Key]entry{}, depth: map[*manifest.Object]int{}}
	by := mk("by")
	r.depth[by] = maxDepth - 2
	child := mk("child")
	r.add(by, []Output{{Object: child, By: by}})
	if len(r.errs) != 0 || len(r.pending) != 1 {
		t.Fatalf("errs %v, pending %d", r.errs, len(r.pending))
	}
	r.add(child, []Output{{Object: mk("grandchild"), By: child}})
	if len(r.errs) != 1 || !errors.Is(r.errs[0], ErrDepth) {
		t.Fatalf("errs %v, want ErrDepth", r.errs)
	}
}
