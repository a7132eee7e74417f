package addon

import (
	"encoding/base64"
	"encoding/json"
	"path"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

// yamlToJSON converts the first YAML document of f to JSON the way the
// Kubernetes YAML serializer does (sigs.k8s.io/yaml: YAML 1.1 scalars, last
// duplicate key wins).
func yamlToJSON(f srcFile) ([]byte, error) {
	if len(f.data) > manifest.MaxInputBytes {
		return nil, invalidf(f.pos(), "larger than %d bytes", manifest.MaxInputBytes)
	}
	js, err := yaml.YAMLToJSON(f.data)
	if err != nil {
		return nil, invalidf(f.pos(), "%v", err)
	}
	return js, nil
}

// yamlObject reads the first document of a YAML file as a Kubernetes object,
// which must name its kind.
func yamlObject(f srcFile) (*manifest.Object, error) {
	js, err := yamlToJSON(f)
	if err != nil {
		return nil, err
	}
	v, err := manifest.DecodeJSON(js)
	if err != nil {
		return nil, invalidf(f.pos(), "%v", err)
	}
	m, ok := v.(map[string]any)
	if !ok || manifest.String(m, "kind") == "" {
		return nil, invalidf(docStart(f), "object 'Kind' is missing in %s", strings.TrimSpace(string(js)))
	}
	return &manifest.Object{Data: m, Pos: docStart(f)}, nil
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
	return f.pos()
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
		if err := parseCUE(f); err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(f.base(), path.Ext(f.base()))
		out = append(out, configMap(f, name, map[string]any{"template": string(f.data)}))
	}
	return out, nil
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
