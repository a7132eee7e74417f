package addon

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"reflect"
	"strings"

	"github.com/Masterminds/semver/v3"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// srcFile is one file of an addon: its path relative to the addon root and
// its content.
type srcFile struct {
	path string
	data []byte
}

func (f srcFile) pos() manifest.Pos { return manifest.Pos{File: f.path} }

// base is the file name without directories.
func (f srcFile) base() string { return path.Base(f.path) }

// addonPackage is an addon directory classified the way KubeVela reads it.
type addonPackage struct {
	meta meta
	// metaAt says where metadata.yaml's fields were authored.
	metaAt     *manifest.Object
	parameters *srcFile // root parameter.cue, else resources/parameter.cue
	appCUE     *srcFile
	appYAML    *srcFile
	resCUE     []srcFile
	resYAML    []srcFile
	defYAML    []srcFile
	defCUE     []srcFile
	configTmpl []srcFile
	schemas    []srcFile
	viewCUE    []srcFile
	viewYAML   []srcFile
	notes      *srcFile
}

// patterns classify a file by the first matching prefix of its path (no
// separator check, as KubeVela does).
var patterns = []string{
	"config-templates", "README.md", "metadata.yaml", "template.yaml",
	"resources/parameter.cue", "resources", "definitions", "schemas", "views",
	"godef", "template.cue", "parameter.cue", "NOTES.cue", "readme.md",
}

func classify(p string) string {
	for _, pat := range patterns {
		if strings.HasPrefix(p, pat) {
			return pat
		}
	}
	return ""
}

// readPackage walks the addon (depth first, entries in byte order) and
// classifies its files.
func readPackage(fsys fs.FS) (*addonPackage, error) {
	pkg := &addonPackage{}
	var global, legacy *srcFile
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := checkEntry(p, d); err != nil || d.IsDir() {
			return err
		}
		kind := classify(p)
		// README files are documentation; godef/ holds Go definitions the
		// vela CLI compiles with a Go toolchain, which drydock does not run.
		if kind == "" || kind == "README.md" || kind == "readme.md" || kind == "godef" {
			return nil
		}
		data, err := readFile(fsys, p)
		if err != nil {
			return err
		}
		f := srcFile{path: p, data: data}
		switch kind {
		case "resources/parameter.cue":
			legacy = &f
		case "parameter.cue":
			global = &f
		default:
			return pkg.add(kind, f)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	pkg.parameters = legacy
	if global != nil {
		pkg.parameters = global
	}
	if pkg.metaAt == nil {
		return nil, invalidf(manifest.Pos{}, "the addon has no metadata.yaml")
	}
	if err := pkg.meta.validate(pkg.metaAt); err != nil {
		return nil, err
	}
	return pkg, nil
}

// checkEntry rejects entries that could lead out of the addon directory.
func checkEntry(p string, d fs.DirEntry) error {
	if !fs.ValidPath(p) {
		return invalidf(manifest.Pos{File: p}, "path escapes the addon directory")
	}
	if d.Type()&fs.ModeSymlink != 0 {
		return invalidf(manifest.Pos{File: p}, "symbolic links are not allowed in an addon directory")
	}
	if !d.IsDir() && !d.Type().IsRegular() {
		return invalidf(manifest.Pos{File: p}, "not a regular file")
	}
	return nil
}

func readFile(fsys fs.FS, p string) ([]byte, error) {
	info, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, err
	}
	if info.Mode()&fs.ModeSymlink != 0 || !info.Mode().IsRegular() {
		return nil, invalidf(manifest.Pos{File: p}, "not a regular file")
	}
	if info.Size() > manifest.MaxInputBytes {
		return nil, invalidf(manifest.Pos{File: p}, "larger than %d bytes", manifest.MaxInputBytes)
	}
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, manifest.MaxInputBytes+1))
	if err == nil && len(data) > manifest.MaxInputBytes {
		return nil, invalidf(manifest.Pos{File: p}, "larger than %d bytes", manifest.MaxInputBytes)
	}
	return data, err
}

func (pkg *addonPackage) add(kind string, f srcFile) error {
	ext := path.Ext(f.path)
	isYAML := ext == ".yaml" || ext == ".yml"
	switch kind {
	case "config-templates":
		if ext == ".cue" {
			pkg.configTmpl = append(pkg.configTmpl, f)
		}
	case "metadata.yaml":
		return pkg.readMeta(f)
	case "template.yaml":
		pkg.appYAML = &f
	case "resources":
		switch {
		case f.base() == "parameter.cue":
		case ext == ".cue":
			pkg.resCUE = append(pkg.resCUE, f)
		case isYAML:
			pkg.resYAML = append(pkg.resYAML, f)
		}
	case "definitions":
		switch {
		case ext == ".cue":
			pkg.defCUE = append(pkg.defCUE, f)
		case isYAML:
			pkg.defYAML = append(pkg.defYAML, f)
		}
	case "schemas":
		pkg.schemas = append(pkg.schemas, f)
	case "views":
		switch {
		case ext == ".cue":
			pkg.viewCUE = append(pkg.viewCUE, f)
		case isYAML:
			pkg.viewYAML = append(pkg.viewYAML, f)
		}
	case "template.cue":
		pkg.appCUE = &f
	case "NOTES.cue":
		pkg.notes = &f
	}
	return nil
}

// meta is KubeVela's addon metadata (metadata.yaml). Its JSON form is the
// `context.metadata` of the addon's CUE files.
type meta struct {
	Name        string            `json:"name"`
	Version     string            `json:"version"`
	Description string            `json:"description"`
	Icon        string            `json:"icon"`
	URL         string            `json:"url,omitempty"`
	Tags        []string          `json:"tags,omitempty"`
	UXPlugins   map[string]string `json:"uxPlugins,omitempty"`
	DeployTo    *deployTo         `json:"deployTo,omitempty"`
	// Dependencies are other addons this one needs.
	Dependencies  []*dependency       `json:"dependencies,omitempty"`
	NeedNamespace []string            `json:"needNamespace,omitempty"`
	Invisible     bool                `json:"invisible"`
	System        *systemRequirements `json:"system,omitempty"`
	Annotations   map[string]string   `json:"annotations,omitempty"`
}

type deployTo struct {
	LegacyRuntimeCluster bool `json:"runtime_cluster,omitempty"`
	DisableControlPlane  bool `json:"disableControlPlane"`
	RuntimeCluster       bool `json:"runtimeCluster"`
}

type dependency struct {
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
}

type systemRequirements struct {
	VelaVersion       string `json:"vela,omitempty"`
	KubernetesVersion string `json:"kubernetes,omitempty"`
}

// readMeta decodes metadata.yaml as KubeVela does (sigs.k8s.io/yaml into
// the typed struct: last duplicate key wins, scalars coerced into strings).
// A failure is located at the offending line.
func (pkg *addonPackage) readMeta(f srcFile) error {
	if len(f.data) > manifest.MaxInputBytes {
		return invalidf(f.pos(), "larger than %d bytes", manifest.MaxInputBytes)
	}
	if err := yaml.Unmarshal(f.data, &pkg.meta); err != nil {
		err = explainYAML(f, "metadata.yaml", reflect.TypeFor[meta](), true, err)
		at, _ := locate(f)
		return withAddon(err, manifest.String(at.Data, "name"))
	}
	pkg.metaAt, _ = locate(f)
	return nil
}

// withAddon names the addon in err when it is an *Error that does not yet.
func withAddon(err error, name string) error {
	var ae *Error
	if errors.As(err, &ae) && ae.Addon == "" {
		ae.Addon = name
	}
	return err
}

// validate checks what KubeVela requires of the metadata before it enables
// the addon; at locates the fields in metadata.yaml.
func (m *meta) validate(at *manifest.Object) error {
	switch {
	case m.Name == "":
		return invalidf(at.FieldPos(fieldpath.New("name")), "metadata.yaml must define the name of the addon")
	case m.Version == "":
		return &Error{Pos: at.FieldPos(fieldpath.New("version")), Addon: m.Name, Msg: "metadata.yaml must define the version of the addon"}
	}
	// The name becomes the addon Application's name (addon-<name>) and
	// part of ConfigMap and Secret names, and of drydock's paths.
	if msg := manifest.DNS1123Label(m.Name); msg != "" {
		return invalidf(at.FieldPos(fieldpath.New("name")), "metadata.yaml: name: Invalid value: %q: %s", m.Name, msg)
	}
	return withAddon(m.System.validate(at), m.Name)
}

// validate checks the system requirements' constraints. KubeVela checks the
// running vela CLI, vela-core and Kubernetes versions against them before
// anything else; drydock knows none of those versions offline, but a
// constraint that does not parse fails that check whatever the versions.
func (r *systemRequirements) validate(at *manifest.Object) error {
	if r == nil {
		return nil
	}
	for _, c := range []struct{ field, require string }{{"vela", r.VelaVersion}, {"kubernetes", r.KubernetesVersion}} {
		if c.require == "" {
			continue
		}
		if _, err := semver.NewConstraint(strings.ReplaceAll(c.require, "v", " ")); err != nil {
			return invalidf(at.FieldPos(fieldpath.New("system", c.field)), "metadata.yaml: system.%s: Invalid value: %q: not a version constraint KubeVela can check", c.field, c.require)
		}
	}
	return nil
}

func (m *meta) deploysToRuntime() bool {
	return m.DeployTo != nil && (m.DeployTo.RuntimeCluster || m.DeployTo.LegacyRuntimeCluster)
}

// errNotFound is returned when a registry has no addon of a name.
var errNotFound = errors.New("not found")

// subFS returns the registry's addon directory name.
func subFS(registry fs.FS, name string) (fs.FS, error) {
	entries, err := fs.ReadDir(registry, ".")
	if err != nil {
		return nil, err
	}
	for _, d := range entries {
		if d.Name() != name {
			continue
		}
		if !d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return nil, errNotFound
		}
		return fs.Sub(registry, name)
	}
	return nil, errNotFound
}
