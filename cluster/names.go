package cluster

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/drydock-dev/drydock/manifest"
)

// Kubernetes' name rules (k8s.io/apimachinery validation), in its words.
var (
	dns1123Label     = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	dns1123Subdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	dns1035Label     = regexp.MustCompile(`^[a-z]([-a-z0-9]*[a-z0-9])?$`)
)

const (
	msgLabel     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name', or '123-abc')"
	msgSubdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com')"
	msg1035      = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name', or 'abc-123')"
)

// isDNS1123Label returns what is wrong with s as a DNS-1123 label ("" if
// nothing).
func isDNS1123Label(s string) string { return check(s, 63, dns1123Label, msgLabel) }

func isDNS1123Subdomain(s string) string {
	return check(s, 253, dns1123Subdomain, msgSubdomain)
}

func isDNS1035Label(s string) string { return check(s, 63, dns1035Label, msg1035) }

// isPathSegmentName is the rule of RBAC objects: anything but "." and
// "..", without "/" or "%".
func isPathSegmentName(s string) string {
	switch {
	case s == "." || s == "..":
		return fmt.Sprintf("may not be '%s'", s)
	case strings.ContainsAny(s, "/%"):
		return "may not contain '/' or '%'"
	}
	return ""
}

func check(s string, maxLen int, re *regexp.Regexp, msg string) string {
	var problems []string
	if len(s) > maxLen {
		problems = append(problems, fmt.Sprintf("must be no more than %d characters", maxLen))
	}
	if !re.MatchString(s) {
		problems = append(problems, msg)
	}
	return strings.Join(problems, "; ")
}

// nameRule is the name validation the API server applies to a kind.
func nameRule(kind string) func(string) string {
	switch kind {
	case "Namespace":
		return isDNS1123Label
	case "Service":
		return isDNS1035Label
	case "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding":
		return isPathSegmentName
	}
	return isDNS1123Subdomain
}

// ValidateMeta checks an object's metadata.name and metadata.namespace as
// the API server would before storing it (and before drydock builds a path
// from them): both strings, the name valid for its kind (DNS-1123
// subdomain for most kinds, DNS-1123 label for Namespaces, DNS-1035 label
// for Services, path segment for RBAC objects), the namespace a DNS-1123
// label. A value YAML 1.1 read as a boolean (yes, on, ...) is named as
// such. The message uses Kubernetes' wording and carries no position.
func ValidateMeta(obj *manifest.Object) error {
	meta, _ := obj.Data["metadata"].(map[string]any)
	name, ok := meta["name"].(string)
	if !ok {
		return fmt.Errorf("%s: metadata.name: %s", obj.Kind(), notAString(meta["name"]))
	}
	if msg := nameRule(obj.Kind())(name); msg != "" {
		return fmt.Errorf("%s %q: metadata.name: Invalid value: %q: %s", obj.Kind(), name, name, msg)
	}
	ns, present := meta["namespace"]
	if !present || ns == nil {
		return nil
	}
	s, ok := ns.(string)
	if !ok {
		return fmt.Errorf("%s %q: metadata.namespace: %s", obj.Kind(), name, notAString(ns))
	}
	if msg := isDNS1123Label(s); s != "" && msg != "" {
		return fmt.Errorf("%s %q: metadata.namespace: Invalid value: %q: %s", obj.Kind(), name, s, msg)
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
	return isDNS1123Label(name)
}
