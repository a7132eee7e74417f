package addon

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"path"
	"reflect"
	"strings"

	"cuelang.org/go/cue"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// yamlToJSON converts the first YAML document of f to JSON the way the
// Kubernetes YAML serializer does (sigs.k8s.io/yaml: YAML 1.1 scalars, last
// duplicate key wins). A failure is located at its cause.
func yamlToJSON(f srcFile) ([]byte, error) {
	if len(f.data) > manifest.MaxInputBytes {
		return nil, invalidf(f.pos(), "larger than %d bytes", manifest.MaxInputBytes)
	}
	js, err := yaml.YAMLToJSON(f.data)
	if err != nil {
		return nil, explainYAML(f, "", nil, false, err)
	}
	return js, nil
}

// locate decodes f with drydock's position-keeping decoder and returns its
// first document, whose Data and field positions say where each value was
// authored. It is only a map of positions: the values KubeVela uses come
// from sigs.k8s.io/yaml, which reads the first document alone. When f does
// not decode, the object is empty and placed at the first document's start.
func locate(f srcFile) (*manifest.Object, error) {
	objs, err := manifest.Decode(f.path, f.data, manifest.DecodeOptions{LastKeyWins: true, KeepLists: true})
	if err != nil || len(objs) == 0 {
		return &manifest.Object{Pos: docStart(f)}, err
	}
	return objs[0], nil
}

// explainYAML turns a sigs.k8s.io/yaml failure on f into an error at its
// cause: the YAML syntax error, else (with a target type t) the first value
// of the wrong shape, named as what's field. coerce is sigs.k8s.io/yaml's
// turning of scalars into strings for string fields (Unmarshal, not
// YAMLToJSON).
func explainYAML(f srcFile, what string, t reflect.Type, coerce bool, err error) error {
	obj, derr := locate(f)
	var pe *manifest.Error
	if errors.As(derr, &pe) {
		return invalidf(pe.Pos, "%v", pe.Err)
	}
	if t != nil {
		if e := checkShape(t, obj.Data, nil, obj, coerce); e != nil {
			return shapeErr(obj, what, e)
		}
	}
	if what == "" {
		what = f.base()
	}
	return invalidf(obj.Pos, "%s: %v", what, err)
}

// decodeJSON decodes js into target as encoding/json does; a value of the
// wrong type is reported where at says it was authored, named as what's
// field.
func decodeJSON(js []byte, target any, at *manifest.Object, what string) error {
	err := json.Unmarshal(js, target)
	if err == nil {
		return nil
	}
	if v, derr := manifest.DecodeJSON(js); derr == nil {
		if e := checkShape(reflect.TypeOf(target), v, nil, at, false); e != nil {
			return shapeErr(at, what, e)
		}
	}
	return invalidf(at.Pos, "%s: %v", what, err)
}

// yamlObject reads the first document of a YAML file as a Kubernetes object,
// which must name its kind. The object records where its fields were
// authored.
func yamlObject(f srcFile) (*manifest.Object, error) {
	_, v, at, err := yamlDocument(f)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if v == nil {
		m, ok = map[string]any{}, true
	}
	if !ok {
		return nil, invalidf(docStart(f), "%s: must be a Kubernetes object (a mapping), found %s", f.base(), valueNoun(v))
	}
	if err := requireKind(m, at); err != nil {
		return nil, err
	}
	o := &manifest.Object{Data: m, Pos: docStart(f)}
	o.Graft(nil, at)
	return o, nil
}

// yamlDocument converts the first document of f to JSON (as
// sigs.k8s.io/yaml does) and decodes it, with the object that records
// where its fields were authored.
func yamlDocument(f srcFile) (js []byte, v any, at *manifest.Object, err error) {
	if js, err = yamlToJSON(f); err != nil {
		return nil, nil, nil, err
	}
	at, _ = locate(f)
	if v, err = manifest.DecodeJSON(js); err != nil {
		return nil, nil, nil, invalidf(docStart(f), "%s: %v", f.base(), err)
	}
	return js, v, at, nil
}

// requireKind refuses an object without a kind, as Kubernetes' decoder
// does ("Object 'Kind' is missing").
func requireKind(m map[string]any, at *manifest.Object) error {
	switch k := m["kind"].(type) {
	case string:
		if k != "" {
			return nil
		}
		return invalidf(at.FieldPos(fieldpath.New("kind")), "kind: Required value: a Kubernetes object must name its kind")
	case nil:
		return invalidf(at.Pos, "kind: Required value: a Kubernetes object must name its kind")
	default:
		return invalidf(at.FieldPos(fieldpath.New("kind")), "kind: must be a string, found %s", valueNoun(k))
	}
}

// docStart is where the first YAML document of f starts: the first line
// that is not blank, a comment or a document marker.
func docStart(f srcFile) manifest.Pos {
	for i, line := range strings.Split(string(f.data), "\n") {
		t := strings.TrimSpace(line)
		if t != "" && !strings.HasPrefix(t, "#") && t != "---" && !strings.HasPrefix(t, "%") {
			return manifest.Pos{File: f.path, Line: i + 1, Col: 1}
		}
	}
	return manifest.Pos{File: f.path, Line: 1, Col: 1}
}

// renderSchemas turns schemas/* files into ui-schema ConfigMaps named before
// the first dot of the file name.
func renderSchemas(pkg *addonPackage) ([]*manifest.Object, error) {
	var out []*manifest.Object
	for _, f := range pkg.schemas {
		js, err := yamlToJSON(f)
		if err != nil {
			return nil, err
		}
		name := strings.Split(f.base(), ".")[0]
		out = append(out, configMap(f, name, map[string]any{"ui-schema": string(js)}))
	}
	return out, nil
}

func configMap(f srcFile, name string, data map[string]any) *manifest.Object {
	return &manifest.Object{Pos: f.pos(), Data: map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]any{"name": name, "namespace": velaSystem},
		"data":       data,
	}}
}

// renderViews turns views/*.yaml into objects applied as written and
// views/*.cue into ConfigMaps holding the view template.
func renderViews(pkg *addonPackage) ([]*manifest.Object, error) {
	var out []*manifest.Object
	for _, f := range pkg.viewYAML {
		o, err := yamlObject(f)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	for _, f := range pkg.viewCUE {
		if err := checkView(f); err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(f.base(), path.Ext(f.base()))
		out = append(out, configMap(f, name, map[string]any{"template": string(f.data)}))
	}
	return out, nil
}

// checkView parses a CUE view and, as KubeVela's velaql.ValidateView does,
// refuses one without a `status` or `export` field. KubeVela's packages
// (vela/ql) are stubbed out, so a view that does not evaluate without
// them is not judged.
func checkView(f srcFile) error {
	if err := parseCUE(f); err != nil {
		return err
	}
	src, err := stubImports(f.data, f.path)
	if err != nil {
		return cueError("view", err)
	}
	v := newContext().CompileString(string(src), cue.Filename(f.path))
	if v.Err() != nil {
		return nil
	}
	if !v.LookupPath(cue.ParsePath("status")).Exists() && !v.LookupPath(cue.ParsePath("export")).Exists() {
		return invalidf(f.pos(), "no `status` or `export` field found in view")
	}
	return nil
}

// argsSecret is the Secret remembering the parameters an addon was enabled
// with.
func argsSecret(name string, args map[string]any) (*manifest.Object, error) {
	js, err := json.Marshal(args)
	if err != nil {
		return nil, invalidf(manifest.Pos{}, "parameters: %v", err)
	}
	return manifest.New(map[string]any{
		"apiVersion": "v1",
		"kind":       "Secret",
		"metadata":   map[string]any{"name": "addon-secret-" + name, "namespace": velaSystem},
		"type":       "Opaque",
		"data":       map[string]any{"addonParameterDataKey": base64.StdEncoding.EncodeToString(js)},
	}), nil
}

// setLabels merges labels into the object's metadata.labels, overriding.
func setLabels(o *manifest.Object, labels map[string]string) {
	md, _ := o.Data["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		o.Data["metadata"] = md
	}
	cur, _ := md["labels"].(map[string]any)
	if cur == nil {
		cur = map[string]any{}
		md["labels"] = cur
	}
	for k, v := range labels {
		cur[k] = v
	}
}
