package cueval

import (
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
	"github.com/drydock-dev/drydock/render"
	"github.com/drydock-dev/drydock/render/patch"
)

// Provenance: which stage set each leaf of a rendered object.
//
// CUE positions answer most of it. A leaf's value position is the
// template field that set it; the parameters are filled as syntax whose
// leaves carry positions in originFile, an offset per leaf indexing the
// chain of who set that property (the definition's default, the
// Application's entry, override policies), so a leaf that took a
// property's value says so. A reference is followed one step
// (parameter.x, v.port over a comprehension) to reach that position.
// Trait patches and the contract labels are recorded by comparing the
// object before and after them.

// originFile is the pseudo file of parameter leaves' positions: offset i
// is leaf i of the run's tracer.
var originFile = token.NewFile("drydock-origin", -1, 1<<30)

// tracer records one component render's provenance.
type tracer struct {
	// leaves are the chains of the parameter leaves filled so far, by
	// offset in originFile.
	leaves [][]manifest.Origin
}

// subject is what a parameter belongs to: a component, a trait of it,
// or a policy rendered by its definition.
type subject struct {
	def      *render.Definition
	stage    manifest.Stage
	name     string
	path     render.FieldRef
	overlays []render.FieldRef
}

// mark returns the function that positions the parameter leaves of s.
func (r *componentRun) mark(s subject) func(at fieldpath.Path) token.Pos {
	if r.trace == nil {
		return nil
	}
	return func(at fieldpath.Path) token.Pos {
		t := r.trace
		t.leaves = append(t.leaves, r.propertyChain(s, at))
		return originFile.Pos(len(t.leaves)-1, token.NoRelPos)
	}
}

// propertyChain is who set property at of s: the Application's entry and
// the override policy entries that wrote it, in order.
func (r *componentRun) propertyChain(s subject, at fieldpath.Path) []manifest.Origin {
	app := r.app
	detail := fieldpath.New("properties").Join(at).String()
	var chain []manifest.Origin
	if p := propertyField(s.path, at); app.HasField(p) {
		chain = append(chain, manifest.Origin{Stage: s.stage, Name: s.name, Detail: detail, Pos: app.FieldPos(p), Value: authored(app, p)})
	}
	for _, ov := range s.overlays {
		if p := propertyField(ov, at); app.HasField(p) {
			chain = append(chain, manifest.Origin{Stage: manifest.StageOverridePolicy, Name: r.policyAt(ov), Detail: detail, Pos: app.FieldPos(p), Value: authored(app, p)})
		}
	}
	if len(chain) == 0 {
		// Set by the workflow (inputs) or an external policy.
		chain = append(chain, manifest.Origin{Stage: s.stage, Name: s.name, Detail: detail, Pos: app.FieldPos(s.path)})
	}
	return chain
}

// propertyField is where property at of the entry at path is.
func propertyField(path render.FieldRef, at fieldpath.Path) render.FieldRef {
	return path.Child("properties").Join(at)
}

// authored is the value of the Application's field at ref.
func authored(app *render.Application, ref render.FieldRef) any {
	if ref.IsExternal() {
		return nil
	}
	v, _ := fieldpath.Get(app.Object.Data, ref.Path)
	return NormalizeNumbers(v)
}

// policyAt names the policy whose entry is at path.
func (r *componentRun) policyAt(path render.FieldRef) string {
	for _, p := range r.app.Policies {
		if !p.Path.IsZero() && len(path.Path) > len(p.Path.Path) && path.HasPrefix(p.Path) {
			return p.Name
		}
	}
	return ""
}

// origins is the chain of the leaf at path of v, a value s's template
// rendered.
func (r *componentRun) origins(v cue.Value, path fieldpath.Path, s subject) []manifest.Origin {
	leaf := v
	if len(path) > 0 {
		leaf = v.LookupPath(fieldCUEPath(path))
	}
	if !leaf.Exists() {
		return []manifest.Origin{{Stage: templateStage(s), Name: s.name, Pos: render.TokenPos(v.Pos())}}
	}
	pos := sourcePos(leaf, 0)
	if pos.File() == originFile {
		if i := pos.Offset(); i < len(r.trace.leaves) {
			return r.withDefault(s, r.trace.leaves[i])
		}
	}
	name := s.name
	if s.def != nil {
		name = s.def.Name
	}
	_, ref := leaf.ReferencePath()
	sels := ref.Selectors()
	switch {
	case len(sels) > 0 && sels[0].String() == "parameter", r.inParameter(s.def, pos):
		return []manifest.Origin{{Stage: manifest.StageDefault, Name: name, Detail: ref.String(), Pos: render.TokenPos(pos)}}
	case len(sels) > 0 && sels[0].String() == "context":
		return []manifest.Origin{{Stage: manifest.StageContext, Name: name, Detail: ref.String(), Pos: render.TokenPos(leaf.Pos())}}
	}
	return []manifest.Origin{{Stage: templateStage(s), Name: name, Pos: render.TokenPos(pos)}}
}

// withDefault puts the default s's definition declares for the property
// before its chain.
func (r *componentRun) withDefault(s subject, chain []manifest.Origin) []manifest.Origin {
	at := strings.TrimPrefix(chain[0].Detail, "properties.")
	if strings.ContainsAny(at, "[]") || s.def == nil {
		return chain
	}
	path, err := fieldpath.Parse(at)
	if err != nil {
		return chain
	}
	tmpl, err := r.e.template(s.def)
	if err != nil {
		return chain
	}
	decl := tmpl.LookupPath(cue.MakePath(cue.Str("parameter"))).LookupPath(fieldCUEPath(path))
	d, ok := decl.Default()
	if !ok || !d.IsConcrete() {
		return chain
	}
	var val any
	if d.Decode(&val) != nil {
		return chain
	}
	def := manifest.Origin{Stage: manifest.StageDefault, Name: s.def.Name, Detail: "parameter." + at, Pos: render.TokenPos(decl.Pos()), Value: NormalizeNumbers(val)}
	return append([]manifest.Origin{def}, chain...)
}

// templateStage is the stage of a template literal of s.
func templateStage(s subject) manifest.Stage {
	if s.stage == manifest.StageTrait || s.stage == manifest.StagePatchOutputs {
		return s.stage
	}
	return manifest.StageTemplate
}

// sourcePos is where v's value was written: its own position, or through
// a reference (a selection, a unification with a parameter leaf) the
// position of what it refers to.
func sourcePos(v cue.Value, depth int) token.Pos {
	p := v.Pos()
	if p.File() == originFile || depth > 4 {
		return p
	}
	op, args := v.Expr()
	switch op {
	case cue.SelectorOp:
		if len(args) == 2 {
			if sel, err := args[1].String(); err == nil {
				if t := args[0].LookupPath(cue.MakePath(cue.Str(sel))); t.Exists() {
					if q := sourcePos(t, depth+1); q.IsValid() {
						return q
					}
				}
			}
		}
	case cue.IndexOp:
		if len(args) == 2 {
			if i, err := args[1].Int64(); err == nil {
				if t := args[0].LookupPath(cue.MakePath(cue.Index(int(i)))); t.Exists() {
					if q := sourcePos(t, depth+1); q.IsValid() {
						return q
					}
				}
			}
		}
	case cue.AndOp:
		for _, a := range args {
			if q := a.Pos(); q.File() == originFile {
				return q
			}
		}
	}
	return p
}

// fieldCUEPath is a field path as a cue.Path.
func fieldCUEPath(path fieldpath.Path) cue.Path {
	sels := make([]cue.Selector, len(path))
	for i, s := range path {
		if s.IsIndex() {
			sels[i] = cue.Index(s.Index())
		} else {
			sels[i] = cue.Str(s.Key())
		}
	}
	return cue.MakePath(sels...)
}

// record is the provenance of obj, rendered as v by s's template.
func (r *componentRun) record(v cue.Value, obj map[string]any, s subject) manifest.Provenance {
	prov := manifest.Provenance{}
	manifest.WalkLeaves(obj, func(path fieldpath.Path, val any) {
		chain := r.origins(v, path, s)
		chain = chain[:len(chain):len(chain)]
		chain[len(chain)-1].Value = val
		prov[path.String()] = chain
	})
	return prov
}

// recordPatch adds to prov what patch (a trait's) changed from before to
// after.
func (r *componentRun) recordPatch(prov manifest.Provenance, before, after map[string]any, patch cue.Value, s subject) {
	prov.Update(before, after, func(path fieldpath.Path, val any) []manifest.Origin {
		leaf := patch.LookupPath(fieldCUEPath(path))
		if !leaf.Exists() {
			return []manifest.Origin{{Stage: templateStage(s), Name: s.name, Detail: "patch", Pos: render.TokenPos(patch.Pos())}}
		}
		return r.origins(patch, path, s)
	})
}

// componentSubject is the subject of the component's own properties.
func (r *componentRun) componentSubject(def *render.Definition) subject {
	return subject{def: def, stage: manifest.StageProperty, name: r.comp.Name, path: r.comp.Path, overlays: r.comp.Overlays}
}

// metadataSnapshots copies each object of m with its metadata deep-copied:
// what the contract labels are compared with.
func metadataSnapshots(m *ComponentManifest) []map[string]any {
	objs := m.Objects()
	out := make([]map[string]any, len(objs))
	for i, o := range objs {
		out[i] = withMetadataCopy(o.Object)
	}
	return out
}

func withMetadataCopy(obj map[string]any) map[string]any {
	c := make(map[string]any, len(obj))
	for k, v := range obj {
		c[k] = v
	}
	if md, ok := obj["metadata"]; ok {
		c["metadata"] = manifest.DeepCopy(md)
	}
	return c
}

// recordContract notes what setContract wrote on m's objects.
func (r *componentRun) recordContract(m *ComponentManifest, before []map[string]any) {
	for i, o := range m.Objects() {
		if o.Provenance == nil {
			continue
		}
		o.Provenance.Update(before[i], o.Object, func(path fieldpath.Path, _ any) []manifest.Origin {
			return []manifest.Origin{r.contractOrigin(path)}
		})
	}
}

// contractOrigin is the origin of a field KubeVela's controller writes:
// the Application field it derives from, where there is one.
func (r *componentRun) contractOrigin(path fieldpath.Path) manifest.Origin {
	app := r.app.Object
	pos := app.Pos
	label := func(key string) bool { return path.Equal(fieldpath.New("metadata", "labels", key)) }
	switch {
	case path.Equal(fieldpath.New("metadata", "namespace")):
		pos = r.namespacePos(app)
	case label(render.LabelAppName):
		pos = app.FieldPos(fieldpath.New("metadata", "name"))
	case path.Equal(fieldpath.New("metadata", "name")) || label(render.LabelAppComponent):
		pos = r.app.FieldPos(r.comp.Path.Child("name"))
	case label(render.LabelWorkloadType):
		pos = r.app.FieldPos(r.comp.Path.Child("type"))
	case len(path) == 3 && (path.HasPrefix(fieldpath.New("metadata", "labels")) || path.HasPrefix(fieldpath.New("metadata", "annotations"))):
		if app.HasField(path) {
			pos = app.FieldPos(path)
		}
	}
	return manifest.Origin{Stage: manifest.StageLabels, Name: "KubeVela", Pos: pos}
}

// namespacePos is where the namespace the objects are written to is set:
// a topology policy's namespace, else the Application's.
func (r *componentRun) namespacePos(app *manifest.Object) manifest.Pos {
	if ns, _ := r.ctxData["namespace"].(string); ns != r.app.Namespace {
		for _, p := range r.app.Policies {
			if got, _ := p.Properties["namespace"].(string); p.Type == "topology" && got == ns {
				return p.FieldPos(r.app, p.Path.Child("properties").Child("namespace"))
			}
		}
	}
	return app.FieldPos(fieldpath.New("metadata", "namespace"))
}

// inParameter reports whether pos lies in the parameter declaration of
// d's template: a default it declares.
func (r *componentRun) inParameter(d *render.Definition, pos token.Pos) bool {
	if d == nil || pos.Filename() != d.TemplateFile {
		return false
	}
	spans, ok := r.e.paramSpans[d]
	if !ok {
		if f, err := parser.ParseFile(d.TemplateFile, d.RenderedTemplate()); err == nil {
			for _, decl := range f.Decls {
				if fld, ok := decl.(*ast.Field); ok && patch.LabelString(fld.Label) == "parameter" {
					spans = append(spans, [2]int{fld.Pos().Line(), fld.End().Line()})
				}
			}
		}
		if r.e.paramSpans == nil {
			r.e.paramSpans = map[*render.Definition][][2]int{}
		}
		r.e.paramSpans[d] = spans
	}
	for _, s := range spans {
		if pos.Line() >= s[0] && pos.Line() <= s[1] {
			return true
		}
	}
	return false
}
