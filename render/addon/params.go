package addon

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// Params are an addon's parameters as given, merged as Helm merges a
// chart's values: the Values in order, then every Set argument, then
// every SetString argument (a later one wins; maps merge key by key,
// anything else is replaced). Render checks them against the addon's
// `parameter` (its parameter.cue): a key the parameter does not take is
// refused with the nearest declared one, each Set value is typed as the
// parameter asks (see Set), and a Values or SetString value of a type
// the parameter does not take is refused where it is given. An addon
// without a parameter file takes any key, with vela's types.
type Params struct {
	// Values are parameter maps whose values are taken as written
	// (a values file, drydock.yaml's values): their types are checked,
	// not changed.
	Values []Values
	// Set are k=v arguments as `vela addon enable` parses them (Helm's
	// strvals: a.b=v nests, a={x,y} is a list, a[0]=x an index, a=1,b=2
	// two keys), each value typed by the parameter it sets: a string
	// parameter takes 40 as "40", an int parameter as 40, a number
	// parameter takes 0.5 as 0.5, a bool parameter true/false (any case)
	// as a bool. Where the parameter allows the type `vela addon enable`
	// gives the value (true/false a bool, null a null, an integer without
	// a leading 0 an int, anything else a string), that type is kept: a
	// string|int parameter takes 40 as 40, as vela does. A parameter
	// without a schema (`_`, `{...}`, the `clusters` vela reads itself)
	// takes vela's type.
	Set []string
	// SetString are k=v arguments like Set whose values are all strings.
	SetString []string
	// SetFlag is written before a Set argument in errors about it
	// ("--set " when ""; "--addon DIR=" for render --addon DIR=k=v).
	SetFlag string
	// Pos, when set, is where the i-th Set (or, with setString, SetString)
	// argument is written (drydock.yaml): errors about it are located
	// there instead of naming the flag.
	Pos func(setString bool, i int) manifest.Pos
}

// Values are parameter values, as written in a file.
type Values struct {
	Data map[string]any
	// Source names where they are written ("values.yaml"), for errors
	// no position locates.
	Source string
	// Pos locates a field of Data (nil, or an invalid Pos: unknown).
	Pos func(fieldpath.Path) manifest.Pos
}

// Check parses the Set and SetString arguments without an addon, so that
// a malformed one is reported before anything renders. Errors wrap
// ErrInvalid and name the argument.
func (p Params) Check() error {
	for _, setString := range []bool{false, true} {
		for i, a := range p.args(setString) {
			if err := parseInto(a, map[string]any{}, stringVal); err != nil {
				return p.place(setString, i).errorf("%v", err)
			}
		}
	}
	return nil
}

// args are the Set (setString: SetString) arguments.
func (p Params) args(setString bool) []string {
	if setString {
		return p.SetString
	}
	return p.Set
}

// setValue is a --set value until the parameter it sets types it.
type setValue struct {
	val   string
	where argPlace // the argument, for errors
}

// argPlace is where a Set or SetString argument is given: a position, or
// a flag that names it.
type argPlace struct {
	pos    manifest.Pos
	prefix string // "--set a=1: ", or "" at a valid pos
}

// place is where p's i-th Set (setString: SetString) argument is given.
func (p Params) place(setString bool, i int) argPlace {
	if p.Pos != nil {
		if pos := p.Pos(setString, i); pos.IsValid() {
			return argPlace{pos: pos}
		}
	}
	flag := cmp.Or(p.SetFlag, "--set ")
	if setString {
		flag = "--set-string "
	}
	return argPlace{prefix: flag + p.args(setString)[i] + ": "}
}

// errorf is an error about the argument.
func (a argPlace) errorf(format string, args ...any) error {
	return &Error{Pos: a.pos, Msg: a.prefix + fmt.Sprintf(format, args...), Given: true}
}

func stringVal(s string) any { return s }

// clustersParam is the parameter `vela addon enable --clusters` sets; vela
// reads it whether or not the addon declares it.
const clustersParam = "clusters"

// resolveParams checks p against the parameter of the addon pkg and
// returns the parameters `vela addon enable` is given, typed.
func resolveParams(pkg *addonPackage, p Params) (map[string]any, error) {
	if len(p.Values) == 0 && len(p.Set) == 0 && len(p.SetString) == 0 {
		return map[string]any{}, nil
	}
	s, err := addonParameter(pkg)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	for _, v := range p.Values {
		if err := s.checkKeys(v.Data, nil, func(path fieldpath.Path) (manifest.Pos, string) {
			var pos manifest.Pos
			if v.Pos != nil {
				pos = v.Pos(path)
			}
			if pos.IsValid() {
				return pos, ""
			}
			return pos, v.Source + ": "
		}); err != nil {
			return nil, err
		}
		mergeValues(out, manifest.DeepCopy(v.Data).(map[string]any))
	}
	for _, setString := range []bool{false, true} {
		for i, a := range p.args(setString) {
			at := p.place(setString, i)
			leaf := func(v string) any { return setValue{val: v, where: at} }
			if setString {
				leaf = stringVal
			}
			alone := map[string]any{}
			if err := parseInto(a, alone, leaf); err != nil {
				return nil, at.errorf("%v", err)
			}
			where := func(fieldpath.Path) (manifest.Pos, string) { return at.pos, at.prefix }
			if err := s.checkKeys(alone, nil, where); err != nil {
				return nil, err
			}
			if err := parseInto(a, out, leaf); err != nil {
				return nil, at.errorf("%v", err)
			}
		}
	}
	typed, err := s.typeValues(out, nil)
	if err != nil {
		return nil, err
	}
	return typed.(map[string]any), nil
}

// mergeValues merges src into dst as Helm merges values files: maps key
// by key, anything else replaced.
func mergeValues(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeValues(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}

// paramSchema is an addon's `parameter`, as its parameter file declares
// it; the zero schema (no parameter file, or one that does not evaluate
// alone) takes anything.
type paramSchema struct {
	v cue.Value
	// declared is whether the addon has a parameter file that evaluates.
	declared bool
}

// addonParameter evaluates the addon's parameter file as KubeVela does
// (with the context), without parameters given.
func addonParameter(pkg *addonPackage) (paramSchema, error) {
	if pkg.parameters == nil {
		return paramSchema{}, nil
	}
	cf, err := newContextFiles(pkg, map[string]any{}, map[string]any{"installer": map[string]any{"upgrade": false}})
	if err != nil {
		return paramSchema{}, err
	}
	v, err := buildFiles(newContext(), cf.files()...)
	if err != nil {
		// The render reports the file's own errors where it evaluates it.
		return paramSchema{}, nil //nolint:nilerr
	}
	return paramSchema{v: v.LookupPath(cue.MakePath(cue.Str("parameter"))), declared: true}, nil
}

// checkKeys refuses a key of data the parameter does not declare, with
// the nearest declared one. where says where data is written: the
// position of a field, or a prefix for the message.
func (s paramSchema) checkKeys(data any, path fieldpath.Path, where func(fieldpath.Path) (manifest.Pos, string)) error {
	if !s.declared {
		return nil
	}
	return s.walkKeys(s.v, data, path, where)
}

func (s paramSchema) walkKeys(v cue.Value, data any, path fieldpath.Path, where func(fieldpath.Path) (manifest.Pos, string)) error {
	switch data := data.(type) {
	case map[string]any:
		for _, k := range manifest.SortedKeys(data) {
			child, ok := fieldOf(v, k)
			if !ok && len(path) == 0 && k == clustersParam {
				continue
			}
			if !ok {
				pos, prefix := where(path.Child(k))
				return &Error{Pos: pos, Msg: prefix + s.unknown(v, path, k), Given: true}
			}
			if err := s.walkKeys(child, data[k], path.Child(k), where); err != nil {
				return err
			}
		}
	case []any:
		for i, e := range data {
			if e == nil { // a gap a[2]=x leaves, or a null CUE judges
				continue
			}
			if err := s.walkKeys(elemOf(v, i), e, path.At(i), where); err != nil {
				return err
			}
		}
	case setValue: // typed by typeValues
	default:
		if msg := misfit(v, data, path); msg != "" {
			pos, prefix := where(path)
			return &Error{Pos: pos, Msg: prefix + msg, Given: true}
		}
	}
	return nil
}

// misfit says why the parameter v at path cannot take the scalar value
// given as written (a values file, --set-string), or "" when it can or
// when it cannot tell: CUE would refuse it, this names where it is given.
func misfit(v cue.Value, data any, path fieldpath.Path) string {
	got := kindOf(data)
	if !v.Exists() || got == cue.BottomKind {
		return ""
	}
	want := v.IncompleteKind()
	if want == cue.BottomKind || want&cue.TopKind == cue.TopKind || want&got != 0 {
		return ""
	}
	msg := fmt.Sprintf("%s is %s, not %s", paramName(path), kindNoun(want), valueDesc(data))
	if want&cue.StringKind != 0 {
		msg += " (quote it)"
	}
	return msg
}

// valueDesc describes a scalar: `the int 40`, `the string "40"`.
func valueDesc(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", v)
	case bool:
		return fmt.Sprintf("the bool %t", v)
	case int64, int:
		return fmt.Sprintf("the int %d", v)
	case float64:
		return "the float " + strconv.FormatFloat(v, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// typeValues types the --set values of data by the parameter v.
func (s paramSchema) typeValues(data any, path fieldpath.Path) (any, error) {
	return s.walkTypes(s.v, data, path)
}

func (s paramSchema) walkTypes(v cue.Value, data any, path fieldpath.Path) (any, error) {
	switch data := data.(type) {
	case map[string]any:
		for k, e := range data {
			child, _ := fieldOf(v, k)
			t, err := s.walkTypes(child, e, path.Child(k))
			if err != nil {
				return nil, err
			}
			data[k] = t
		}
	case []any:
		for i, e := range data {
			t, err := s.walkTypes(elemOf(v, i), e, path.At(i))
			if err != nil {
				return nil, err
			}
			data[i] = t
		}
	case setValue:
		return typeSetValue(v, data, path)
	}
	return data, nil
}

// typeSetValue types a --set value by the parameter v it sets.
func typeSetValue(v cue.Value, sv setValue, path fieldpath.Path) (any, error) {
	vela := typedVal(sv.val)
	if !v.Exists() {
		return vela, nil
	}
	kind := v.IncompleteKind()
	if kind == cue.BottomKind || kind&cue.TopKind == cue.TopKind || kindOf(vela)&kind != 0 {
		return vela, nil
	}
	switch {
	case kind&cue.StringKind != 0:
		return sv.val, nil
	case kind&cue.IntKind != 0:
		if n, err := strconv.ParseInt(sv.val, 10, 64); err == nil {
			return n, nil
		}
	}
	if kind&cue.FloatKind != 0 {
		if f, err := strconv.ParseFloat(sv.val, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f, nil
		}
	}
	msg := fmt.Sprintf("%s is %s, not %q", paramName(path), kindNoun(kind), sv.val)
	switch {
	case kind&cue.ListKind != 0:
		msg += fmt.Sprintf(" (a list is written %s={a,b})", path)
	case kind&cue.StructKind != 0:
		msg += fmt.Sprintf(" (set its fields: %s.NAME=VALUE)", path)
	}
	return nil, sv.where.errorf("%s", msg)
}

// paramName names the parameter at path as CUE does (parameter.a.b).
func paramName(path fieldpath.Path) string {
	if s := path.String(); strings.HasPrefix(s, "[") {
		return "parameter" + s
	}
	return "parameter." + path.String()
}

// kindOf is the CUE kind of a value vela's typing gives.
func kindOf(v any) cue.Kind {
	switch v.(type) {
	case nil:
		return cue.NullKind
	case bool:
		return cue.BoolKind
	case int64, int:
		return cue.IntKind
	case float64:
		return cue.FloatKind
	case string:
		return cue.StringKind
	}
	return cue.BottomKind
}

// kindNoun says what a parameter of kind k is: "an int", "a string or a
// bool".
func kindNoun(k cue.Kind) string {
	var out []string
	for _, n := range []struct {
		k    cue.Kind
		noun string
	}{
		{cue.NullKind, "null"}, {cue.BoolKind, "a bool"}, {cue.IntKind, "an int"}, {cue.FloatKind, "a float"},
		{cue.StringKind, "a string"}, {cue.BytesKind, "bytes"}, {cue.ListKind, "a list"}, {cue.StructKind, "a struct"},
	} {
		if k&n.k != 0 {
			out = append(out, n.noun)
		}
	}
	if k&cue.NumberKind == cue.NumberKind {
		out = slices.DeleteFunc(out, func(s string) bool { return s == "an int" || s == "a float" })
		out = append([]string{"a number"}, out...)
	}
	if len(out) == 0 {
		return k.String()
	}
	return strings.Join(out, " or ")
}

// fieldOf is the parameter the key k of the struct v declares: a field
// (optional or not), a pattern constraint or `...`, or a field of one of
// the structs of a disjunction. An unconstrained v ("_", or none) takes
// any key; ok is false when v does not take k.
func fieldOf(v cue.Value, k string) (cue.Value, bool) {
	if !v.Exists() {
		return cue.Value{}, true
	}
	kind := v.IncompleteKind()
	if kind&cue.TopKind == cue.TopKind {
		return cue.Value{}, true
	}
	if kind&cue.StructKind == 0 {
		return cue.Value{}, false
	}
	if op, args := v.Expr(); op == cue.OrOp {
		for _, a := range args {
			if f, ok := fieldOf(a, k); ok {
				return f, true
			}
		}
		return cue.Value{}, false
	}
	if f, ok := declaredField(v, k); ok {
		return f, true
	}
	if p := v.LookupPath(cue.MakePath(cue.AnyString)); p.Exists() {
		return p, true
	}
	// A pattern such as [=~"^a"]: int applies when k is filled in.
	path := cue.MakePath(cue.Str(k))
	filled := v.FillPath(path, v.Context().CompileString("_")).LookupPath(path)
	if filled.Err() != nil || filled.IncompleteKind() != cue.TopKind {
		return filled, filled.Err() == nil
	}
	return cue.Value{}, false
}

// declaredField is the regular, optional or required field k of v.
func declaredField(v cue.Value, k string) (cue.Value, bool) {
	it, err := v.Fields(cue.Optional(true))
	if err != nil {
		return cue.Value{}, false
	}
	for it.Next() {
		if sel := it.Selector(); sel.IsString() && sel.Unquoted() == k {
			return it.Value(), true
		}
	}
	return cue.Value{}, false
}

// declaredFields names the fields v declares, in order.
func declaredFields(v cue.Value) []string {
	if !v.Exists() {
		return nil
	}
	if op, args := v.Expr(); op == cue.OrOp {
		var out []string
		for _, a := range args {
			for _, f := range declaredFields(a) {
				if !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		}
		return out
	}
	it, err := v.Fields(cue.Optional(true))
	if err != nil {
		return nil
	}
	var out []string
	for it.Next() {
		if sel := it.Selector(); sel.IsString() {
			out = append(out, sel.Unquoted())
		}
	}
	return out
}

// elemOf is the parameter of the i-th element of the list v.
func elemOf(v cue.Value, i int) cue.Value {
	if !v.Exists() || v.IncompleteKind()&cue.ListKind == 0 {
		return cue.Value{}
	}
	if e := v.LookupPath(cue.MakePath(cue.Index(i))); e.Exists() {
		return e
	}
	return v.LookupPath(cue.MakePath(cue.AnyIndex))
}

// unknown says that the struct v at path has no field k, with the
// nearest field (among its own, then among every parameter's path), else
// the fields there are.
func (s paramSchema) unknown(v cue.Value, path fieldpath.Path, k string) string {
	full := path.Child(k)
	if v.Exists() && v.IncompleteKind()&cue.StructKind == 0 {
		return fmt.Sprintf("unknown parameter %q: %s is %s, not a struct", full, path, kindNoun(v.IncompleteKind()))
	}
	fields := declaredFields(v)
	if best := manifest.Closest(k, fields); best != "" {
		return fmt.Sprintf("unknown parameter %q (did you mean %q?)", full, path.Child(best))
	}
	all := s.paths()
	if best := manifest.Closest(full.String(), all); best != "" {
		return fmt.Sprintf("unknown parameter %q (did you mean %q?)", full, best)
	}
	for _, p := range all { // the field k deeper down (replicas for values.replicas)
		if strings.HasSuffix(p, "."+k) {
			return fmt.Sprintf("unknown parameter %q (did you mean %q?)", full, p)
		}
	}
	switch {
	case len(fields) == 0 && len(path) == 0:
		return fmt.Sprintf("unknown parameter %q: the addon declares no parameters", full)
	case len(fields) == 0:
		return fmt.Sprintf("unknown parameter %q: %s declares no fields", full, path)
	case len(path) == 0:
		return fmt.Sprintf("unknown parameter %q: the parameters are %s", full, strings.Join(fields, ", "))
	}
	return fmt.Sprintf("unknown parameter %q: the fields of %s are %s", full, path, strings.Join(fields, ", "))
}

// paths lists every parameter's path (a.b.c), nested fields after their
// parent, for suggestions.
func (s paramSchema) paths() []string {
	var out []string
	var walk func(v cue.Value, prefix fieldpath.Path, depth int)
	walk = func(v cue.Value, prefix fieldpath.Path, depth int) {
		if depth > maxNestedNameLevel || !v.Exists() || v.IncompleteKind()&cue.StructKind == 0 || v.IncompleteKind()&cue.TopKind == cue.TopKind {
			return
		}
		for _, f := range declaredFields(v) {
			out = append(out, prefix.Child(f).String())
			child, _ := fieldOf(v, f)
			walk(child, prefix.Child(f), depth+1)
		}
	}
	walk(s.v, nil, 0)
	return out
}
