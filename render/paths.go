package render

import (
	"strconv"

	"github.com/drydock-dev/drydock/fieldpath"
)

// FieldRef locates what was authored, so that errors point at the line:
// the Ref of a component, trait, policy or step is its path in the
// Application (spec.components[0].traits[1]) or, when Kind is set, in the
// object the Application refers to (a Workflow's steps, a Policy).
type FieldRef struct {
	// Kind and Name name the external object ("Workflow", "wf"); both
	// are empty for a field of the Application.
	Kind, Name string
	// Path is the field's path in that object.
	Path fieldpath.Path
}

// AppField is the FieldRef of the Application field at fieldpath.New(elems...).
func AppField(elems ...any) FieldRef { return FieldRef{Path: fieldpath.New(elems...)} }

// External returns the FieldRef of the field at path of the object kind
// name (a Workflow or Policy).
func External(kind, name string, path fieldpath.Path) FieldRef {
	return FieldRef{Kind: kind, Name: name, Path: path}
}

// IsExternal reports whether r is in an object other than the Application.
func (r FieldRef) IsExternal() bool { return r.Kind != "" }

// IsZero reports whether r locates nothing (the zero FieldRef).
func (r FieldRef) IsZero() bool { return r.Kind == "" && r.Name == "" && len(r.Path) == 0 }

// Child returns r followed by key k.
func (r FieldRef) Child(k string) FieldRef { r.Path = r.Path.Child(k); return r }

// At returns r followed by list index i.
func (r FieldRef) At(i int) FieldRef { r.Path = r.Path.At(i); return r }

// Join returns r followed by the relative path rel.
func (r FieldRef) Join(rel fieldpath.Path) FieldRef { r.Path = r.Path.Join(rel); return r }

// HasPrefix reports whether r is q or a field under it.
func (r FieldRef) HasPrefix(q FieldRef) bool {
	return r.Kind == q.Kind && r.Name == q.Name && r.Path.HasPrefix(q.Path)
}

// Equal reports whether r and q locate the same field.
func (r FieldRef) Equal(q FieldRef) bool {
	return r.Kind == q.Kind && r.Name == q.Name && r.Path.Equal(q.Path)
}

// String is r as messages show it: the path for a field of the
// Application, the object and the path for an external one
// (`Workflow my-wf: steps[0]`, `Policy p` for the object itself).
func (r FieldRef) String() string {
	if !r.IsExternal() {
		return r.Path.String()
	}
	head := r.Kind + " " + r.Name
	if len(r.Path) == 0 {
		return head
	}
	return head + ": " + r.Path.String()
}

// PropertyPath is the path of a parameter relative to its owner
// (properties.a[1].b): CUE's list indexes (numeric path elements) become
// indexes.
func PropertyPath(param []string) fieldpath.Path {
	p := make(fieldpath.Path, 0, len(param)+1)
	p = append(p, fieldpath.Key("properties"))
	for _, s := range param {
		if i, err := strconv.Atoi(s); err == nil && i >= 0 {
			p = append(p, fieldpath.Index(i))
		} else {
			p = append(p, fieldpath.Key(s))
		}
	}
	return p
}
