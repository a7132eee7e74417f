package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/drydock-dev/drydock/manifest"
)

func TestObjectPath(t *testing.T) {
	tests := []struct {
		obj  map[string]any
		want string
	}{
		{map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "prod"}}, "c1/prod/deployment.apps_web.yaml"},
		{map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "prod"}}, "c1/_cluster/namespace_prod.yaml"},
	}
	for _, tt := range tests {
		if got := ObjectPath("c1", manifest.New(tt.obj)); got != tt.want {
			t.Errorf("ObjectPath = %s, want %s", got, tt.want)
		}
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
