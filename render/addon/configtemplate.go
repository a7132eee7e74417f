package addon

import (
	"encoding/json"
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/encoding/openapi"
	"sigs.k8s.io/yaml"

	"github.com/drydock-dev/drydock/manifest"
)

// configDefaultContext is appended to a config template (KubeVela's
// pkg/config/context DefaultContext).
const configDefaultContext = "\n\tcontext: {\n\t\tname: string\n\t\tnamespace: string\n\t}\n"

// renderConfigTemplates turns config-templates/*.cue into the ConfigMaps
// KubeVela's config factory stores them in.
func renderConfigTemplates(pkg *addonPackage) ([]*manifest.Object, error) {
	var out []*manifest.Object
	for _, f := range pkg.configTmpl {
		o, err := configTemplate(f)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

type templateMetadata struct {
	Name        string `json:"name"`
	Alias       string `json:"alias,omitempty"`
	Description string `json:"description,omitempty"`
	Sensitive   bool   `json:"sensitive,omitempty"`
	Scope       string `json:"scope,omitempty"`
}

func configTemplate(f srcFile) (*manifest.Object, error) {
	script := string(f.data) + "\n" + configDefaultContext
	v, err := evalConfigTemplate(f, script)
	if err != nil {
		return nil, err
	}
	tm, err := templateMeta(f, v)
	if err != nil {
		return nil, err
	}
	tmpl := v.LookupPath(cue.ParsePath("template"))
	if !tmpl.Exists() {
		return nil, invalidf(f.pos(), "config template has no `template` field")
	}
	if !tmpl.LookupPath(cue.ParsePath("parameter")).Exists() {
		return nil, invalidf(f.pos(), "config template has no `template.parameter` field")
	}
	data := map[string]any{"template": script}
	if data["schema"], err = parameterSchema(tmpl); err != nil {
		return nil, invalidf(f.pos(), "config template parameter schema: %v", err)
	}
	if data["expanded-writer"], err = expandedWriter(tmpl); err != nil {
		return nil, invalidf(f.pos(), "config template: %v", err)
	}
	o := configMap(f, "config-template-"+tm.Name, data)
	md := o.Data["metadata"].(map[string]any)
	md["labels"] = map[string]any{"config.oam.dev/catalog": "velacore-config", "config.oam.dev/scope": tm.Scope}
	md["annotations"] = map[string]any{
		"config.oam.dev/description": "",
		"config.oam.dev/alias":       tm.Alias,
		"config.oam.dev/sensitive":   fmt.Sprintf("%t", tm.Sensitive),
	}
	return o, nil
}

// evalConfigTemplate evaluates a config template with KubeVela's packages
// (vela/config) stubbed out: only metadata, template.parameter and
// template.nacos are read.
func evalConfigTemplate(f srcFile, script string) (cue.Value, error) {
	if err := parseCUE(f); err != nil {
		return cue.Value{}, err
	}
	src, err := stubImports([]byte(script), f.path)
	if err != nil {
		return cue.Value{}, cueError("config template", err)
	}
	v := newContext().CompileString(string(src)+"\ncontext: {...}\n", cue.Filename(f.path))
	if err := v.Err(); err != nil {
		return cue.Value{}, cueError("config template", err)
	}
	return v, nil
}

func templateMeta(f srcFile, v cue.Value) (templateMetadata, error) {
	var tm templateMetadata
	md := v.LookupPath(cue.ParsePath("metadata"))
	if !md.Exists() {
		return tm, invalidf(f.pos(), "config template has no `metadata` field")
	}
	js, err := md.MarshalJSON()
	if err != nil {
		return tm, cueError("config template metadata", err)
	}
	if err := json.Unmarshal(js, &tm); err != nil {
		return tm, invalidf(f.pos(), "config template metadata: %v", err)
	}
	return tm, nil
}

// parameterSchema is the OpenAPI schema of template.parameter as KubeVela
// stores it: CUE's OpenAPI encoding, titles set to field names, +usage
// comments as descriptions, YAML.
func parameterSchema(tmpl cue.Value) (string, error) {
	root := tmpl.Context().CompileString("{}")
	if p := tmpl.LookupPath(cue.ParsePath("parameter")); p.Exists() && p.IncompleteKind() != cue.BottomKind {
		root = root.FillPath(cue.ParsePath("#parameter"), p)
	} else {
		root = tmpl.Context().CompileString("#parameter: {}")
	}
	b, err := genOpenAPI(root)
	if err != nil {
		return "", err
	}
	var doc struct {
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return "", err
	}
	schema, ok := doc.Components.Schemas["parameter"]
	if !ok {
		return "", fmt.Errorf("no parameter schema generated")
	}
	fixSchema("", schema)
	y, err := yaml.Marshal(schema)
	if err != nil {
		return "", err
	}
	return string(y), nil
}

func genOpenAPI(v cue.Value) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("invalid cue definition to generate open api: %v", r)
		}
	}()
	return openapi.Gen(v, &openapi.Config{ExpandReferences: true})
}

// fixSchema sets titles and cleans descriptions as KubeVela's
// FixOpenAPISchema does.
func fixSchema(name string, s map[string]any) {
	switch s["type"] {
	case "object":
		if props, ok := s["properties"].(map[string]any); ok {
			for k, p := range props {
				if pm, ok := p.(map[string]any); ok {
					fixSchema(k, pm)
				}
			}
		}
	case "array":
		if items, ok := s["items"].(map[string]any); ok {
			fixSchema("", items)
		}
	}
	if name != "" {
		s["title"] = name
	}
	desc, _ := s["description"].(string)
	if strings.Contains(desc, "+usage=") {
		desc = strings.Split(desc, "+usage=")[1]
	}
	if before, _, ok := strings.Cut(desc, "+short"); ok {
		desc = strings.TrimSpace(before)
	}
	if desc == "" {
		delete(s, "description")
	} else {
		s["description"] = desc
	}
}

// expandedWriter is the YAML of the template's writer configuration (only
// nacos exists).
func expandedWriter(tmpl cue.Value) (string, error) {
	cfg := map[string]any{"nacos": nil}
	nacos := tmpl.LookupPath(cue.ParsePath("nacos"))
	if nacos.Exists() {
		str := func(p string) string {
			s, _ := nacos.LookupPath(cue.ParsePath(p)).String()
			return s
		}
		meta := map[string]any{"dataId": str("metadata.dataId"), "group": str("metadata.group"), "namespaceId": str("metadata.namespaceId")}
		for _, k := range []string{"appName", "tenant", "tag"} {
			if s := str("metadata." + k); s != "" {
				meta[k] = s
			}
		}
		cfg["nacos"] = map[string]any{
			"endpoint": map[string]any{"name": str("endpoint.name"), "namespace": str("endpoint.namespace")},
			"format":   str("format"),
			"metadata": meta,
		}
	}
	y, err := yaml.Marshal(cfg)
	if err != nil {
		return "", err
	}
	return string(y), nil
}
