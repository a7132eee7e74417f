package manifest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func decodeValue(t *testing.T, src string) map[string]any {
	t.Helper()
	objs, err := Decode("s.yaml", []byte(src), DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return objs[0].Data
}

func TestLabelSelector(t *testing.T) {
	labels := map[string]string{"app": "web", "tier": "gold"}
	tests := []struct {
		name    string
		src     string
		matches bool
		invalid string // substring of Validate's error
	}{
		{"empty matches everything", "s: {}", true, ""},
		{"matchLabels", "s: {matchLabels: {app: web}}", true, ""},
		{"matchLabels mismatch", "s: {matchLabels: {app: api}}", false, ""},
		{"matchLabels missing key", "s: {matchLabels: {env: prod}}", false, ""},
		{"In", "s: {matchExpressions: [{key: tier, operator: In, values: [gold, silver]}]}", true, ""},
		{"In missing key", "s: {matchExpressions: [{key: env, operator: In, values: [prod]}]}", false, ""},
		{"NotIn missing key", "s: {matchExpressions: [{key: env, operator: NotIn, values: [prod]}]}", true, ""},
		{"NotIn listed", "s: {matchExpressions: [{key: app, operator: NotIn, values: [web]}]}", false, ""},
		{"Exists", "s: {matchExpressions: [{key: app, operator: Exists}]}", true, ""},
		{"DoesNotExist", "s: {matchExpressions: [{key: app, operator: DoesNotExist}]}", false, ""},
		{"ANDed", "s: {matchLabels: {app: web}, matchExpressions: [{key: tier, operator: NotIn, values: [gold]}]}", false, ""},
		{"unknown operator", "s: {matchExpressions: [{key: app, operator: Equals, values: [web]}]}", false, `"Equals" is not a valid label selector operator`},
		{"In without values", "s: {matchExpressions: [{key: app, operator: In}]}", false, "values set can't be empty"},
		{"Exists with values", "s: {matchExpressions: [{key: app, operator: Exists, values: [web]}]}", false, "values set must be empty"},
		{"invalid key", "s: {matchExpressions: [{key: 'a b', operator: Exists}]}", false, "name part must consist of"},
		{"invalid value", "s: {matchLabels: {app: 'w b'}}", false, "a valid label must be an empty string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := DecodeLabelSelector(decodeValue(t, tt.src)["s"])
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.matches, s.Matches(labels)); diff != "" {
				t.Errorf("Matches -want +got:\n%s", diff)
			}
			verr := s.Validate()
			if (verr != nil) != (tt.invalid != "") || verr != nil && !strings.Contains(verr.Error(), tt.invalid) {
				t.Errorf("Validate() = %v, want %q", verr, tt.invalid)
			}
		})
	}
	var nilSel *LabelSelector
	if nilSel.Matches(labels) {
		t.Error("a nil selector matched")
	}
}

func TestDecodeLabelSelectorErrors(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{"s: []", `Invalid value: "array": must be of type object`},
		{"s: {matchLabels: {a: 1}}", `matchLabels.a: Invalid value: "integer": must be of type string`},
		{"s: {matchExpressions: [{operator: In}]}", "matchExpressions[0].key: Required value"},
		{"s: {matchExpressions: [{key: a, operator: In, values: [1]}]}", `matchExpressions[0].values[0]: Invalid value: "integer"`},
	}
	for _, tt := range tests {
		_, err := DecodeLabelSelector(decodeValue(t, tt.src)["s"])
		if err == nil || err.Error() != tt.want && !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.src, err, tt.want)
		}
	}
}

func TestValidLabelKeyAndValue(t *testing.T) {
	long := strings.Repeat("a", 64)
	keys := []struct {
		key, want string
	}{
		{"app", ""},
		{"example.com/app", ""},
		{"app.kubernetes.io/name", ""},
		{"A_b-C.d", ""},
		{"", "name part must be non-empty"},
		{"/app", "prefix part must be non-empty"},
		{"Example.com/app", "prefix part a lowercase RFC 1123 subdomain"},
		{"a/b/c", "a qualified name must consist of"},
		{"-app", "name part must consist of"},
		{long, "name part must be no more than 63 bytes"},
		{"bad key", "name part must consist of alphanumeric characters"},
	}
	for _, tt := range keys {
		err := ValidLabelKey(tt.key)
		if (err != nil) != (tt.want != "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ValidLabelKey(%q) = %v, want %q", tt.key, err, tt.want)
		}
	}
	values := []struct {
		value, want string
	}{
		{"", ""},
		{"v1.0_rc-1", ""},
		{"not valid!", "a valid label must be an empty string"},
		{"-x", "a valid label must be an empty string"},
		{long, "must be no more than 63 bytes"},
	}
	for _, tt := range values {
		err := ValidLabelValue(tt.value)
		if (err != nil) != (tt.want != "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ValidLabelValue(%q) = %v, want %q", tt.value, err, tt.want)
		}
	}
}
