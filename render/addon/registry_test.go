package addon

import (
	"encoding/base64"
	"errors"
	"testing"
	"testing/fstest"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/google/go-cmp/cmp"
)

// TestCheckSemVer runs KubeVela's TestCheckSemVer table (pkg/addon
// addon_test.go) against checkSemVer: "v"s in the constraint dropped, a
// prerelease retried as its release unless the constraint is ">=" that
// very release.
func TestCheckSemVer(t *testing.T) {
	tests := []struct {
		actual, require string
		want            bool
	}{
		{"v1.2.1", "<=v1.2.1", true},
		{"v1.2.1", ">v1.2.1", false},
		{"v1.2.1", "<=v1.2.3", true},
		{"v1.2", "<=v1.2.3", true},
		{"v1.2.1", ">v1.2.3", false},
		{"v1.2.1", "=v1.2.1", true},
		{"1.2.1", "=v1.2.1", true},
		{"1.2.1", "", true},
		{"v1.2.2", "<=v1.2.3, >=v1.2.1", true},
		{"v1.2.0", "v1.2.0, <=v1.2.3", true},
		{"1.2.2", "v1.2.2", true},
		{"1.2.02", "v1.2.2", true},
		{"1.3.0-beta.1", ">=v1.3.0-alpha.1", true},
		{"1.3.0-alpha.2", ">=v1.3.0-alpha.1", true},
		{"1.2.3", ">=v1.3.0-alpha.1", false},
		{"v1.4.0-alpha.3", ">=v1.3.0-beta.2", true},
		{"v1.4.0-beta.1", ">=v1.3.0", true},
		{"v1.4.0", ">=v1.3.0-beta.2", true},
		{"1.2.4-beta.2", ">=v1.2.4-beta.3", false},
		{"1.5.0-beta.2", ">=1.5.0", false},
		{"1.5.0-alpha.2", ">=1.5.0", false},
		{"1.5.0-rc.2", ">=1.5.0-beta.1", true},
		{"1.5.0-rc.2", ">=1.5.0-rc.1", true},
		{"1.5.0-rc.1", ">=1.5.0-alpha.1", true},
		{"1.5.0-rc.2", ">=1.5.0", false},
		{"1.5.0-rc.2", ">=1.4.0", true},
		// a prerelease retried as its release
		{"1.5.0-rc.2", "=1.5.0", true},
		{"v1.5.0-rc.2", "<=1.5.0", true},
		// not when the constraint names a prerelease
		{"1.5.0-rc.2", "<1.5.0-rc.1 || =1.5.0", false},
	}
	for _, tt := range tests {
		got, err := checkSemVer(tt.actual, tt.require)
		if err != nil {
			t.Errorf("checkSemVer(%q, %q) = %v", tt.actual, tt.require, err)
			continue
		}
		if got != tt.want {
			t.Errorf("checkSemVer(%q, %q) = %v, want %v", tt.actual, tt.require, got, tt.want)
		}
	}
}

// TestCheckSemVerErrors: a constraint or version Masterminds/semver cannot
// parse is an error, as in checkSemVer.
func TestCheckSemVerErrors(t *testing.T) {
	for _, tt := range []struct{ actual, require string }{
		{"1.0.0", ">=banana"},
		{"latest", ">=1.0.0"},
	} {
		if _, err := checkSemVer(tt.actual, tt.require); err == nil {
			t.Errorf("checkSemVer(%q, %q) succeeded, want an error", tt.actual, tt.require)
		}
	}
}

// TestDependencies checks enabling from a registry (Installer.installDependency
// and getDependencyArgs in pkg/addon/addon.go): the dependency is enabled
// first, labelled with the registry's name, with the parameters
// {clusters: <getClusters of the user's parameters>} when that is not nil
// and none otherwise (so no Secret); the dependent's own parameters stay
// its own.
func TestDependencies(t *testing.T) {
	registry := fstest.MapFS{
		"dep/metadata.yaml": {Data: []byte("name: dep\nversion: 1.2.0\ndeployTo:\n  runtimeCluster: true\n")},
		"dep/NOTES.cue":     {Data: []byte("notes: \"dep notes\"\n")},
	}
	files := map[string]string{"metadata.yaml": testMeta + "dependencies:\n  - name: dep\n    version: \">=v1.0.0\"\n"}
	const appName = "Application/addon-"
	tests := []struct {
		name      string
		params    map[string]any
		want      []string
		depSecret string // the dependency's stored parameters, "" for none
		policy    any    // the dependency's Application's spec.policies
	}{
		{
			name:   "no parameters",
			want:   []string{appName + "dep", appName + "demo"},
			policy: []any{map[string]any{"name": "deploy-addon-to-all-clusters", "type": "topology", "properties": map[string]any{"clusterLabelSelector": map[string]any{}}}},
		},
		{
			name:   "parameters other than clusters",
			params: map[string]any{"x": int64(1)},
			want:   []string{appName + "dep", appName + "demo", "Secret/addon-secret-demo"},
			policy: []any{map[string]any{"name": "deploy-addon-to-all-clusters", "type": "topology", "properties": map[string]any{"clusterLabelSelector": map[string]any{}}}},
		},
		{
			name:      "clusters passed on",
			params:    map[string]any{"clusters": []any{"c1"}, "x": int64(1)},
			want:      []string{appName + "dep", "Secret/addon-secret-dep", appName + "demo", "Secret/addon-secret-demo"},
			depSecret: `{"clusters":["c1"]}`,
			policy:    []any{map[string]any{"name": "deploy-addon-to-specified-clusters", "type": "topology", "properties": map[string]any{"clusters": []any{"c1", "local"}}}},
		},
		{
			// getClusters returns nil for a clusters parameter that is not
			// a list, and getDependencyArgs then passes no parameters
			name:   "clusters not a list",
			params: map[string]any{"clusters": "c1"},
			want:   []string{appName + "dep", appName + "demo", "Secret/addon-secret-demo"},
			policy: []any{map[string]any{"name": "deploy-addon-to-all-clusters", "type": "topology", "properties": map[string]any{"clusterLabelSelector": map[string]any{}}}},
		},
		{
			name:   "clusters without strings",
			params: map[string]any{"clusters": []any{int64(1)}},
			want:   []string{appName + "dep", appName + "demo", "Secret/addon-secret-demo"},
			policy: []any{map[string]any{"name": "deploy-addon-to-all-clusters", "type": "topology", "properties": map[string]any{"clusterLabelSelector": map[string]any{}}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustRender(t, files, Options{Params: valuesOf(tt.params), Registry: registry, RegistryName: "myreg", Clusters: []string{"c1"}})
			if diff := cmp.Diff(tt.want, objectNames(res.Objects)); diff != "" {
				t.Fatalf("objects (-want +got):\n%s", diff)
			}
			for _, name := range []string{"addon-dep", "addon-demo"} {
				if got := find(res, "Application", name).Labels()["addons.oam.dev/registry"]; got != "myreg" {
					t.Errorf("%s registry label = %q, want myreg", name, got)
				}
			}
			spec, _ := res.Objects[0].Data["spec"].(map[string]any)
			if diff := cmp.Diff(tt.policy, spec["policies"]); diff != "" {
				t.Errorf("dependency policies (-want +got):\n%s", diff)
			}
			if sec := find(res, "Secret", "addon-secret-dep"); sec != nil {
				b, _ := base64.StdEncoding.DecodeString(sec.Data["data"].(map[string]any)["addonParameterDataKey"].(string))
				if diff := cmp.Diff(tt.depSecret, string(b)); diff != "" {
					t.Errorf("dependency parameters (-want +got):\n%s", diff)
				}
			}
			// NOTES only for the addon enabled.
			if res.Notes != "" {
				t.Errorf("Notes = %q, want none", res.Notes)
			}
		})
	}
}

// TestDependencyErrors checks the errors of dependency resolution, located
// in the dependent's metadata.yaml or in the dependency's own directory.
func TestDependencyErrors(t *testing.T) {
	registry := fstest.MapFS{
		"empty/README.md":        {Data: []byte("no metadata")},
		"file":                   {Data: []byte("not a directory")},
		"odd/metadata.yaml":      {Data: []byte("name: odd\nversion: latest\n")},
		"broken/metadata.yaml":   {Data: []byte("name: broken\nversion: 1.0.0\n")},
		"broken/template.cue":    {Data: []byte("output: {\n\tkind: 5 & 6\n}\n")},
		"deep/metadata.yaml":     {Data: []byte("name: deep\nversion: 1.0.0\ndependencies: [{name: missing}]\n")},
		"inthemiddle/dummy.yaml": {Data: []byte("x: 1\n")},
	}
	tests := []struct {
		name, deps, want string
	}{
		{
			name: "no metadata in the dependency",
			deps: "  - name: empty\n",
			want: "dependency of addon demo: the addon has no metadata.yaml",
		},
		{
			name: "a file, not a directory",
			deps: "  - name: file\n",
			want: "metadata.yaml:4:11: addon demo: dependencies[0].name: unresolvable dependency file: no available addon with name file",
		},
		{
			name: "version that does not parse",
			deps: "  - name: odd\n    version: \">=1.0.0\"\n",
			want: `metadata.yaml:5:14: addon demo: dependencies[0].version: dependency odd: version "latest" of the registry's odd against ">=1.0.0": invalid semantic version`,
		},
		{
			name: "dependency that does not render",
			deps: "  - name: broken\n",
			want: "../broken/template.cue:2:8: addon broken (needed by addon demo): render application: output.kind: conflicting values 6 and 5",
		},
		{
			name: "dependency of a dependency",
			deps: "  - name: deep\n",
			want: "../deep/metadata.yaml:3:23: addon deep (needed by addon demo): dependencies[0].name: unresolvable dependency missing: no available addon with name missing",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"metadata.yaml": testMeta + "dependencies:\n" + tt.deps}
			_, err := Render(addonFS(files), Options{Registry: registry})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDependenciesWithoutRegistry: without a registry, dependencies are
// assumed installed and neither checked nor rendered.
func TestDependenciesWithoutRegistry(t *testing.T) {
	res := mustRender(t, map[string]string{"metadata.yaml": testMeta + "dependencies:\n  - name: nowhere\n    version: \">=9\"\n"}, Options{})
	if diff := cmp.Diff([]string{"Application/addon-demo"}, objectNames(res.Objects)); diff != "" {
		t.Errorf("objects (-want +got):\n%s", diff)
	}
}
