package manifest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/drydock-dev/drydock/fieldpath"
)

// FieldError is a problem with one field of a value handed to a decoder in
// this package (or a sibling package's decoder built on it). Path is relative
// to that value (matchExpressions[0].operator), so a caller that knows
// where the value sits in an Object can find the position:
// obj.FieldPos(base.Join(err.Path)).
type FieldError struct {
	Path fieldpath.Path
	Msg  string
}

// Error formats the error as "path: message", the way Kubernetes reports
// field errors.
func (e *FieldError) Error() string {
	if len(e.Path) == 0 {
		return e.Msg
	}
	return e.Path.String() + ": " + e.Msg
}

// Label selector operators (metav1.LabelSelectorOperator).
const (
	OpIn           = "In"
	OpNotIn        = "NotIn"
	OpExists       = "Exists"
	OpDoesNotExist = "DoesNotExist"
)

// LabelSelector is a Kubernetes metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string
	MatchExpressions []LabelSelectorRequirement
}

// LabelSelectorRequirement is one metav1.LabelSelectorRequirement.
type LabelSelectorRequirement struct {
	Key      string
	Operator string
	Values   []string
}

// DecodeLabelSelector reads a label selector from its decoded YAML form (a
// map[string]any). nil decodes to a nil selector. Structural problems (wrong
// types, a requirement without key or operator, which the Kubernetes schema
// requires) are reported as *FieldError; semantic problems (unknown
// operator, invalid key) are not: Validate reports them, and such a selector
// matches nothing.
func DecodeLabelSelector(v any) (*LabelSelector, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, typeError(nil, v, "object")
	}
	if m == nil {
		return nil, nil
	}
	s := &LabelSelector{}
	if raw := m["matchLabels"]; raw != nil {
		labels, err := DecodeStringMap(raw)
		if err != nil {
			return nil, PrefixError(fieldpath.New("matchLabels"), err)
		}
		s.MatchLabels = labels
	}
	if raw := m["matchExpressions"]; raw != nil {
		list, ok := raw.([]any)
		if !ok {
			return nil, typeError(fieldpath.New("matchExpressions"), raw, "array")
		}
		for i, e := range list {
			r, err := decodeRequirement(e)
			if err != nil {
				return nil, PrefixError(fieldpath.New("matchExpressions", i), err)
			}
			s.MatchExpressions = append(s.MatchExpressions, r)
		}
	}
	return s, nil
}

func decodeRequirement(v any) (LabelSelectorRequirement, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return LabelSelectorRequirement{}, typeError(nil, v, "object")
	}
	var r LabelSelectorRequirement
	var err error
	if r.Key, err = RequiredString(m, "key"); err != nil {
		return r, err
	}
	if r.Operator, err = RequiredString(m, "operator"); err != nil {
		return r, err
	}
	if r.Values, err = DecodeStringList(m["values"]); err != nil {
		return r, PrefixError(fieldpath.New("values"), err)
	}
	return r, nil
}

// Validate reports why metav1.LabelSelectorAsSelector would reject the
// selector: an unknown operator, In/NotIn without values, Exists or
// DoesNotExist with values, an invalid label key or value. A nil selector is
// valid (it selects nothing).
func (s *LabelSelector) Validate() error {
	if s == nil {
		return nil
	}
	for _, k := range SortedKeys(s.MatchLabels) {
		if err := validateRequirement(k, OpIn, []string{s.MatchLabels[k]}, fieldpath.New("matchLabels")); err != nil {
			return err
		}
	}
	for i, r := range s.MatchExpressions {
		switch r.Operator {
		case OpIn, OpNotIn, OpExists, OpDoesNotExist:
		default:
			return &FieldError{Path: fieldpath.New("matchExpressions", i, "operator"), Msg: fmt.Sprintf("%q is not a valid label selector operator", r.Operator)}
		}
		if err := validateRequirement(r.Key, r.Operator, r.Values, fieldpath.New("matchExpressions", i)); err != nil {
			return err
		}
	}
	return nil
}

// validateRequirement is labels.NewRequirement's validation.
func validateRequirement(key, op string, values []string, path fieldpath.Path) error {
	if err := ValidLabelKey(key); err != nil {
		return &FieldError{Path: path, Msg: fmt.Sprintf("key: Invalid value: %q: %v", key, err)}
	}
	switch op {
	case OpIn, OpNotIn:
		if len(values) == 0 {
			return &FieldError{Path: path, Msg: "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"}
		}
	case OpExists, OpDoesNotExist:
		if len(values) != 0 {
			return &FieldError{Path: path, Msg: "values: Invalid value: " + quoteList(values) + ": values set must be empty for exists and does not exist"}
		}
	}
	for i, v := range values {
		if err := ValidLabelValue(v); err != nil {
			return &FieldError{Path: path, Msg: fmt.Sprintf("values[%d]: Invalid value: %q: %v", i, v, err)}
		}
	}
	return nil
}

func quoteList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return "[" + strings.Join(q, ",") + "]"
}

// Matches reports whether labels satisfy the selector, as
// metav1.LabelSelectorAsSelector(s).Matches(labels) does: a nil selector
// matches nothing, an empty one everything, and one that Validate rejects
// nothing.
func (s *LabelSelector) Matches(labels map[string]string) bool {
	if s == nil {
		return false
	}
	if s.Validate() != nil {
		return false
	}
	return s.MatchesValidated(labels)
}

// MatchesValidated is Matches for a non-nil selector that Validate
// accepted, without validating it again: for a selector matched against
// many label sets.
func (s *LabelSelector) MatchesValidated(labels map[string]string) bool {
	for k, v := range s.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
		if !r.Matches(labels) {
			return false
		}
	}
	return true
}

// Matches reports whether labels satisfy the requirement (In, NotIn,
// Exists, DoesNotExist; any other operator matches nothing). It does not
// validate: LabelSelector.Matches does that for the whole selector.
func (r LabelSelectorRequirement) Matches(labels map[string]string) bool {
	got, has := labels[r.Key]
	switch r.Operator {
	case OpIn:
		return has && slices.Contains(r.Values, got)
	case OpNotIn:
		return !has || !slices.Contains(r.Values, got)
	case OpExists:
		return has
	case OpDoesNotExist:
		return !has
	}
	return false
}

// StrictStringMap returns the map at keys when every value in it is a
// string, and nil otherwise (unstructured.NestedStringMap's reading, as
// GetLabels and GetAnnotations use it).
func StrictStringMap(m map[string]any, keys ...string) map[string]string {
	mm := Map(m, keys...)
	if mm == nil {
		return nil
	}
	out := make(map[string]string, len(mm))
	for k, v := range mm {
		s, ok := v.(string)
		if !ok {
			return nil
		}
		out[k] = s
	}
	return out
}

// RequiredString returns the string at m[key]; a missing or null value is a
// "Required value" *FieldError and a non-string a type *FieldError.
func RequiredString(m map[string]any, key string) (string, error) {
	v, ok := m[key]
	if !ok || v == nil {
		return "", &FieldError{Path: fieldpath.New(key), Msg: "Required value"}
	}
	s, ok := v.(string)
	if !ok {
		return "", typeError(fieldpath.New(key), v, "string")
	}
	return s, nil
}

// OptionalString returns the string at m[key], "" when missing or null, and
// a type *FieldError for a non-string.
func OptionalString(m map[string]any, key string) (string, error) {
	v := m[key]
	if v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", typeError(fieldpath.New(key), v, "string")
	}
	return s, nil
}

// DecodeStringList reads a list of strings (nil for nil).
func DecodeStringList(v any) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, typeError(nil, v, "array")
	}
	out := make([]string, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, typeError(fieldpath.New(i), e, "string")
		}
		out[i] = s
	}
	return out, nil
}

// DecodeStringMap reads a map of strings (nil for nil).
func DecodeStringMap(v any) (map[string]string, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, typeError(nil, v, "object")
	}
	out := make(map[string]string, len(m))
	for _, k := range SortedKeys(m) {
		s, ok := m[k].(string)
		if !ok {
			return nil, typeError(fieldpath.New(k), m[k], "string")
		}
		out[k] = s
	}
	return out, nil
}

// TypeName names the JSON type of a decoded value the way Kubernetes schema
// errors do: string, integer, number, boolean, object, array or null.
func TypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case int64, int:
		return "integer"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return fmt.Sprintf("%T", v)
}

// JSONKind is the word encoding/json uses in its errors for the JSON type
// of v ("object", "array", "string", "bool", "number", "null").
func JSONKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case int64, int, float64:
		return "number"
	}
	return TypeName(v)
}

func typeError(path fieldpath.Path, v any, want string) *FieldError {
	return &FieldError{Path: path, Msg: fmt.Sprintf("Invalid value: %q: must be of type %s", TypeName(v), want)}
}

// PrefixError puts prefix in front of the path of a *FieldError, leaving
// other errors alone. It lets decoders that nest other decoders report the
// full relative path.
func PrefixError(prefix fieldpath.Path, err error) error {
	fe, ok := err.(*FieldError)
	if !ok {
		return err
	}
	return &FieldError{Path: prefix.Join(fe.Path), Msg: fe.Msg}
}

const (
	qualifiedNameMaxLength = 63
	labelValueMaxLength    = 63
	dns1123SubdomainMax    = 253
	qualifiedNameErrMsg    = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	qualifiedNameFmt       = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueErrMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt          = "(" + qualifiedNameFmt + ")?"
	dns1123SubdomainErrMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1123SubdomainFmt    = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
)

// ValidLabelKey checks a label key (or annotation key) with Kubernetes'
// IsQualifiedName rules (apimachinery v0.36 wording, as Karmada f8fdd02): an optional DNS-1123 subdomain prefix and '/', then
// a name of at most 63 alphanumeric, '-', '_' or '.' characters that starts
// and ends alphanumeric. The error carries Kubernetes' messages, joined with
// "; ".
func ValidLabelKey(key string) error {
	var errs []string
	name := key
	switch parts := strings.Split(key, "/"); len(parts) {
	case 1:
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, msg := range dns1123Subdomain(prefix, "bytes") {
				errs = append(errs, "prefix part "+msg)
			}
		}
	default:
		return fmt.Errorf("a qualified name %s with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
			regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > qualifiedNameMaxLength {
		errs = append(errs, fmt.Sprintf("name part must be no more than %d bytes", qualifiedNameMaxLength))
	}
	if !isQualifiedNamePart(name) {
		errs = append(errs, "name part "+regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return joinErrs(errs)
}

// ValidLabelValue checks a label value with Kubernetes' IsValidLabelValue
// rules: empty, or at most 63 alphanumeric, '-', '_' or '.' characters that
// start and end alphanumeric.
func ValidLabelValue(value string) error {
	var errs []string
	if len(value) > labelValueMaxLength {
		errs = append(errs, fmt.Sprintf("must be no more than %d bytes", labelValueMaxLength))
	}
	if value != "" && !isQualifiedNamePart(value) {
		errs = append(errs, regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return joinErrs(errs)
}

func joinErrs(errs []string) error {
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(errs, "; "))
}

func regexError(msg, format string, examples ...string) string {
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + format + "')"
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isQualifiedNamePart matches ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9].
func isQualifiedNamePart(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// dns1123Subdomain is Kubernetes' IsDNS1123Subdomain; unit is how the
// length limit is worded: "characters" for object names
// (util/validation), "bytes" inside label keys (api/validate/content, as
// of apimachinery v0.36).
func dns1123Subdomain(s, unit string) []string {
	var errs []string
	if len(s) > dns1123SubdomainMax {
		errs = append(errs, fmt.Sprintf("must be no more than %d %s", dns1123SubdomainMax, unit))
	}
	if !isDNS1123Subdomain(s) {
		errs = append(errs, regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// isDNS1123Subdomain matches dot-separated labels of [a-z0-9-] that start
// and end alphanumeric.
func isDNS1123Subdomain(s string) bool {
	for _, label := range strings.Split(s, ".") {
		if label == "" {
			return false
		}
		lower := func(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
		if !lower(label[0]) || !lower(label[len(label)-1]) {
			return false
		}
		for i := 0; i < len(label); i++ {
			if !lower(label[i]) && label[i] != '-' {
				return false
			}
		}
	}
	return true
}
