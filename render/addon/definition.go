package addon

import (
	"encoding/json"
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"

	"github.com/drydock-dev/drydock/manifest"
)

const (
	definitionAPIVersion = "core.oam.dev/v1beta1"
	descriptionKey       = "definition.oam.dev/description"
	aliasKey             = "definition.oam.dev/alias"
	userPrefix           = "custom.definition.oam.dev/"
)

var defTypeKinds = map[string]string{
	"component":     "ComponentDefinition",
	"trait":         "TraitDefinition",
	"policy":        "PolicyDefinition",
	"workload":      "WorkloadDefinition",
	"workflow-step": "WorkflowStepDefinition",
}

// renderDefinitions renders definitions/: YAML ones as written (namespace
// forced to vela-system), then CUE ones in KubeVela's `vela def` format.
func renderDefinitions(pkg *addonPackage) ([]*manifest.Object, error) {
	var out []*manifest.Object
	for _, f := range pkg.defYAML {
		o, err := yamlObject(f)
		if err != nil {
			return nil, err
		}
		md, _ := o.Data["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
			o.Data["metadata"] = md
		}
		md["namespace"] = velaSystem
		out = append(out, o)
	}
	for _, f := range pkg.defCUE {
		o, err := cueDefinition(f)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// defParts are the declarations of a definition file: imports, the
// definition's own field and the template body.
type defParts struct {
	imports, meta, template []ast.Decl
}

func splitDefinition(f srcFile, file *ast.File) (*defParts, error) {
	parts := &defParts{}
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.ImportDecl:
			parts.imports = append(parts.imports, d)
		case *ast.Field:
			label := ""
			switch l := d.Label.(type) {
			case *ast.Ident:
				label = l.Name
			case *ast.BasicLit:
				label = l.Value
			}
			if label == "" {
				return nil, invalidf(posOf(f, d), "found unexpected declaration when parsing the definition")
			}
			if label != "template" {
				parts.meta = append(parts.meta, d)
				continue
			}
			body, ok := d.Value.(*ast.StructLit)
			if !ok {
				return nil, invalidf(posOf(f, d), "template must be a struct")
			}
			parts.template = append(parts.template, body.Elts...)
		}
	}
	switch {
	case len(parts.meta) == 0:
		return nil, invalidf(f.pos(), "no definition metadata found")
	case len(parts.template) == 0:
		return nil, invalidf(f.pos(), "no template found")
	}
	return parts, nil
}

func posOf(f srcFile, n ast.Node) manifest.Pos {
	p := n.Pos()
	if !p.IsValid() {
		return f.pos()
	}
	return manifest.Pos{File: f.path, Line: p.Line(), Col: p.Column()}
}

// cueDefinition converts a CUE definition file as KubeVela's
// Definition.FromCUEString does.
func cueDefinition(f srcFile) (*manifest.Object, error) {
	file, err := parseCUEFile(f)
	if err != nil {
		return nil, err
	}
	parts, err := splitDefinition(f, file)
	if err != nil {
		return nil, err
	}
	imports, err := formatDecls(parts.imports)
	if err != nil {
		return nil, invalidf(f.pos(), "%v", err)
	}
	body, err := formatDecls(parts.template)
	if err != nil {
		return nil, invalidf(f.pos(), "%v", err)
	}
	template := body
	if len(parts.imports) > 0 {
		template = imports + body
	}
	metaVal := newContext().BuildFile(&ast.File{Filename: f.path, Decls: parts.meta})
	if err := metaVal.Err(); err != nil {
		return nil, cueError("definition", err)
	}
	return definitionObject(f, metaVal, template)
}

// formatDecls formats declarations as a file with cue/format's Simplify,
// trimmed, plus a newline.
func formatDecls(decls []ast.Decl) (string, error) {
	b, err := format.Node(&ast.File{Decls: decls}, format.Simplify())
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)) + "\n", nil
}

// definitionObject builds the definition from the evaluated definition
// field (type, alias, description, annotations, labels, attributes).
func definitionObject(f srcFile, val cue.Value, template string) (*manifest.Object, error) {
	iter, err := val.Fields()
	if err != nil {
		return nil, cueError("definition", err)
	}
	obj := map[string]any{}
	md := map[string]any{"namespace": velaSystem}
	annotations, labels, spec := map[string]any{}, map[string]any{}, map[string]any{}
	kind, named := "", false
	for iter.Next() {
		if named {
			return nil, invalidf(f.pos(), "duplicated definition name found, %s and %s", md["name"], iter.Selector().Unquoted())
		}
		named = true
		md["name"] = iter.Selector().Unquoted()
		if kind, err = readDefFields(iter.Value(), annotations, labels, spec); err != nil {
			return nil, withPos(err, f.pos())
		}
	}
	if kind != "" {
		obj["apiVersion"], obj["kind"] = definitionAPIVersion, kind
	}
	md["annotations"], md["labels"] = annotations, labels
	obj["metadata"] = md
	if err := setTemplate(spec, template); err != nil {
		return nil, invalidf(f.pos(), "%v", err)
	}
	if err := validateSpec(spec, kind); err != nil {
		return nil, invalidf(f.pos(), "invalid definition spec: %v", err)
	}
	obj["spec"] = spec
	return &manifest.Object{Data: obj, Pos: f.pos()}, nil
}

func readDefFields(v cue.Value, annotations, labels, spec map[string]any) (kind string, err error) {
	iter, err := v.Fields()
	if err != nil {
		return "", cueError("definition", err)
	}
	for iter.Next() {
		fv := iter.Value()
		switch iter.Selector().Unquoted() {
		case "type":
			t, err := fv.String()
			if err != nil {
				return "", cueError("definition type", err)
			}
			if kind = defTypeKinds[t]; kind == "" {
				return "", invalidf(manifest.Pos{}, "invalid definition type %s", t)
			}
		case "alias", "description":
			s, err := fv.String()
			if err != nil {
				return "", cueError("definition "+iter.Selector().Unquoted(), err)
			}
			key := aliasKey
			if iter.Selector().Unquoted() == "description" {
				key = descriptionKey
			}
			annotations[key] = s
		case "annotations":
			err = userKeys(fv, annotations)
		case "labels":
			err = userKeys(fv, labels)
		case "attributes":
			err = decodeInto(fv, spec)
		}
		if err != nil {
			return "", err
		}
	}
	return kind, nil
}

// userKeys copies a string map; keys not mentioning oam.dev get the
// custom.definition.oam.dev/ prefix.
func userKeys(v cue.Value, into map[string]any) error {
	js, err := v.MarshalJSON()
	if err != nil {
		return cueError("definition", err)
	}
	var m map[string]string
	if err := json.Unmarshal(js, &m); err != nil {
		return invalidf(manifest.Pos{}, "definition annotations and labels must be strings: %v", err)
	}
	for k, s := range m {
		if !strings.Contains(k, "oam.dev") {
			k = userPrefix + k
		}
		into[k] = s
	}
	return nil
}

func decodeInto(v cue.Value, into map[string]any) error {
	m, err := marshalJSONModel(v)
	if err != nil {
		return cueError("definition attributes", err)
	}
	mm, ok := m.(map[string]any)
	if !ok {
		return invalidf(manifest.Pos{}, "definition attributes must be a struct")
	}
	for k, e := range mm {
		into[k] = e
	}
	return nil
}

func setTemplate(spec map[string]any, template string) error {
	cur := spec
	for _, k := range []string{"schematic", "cue"} {
		next, ok := cur[k]
		if !ok || next == nil {
			next = map[string]any{}
			cur[k] = next
		}
		m, ok := next.(map[string]any)
		if !ok {
			return fmt.Errorf("spec.%s is not a map", k)
		}
		cur = m
	}
	cur["template"] = template
	return nil
}

func withPos(err error, pos manifest.Pos) error {
	if e, ok := err.(*Error); ok && !e.Pos.IsValid() {
		e.Pos = pos
	}
	return err
}
