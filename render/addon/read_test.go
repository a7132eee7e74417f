package addon

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/drydock-dev/drydock/manifest"
)

// TestReadPackage checks how an addon directory is classified, as
// KubeVela's GetPatternFromItem and its readers do (pkg/addon/addon.go):
// by the first pattern that prefixes the path, without a separator check
// (definitions-old/ is definitions, template.cue.orig is template.cue),
// walking depth first with each directory's entries in byte order (so
// definitions/ before definitions-old/); resources and definitions keep .cue and
// .yaml/.yml files, views too, config templates only .cue, schemas any
// file; any file named parameter.cue under resources is skipped, and the
// root parameter.cue wins over resources/parameter.cue.
func TestReadPackage(t *testing.T) {
	files := map[string]string{
		"metadata.yaml":               testMeta,
		"README.md":                   "docs",
		"readme.md":                   "docs",
		"parameter.cue":               "parameter: {}\n",
		"resources/parameter.cue":     "parameter: {legacy: true}\n",
		"resources/sub/parameter.cue": "parameter: {}\n",
		"resources/b.yaml":            "kind: ConfigMap\n",
		"resources/a/z.yml":           "kind: ConfigMap\n",
		"resources/c.cue":             "x: 1\n",
		"resources/notes.txt":         "x",
		"resources-extra/d.yaml":      "kind: ConfigMap\n",
		"definitions/t.cue":           "x: 1\n",
		"definitions/t.yaml":          "kind: TraitDefinition\n",
		"definitions-old/u.cue":       "x: 1\n",
		"definitions/dummy.txt":       "",
		"config-templates/c.cue":      "x: 1\n",
		"config-templates/c.yaml":     "x: 1\n",
		"schemas/s.yaml":              "x: 1\n",
		"schemas/s.txt":               "x",
		"views/v.cue":                 "status: 1\n",
		"views/v.yml":                 "kind: ConfigMap\n",
		"views/v.txt":                 "x",
		"godef/x.go":                  "package x\n",
		"images/a.jpg":                "\xff\xd8",
		"template.cue.orig":           "output: {}\n",
		"NOTES.cue":                   "notes: \"x\"\n",
		"Chart.yaml":                  "name: x\n",
	}
	pkg, err := readPackage(addonFS(files))
	if err != nil {
		t.Fatal(err)
	}
	paths := func(fs []srcFile) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.path)
		}
		return out
	}
	one := func(f *srcFile) []string {
		if f == nil {
			return nil
		}
		return []string{f.path}
	}
	got := map[string][]string{
		"parameters": one(pkg.parameters),
		"appCUE":     one(pkg.appCUE),
		"appYAML":    one(pkg.appYAML),
		"notes":      one(pkg.notes),
		"resCUE":     paths(pkg.resCUE),
		"resYAML":    paths(pkg.resYAML),
		"defCUE":     paths(pkg.defCUE),
		"defYAML":    paths(pkg.defYAML),
		"configTmpl": paths(pkg.configTmpl),
		"schemas":    paths(pkg.schemas),
		"viewCUE":    paths(pkg.viewCUE),
		"viewYAML":   paths(pkg.viewYAML),
	}
	want := map[string][]string{
		"parameters": {"parameter.cue"},
		"appCUE":     {"template.cue.orig"},
		"appYAML":    nil,
		"notes":      {"NOTES.cue"},
		"resCUE":     {"resources/c.cue"},
		"resYAML":    {"resources/a/z.yml", "resources/b.yaml", "resources-extra/d.yaml"},
		"defCUE":     {"definitions/t.cue", "definitions-old/u.cue"},
		"defYAML":    {"definitions/t.yaml"},
		"configTmpl": {"config-templates/c.cue"},
		"schemas":    {"schemas/s.txt", "schemas/s.yaml"},
		"viewCUE":    {"views/v.cue"},
		"viewYAML":   {"views/v.yml"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("classification (-want +got):\n%s", diff)
	}
}

// TestReadPackageLegacyParameters: without a root parameter.cue,
// resources/parameter.cue is the parameter file.
func TestReadPackageLegacyParameters(t *testing.T) {
	pkg, err := readPackage(addonFS(withMeta(map[string]string{"resources/parameter.cue": "parameter: {}\n"})))
	if err != nil {
		t.Fatal(err)
	}
	if pkg.parameters == nil || pkg.parameters.path != "resources/parameter.cue" {
		t.Errorf("parameters = %v, want resources/parameter.cue", pkg.parameters)
	}
}

// TestReadPackageRefusals: drydock reads only regular files, of bounded
// size, inside the addon.
func TestReadPackageRefusals(t *testing.T) {
	tests := []struct {
		name string
		fsys fstest.MapFS
		want string
	}{
		{
			name: "symbolic link",
			fsys: fstest.MapFS{
				"metadata.yaml":    {Data: []byte(testMeta)},
				"resources/x.yaml": {Data: []byte("/etc/passwd"), Mode: fs.ModeSymlink},
			},
			want: "resources/x.yaml: symbolic links are not allowed in an addon directory",
		},
		{
			name: "device",
			fsys: fstest.MapFS{
				"metadata.yaml":    {Data: []byte(testMeta)},
				"resources/x.yaml": {Mode: fs.ModeDevice},
			},
			want: "resources/x.yaml: not a regular file",
		},
		{
			name: "too big",
			fsys: fstest.MapFS{
				"metadata.yaml":    {Data: []byte(testMeta)},
				"resources/x.yaml": {Data: make([]byte, manifest.MaxInputBytes+1)},
			},
			want: "resources/x.yaml: larger than 67108864 bytes",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Render(tt.fsys, Options{})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Render() = %v, want an ErrInvalid", err)
			}
			if diff := cmp.Diff(tt.want, manifest.Format(err, nil)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}
