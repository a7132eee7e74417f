package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// Field paths locate what was authored: the Path of a component, trait,
// policy or step is its path in the Application (manifest.Path form:
// spec.components[0].traits[1]), so that errors point at the line.
//
// External objects: field paths of the Workflow and Policy objects an
// Application refers to are "<Kind>:<name>|" followed by the path in the
// object, so that one string locates a field wherever it was authored.

func externalPath(kind, name string) string { return kind + ":" + name + "|" }

// SplitExternal splits an external field path into the object's kind,
// name and the path inside it; ok is false for a path in the Application.
func SplitExternal(path string) (kind, name, rest string, ok bool) {
	head, rest, ok := strings.Cut(path, "|")
	if !ok {
		return "", "", "", false
	}
	kind, name, ok = strings.Cut(head, ":")
	return kind, name, strings.TrimPrefix(rest, "."), ok
}

// DisplayPath is a field path as messages show it: an external object's
// path is prefixed with the object (`Workflow my-wf: steps[0]`).
func DisplayPath(path string) string {
	if kind, name, rest, ok := SplitExternal(path); ok {
		return strings.TrimSuffix(fmt.Sprintf("%s %s: %s", kind, name, rest), ": ")
	}
	return path
}

// JoinField appends a relative path (as ErrorPath returns it: "a.b",
// "[1].c" or "") to a field path.
func JoinField(base, rel string) string {
	switch {
	case rel == "":
		return base
	case strings.HasPrefix(rel, "["):
		return base + rel
	}
	return base + "." + rel
}

// PropertyPath is the field path of a parameter under base.properties;
// CUE's list indexes (numeric path elements) become [i]. With base ""
// it is the path relative to the owner: properties.a[1].b.
func PropertyPath(base string, param []string) string {
	return manifest.Path(base, "properties") + pathTail(param)
}

// pathTail writes CUE path elements as a field path suffix: .a[1].b.
func pathTail(elems []string) string {
	var b strings.Builder
	for _, s := range elems {
		if _, err := strconv.Atoi(s); err == nil {
			b.WriteString("[" + s + "]")
		} else {
			b.WriteString("." + s)
		}
	}
	return b.String()
}
