package charts

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/charts/source"
	"github.com/drydock-dev/drydock/manifest"
)

// TestWaiting: a HelmRelease whose valuesFrom ConfigMap another
// HelmRelease's chart produces, reconciled after it (a-consumer sorts and
// goes first, fails for want of the ConfigMap, and is tried again once
// b-producer added objects); one whose ConfigMap never comes is an error
// after the retry, its warnings not doubled.
func TestWaiting(t *testing.T) {
	cache, err := source.Open(source.Config{Sources: map[string]string{"flux-system/podinfo": filepath.Join("testdata", "e2e", "source")}})
	if err != nil {
		t.Fatal(err)
	}
	objs := decode(t, `apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata: {name: podinfo, namespace: flux-system}
spec: {url: https://github.com/stefanprodan/podinfo}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: a-consumer, namespace: apps}
spec:
  chart: {spec: {chart: ./charts/podinfo, sourceRef: {kind: GitRepository, name: podinfo, namespace: flux-system}}}
  valuesFrom:
    - {kind: ConfigMap, name: b-producer-podinfo-redis, valuesKey: redis.conf, targetPath: ui.message}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: b-producer, namespace: apps}
spec:
  chart: {spec: {chart: ./charts/podinfo, sourceRef: {kind: GitRepository, name: podinfo, namespace: flux-system}}}
  values: {redis: {enabled: true}}
---
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: c-never, namespace: apps}
spec:
  chart: {spec: {chart: ./charts/podinfo, sourceRef: {kind: GitRepository, name: podinfo, namespace: flux-system}}}
  valuesFrom:
    - {kind: Secret, name: optional, optional: true}
    - {kind: ConfigMap, name: nowhere}
`)
	c := &Controller{Cache: cache}
	outs, warnings, err := c.Reconcile(context.Background(), Cluster{Name: "east", KubeVersion: "1.31.0"}, objs)
	if got, want := manifest.Format(err, nil), "in.yaml:27:5: HelmRelease apps/c-never: could not resolve ConfigMap chart values reference 'apps/nowhere' with key 'values.yaml': resource not found"; got != want {
		t.Errorf("err = %s\nwant %s", got, want)
	}
	wantWarnings := []string{"in.yaml:21:1: HelmRelease apps/c-never: could not resolve optional Secret chart values reference 'apps/optional' with key 'values.yaml': resource not found"}
	if diff := cmp.Diff(wantWarnings, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	var producers []string
	for _, o := range outs {
		if len(producers) == 0 || producers[len(producers)-1] != o.By.Name() {
			producers = append(producers, o.By.Name())
		}
	}
	if diff := cmp.Diff([]string{"b-producer", "a-consumer"}, producers); diff != "" {
		t.Errorf("producers (-want +got):\n%s", diff)
	}
}
