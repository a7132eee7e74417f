package manifest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Kubernetes' name rules (k8s.io/apimachinery/pkg/util/validation), with
// its messages.
const (
	dns1123LabelFmt    = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelErrMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1035LabelFmt    = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
)

var (
	dns1123LabelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^" + dns1123LabelFmt + "$") })
	dns1035LabelRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^" + dns1035LabelFmt + "$") })
)

// DNS1123Label returns what is wrong with s as a DNS-1123 label (at most
// 63 characters), in Kubernetes' words; "" if nothing.
func DNS1123Label(s string) string {
	return labelProblems(s, dns1123LabelRe(), func() string { return regexError(dns1123LabelErrMsg, dns1123LabelFmt, "my-name", "123-abc") })
}

// DNS1035Label is DNS1123Label for a DNS-1035 label (starting with a
// letter): Service names.
func DNS1035Label(s string) string {
	return labelProblems(s, dns1035LabelRe(), func() string { return regexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123") })
}

// DNS1123Subdomain is DNS1123Label for a DNS-1123 subdomain (labels joined
// by dots, at most 253 characters): most object names.
func DNS1123Subdomain(s string) string { return strings.Join(dns1123Subdomain(s, "characters"), "; ") }

// KindName returns what is wrong with kind as an object's kind, in the API
// server's words; "" if nothing. A kind is what a CustomResourceDefinition
// may name: apiextensions' ValidateCustomResourceDefinitionNames (and
// ValidateGroupVersionKind) require `IsDNS1035Label(strings.ToLower(kind))`
// and say "may have mixed case, but should otherwise match: <the DNS-1035
// message>". So a kind is a letter, then letters, digits and inner
// hyphens, at most 63 characters: no "/", ".", "_", space or control, which
// would also change the paths of the output tree.
func KindName(kind string) string {
	if kind == "" {
		return "Required value"
	}
	if msg := DNS1035Label(strings.ToLower(kind)); msg != "" {
		return fmt.Sprintf("Invalid value: %q: may have mixed case, but should otherwise match: %s", kind, msg)
	}
	return ""
}

// PathSegmentName is the rule of RBAC object names: anything but "." and
// "..", without "/" or "%".
func PathSegmentName(s string) string {
	switch {
	case s == "." || s == "..":
		return fmt.Sprintf("may not be '%s'", s)
	case strings.ContainsAny(s, "/%"):
		return "may not contain '/' or '%'"
	}
	return ""
}

func labelProblems(s string, re *regexp.Regexp, msg func() string) string {
	var problems []string
	if len(s) > 63 {
		problems = append(problems, "must be no more than 63 characters")
	}
	if !re.MatchString(s) {
		problems = append(problems, msg()) // built only when needed: names are checked on every write
	}
	return strings.Join(problems, "; ")
}

// DidYouMean is a message's hint naming the name nearest to s (Closest)
// in the first of the groups that has one: ` (did you mean "x"?)`, or ""
// when no name is close.
func DidYouMean(s string, groups ...[]string) string {
	for _, names := range groups {
		if best := Closest(s, names); best != "" {
			return fmt.Sprintf(" (did you mean %q?)", best)
		}
	}
	return ""
}

// Closest is the name in names nearest to s by edit distance, when at
// most a third of s (at least two letters, fewer than all) differs: the
// "did you mean" of a message; "" when none is that close. Ties go to the
// first in sorted order.
func Closest(s string, names []string) string {
	sorted := slices.Sorted(slices.Values(names))
	// Not one letter in common is no suggestion ("c" is not "a").
	best, bestD := "", min(max(2, len(s)/3)+1, len(s))
	for _, n := range sorted {
		if d := editDistance(s, n); d < bestD && n != s {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
