package addon

import (
	"encoding/json"
	"path"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"

	"github.com/drydock-dev/drydock/manifest"
)

// renderCUEApp evaluates template.cue together with the context file and
// the resources in its package, and decodes `output` and `outputs`.
func renderCUEApp(pkg *addonPackage, args map[string]any) (*application, []*manifest.Object, error) {
	cf, err := newContextFiles(pkg, args, nil)
	if err != nil {
		return nil, nil, err
	}
	main, err := parseCUEFile(*pkg.appCUE)
	if err != nil {
		return nil, nil, err
	}
	// KubeVela fixes the template only when it has a package clause (it
	// re-parses the text with `package main` prepended otherwise).
	if main.PackageName() != "" {
		main = kubevelaFix(main)
	}
	main = withPackage(main, "main")
	files := []*ast.File{main}
	for _, f := range cf.files() {
		if f.PackageName() == main.PackageName() {
			files = append(files, kubevelaFix(f))
		}
	}
	for _, rf := range pkg.resCUE {
		f, err := parseCUEFile(rf)
		if err != nil {
			return nil, nil, err
		}
		if f.PackageName() == main.PackageName() {
			files = append(files, kubevelaFix(f))
		}
	}
	v, err := buildFiles(newContext(), files...)
	if err != nil {
		return nil, nil, cueError("render application", err)
	}
	return decodeCUEApp(pkg, v)
}

func decodeCUEApp(pkg *addonPackage, v cue.Value) (*application, []*manifest.Object, error) {
	out := v.LookupPath(cue.MakePath(cue.Str("output")))
	if !out.Exists() {
		return nil, nil, invalidf(pkg.appCUE.pos(), "template.cue has no `output` field")
	}
	js, err := out.MarshalJSON()
	if err != nil {
		return nil, nil, cueError("decode application from CUE", err)
	}
	app := &application{pos: cuePos(pkg.appCUE, out)}
	if err := json.Unmarshal(js, app); err != nil {
		return nil, nil, invalidf(app.pos, "decode application from CUE: %v", err)
	}
	outputs := v.LookupPath(cue.MakePath(cue.Str("outputs")))
	if !outputs.Exists() {
		return app, nil, nil
	}
	m, err := marshalJSONModel(outputs)
	if err != nil {
		return nil, nil, cueError("decode outputs from CUE", err)
	}
	mm, ok := m.(map[string]any)
	if !ok {
		return nil, nil, invalidf(cuePos(pkg.appCUE, outputs), "outputs must be a struct")
	}
	var aux []*manifest.Object
	for _, k := range manifest.SortedKeys(mm) {
		if obj, ok := mm[k].(map[string]any); ok {
			o := &manifest.Object{Data: obj, Pos: cuePos(pkg.appCUE, outputs.LookupPath(cue.MakePath(cue.Str(k))))}
			setLabels(o, map[string]string{labelAuxiliaryName: k})
			aux = append(aux, o)
		}
	}
	return app, aux, nil
}

// cuePos is the position of a value in the addon's files, or the file.
func cuePos(f *srcFile, v cue.Value) manifest.Pos {
	p := v.Pos()
	if !p.IsValid() || p.Filename() == generatedFile {
		return f.pos()
	}
	return manifest.Pos{File: p.Filename(), Line: p.Line(), Col: p.Column()}
}

// outputKey is where KubeVela evaluates a resource file: nested under one
// field of a file that also holds the context.
const outputKey = "zz_output__"

// renderCUEComponent renders a resources .cue file outside the template's
// package into a component (nil when it has no `output`).
func renderCUEComponent(pkg *addonPackage, rf srcFile, args map[string]any) (*appComponent, error) {
	script, err := parseCUEFile(rf)
	if err != nil {
		return nil, err
	}
	if script.PackageName() == "main" {
		return nil, nil
	}
	cf, err := newContextFiles(pkg, args, nil)
	if err != nil {
		return nil, err
	}
	v, err := buildFiles(newContext(), scriptFile(rf.path, cf, script))
	if err != nil {
		return nil, cueError("render resource", err)
	}
	out := v.LookupPath(cue.MakePath(cue.Str(outputKey), cue.Str("output")))
	if !out.Exists() {
		return nil, nil
	}
	js, err := out.MarshalJSON()
	if err != nil {
		return nil, cueError("render resource", err)
	}
	comp := &appComponent{}
	if err := json.Unmarshal(js, comp); err != nil {
		return nil, invalidf(rf.pos(), "render resource: %v", err)
	}
	if comp.Name == "" {
		name := strings.ReplaceAll(rf.base(), path.Ext(rf.base()), "")
		comp.Name = strings.ReplaceAll(name, ".", "-")
	}
	return comp, nil
}

// scriptFile puts the context declarations and, nested under outputKey, the
// script's declarations into one file, as KubeVela's LookupValueByScript.
func scriptFile(name string, cf *contextFiles, script *ast.File) *ast.File {
	f := &ast.File{Filename: name}
	f.Decls = append(f.Decls, cf.decls()...)
	var body []ast.Decl
	for _, d := range dropPackage(script.Decls) {
		if _, ok := d.(*ast.ImportDecl); ok {
			f.Decls = append(f.Decls, d)
			continue
		}
		body = append(body, d)
	}
	f.Decls = append(f.Decls, &ast.Field{Label: ast.NewIdent(outputKey), Value: &ast.StructLit{Elts: body}})
	return f
}

// renderNotes evaluates NOTES.cue after the context file and returns
// `notes`. As in KubeVela, any failure only means there are no notes.
func renderNotes(pkg *addonPackage, args map[string]any) string {
	if pkg.notes == nil || len(pkg.notes.data) == 0 {
		return ""
	}
	if args == nil {
		args = map[string]any{}
	}
	cf, err := newContextFiles(pkg, args, map[string]any{"installer": map[string]any{"upgrade": false}})
	if err != nil {
		return ""
	}
	notes, err := parseCUEFile(*pkg.notes)
	if err != nil || len(notes.Imports) > 0 || notes.PackageName() != "" {
		return ""
	}
	f := &ast.File{Filename: pkg.notes.path, Decls: append(cf.decls(), notes.Decls...)}
	v, err := buildFiles(newContext(), f)
	if err != nil {
		return ""
	}
	s, err := v.LookupPath(cue.MakePath(cue.Str("notes"))).String()
	if err != nil {
		return ""
	}
	return s
}
