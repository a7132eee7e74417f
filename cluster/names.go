package cluster

import (
	"fmt"

	"github.com/drydock-dev/drydock/fieldpath"
	"github.com/drydock-dev/drydock/manifest"
)

// nameRule is the name validation the API server applies to a kind.
func nameRule(kind string) func(string) string {
	switch kind {
	case "Namespace":
		return manifest.DNS1123Label
	case "Service":
		return manifest.DNS1035Label
	case "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding":
		return manifest.PathSegmentName
	}
	return manifest.DNS1123Subdomain
}

// MetaError is ValidateMeta's refusal of one metadata field.
type MetaError struct {
	Kind string
	// Name is the object's name when it is a string ("" otherwise).
	Name string
	// Field is kind, metadata, metadata.name or metadata.namespace.
	Field fieldpath.Path
	// Value is the refused value (as decoded).
	Value any
	// Msg is Kubernetes' message, e.g. `Invalid value: "x": a lowercase ...`.
	Msg string
}

// Error formats the refusal as `Kind "name": field: message`.
func (e *MetaError) Error() string {
	subject := e.Kind
	if subject == "" {
		subject = "object"
	}
	if e.Name != "" {
		subject = fmt.Sprintf("%s %q", e.Kind, e.Name)
	}
	return subject + ": " + e.Field.String() + ": " + e.Msg
}

// ValidateMeta checks an object's kind, metadata.name and
// metadata.namespace as the API server would before storing it (and
// before drydock builds a path from them): the kind valid (manifest.KindName,
// field "kind"), metadata a mapping, both strings, the name valid for its
// kind (DNS-1123 subdomain for most kinds, DNS-1123 label for Namespaces,
// DNS-1035 label for Services, path segment for RBAC objects), the
// namespace a DNS-1123 label. A value YAML 1.1 read as a boolean (yes, on,
// ...) is named as such. The error is a *MetaError in Kubernetes' wording
// and carries no position.
func ValidateMeta(obj *manifest.Object) error {
	if msg := manifest.KindName(obj.Kind()); msg != "" {
		name, _ := manifest.Lookup(obj.Data, "metadata", "name")
		s, _ := name.(string)
		return &MetaError{Kind: obj.Kind(), Name: s, Field: fieldpath.New("kind"), Value: obj.Data["kind"], Msg: msg}
	}
	meta, ok := obj.Data["metadata"].(map[string]any)
	if v, present := obj.Data["metadata"]; present && v != nil && !ok {
		return &MetaError{Kind: obj.Kind(), Field: fieldpath.New("metadata"), Value: v,
			Msg: fmt.Sprintf("Invalid value: %q: must be of type object", manifest.TypeName(v))}
	}
	name, ok := meta["name"].(string)
	if !ok {
		return &MetaError{Kind: obj.Kind(), Field: fieldpath.New("metadata", "name"), Value: meta["name"], Msg: notAString(meta["name"])}
	}
	if msg := nameRule(obj.Kind())(name); msg != "" {
		return &MetaError{Kind: obj.Kind(), Name: name, Field: fieldpath.New("metadata", "name"), Value: name, Msg: fmt.Sprintf("Invalid value: %q: %s", name, msg)}
	}
	ns, present := meta["namespace"]
	if !present || ns == nil {
		return nil
	}
	s, ok := ns.(string)
	if !ok {
		return &MetaError{Kind: obj.Kind(), Name: name, Field: fieldpath.New("metadata", "namespace"), Value: ns, Msg: notAString(ns)}
	}
	if msg := manifest.DNS1123Label(s); s != "" && msg != "" {
		return &MetaError{Kind: obj.Kind(), Name: name, Field: fieldpath.New("metadata", "namespace"), Value: s, Msg: fmt.Sprintf("Invalid value: %q: %s", s, msg)}
	}
	return nil
}

func notAString(v any) string {
	switch v.(type) {
	case nil:
		return "Required value: name is required"
	case bool:
		return fmt.Sprintf("Invalid value: %v: a boolean, not a string (YAML 1.1 reads unquoted yes/no/on/off/y/n as booleans: quote the name)", v)
	}
	return fmt.Sprintf("Invalid value: %v: must be a string", v)
}

// ValidateClusterName checks a member cluster's name as Karmada does: a
// DNS-1123 label of at most 48 characters.
func ValidateClusterName(name string) string {
	if len(name) > 48 {
		return "must be no more than 48 characters"
	}
	return manifest.DNS1123Label(name)
}
