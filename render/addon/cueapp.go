package addon

import (
	"path"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
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
	app := &application{at: cuePositions(pkg.appCUE, out)}
	if err := decodeJSON(js, app, app.at, "template.cue: output"); err != nil {
		return nil, nil, err
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
	if p, ok := authored(v); ok {
		return p
	}
	return f.pos()
}

// authored is where v was written in the addon's own files, if it was.
func authored(v cue.Value) (manifest.Pos, bool) {
	p := v.Pos()
	if !p.IsValid() || p.Filename() == generatedFile || p.Filename() == "" {
		return manifest.Pos{}, false
	}
	return render.TokenPos(p), true
}

// cuePositions maps where v (placed at f's start when unknown) and the
// values under it were written, for errors about the data v becomes.
func cuePositions(f *srcFile, v cue.Value) *manifest.Object {
	at := &manifest.Object{Pos: cuePos(f, v)}
	recordCUE(at, nil, v, 0)
	return at
}

// recordCUE records the positions of the values under v, at path prefix.
// Values only the generated context gave are left out (they fall back to
// their parent's position).
func recordCUE(at *manifest.Object, prefix fieldpath.Path, v cue.Value, depth int) {
	if depth > manifest.MaxDepth {
		return
	}
	if p, ok := authored(v); ok && len(prefix) > 0 {
		at.SetFieldPos(prefix, p)
	}
	switch v.IncompleteKind() {
	case cue.StructKind:
		iter, err := v.Fields()
		for err == nil && iter.Next() {
			recordCUE(at, prefix.Child(iter.Selector().Unquoted()), iter.Value(), depth+1)
		}
	case cue.ListKind:
		iter, err := v.List()
		for i := 0; err == nil && iter.Next(); i++ {
			recordCUE(at, prefix.At(i), iter.Value(), depth+1)
		}
	}
}

// outputKey is where KubeVela evaluates a resource file: nested under one
// field of a file that also holds the context.
const outputKey = "zz_output__"

// renderCUEComponent renders a resources .cue file outside the template's
// package into a component (nil when it has no `output`) and where its
// fields were written.
func renderCUEComponent(pkg *addonPackage, rf srcFile, args map[string]any) (*appComponent, *manifest.Object, error) {
	script, err := parseCUEFile(rf)
	if err != nil {
		return nil, nil, err
	}
	if script.PackageName() == "main" {
		return nil, nil, nil
	}
	cf, err := newContextFiles(pkg, args, nil)
	if err != nil {
		return nil, nil, err
	}
	v, err := buildFiles(newContext(), scriptFile(rf.path, cf, script))
	if err != nil {
		return nil, nil, scriptError("render resource", err)
	}
	out := v.LookupPath(cue.MakePath(cue.Str(outputKey), cue.Str("output")))
	if !out.Exists() {
		return nil, nil, nil
	}
	js, err := out.MarshalJSON()
	if err != nil {
		return nil, nil, scriptError("render resource", err)
	}
	comp := &appComponent{}
	at := cuePositions(&rf, out)
	if err := decodeJSON(js, comp, at, rf.base()+": output"); err != nil {
		return nil, nil, err
	}
	if comp.Name == "" {
		name := strings.ReplaceAll(rf.base(), path.Ext(rf.base()), "")
		comp.Name = strings.ReplaceAll(name, ".", "-")
	}
	return comp, at, nil
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
