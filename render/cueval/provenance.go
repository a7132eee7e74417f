package cueval

import (
	"reflect"
	"slices"
	"strconv"
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
	if chain, ok := r.comprehensionOrigins(v, path, leaf, s); ok {
		return chain
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

// forClause is a for clause of a definition template: the span of its
// comprehension, the names it binds (key "" when it binds one) and the
// parameter it iterates (param nil when it iterates something else).
type forClause struct {
	file       string
	from, to   [2]int // line, column
	key, value string
	param      fieldpath.Path
}

// contains reports whether pos lies in the clause's comprehension.
func (c forClause) contains(pos token.Pos) bool {
	at := [2]int{pos.Line(), pos.Column()}
	before := func(a, b [2]int) bool { return a[0] < b[0] || (a[0] == b[0] && a[1] <= b[1]) }
	return pos.Filename() == c.file && before(c.from, at) && before(at, c.to)
}

// templateForClauses lists the for clauses of d's template.
func (r *componentRun) templateForClauses(d *render.Definition) []forClause {
	clauses, ok := r.e.forClauses[d]
	if ok {
		return clauses
	}
	if f, err := parser.ParseFile(d.TemplateFile, d.RenderedTemplate()); err == nil {
		ast.Walk(f, func(n ast.Node) bool {
			comp, ok := n.(*ast.Comprehension)
			if !ok {
				return true
			}
			for _, cl := range comp.Clauses {
				fc, ok := cl.(*ast.ForClause)
				if !ok || fc.Value == nil {
					continue
				}
				c := forClause{file: d.TemplateFile, value: fc.Value.Name, param: parameterPath(fc.Source),
					from: [2]int{comp.Pos().Line(), comp.Pos().Column()}, to: [2]int{comp.End().Line(), comp.End().Column()}}
				if fc.Key != nil {
					c.key = fc.Key.Name
				}
				clauses = append(clauses, c)
			}
			return true
		}, nil)
	}
	if r.e.forClauses == nil {
		r.e.forClauses = map[*render.Definition][]forClause{}
	}
	r.e.forClauses[d] = clauses
	return clauses
}

// parameterPath is the path under parameter that the expression x
// selects (parameter.env, parameter["env"].vars), or nil.
func parameterPath(x ast.Expr) fieldpath.Path {
	var rev []string
	for {
		switch e := x.(type) {
		case *ast.SelectorExpr:
			rev = append(rev, patch.LabelString(e.Sel))
			x = e.X
			continue
		case *ast.IndexExpr:
			lit, ok := e.Index.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return nil
			}
			s, err := literalString(lit)
			if err != nil {
				return nil
			}
			rev = append(rev, s)
			x = e.X
			continue
		case *ast.Ident:
			if e.Name != "parameter" || len(rev) == 0 {
				return nil
			}
		default:
			return nil
		}
		break
	}
	path := make(fieldpath.Path, 0, len(rev))
	for i := len(rev) - 1; i >= 0; i-- {
		path = path.Child(rev[i])
	}
	return path
}

// literalString is the value of a string literal.
func literalString(lit *ast.BasicLit) (string, error) {
	return strconv.Unquote(lit.Value)
}

// comprehensionOrigins credits a leaf a template built in a comprehension
// over a parameter (env: [for k, v in parameter.env {name: k, value: v}])
// to the property that fed it: a leaf that is the clause's key variable
// to the entry of that key (or index), one that is its value variable to
// the entry holding that value — the only one, else the entry whose key
// a sibling field holds (name: k), else the one the leaf's own key names
// ("\(k)": v). ok is false when the leaf is none of these, or the
// property was not authored.
func (r *componentRun) comprehensionOrigins(v cue.Value, path fieldpath.Path, leaf cue.Value, s subject) ([]manifest.Origin, bool) {
	c, name, ok := r.boundBy(s.def, leaf)
	if !ok || c.param == nil {
		return nil, false
	}
	src, ok := r.authoredProperty(s, c.param)
	if !ok {
		return nil, false
	}
	var val any
	if leaf.Decode(&val) != nil {
		return nil, false
	}
	val = NormalizeNumbers(val)
	var at fieldpath.Path
	if name == c.key {
		at = entryOfKey(src, c.param, val)
	} else {
		at = r.entryOfValue(v, path, src, c, val)
	}
	if at == nil {
		return nil, false
	}
	return r.withDefault(s, r.propertyChain(s, at)), true
}

// boundBy finds the for clause whose variable the leaf is (a selection
// of a comprehension variable, as CUE's Expr shows it) and the name.
func (r *componentRun) boundBy(d *render.Definition, leaf cue.Value) (forClause, string, bool) {
	if d == nil {
		return forClause{}, "", false
	}
	op, args := leaf.Expr()
	if op != cue.SelectorOp || len(args) != 2 {
		return forClause{}, "", false
	}
	name, err := args[1].String()
	if err != nil {
		return forClause{}, "", false
	}
	pos := args[1].Pos()
	var best forClause
	found := false
	for _, c := range r.templateForClauses(d) {
		later := !found || c.from[0] > best.from[0] || (c.from[0] == best.from[0] && c.from[1] > best.from[1])
		if (c.key == name || c.value == name) && c.contains(pos) && later {
			best, found = c, true // the innermost: the last to start
		}
	}
	return best, name, found
}

// authoredProperty is the value of s's property at param as the
// Application (without overlays) writes it.
func (r *componentRun) authoredProperty(s subject, param fieldpath.Path) (any, bool) {
	ref := propertyField(s.path, param)
	if !r.app.HasField(ref) {
		return nil, false
	}
	return authored(r.app, ref), true
}

// entryOfKey is the entry of src (at param) whose key (index) is key.
func entryOfKey(src any, param fieldpath.Path, key any) fieldpath.Path {
	switch x := src.(type) {
	case map[string]any:
		if k, ok := key.(string); ok {
			if _, ok := x[k]; ok {
				return param.Child(k)
			}
		}
	case []any:
		if i, ok := key.(int64); ok && i >= 0 && int(i) < len(x) {
			return param.At(int(i))
		}
		if i, ok := key.(int); ok && i >= 0 && i < len(x) {
			return param.At(i)
		}
	}
	return nil
}

// entryOfValue is the entry of src (at c.param) that holds val: the only
// one, else the one whose key a sibling of the leaf holds from c's key
// variable, else the one the leaf's own key names.
func (r *componentRun) entryOfValue(v cue.Value, path fieldpath.Path, src any, c forClause, val any) fieldpath.Path {
	var hits []fieldpath.Path
	switch x := src.(type) {
	case map[string]any:
		for _, k := range manifest.SortedKeys(x) {
			if reflect.DeepEqual(NormalizeNumbers(x[k]), val) {
				hits = append(hits, c.param.Child(k))
			}
		}
	case []any:
		for i, e := range x {
			if reflect.DeepEqual(NormalizeNumbers(e), val) {
				hits = append(hits, c.param.At(i))
			}
		}
	}
	switch {
	case len(hits) == 1:
		return hits[0]
	case len(hits) == 0:
		return nil
	}
	if c.key != "" && len(path) > 0 {
		parent := v.LookupPath(fieldCUEPath(path.Parent()))
		for it, _ := parent.Fields(); it != nil && it.Next(); {
			sib := it.Value()
			if got, name, ok := r.boundByClause(sib, c); ok && name == c.key && got {
				var key any
				if sib.Decode(&key) == nil {
					if at := entryOfKey(src, c.param, NormalizeNumbers(key)); at != nil && slices.ContainsFunc(hits, at.Equal) {
						return at
					}
				}
			}
		}
	}
	if last, ok := path.Last(); ok && !last.IsIndex() {
		if at := c.param.Child(last.Key()); slices.ContainsFunc(hits, at.Equal) {
			return at
		}
	}
	return nil
}

// boundByClause reports whether the value sib is a variable of clause c,
// and which.
func (r *componentRun) boundByClause(sib cue.Value, c forClause) (bool, string, bool) {
	op, args := sib.Expr()
	if op != cue.SelectorOp || len(args) != 2 {
		return false, "", false
	}
	name, err := args[1].String()
	if err != nil {
		return false, "", false
	}
	return c.contains(args[1].Pos()), name, true
}
