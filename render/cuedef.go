package render

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render/patch"
)

var defTypeKinds = map[string]string{
	"component":     KindComponent,
	"trait":         KindTrait,
	"policy":        KindPolicy,
	"workflow-step": KindWorkflowStep,
}

// ParseCUEDefinitions reads a definition file in the `vela def` format: one
// top-level field naming the definition (type, attributes, ...) and a
// `template` field. The template keeps the file's own line numbers.
func ParseCUEDefinitions(file string, src []byte) ([]*Definition, error) {
	f, err := parser.ParseFile(file, src, parser.ParseComments)
	if err != nil {
		return nil, PositionedCUE(err)
	}
	var tmpl, meta *ast.Field
	for _, d := range f.Decls {
		fld, ok := d.(*ast.Field)
		if !ok {
			continue
		}
		if patch.LabelString(fld.Label) == "template" {
			tmpl = fld
		} else if meta == nil {
			meta = fld
		} else {
			return nil, manifest.At(TokenPos(fld.Pos()), "definition files hold one definition and a template; found a second field %s", patch.LabelString(fld.Label))
		}
	}
	if tmpl == nil || meta == nil {
		return nil, fmt.Errorf("%s: not a definition file: need a top-level definition field and a template field", file)
	}
	body, ok := tmpl.Value.(*ast.StructLit)
	if !ok {
		return nil, manifest.At(TokenPos(tmpl.Pos()), "template must be a struct")
	}
	d := &Definition{Name: strings.Trim(patch.LabelString(meta.Label), `"`), TemplateFile: file, placed: true}
	d.Source.File, d.Source.Line, d.Source.Col = file, meta.Pos().Line(), meta.Pos().Column()
	if err := readDefMeta(file, src, f, tmpl, d); err != nil {
		return nil, err
	}
	d.Template = templateSource(src, f, body)
	tmplText, err := velaDefTemplate(f, body)
	if err != nil {
		return nil, err
	}
	if d.velaDef == nil {
		d.velaDef = map[string]any{}
	}
	d.velaDef["schematic"] = map[string]any{"cue": map[string]any{"template": tmplText}}
	return []*Definition{d}, nil
}

// velaDefTemplate is the template text `vela def apply` stores (kubevela
// 5a44b5f pkg/definition/definition.go FromCUEString): the imports, then
// the template's declarations, each part printed by CUE's formatter with
// simplification, trimmed, ending in a newline.
func velaDefTemplate(f *ast.File, body *ast.StructLit) (string, error) {
	var imports []ast.Decl
	for _, decl := range f.Decls {
		if imp, ok := decl.(*ast.ImportDecl); ok {
			imports = append(imports, imp)
		}
	}
	imp, err := formatDecls(imports)
	if err != nil {
		return "", err
	}
	tmpl, err := formatDecls(body.Elts)
	if err != nil {
		return "", err
	}
	if imp = strings.TrimSpace(imp); imp != "" {
		return imp + "\n" + tmpl, nil
	}
	return tmpl, nil
}

func formatDecls(decls []ast.Decl) (string, error) {
	b, err := format.Node(&ast.File{Decls: decls}, format.Simplify())
	if err != nil {
		return "", fmt.Errorf("format template: %w", err)
	}
	return strings.TrimSpace(string(b)) + "\n", nil
}

// readDefMeta evaluates the definition's own field (without the template).
func readDefMeta(file string, src []byte, f *ast.File, tmpl *ast.Field, d *Definition) error {
	keep := []span{}
	for _, decl := range f.Decls {
		if _, isImport := decl.(*ast.ImportDecl); isImport || decl == ast.Decl(tmpl) {
			continue
		}
		keep = append(keep, span{decl.Pos().Offset(), decl.End().Offset()})
	}
	v := cuecontext.New().CompileString(blankExcept(src, keep), cue.Filename(file))
	if err := v.Err(); err != nil {
		return PositionedCUE(err)
	}
	m := v.LookupPath(cue.MakePath(cue.Str(d.Name)))
	tv := m.LookupPath(cue.ParsePath("type"))
	typ, _ := tv.String()
	kind, ok := defTypeKinds[typ]
	if !ok {
		return manifest.At(cuePos(tv, d.Source), "definition %q: unknown type %q (want component, trait, policy or workflow-step)", d.Name, typ)
	}
	d.Kind = kind
	// vela def names the object after the field: the API server's
	// ValidateObjectMeta checks it as a DNS-1123 subdomain.
	if msg := manifest.DNS1123Subdomain(d.Name); msg != "" {
		return manifest.At(d.Source, "%s %q: metadata.name: Invalid value: %q: %s", d.Kind, d.Name, d.Name, msg)
	}
	if err := checkDefSpec(m, d); err != nil {
		return err
	}
	attr := func(path string) string {
		s, _ := m.LookupPath(cue.ParsePath("attributes." + path)).String()
		return s
	}
	var attrs map[string]any
	if err := m.LookupPath(cue.ParsePath("attributes")).Decode(&attrs); err == nil {
		d.velaDef = attrs
	}
	d.Stage = attr("stage")
	d.WorkloadType = attr("workload.type")
	d.Status = StatusSpec{HealthPolicy: attr("status.healthPolicy"), CustomStatus: attr("status.customStatus"), Details: attr("status.details")}
	d.spec = defSpec{cue: true, ref: attr("definitionRef.name"), version: attr("version"),
		workload: d.WorkloadType != "" || attr("workload.definition.apiVersion") != "" || attr("workload.definition.kind") != ""}
	return nil
}

// TokenPos converts a CUE source position.
func TokenPos(p token.Pos) manifest.Pos {
	return manifest.Pos{File: p.Filename(), Line: p.Line(), Col: p.Column()}
}

// cuePos is where v was authored, else fallback.
func cuePos(v cue.Value, fallback manifest.Pos) manifest.Pos {
	if p := v.Pos(); p.IsValid() {
		return TokenPos(p)
	}
	return fallback
}

// templateSource keeps the imports and the template body at their places
// and blanks the rest, so the template compiles with the file's positions.
func templateSource(src []byte, f *ast.File, body *ast.StructLit) string {
	keep := []span{{body.Lbrace.Offset() + 1, body.Rbrace.Offset()}}
	for _, decl := range f.Decls {
		if _, ok := decl.(*ast.ImportDecl); ok {
			keep = append(keep, span{decl.Pos().Offset(), decl.End().Offset()})
		}
	}
	return blankExcept(src, keep)
}

type span struct{ from, to int }

// blankExcept replaces every byte outside the spans by a space, keeping
// newlines, so that line and column numbers stay valid.
func blankExcept(src []byte, keep []span) string {
	out := make([]byte, len(src))
	for i, b := range src {
		if b == '\n' {
			out[i] = '\n'
		} else {
			out[i] = ' '
		}
	}
	for _, s := range keep {
		if s.from < 0 || s.to > len(src) || s.from > s.to {
			continue
		}
		copy(out[s.from:s.to], src[s.from:s.to])
	}
	return string(out)
}
