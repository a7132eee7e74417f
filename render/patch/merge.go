package patch

import (
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/literal"
	"cuelang.org/go/cue/token"
)

// Merge is Unify on the JSON data model, for the patches that are plain
// data: it returns what the object of Unify(ctx, base ⊕ earlier, patch)
// would be, without a CUE round trip, and false when it cannot tell that
// Unify would succeed with exactly that object (then call Unify).
//
// base is the last CUE value of the object; obj is the object's data
// after base and the patches merged into it since (the earlier ones,
// each of which Merge accepted); neither is changed: the maps of the
// result are obj's, copied where the patch writes.
//
// Merge accepts a patch whose export (what Unify unifies) is structs of
// regular fields whose values are strings, ints, booleans, null and
// structs, with no patch tags, and which only adds fields or repeats a
// value the object already has: a field base has must be that same
// concrete scalar (not a default) or a struct, and a field base lacks
// must be one its struct allows (not closed, no optional field or
// pattern of that name), and whose doc has no tags (Apply reads its
// strategy there). Lists, floats, bytes, defaults, constraints,
// references and every conflict are left to Unify, whose errors and
// list strategies stay its own.
func Merge(base cue.Value, obj map[string]any, patch cue.Value) (map[string]any, bool) {
	if len(commentTags(patch.Doc())) > 0 {
		// A strategy Apply reads (jsonMergePatch, jsonPatch).
		return nil, false
	}
	n, ok := fragment(patch)
	if !ok {
		return nil, false
	}
	var decls []ast.Decl
	switch x := n.(type) {
	case *ast.StructLit:
		decls = x.Elts
	case *ast.File:
		decls = x.Decls
	default:
		return nil, false
	}
	if base.Kind() != cue.StructKind {
		return nil, false
	}
	if _, isDefault := base.Default(); isDefault {
		return nil, false
	}
	out, ok := mergeStruct(base, true, obj, decls)
	if !ok {
		return nil, false
	}
	return out, true
}

// mergeStruct merges the fields decls into obj (nil: a struct the
// object lacks), checking them against b, the base's struct at the same
// place when inBase.
func mergeStruct(b cue.Value, inBase bool, obj map[string]any, decls []ast.Decl) (map[string]any, bool) {
	out := make(map[string]any, len(obj)+len(decls))
	for k, v := range obj {
		out[k] = v
	}
	for _, d := range decls {
		f, ok := d.(*ast.Field)
		if !ok || f.Constraint != token.ILLEGAL || f.Value == nil {
			return nil, false
		}
		// Of a field's tags, the walker reads only retainKeys on a value
		// that is not a list (patchKey and replace are for lists).
		retain := commentTags(f.Comments())[tagPatchStrategy] == strategyRetainKeys
		name, isIdent, err := ast.LabelName(f.Label)
		if err != nil || isIdent && (strings.HasPrefix(name, "#") || strings.HasPrefix(name, "_")) {
			return nil, false
		}
		var (
			child   cue.Value
			inChild bool
		)
		if inBase {
			child = b.LookupPath(cue.MakePath(cue.Str(name)))
			inChild = child.Exists()
			if inChild {
				if _, isDefault := child.Default(); isDefault {
					return nil, false
				}
			} else if !b.Allows(cue.Str(name)) || b.LookupPath(cue.MakePath(cue.Str(name).Optional())).Exists() {
				return nil, false
			}
		}
		have, had := out[name]
		if inChild && !had {
			// obj lacks what the base has: not the base's data.
			return nil, false
		}
		if retain {
			// The walker sets the base's field to the patch's value.
			v, ok := data(f.Value)
			if !ok {
				return nil, false
			}
			out[name] = v
			continue
		}
		switch x := f.Value.(type) {
		case *ast.StructLit:
			if inChild && child.Kind() != cue.StructKind {
				return nil, false
			}
			var sub map[string]any
			if had {
				m, ok := have.(map[string]any)
				if !ok {
					return nil, false
				}
				sub = m
			}
			m, ok := mergeStruct(child, inChild, sub, x.Elts)
			if !ok {
				return nil, false
			}
			out[name] = m
		case *ast.BasicLit:
			v, kind, ok := scalar(x)
			if !ok {
				return nil, false
			}
			if inChild && !sameScalar(child, kind, v) {
				return nil, false
			}
			if had && !sameData(have, v) {
				return nil, false
			}
			out[name] = v
		default:
			return nil, false
		}
	}
	return out, true
}

// scalar is the data of an exported literal as the object holds it
// (manifest.DecodeJSON's: ints as int64), and its kind; false for what
// Merge leaves to Unify (floats, bytes, ints past int64).
func scalar(l *ast.BasicLit) (any, cue.Kind, bool) {
	switch l.Kind {
	case token.NULL:
		return nil, cue.NullKind, true
	case token.TRUE:
		return true, cue.BoolKind, true
	case token.FALSE:
		return false, cue.BoolKind, true
	case token.INT:
		n, err := strconv.ParseInt(l.Value, 10, 64)
		if err != nil {
			return nil, 0, false
		}
		return n, cue.IntKind, true
	case token.STRING:
		if !strings.HasPrefix(l.Value, `"`) {
			return nil, 0, false
		}
		s, err := literal.Unquote(l.Value)
		if err != nil {
			return nil, 0, false
		}
		return s, cue.StringKind, true
	}
	return nil, 0, false
}

// sameScalar reports whether the base's value b is the concrete scalar v
// of kind k.
func sameScalar(b cue.Value, k cue.Kind, v any) bool {
	if b.Kind() != k {
		return false
	}
	switch k {
	case cue.NullKind:
		return true
	case cue.BoolKind:
		x, err := b.Bool()
		return err == nil && x == v
	case cue.IntKind:
		x, err := b.Int64()
		return err == nil && x == v
	case cue.StringKind:
		x, err := b.String()
		return err == nil && x == v
	}
	return false
}

// sameData reports whether the object's value have (set by an earlier
// merged patch) is the scalar v.
func sameData(have, v any) bool {
	switch have.(type) {
	case nil, bool, int64, string:
		return have == v
	}
	return false
}

// data is the exported value e as the object holds it, when it is
// structs and scalars scalar accepts, with no tag that the walker reads.
func data(e ast.Expr) (any, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		v, _, ok := scalar(x)
		return v, ok
	case *ast.StructLit:
		m := make(map[string]any, len(x.Elts))
		for _, d := range x.Elts {
			f, ok := d.(*ast.Field)
			if !ok || f.Constraint != token.ILLEGAL || f.Value == nil {
				return nil, false
			}
			name, isIdent, err := ast.LabelName(f.Label)
			if err != nil || isIdent && (strings.HasPrefix(name, "#") || strings.HasPrefix(name, "_")) {
				return nil, false
			}
			if _, dup := m[name]; dup {
				return nil, false
			}
			v, ok := data(f.Value)
			if !ok {
				return nil, false
			}
			m[name] = v
		}
		return m, true
	}
	return nil, false
}
