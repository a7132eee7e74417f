package cueval

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"

	"github.com/drydock-dev/drydock/render"
)

// stage is one step of a component render: the workload's definition
// (trait nil) or a trait, its evaluated template, and the workload as it
// stood after it. An incomplete object found at the end is traced back
// through the stages to the trait and parameter that left it so.
type stage struct {
	trait *render.Trait
	def   *render.Definition
	tmpl  cue.Value
	base  cue.Value
}

// incompleteErr explains why the object of an output is not concrete:
// what (the workload's definition or a trait) left the field incomplete,
// and which required parameter was not given. at is the stage that
// produced the object (-1: trace the workload through the stages); what
// is "output" or "outputs.<name>".
func (r *componentRun) incompleteErr(err error, at int, what string) error {
	field := incompletePath(err)
	if at < 0 {
		at = r.culprit(field)
	}
	s := r.stages[at]
	path, trait := r.comp.Path, ""
	if s.trait != nil {
		path, trait = s.trait.Path, s.trait.Type
	}
	params := missingParams(s.tmpl)
	if len(params) == 0 {
		return r.errAt(path, trait, fmt.Errorf("%s: %s", what, render.CUEMessage(err)))
	}
	props := r.comp.Properties
	if s.trait != nil {
		props = s.trait.Properties
	}
	p := params[0]
	msg := fmt.Sprintf("parameter.%s: %s", strings.Join(p.path, "."), p.msg)
	prop := path.Join(render.PropertyPath(p.path))
	if !r.app.HasField(prop) {
		msg = fmt.Sprintf("%s is required and not given (%s)", render.PropertyPath(p.path), msg)
	}
	if len(params) > 1 {
		msg += fmt.Sprintf(" and %d more missing parameters", len(params)-1)
	}
	msg += fmt.Sprintf(", which leaves %s incomplete", strings.Join(append([]string{what}, field...), "."))
	if key, ok := yaml11Key(props, p.path); ok {
		name := p.path[len(p.path)-1]
		msg += fmt.Sprintf("; the properties have the key %q instead: YAML 1.1 reads an unquoted %s as %s (quote the key: %q)", key, name, key, name)
		prop = path.Join(render.PropertyPath(append(p.path[:len(p.path)-1:len(p.path)-1], key)))
	}
	return r.errAt(prop, trait, errors.New(msg))
}

// culprit is the first stage from which on the workload's field stays
// incomplete: the definition or trait that left it so.
func (r *componentRun) culprit(field []string) int {
	at := len(r.stages) - 1
	for i := len(r.stages) - 1; i >= 0; i-- {
		v := r.stages[i].base.LookupPath(cuePath(field))
		if !v.Exists() || v.Validate(cue.Concrete(true)) == nil {
			break
		}
		at = i
	}
	return at
}

// incompletePath is the field path of the first error, relative to the
// object ("output." or "outputs.<name>." dropped).
func incompletePath(err error) []string {
	errs := cueerrors.Errors(err)
	if len(errs) == 0 {
		return nil
	}
	p := errs[0].Path()
	switch {
	case len(p) > 0 && p[0] == "output":
		p = p[1:]
	case len(p) > 1 && p[0] == "outputs":
		p = p[2:]
	}
	return p
}

// param is a parameter that is not concrete after the properties filled
// the template's parameter.
type param struct {
	path []string
	msg  string
}

// missingParams lists the template's required parameters that stayed
// incomplete: required properties the component or trait does not give.
func missingParams(tmpl cue.Value) []param {
	p := tmpl.LookupPath(cue.ParsePath("parameter"))
	if !p.Exists() {
		return nil
	}
	var out []param
	for _, e := range cueerrors.Errors(p.Validate(cue.Concrete(true))) {
		path := e.Path()
		if len(path) < 2 || path[0] != "parameter" {
			continue
		}
		format, args := e.Msg()
		out = append(out, param{path: path[1:], msg: fmt.Sprintf(format, args...)})
	}
	return out
}

// cuePath turns an error's path back into a cue.Path.
func cuePath(elems []string) cue.Path {
	sels := make([]cue.Selector, len(elems))
	for i, s := range elems {
		if n, err := strconv.Atoi(s); err == nil {
			sels[i] = cue.Index(n)
		} else {
			sels[i] = cue.Str(s)
		}
	}
	return cue.MakePath(sels...)
}

// yaml11Key finds, for a missing parameter whose name YAML 1.1 reads as
// a boolean when it is an unquoted key (n:, yes:, on: ...), the key
// "true" or "false" the properties hold instead.
func yaml11Key(props map[string]any, path []string) (string, bool) {
	b, ok := yaml11Bools[path[len(path)-1]]
	if !ok {
		return "", false
	}
	m := props
	for _, k := range path[:len(path)-1] {
		m, _ = m[k].(map[string]any)
	}
	key := strconv.FormatBool(b)
	_, given := m[key]
	return key, given
}

// yaml11Bools are the keys YAML 1.1 (sigs.k8s.io/yaml, as kubectl) reads
// as booleans when unquoted.
var yaml11Bools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true,
	"n": false, "N": false, "no": false, "No": false, "NO": false, "off": false, "Off": false, "OFF": false,
}
