package cluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

func TestInventory(t *testing.T) {
	objs, err := manifest.Decode("c.yaml", []byte(`
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: b, labels: {env: prod}}
spec: {provider: aws, region: eu-west-1, zones: [a, b]}
status: {kubernetesVersion: v1.29.4}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: local, labels: {ignored: "true"}}
status: {kubernetesVersion: v1.30.1}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: a}
`), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inv := NewInventory()
	for _, o := range objs {
		if !IsClusterObject(o) {
			t.Fatalf("%s not recognised as a Cluster", o.Name())
		}
		if err := inv.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{"local", "a", "b"}, inv.Names()); diff != "" {
		t.Errorf("Names -want +got:\n%s", diff)
	}
	b, _ := inv.Get("b")
	want := &Cluster{Name: "b", Labels: map[string]string{"env": "prod"}, Provider: "aws", Region: "eu-west-1", Zones: []string{"a", "b"}, KubernetesVersion: "v1.29.4", Source: b.Source}
	if diff := cmp.Diff(want, b); diff != "" {
		t.Errorf("cluster b -want +got:\n%s", diff)
	}
	local, _ := inv.Get("local")
	if local.Labels != nil || local.KubernetesVersion != "v1.30.1" {
		t.Errorf("local = %+v: want no labels and the given version", local)
	}
}

func TestStoreLastWriteWins(t *testing.T) {
	s := NewStore()
	obj := func(name, image string) *manifest.Object {
		return manifest.New(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": name, "namespace": "default"}, "image": image})
	}
	s.Apply("local", Entry{Object: obj("web", "v1"), Source: "first"})
	s.Apply("local", Entry{Object: obj("web", "v2"), Source: "second"})
	s.Apply("local", Entry{Object: obj("api", "v1")})
	s.Apply("edge", Entry{Object: obj("web", "v1")})
	if diff := cmp.Diff([]string{"edge", "local"}, s.Clusters()); diff != "" {
		t.Errorf("Clusters -want +got:\n%s", diff)
	}
	var got []string
	for _, e := range s.List("local") {
		got = append(got, e.Object.Name()+"="+e.Object.Data["image"].(string))
	}
	if diff := cmp.Diff([]string{"api=v1", "web=v2"}, got); diff != "" {
		t.Errorf("List -want +got:\n%s", diff)
	}
	e, ok := s.Get("local", manifest.Key{Group: "apps", Kind: "Deployment", Namespace: "default", Name: "web"})
	if !ok || e.Source != "second" {
		t.Errorf("Get = %+v, %v", e, ok)
	}
}
