package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/cluster"
	"github.com/drydock-dev/drydock/manifest"
)

// TestRunDeterministic renders many applications with 1 and 4 workers and
// requires the same final state.
func TestRunDeterministic(t *testing.T) {
	var sb strings.Builder
	for i := range 20 {
		sb.WriteString(strings.ReplaceAll(`---
apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: app-N}
spec:
  components:
    - name: web-N
      type: webservice
      properties: {image: "img:N"}
`, "N", string(rune('a'+i))))
	}
	path := filepath.Join(t.TempDir(), "apps.yaml")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	state := func(workers int) []string {
		res, err := Run(context.Background(), Inputs{Paths: []string{path}, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range res.Clusters.List("local") {
			out = append(out, e.Object.Kind()+"/"+e.Object.Name()+" "+e.Source)
		}
		return out
	}
	one, four := state(1), state(4)
	if diff := cmp.Diff(one, four); diff != "" {
		t.Errorf("workers change the result (-1 +4):\n%s", diff)
	}
	if want := "Deployment/web-a application app-a, component web-a, step web-a"; len(one) != 20 || one[0] != want {
		t.Errorf("%d objects, first %q; want 20, first %q", len(one), one[0], want)
	}
}

// TestRunConflicts: objects never silently replace one another's; names
// are checked before they become paths.
func TestRunConflicts(t *testing.T) {
	app := func(name, comp string) string {
		return "---\napiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: " + name +
			"}\nspec:\n  components:\n    - {name: " + comp + ", type: webservice, properties: {image: nginx}}\n"
	}
	cm := func(kind, name string) string {
		return "---\napiVersion: v1\nkind: " + kind + "\nmetadata: {name: " + name + ", namespace: default}\n"
	}
	karmada := "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: m1}\n" +
		"---\napiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: all}\n" +
		"spec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}, {apiVersion: v1, kind: configmap}]\n  placement: {clusterAffinity: {clusterNames: [m1]}}\n"
	long := strings.Repeat("a", 253)
	tests := []struct {
		name, input string
		observed    string   // --observed objects, if any
		want        []string // parts of the error; none: no error
		conflict    bool
	}{
		{name: "one observed object given twice", input: cm("ConfigMap", "x"),
			observed: cm("ConfigMap", "a") + "data: {v: \"1\"}\n" + cm("ConfigMap", "a") + "data: {v: \"2\"}\n", conflict: true,
			want: []string{"obs.yaml:8:18: observed input obs.yaml:6:1: ConfigMap default/a in cluster local is already owned by observed input obs.yaml:1:1 (obs.yaml:3:18): conflicting objects"}},
		{name: "an application replaces an observed object", input: app("one", "web"),
			observed: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\n"},
		{name: "same Deployment from two applications", input: app("one", "web") + app("two", "web"), conflict: true,
			want: []string{`in.yaml:13:7: application "two" component "web": cluster local: existing object Deployment default/web is managed by other application default/one (in.yaml:6:7): conflicting objects`}},
		{name: "one application writing twice is fine", input: app("one", "web")},
		{name: "two templates with one key", input: karmada + cm("ConfigMap", "c") + cm("ConfigMap", "c"), conflict: true,
			want: []string{"in.yaml:18:18: input in.yaml:16:1: ConfigMap default/c in cluster m1 is already owned by input in.yaml:12:1 (in.yaml:14:18)"}},
		{name: "kinds differing in case", input: karmada + cm("ConfigMap", "c") + cm("configmap", "c"), conflict: true,
			want: []string{"in.yaml:18:18: configmap default/c and ConfigMap default/c (in.yaml:14:18) in cluster m1 differ only in case"}},
		{name: "a 253-character name renders", input: karmada + cm("ConfigMap", long)},
		{name: "a 254-character name", input: karmada + cm("ConfigMap", long+"a"),
			want: []string{"in.yaml:14:18: ConfigMap \"aaa", "metadata.name: Invalid value", "must be no more than 253 characters"}},
		{name: "an upper-case name", input: karmada + cm("ConfigMap", "Web"),
			want: []string{"in.yaml:14:18: ConfigMap \"Web\": metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain"}},
		{name: "a YAML 1.1 boolean as a name", input: karmada + cm("ConfigMap", "yes"),
			want: []string{"in.yaml:14:18: ConfigMap: metadata.name: Invalid value: true: a boolean, not a string (YAML 1.1 reads unquoted yes/no/on/off/y/n as booleans: quote the name)"}},
		{name: "a component name that is no DNS name", input: app("one", "Web_1"),
			want: []string{`in.yaml:6:14: application "one" component "Web_1": Deployment "Web_1": metadata.name: Invalid value`}},
		{name: "a cluster name of 49 characters", input: "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: " + strings.Repeat("c", 49) + "}\n",
			want: []string{"in.yaml:3:18: Cluster \"ccc", "metadata.name: Invalid value", "must be no more than 48 characters"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "in.yaml")
			if err := os.WriteFile(path, []byte(strings.TrimPrefix(tt.input, "---\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			in := Inputs{Paths: []string{path}, ClustersFromInputs: true}
			if tt.observed != "" {
				obs := filepath.Join(dir, "obs.yaml")
				if err := os.WriteFile(obs, []byte(strings.TrimPrefix(tt.observed, "---\n")), 0o644); err != nil {
					t.Fatal(err)
				}
				in.ObservedPaths = []string{obs}
			}
			_, err := Run(context.Background(), in)
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInput) {
				t.Fatalf("error %v is not ErrInput", err)
			}
			if errors.Is(err, cluster.ErrConflict) != tt.conflict {
				t.Errorf("errors.Is(err, ErrConflict) = %v, want %v", !tt.conflict, tt.conflict)
			}
			msg := strings.ReplaceAll(manifest.Format(err, nil), dir+string(filepath.Separator), "")
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := map[string]string{
		"missing file": filepath.Join(dir, "nope.yaml"),
		"no kind":      write("nokind.yaml", "metadata: {name: x}\n"),
		"bad cluster":  write("cl.yaml", "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {}\n"),
	}
	for name, path := range tests {
		_, err := Run(context.Background(), Inputs{Paths: []string{path}, ClustersFromInputs: true})
		if !errors.Is(err, ErrInput) {
			t.Errorf("%s: error %v is not ErrInput", name, err)
		}
	}
}

// TestRenderAddonChecksApplication renders the addon's own Application as
// KubeVela's webhook checks it: what it refuses is bad input at the line
// of the component; a type nothing here defines is only a warning.
func TestRenderAddonChecksApplication(t *testing.T) {
	meta := "name: ad\nversion: 1.0.0\n"
	tests := []struct {
		name     string
		files    map[string]string
		wantErr  string
		warnings []string
	}{
		{
			name: "component parameter of the wrong type",
			files: map[string]string{
				"template.cue": "package main\n\noutput: {\n\tkind: \"Application\"\n\tspec: components: [{\n\t\tname: \"x\"\n\t\ttype: \"webservice\"\n\t\tproperties: image: 5\n\t}]\n}\n",
			},
			wantErr: `ad/template.cue:8:15: application "addon-ad" component "x": output.spec.template.spec.containers.0.image: conflicting values 5 and string (mismatched types int and string); parameter.image: conflicting values 5 and string (mismatched types int and string) (template builtin/webservice.cue:69:14)`,
		},
		{
			name: "resource with an invalid name",
			files: map[string]string{
				"resources/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad\n",
			},
			wantErr: `ad/resources/cm.yaml:1:1: application "addon-ad" component "ad-resources": ConfigMap "Bad": metadata.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
		},
		{
			name: "type the control plane may have",
			files: map[string]string{
				"resources/x.cue": "output: {\n\ttype: \"helm\"\n\tproperties: {}\n}\n",
			},
			warnings: []string{`ad/resources/x.cue:2:2: application "addon-ad" component "x": unknown type: no ComponentDefinition "helm": no built-in or addon definition; the component was not checked`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			tt.files["metadata.yaml"] = meta
			for name, data := range tt.files {
				path := filepath.Join("ad", name)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := RenderAddon(AddonInputs{Addon: Addon{Dir: "ad"}})
			gotErr := ""
			if err != nil {
				gotErr = manifest.Format(err, nil)
				if !errors.Is(err, ErrInput) {
					t.Errorf("error %v is not ErrInput", err)
				}
			}
			if diff := cmp.Diff(tt.wantErr, gotErr); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if err == nil {
				if diff := cmp.Diff(tt.warnings, res.Warnings); diff != "" {
					t.Errorf("warnings (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestRunLocatesRefusedNames: a rendered object's name or namespace the
// API server refuses points at the authored value (the component's name,
// a property, a topology policy's namespace) and names the application
// and component.
func TestRunLocatesRefusedNames(t *testing.T) {
	const head = "apiVersion: core.oam.dev/v1beta1\nkind: Application\nmetadata: {name: shop}\nspec:\n  components:\n"
	const subdomain = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	const label = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`
	tests := []struct{ name, body, want string }{
		{"component name", "    - {name: Web, type: webservice, properties: {image: nginx}}\n",
			`app.yaml:6:14: application "shop" component "Web": Deployment "Web": metadata.name: Invalid value: "Web": ` + subdomain},
		{"object name", "    - name: objs\n      type: k8s-objects\n      properties:\n        objects:\n          - {apiVersion: v1, kind: ConfigMap, metadata: {name: 'Bad Name!'}}\n",
			`app.yaml:10:64: application "shop" component "objs": ConfigMap "Bad Name!": metadata.name: Invalid value: "Bad Name!": ` + subdomain},
		{"topology namespace", "    - {name: web, type: webservice, properties: {image: nginx}}\n  policies:\n    - {name: p, type: topology, properties: {clusters: [local], namespace: Bad_NS}}\n",
			`app.yaml:8:76: application "shop" component "web": Deployment "web": metadata.namespace: Invalid value: "Bad_NS": ` + label},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(head+tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			got := ""
			if _, err := Run(context.Background(), Inputs{Paths: []string{"app.yaml"}}); err != nil {
				got = manifest.Format(err, nil)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunNamesListItems: errors about an object of a kubectl List name
// its item.
func TestRunNamesListItems(t *testing.T) {
	const head = "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: default}}\n"
	tests := []struct{ name, item, want string }{
		{"no kind", "- {apiVersion: v1, metadata: {name: b}}\n", "list.yaml:5:3: items[1]: document has no kind"},
		{"bad name", "- {apiVersion: v1, kind: ConfigMap, metadata: {name: B_1}}\n",
			`list.yaml:5:54: items[1]: ConfigMap "B_1": metadata.name: Invalid value: "B_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "list.yaml"), []byte(head+tt.item), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(dir)
			got := ""
			if _, err := Run(context.Background(), Inputs{Paths: []string{"list.yaml"}}); err != nil {
				got = manifest.Format(err, nil)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunObjects renders inputs handed over in memory (Inputs.Objects)
// as their YAML would render, and reports bad ones without a position.
func TestRunObjects(t *testing.T) {
	app := func(comp map[string]any) *manifest.Object {
		return manifest.New(map[string]any{"apiVersion": "core.oam.dev/v1beta1", "kind": "Application",
			"metadata": map[string]any{"name": "shop", "namespace": "default"},
			"spec":     map[string]any{"components": []any{comp}}})
	}
	res, err := Run(context.Background(), Inputs{Objects: []*manifest.Object{
		app(map[string]any{"name": "web", "type": "webservice", "properties": map[string]any{"image": "nginx"}}),
	}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range res.Clusters.List(cluster.Local) {
		got = append(got, e.Object.Kind()+"/"+e.Object.Name())
	}
	if diff := cmp.Diff([]string{"Deployment/web"}, got); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
	_, err = Run(context.Background(), Inputs{Objects: []*manifest.Object{app(map[string]any{"name": "web", "type": "nosuch"})}})
	var me *manifest.Error
	if !errors.As(err, &me) || !errors.Is(err, ErrInput) || me.Pos.IsValid() {
		t.Fatalf("Run(unknown type) = %v, want a manifest.Error without a position", err)
	}
	want := []manifest.Subject{{Kind: "application", Name: "shop"}, {Kind: "component", Name: "web"}}
	if diff := cmp.Diff(want, me.Subjects); diff != "" {
		t.Errorf("subjects (-want +got):\n%s", diff)
	}
	if _, err := Run(context.Background(), Inputs{Objects: []*manifest.Object{manifest.New(map[string]any{"apiVersion": "v1"})}}); err == nil || manifest.Format(err, nil) != "document has no kind" {
		t.Errorf("Run(no kind) = %v, want %q", err, "document has no kind")
	}
}
