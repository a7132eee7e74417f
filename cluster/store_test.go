package cluster

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestApplyRefusesMeta: a name or namespace the API server refuses is
// located at the authored field (else the origin) and names who produced
// the object.
func TestApplyRefusesMeta(t *testing.T) {
	at := manifest.Pos{File: "app.yaml", Line: 7, Col: 7}
	rendered := func(meta map[string]any) *manifest.Object {
		return manifest.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta})
	}
	authored, err := manifest.Decode("obs.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok, namespace: Bad_NS}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: [a]\n"+
		"---\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: ConfigMap, metadata: {namespace: default}}\n"), manifest.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const subdomain = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	const label = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
	tests := []struct {
		name  string
		entry Entry
		want  string
	}{
		{"component", Entry{Object: rendered(map[string]any{"name": "Bad!"}), Origin: Origin{Pos: at, Application: "shop", Component: "web"}},
			`app.yaml:7:7: application "shop" component "web": ConfigMap "Bad!": metadata.name: Invalid value: "Bad!": ` + subdomain},
		{"trait", Entry{Object: rendered(map[string]any{"name": "ok", "namespace": "x_y"}), Origin: Origin{Pos: at, Application: "shop", Component: "web", Trait: "gateway"}},
			`app.yaml:7:7: application "shop" component "web" trait "gateway": ConfigMap "ok": metadata.namespace: Invalid value: "x_y": ` + label},
		{"policy", Entry{Object: rendered(map[string]any{"name": true}), Origin: Origin{Pos: at, Application: "shop", Policy: "p"}},
			`app.yaml:7:7: application "shop": policy "p": ConfigMap: metadata.name: Invalid value: true: a boolean, not a string (YAML 1.1 reads unquoted yes/no/on/off/y/n as booleans: quote the name)`},
		{"observed namespace", Entry{Object: authored[0], Origin: Origin{Pos: authored[0].Pos}},
			`obs.yaml:3:33: ConfigMap "ok": metadata.namespace: Invalid value: "Bad_NS": ` + label},
		{"metadata a list", Entry{Object: authored[1], Origin: Origin{Pos: authored[1].Pos}},
			`obs.yaml:7:11: ConfigMap: metadata: Invalid value: "array": must be of type object`},
		{"list item without a name", Entry{Object: authored[3], Origin: Origin{Pos: authored[3].Pos}},
			`obs.yaml:12:47: items[1]: ConfigMap: metadata.name: Required value: name is required`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := NewStore().Apply(Local, tt.entry); err != nil {
				got = manifest.Format(err, nil)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// sinkList records what a streaming store passes on.
type sinkList []string

func (s *sinkList) Put(c string, e Entry) error {
	*s = append(*s, c+" "+e.Object.Key().String()+" "+e.Owner)
	return nil
}

// TestStreamingStore: a streaming store passes every accepted object on,
// keeps only the clusters it is told to, and still refuses a second owner
// and a key differing in case without holding the objects.
func TestStreamingStore(t *testing.T) {
	cm := func(name string) *manifest.Object {
		return manifest.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "namespace": "default"}})
	}
	var got sinkList
	s := NewStreamingStore(&got, func(c string) bool { return c == "hub" })
	for _, w := range []struct {
		cluster, name, owner string
	}{{"hub", "a", "app-1"}, {"m1", "a", "app-1"}, {"m1", "a", "app-1"}, {"m1", "b", ""}} {
		if err := s.Apply(w.cluster, Entry{Object: cm(w.name), Owner: w.owner}); err != nil {
			t.Fatal(err)
		}
	}
	want := sinkList{"hub ConfigMap default/a app-1", "m1 ConfigMap default/a app-1", "m1 ConfigMap default/a app-1", "m1 ConfigMap default/b "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("passed on (-want +got):\n%s", diff)
	}
	if n := len(s.List("m1")); n != 0 {
		t.Errorf("m1 holds %d objects; a streaming store keeps only the clusters it is told to", n)
	}
	if n := len(s.List("hub")); n != 1 {
		t.Errorf("hub holds %d objects, want 1", n)
	}
	if n := s.Len(); n != 3 {
		t.Errorf("Len = %d, want 3 (hub/a, m1/a, m1/b)", n)
	}
	if err := s.Apply("m1", Entry{Object: cm("a"), Owner: "app-2"}); !errors.Is(err, ErrConflict) {
		t.Errorf("a second owner: %v", err)
	}
	upper := manifest.New(map[string]any{"apiVersion": "v1", "kind": "configmap", "metadata": map[string]any{"name": "a", "namespace": "default"}})
	if err := s.Apply("m1", Entry{Object: upper, Owner: "app-1"}); !errors.Is(err, ErrConflict) {
		t.Errorf("a key differing in case: %v", err)
	}
	if len(got) != 4 {
		t.Errorf("refused objects were passed on: %q", got)
	}
}
