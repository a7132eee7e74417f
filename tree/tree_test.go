package tree

import (
	"cmp"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

func TestPath(t *testing.T) {
	tests := []struct {
		obj  map[string]any
		want string
	}{
		{map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "prod"}}, "c1/prod/deployment.apps_web.yaml"},
		{map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "prod"}}, "c1/_cluster/namespace_prod.yaml"},
	}
	for _, tt := range tests {
		if got := Path("c1", manifest.New(tt.obj)); got != tt.want {
			t.Errorf("Path = %s, want %s", got, tt.want)
		}
	}
}

// TestPathLongNames: 253-character names (the most Kubernetes
// allows) give file names of at most 255 bytes, distinct for distinct
// names, and written files keep the full name inside.
func TestPathLongNames(t *testing.T) {
	long := strings.Repeat("a", 253)
	other := strings.Repeat("a", 252) + "b"
	dep := func(name string) *manifest.Object {
		return manifest.New(map[string]any{"apiVersion": "apps.kruise.io/v1alpha1", "kind": "CloneSet", "metadata": map[string]any{"name": name, "namespace": "prod"}})
	}
	p1, p2 := Path("c1", dep(long)), Path("c1", dep(other))
	if p1 == p2 {
		t.Fatalf("two names share the path %s", p1)
	}
	for _, p := range []string{p1, p2} {
		if base := path.Base(p); len(base) > 255 || !strings.HasPrefix(base, "cloneset.apps.kruise.io_aaaa") {
			t.Errorf("file name %q (%d bytes)", base, len(base))
		}
	}
	if p := Path("c1", dep(long)); p != p1 {
		t.Errorf("not deterministic: %s then %s", p1, p)
	}
	dir := t.TempDir()
	tree := Tree{}
	if err := tree.Add("c1", dep(long)); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, tree); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p1)))
	if err != nil || !strings.Contains(string(data), "name: "+long+"\n") {
		t.Errorf("file %s: %v\n%s", p1, err, data)
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	tree := Tree{}
	if err := tree.Add("local", manifest.New(map[string]any{"kind": "ConfigMap", "apiVersion": "v1", "metadata": map[string]any{"name": "c", "namespace": "d"}, "data": map[string]any{"b": "2", "a": "1"}})); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, tree); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "local/d/configmap_c.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := "apiVersion: v1\ndata:\n  a: \"1\"\n  b: \"2\"\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: d\n"
	if string(got) != want {
		t.Errorf("file =\n%s\nwant\n%s", got, want)
	}
	if err := Write(dir, Tree{"../escape.yaml": []byte("x")}); err == nil {
		t.Error("Write accepted a path outside the directory")
	}
}

// TestKeyPathOneAllocation: KeyPath builds the path in one allocation and
// says what concatenating its parts (keyPath) says, for kinds in any case
// (ASCII or not), with and without a group or namespace, and names around
// the length at which the file name is shortened.
func TestKeyPathOneAllocation(t *testing.T) {
	kinds := []string{"Deployment", "configmap", "KIND", "Ünïcode", "İstanbul", "kind", ""}
	groups := []string{"", "apps", "example.com", "Ex.Com"}
	namespaces := []string{"", "team-1"}
	names := []string{"web-1", "Web", strings.Repeat("n", 200)}
	for n := 230; n <= 256; n++ {
		names = append(names, strings.Repeat("x", n))
	}
	for _, kind := range kinds {
		for _, group := range groups {
			for _, ns := range namespaces {
				for _, name := range names {
					k := manifest.Key{Group: group, Kind: kind, Namespace: ns, Name: name}
					want := keyPath("c1", cmp.Or(ns, "_cluster"), k)
					if got := KeyPath("c1", k); got != want {
						t.Fatalf("KeyPath(%+v) = %q, want %q", k, got, want)
					}
				}
			}
		}
	}
	k := manifest.Key{Group: "apps", Kind: "Deployment", Namespace: "team-3", Name: "web-1234"}
	if n := testing.AllocsPerRun(100, func() { _ = KeyPath("local", k) }); n != 1 {
		t.Errorf("KeyPath allocates %.0f times, want 1", n)
	}
}
